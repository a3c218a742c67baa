/**
 * The Claude planner through the real chat turn: the real SDK against the fake Messages API
 * (real HTTP, real SSE), the real policy gate, tool registry and backend on PGlite. The model is
 * scripted per test; what is checked is what the app does with what the model says.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Assistant, type TurnRecord } from '../../../../src/main/assistant/assistant.js';
import { ClaudeBrain } from '../../../../src/main/assistant/claude/brain.js';
import { CALL_DEADLINE_MS, IDLE_TIMEOUT_MS, MAX_MODEL_CALLS, attemptWindow } from '../../../../src/main/assistant/claude/claude-turn.js';
import { backoffMs } from '../../../../src/main/assistant/claude/failures.js';
import { MAX_CALLS_PER_TURN } from '../../../../src/main/assistant/policy/gate.js';
import { RateLimiter } from '../../../../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../../../../src/main/assistant/history.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import type { Planner } from '../../../../src/main/assistant/planner/types.js';
import { AuditLog } from '../../../../src/main/audit/audit-log.js';
import type { BackendClient } from '../../../../src/main/backend/connection.js';
import { NonceStore } from '../../../../src/main/confirm/nonce-store.js';
import { sessionStore } from '../../../../src/main/secrets/secret-store.js';
import { createToolRegistry } from '../../../../src/main/tools/registry.js';
import { silentLogger } from '../../../../src/infra/log.js';
import type { User } from '../../../../src/shared/contracts/agent-api.js';
import type { Card } from '../../../../src/shared/contracts/assistant.js';
import { type ChatTurnInput, type TurnEvent, turnEventSchema } from '../../../../src/shared/contracts/chat.js';
import { formatPoints } from '../../../../src/shared/money.js';
import { DEFAULT_FAKE_KEY, type FakeMessagesApi, type MessagesRequestBody, startFakeMessagesApi, textReply, toolUseReply, withThinking } from '../../../fakes/messages-api.js';
import { type TestBackend, accountId, databaseFingerprint, startTestBackend } from '../../../helpers/backend.js';

let backend: TestBackend;
let api: BackendClient;
let user: User;
let fake: FakeMessagesApi;
let dir: string;

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  api = backend.client(await backend.login('priya'));
  user = await api.auth.me.query();
  fake = await startFakeMessagesApi();
  dir = await mkdtemp(join(tmpdir(), 'claude-planner-'));
});
afterAll(async () => {
  await fake.close();
  await backend.close();
});
beforeEach(() => {
  fake.clear();
  fake.respond(null);
  fake.requests.length = 0;
});

/** The rule planner, made unsure: every turn goes to the model (what the fast path would skip). */
const unsure = (confidence = 0.7): Planner => {
  const rules = new RulePlanner();
  return { name: 'rules', plan: async (input) => ({ ...(await rules.plan(input)), confidence }) };
};

async function desk(options: { planner?: Planner; key?: boolean; idleTimeoutMs?: number; callDeadlineMs?: number; settings?: Parameters<ClaudeBrain['update']>[0] } = {}) {
  const secrets = sessionStore();
  if (options.key !== false) await secrets.set(DEFAULT_FAKE_KEY);
  const registry = createToolRegistry();
  const brain = new ClaudeBrain({
    secrets: { read: [secrets], write: secrets, writeNote: '' }, dataDir: await mkdtemp(join(dir, 'd-')), env: { ANTHROPIC_BASE_URL: fake.url },
    registry, log: silentLogger, idleTimeoutMs: options.idleTimeoutMs ?? 5_000, random: () => 0,
    ...(options.callDeadlineMs !== undefined && { callDeadlineMs: options.callDeadlineMs }),
  });
  if (options.settings) await brain.update(options.settings, user.timezone);
  const records: TurnRecord[] = [];
  const assistant = new Assistant({
    registry, planners: [options.planner ?? unsure()], claude: brain, history: new MemoryChatHistory(), nonces: new NonceStore(),
    audit: new AuditLog(join(dir, `audit-${Math.random()}.jsonl`)), limiter: new RateLimiter({ limit: 1000 }), log: silentLogger, onTurn: (r) => records.push(r),
  });
  return { assistant, brain, records };
}

async function run(a: Assistant, text: string | ChatTurnInput, onEvent?: (e: TurnEvent) => void) {
  const events: TurnEvent[] = [];
  const input: ChatTurnInput = typeof text === 'string' ? { kind: 'message', text, page: { path: '/agent/dashboard', query: {} } } : text;
  for await (const event of a.turn(input, { user, api })) {
    events.push(turnEventSchema.parse(event));
    onEvent?.(event);
  }
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('a turn ends with done');
  return { events, message: done.message, streamed: events.filter((e) => e.type === 'text').map((e) => e.delta).join('') };
}

const cardOf = <T extends Card['type']>(cards: Card[], type: T) => cards.find((c): c is Extract<Card, { type: T }> => c.type === type);
const messageRequests = () => fake.requests.filter((r) => r.path === '/v1/messages' && r.body).map((r) => r.body!);
const assistantBlocks = (body: MessagesRequestBody) => body.messages.filter((m) => m.role === 'assistant').flatMap((m) => (Array.isArray(m.content) ? m.content : []) as Array<Record<string, unknown>>);
const toolResults = (body: MessagesRequestBody) => body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
  .filter((b): b is { type: 'tool_result'; is_error?: boolean; content: string } => (b as { type?: string }).type === 'tool_result');

describe('a read answered by Claude', () => {
  it('offers the role\'s tools in planner form, resolves the name through the gate, streams prose that passes the number guard, and records usage', async () => {
    const { assistant, brain, records } = await desk();
    const karan = await accountId(backend, 'karan');
    const { rows } = await api.agent.getTake.query({ playerId: karan });
    const take = rows[0]!.take;
    const words = take > 0 ? `Karan owes you ${formatPoints(take)}.` : `You owe Karan ${formatPoints(-take)}.`;
    fake.script(toolUseReply('agent_getTake', { player: 'Karan Malhotra' }, 'Let me check.'), textReply(`${words} That is all for now.`, { chunkChars: 5 }));

    const { events, message, streamed } = await run(assistant, 'karan ka hisaab batao');
    const [first, second] = messageRequests();
    const tools = (first!.tools as Array<{ name: string; input_schema: { properties: Record<string, unknown> }; cache_control?: unknown }>);
    expect(tools.map((t) => t.name)).toContain('agent_getTake');
    expect(tools.find((t) => t.name === 'agent_getTake')!.input_schema.properties).toHaveProperty('player');
    expect(tools.find((t) => t.name === 'agent_getTake')!.input_schema.properties).not.toHaveProperty('playerId');
    expect(tools.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect((first!.system as Array<{ cache_control?: unknown }>)[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(first!.model).toBe('claude-haiku-5-5');
    // The gate put the id in; the model's result holds the app's own sentence and the data.
    expect(records[0]!.calls).toEqual([{ tool: 'agent.getTake', args: { playerId: karan } }]);
    expect(toolResults(second!)[0]!.content).toContain('<data>');
    expect(cardOf(message.cards, 'take_table')!.data).toMatchObject({ rows });
    expect(message.text).toBe(`Let me check. ${words} That is all for now.`);
    // Streamed before `done`, a sentence at a time, and the card before the prose that follows it.
    expect(streamed.trim()).toBe(message.text);
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThanOrEqual(3);
    expect(events.findIndex((e) => e.type === 'card')).toBeLessThan(events.findLastIndex((e) => e.type === 'text'));
    expect(message.planner).toBe('claude');
    expect(message.usage).toMatchObject({ calls: 2, models: ['claude-haiku-5-5'] });
    expect(message.usage!.inputTokens + message.usage!.cacheWriteTokens + message.usage!.cacheReadTokens).toBeGreaterThan(0);
    expect(message.usage!.costMicroUsd).toBeGreaterThan(0);
    const view = await brain.view(user.timezone);
    expect(view.usageToday).toMatchObject({ turns: 1, costMicroUsd: message.usage!.costMicroUsd });
    // The key is never part of a prompt.
    expect(JSON.stringify(messageRequests())).not.toContain(DEFAULT_FAKE_KEY);
  });

  it('drops a sentence whose figure no tool result holds, and keeps the rest', async () => {
    const { assistant, records } = await desk();
    fake.script(toolUseReply('agent_getDownline', {}), textReply('Here is your downline. Your book made 987,654.32 this year. Ask me for any player.'));
    const { message } = await run(assistant, 'downline dikhao');
    expect(message.text).toBe('Here is your downline. Ask me for any player.');
    expect(records[0]!.flaggedFigures).toContain('987,654.32');
    expect(cardOf(message.cards, 'downline_tree')).toBeDefined();
  });

  it('keeps the fast path: a confident offline plan makes no model call', async () => {
    const { assistant, records } = await desk({ planner: new RulePlanner() });
    const { message } = await run(assistant, 'show my downline');
    expect(messageRequests()).toHaveLength(0);
    expect(records[0]!.planner).toBe('rules');
    expect(message.usage).toBeUndefined();
  });

  it('answers offline without a key, with no call', async () => {
    const { assistant } = await desk({ key: false });
    await run(assistant, 'show my downline');
    expect(fake.requests).toHaveLength(0);
  });

  it('keeps a conversation on the model it started on for its reads, however unsure, so its cache is read; a change goes to the strong model', async () => {
    const rules = new RulePlanner();
    // The second message is planned below the strong model's bar, as "which players need attention" is.
    const planner: Planner = { name: 'rules', plan: async (input) => ({ ...(await rules.plan(input)), confidence: input.text.includes('attention') ? 0.5 : 0.7 }) };
    const { assistant } = await desk({ planner });
    fake.respond(() => textReply('Nothing to report.'));
    await run(assistant, 'how is my downline doing');
    const second = await run(assistant, 'which players need attention');
    await run(assistant, 'karan ki limit 60k kar do');
    expect(messageRequests().map((b) => b.model)).toEqual(['claude-haiku-5-5', 'claude-haiku-5-5', 'claude-sonnet-5-5']);
    const u = second.message.usage!;
    expect(u.cacheReadTokens / (u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens)).toBeGreaterThanOrEqual(0.8);
    // A conversation that starts unsure starts on the strong model.
    const fresh = await desk({ planner });
    await run(fresh.assistant, 'which players need attention');
    expect(messageRequests().at(-1)!.model).toBe('claude-sonnet-5-5');
  });

  it('reads the cache from the second turn on: the tools and the rules are the same prefix', async () => {
    const { assistant } = await desk();
    fake.respond(() => textReply('Nothing to report.'));
    const first = await run(assistant, 'kuch batao');
    const second = await run(assistant, 'aur kuch?');
    expect(first.message.usage!.cacheWriteTokens).toBeGreaterThan(0);
    const u = second.message.usage!;
    expect(u.cacheReadTokens / (u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens)).toBeGreaterThanOrEqual(0.8);
    // The earlier exchange is in the second prompt.
    expect(JSON.stringify(messageRequests()[1]!.messages)).toContain('kuch batao');
  });
});

describe('changes planned by Claude', () => {
  it('turns a destructive tool_use into the same preview and nonce as the offline path, never executing it, and ends the turn', async () => {
    const { assistant, records } = await desk();
    const before = await databaseFingerprint(backend);
    fake.script(toolUseReply('agent_editLimit', { player: 'Karan Malhotra', limitType: 'creditLimit', newValue: 6_000_000 }, 'Preparing the change.'));
    const { message } = await run(assistant, 'karan ki limit 60k kar do');
    const diff = cardOf(message.cards, 'diff_card')!;
    expect(diff.data).toMatchObject({ after: 6_000_000 });
    expect(diff.actions?.find((a) => a.id === 'confirm')?.nonce).toBeTruthy();
    expect(messageRequests()).toHaveLength(1);
    expect(records[0]!.planner).toBe('claude');
    // Proposals are planned by the strong model.
    expect(messageRequests()[0]!.model).toBe('claude-sonnet-5-5');
    expect(await databaseFingerprint(backend)).toBe(before);
  });

  it('voids the earlier proposal for the same change when the model proposes it again: only the newest can be confirmed', async () => {
    const { assistant } = await desk();
    fake.script(
      toolUseReply('agent_editLimit', { player: 'Karan Malhotra', limitType: 'creditLimit', newValue: 6_000_000 }),
      toolUseReply('agent_editLimit', { player: 'Karan Malhotra', limitType: 'creditLimit', newValue: 3_000_000 }),
    );
    const first = cardOf((await run(assistant, 'karan ki limit 60k kar do')).message.cards, 'diff_card')!.actions!.find((a) => a.id === 'confirm')!;
    const second = cardOf((await run(assistant, 'nahi, 30k kar do')).message.cards, 'diff_card')!;
    expect(second.data).toMatchObject({ after: 3_000_000 });
    const stale = await assistant.confirm({ nonce: first.nonce!, payloadHash: first.payloadHash! }, { user, api });
    expect(stale.resolves?.state).not.toBe('confirmed');
    expect(JSON.stringify(messageRequests()[1]!.messages)).toContain('karan ki limit 60k kar do');
  });

  it('never proposes a change for a question, whatever the model asks for', async () => {
    const { assistant } = await desk();
    const before = await databaseFingerprint(backend);
    fake.script(
      toolUseReply('agent_settlePlayer', { player: 'Karan Malhotra', mode: 'auto' }),
      toolUseReply('agent_getSettlementHistory', { player: 'Karan Malhotra' }),
      textReply('Here are the settlements with Karan.'),
    );
    const { message } = await run(assistant, 'has karan paid?');
    expect(message.cards.some((c) => c.type === 'settlement_summary' || c.type === 'diff_card')).toBe(false);
    expect(toolResults(messageRequests()[1]!)[0]).toMatchObject({ is_error: true });
    expect(await databaseFingerprint(backend)).toBe(before);
  });

  it('shows a picker when the model names a player that several match, and the pick completes the read', async () => {
    const { assistant } = await desk();
    fake.script(toolUseReply('agent_getCreditLimit', { player: 'Rahul' }));
    const { message } = await run(assistant, 'rahul ka CL?');
    const picker = cardOf(message.cards, 'player_picker')!;
    expect(picker.data.players.length).toBeGreaterThan(1);
    const verma = picker.data.players.find((p) => p.name === 'Rahul Verma')!;
    const picked = await run(assistant, { kind: 'pick', requestId: message.requestId, candidateId: verma.id });
    expect(cardOf(picked.message.cards, 'take_table')!.data).toMatchObject({ rows: [expect.objectContaining({ accountId: verma.id })] });
  });
});

describe('when Claude fails', () => {
  it('sends invalid arguments back once as is_error, and on the second failure answers offline and says so', async () => {
    const { assistant, records } = await desk();
    fake.script(toolUseReply('agent_getPnL', { from: 'yesterday-ish' }), toolUseReply('agent_getPnL', { from: 'last-ish' }));
    const { message } = await run(assistant, 'pnl today');
    expect(toolResults(messageRequests()[1]!)[0]).toMatchObject({ is_error: true });
    expect(message.text).toMatch(/^Claude could not form a valid request, so I answered offline\./);
    expect(cardOf(message.cards, 'pnl_table')).toBeDefined();
    expect(records[0]!.fallback).toBeTruthy();
  });

  it('stops a model that keeps asking for what it cannot have, and answers offline', async () => {
    const { assistant } = await desk();
    fake.respond(() => toolUseReply('agent_deleteEverything', {}));
    const { message } = await run(assistant, 'show my downline');
    expect(messageRequests()).toHaveLength(MAX_MODEL_CALLS);
    expect(message.text).toMatch(/^Claude went round without answering, so I answered offline\./);
    expect(cardOf(message.cards, 'downline_tree')).toBeDefined();
  });

  it('retries a 429 after its retry-after, a 529 and an error event mid-stream, then answers', async () => {
    const { assistant } = await desk();
    fake.script({ kind: 'http_error', status: 429, retryAfterMs: 20 }, { kind: 'http_error', status: 529 }, textReply('All good.'));
    expect((await run(assistant, 'status?')).message.text).toBe('All good.');
    fake.script({ kind: 'stream_error', textBefore: 'Partial' }, textReply('Recovered.'));
    expect((await run(assistant, 'status again?')).message.text).toBe('Recovered.');
    fake.script({ kind: 'drop', textBefore: 'Cut' }, textReply('Back.'));
    expect((await run(assistant, 'and now?')).message.text).toBe('Back.');
  });

  it('does not wait out a long retry-after: the offline planner answers at once', async () => {
    const { assistant } = await desk();
    fake.script({ kind: 'http_error', status: 429, retryAfterSeconds: 120 });
    const started = Date.now();
    const { message } = await run(assistant, 'show my downline');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(message.text).toMatch(/^Claude is rate-limiting this key \(try again in 120 s\), so I answered offline\./);
    expect(cardOf(message.cards, 'downline_tree')).toBeDefined();
  });

  it('answers offline after repeated overloads, and after a model that never answers', async () => {
    const { assistant } = await desk({ idleTimeoutMs: 150 });
    fake.script({ kind: 'http_error', status: 529 }, { kind: 'http_error', status: 529 }, { kind: 'http_error', status: 529 });
    expect((await run(assistant, 'show my downline')).message.text).toMatch(/^Claude is overloaded, so I answered offline\./);
    fake.script({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    expect((await run(assistant, 'show my downline')).message.text).toMatch(/^Claude did not answer in time, so I answered offline\./);
  });

  it('keeps the budgets: tokens per turn, then cost per day', async () => {
    const tight = await desk({ settings: { maxTokensPerTurn: 1_000 } });
    fake.respond(() => toolUseReply('agent_getDownline', {}));
    const { message } = await run(tight.assistant, 'what is going on');
    expect(message.text).toMatch(/this turn reached its budget of 1000 tokens, so I answered offline\./i);
    const poor = await desk({ settings: { maxCostPerDayMicroUsd: 1 } });
    fake.respond(() => textReply('Spent.'));
    await run(poor.assistant, 'anything new');
    const requests = messageRequests().length;
    const after = await run(poor.assistant, 'show my downline');
    expect(messageRequests()).toHaveLength(requests);
    expect(after.message.text).toMatch(/^Today's Claude budget of <\$0\.0001 is used up, so I answered offline\./);
  });
});

describe('a real model\'s response shapes', () => {
  it('asks each model with adaptive thinking, its effort and room to think, and nothing a model it does not know might refuse', async () => {
    const { assistant } = await desk();
    fake.respond(() => textReply('Nothing to report.'));
    await run(assistant, 'aaj ka haal batao');
    await run(assistant, 'karan ki limit 60k kar do');
    const [fast, strong] = messageRequests();
    expect(fast).toMatchObject({ model: 'claude-haiku-5-5', thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'low' } });
    expect(strong).toMatchObject({ model: 'claude-sonnet-5-5', thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'medium' } });
    expect(fast!.max_tokens).toBeGreaterThanOrEqual(8_000);
    expect(strong!.max_tokens).toBeGreaterThanOrEqual(16_000);
    const other = await desk({ settings: { fastModel: 'claude-haiku-4-5' } });
    await run(other.assistant, 'kuch aur batao');
    const old = messageRequests().at(-1)!;
    expect(old.model).toBe('claude-haiku-4-5');
    expect(old).not.toHaveProperty('thinking');
    expect(old).not.toHaveProperty('output_config');
  });

  it('passes thinking blocks back unchanged within the turn\'s tool loop, and never into a later turn', async () => {
    const { assistant } = await desk();
    fake.script(
      withThinking(toolUseReply('agent_getDownline', {}), 'The user wants the downline.'),
      { kind: 'message', content: [{ type: 'redacted_thinking' }, { type: 'text', text: 'Here is your downline.' }] },
      textReply('Nothing else.'),
    );
    const { message } = await run(assistant, 'downline dikhao');
    expect(message.text).toBe('Here is your downline.');
    const [, second] = messageRequests();
    expect(assistantBlocks(second!)[0]).toMatchObject({ type: 'thinking', thinking: 'The user wants the downline.', signature: expect.stringMatching(/^fake-sig-/) });
    await run(assistant, 'aur kuch?');
    expect(assistantBlocks(messageRequests()[2]!).map((b) => b['type'])).not.toContain('thinking');
  });

  it('never runs a tool call cut off by max_tokens: the call is made again with more room, once', async () => {
    const { assistant, records } = await desk();
    const karan = await accountId(backend, 'karan');
    const input = { player: 'Karan Malhotra' };
    fake.script(
      { kind: 'message', content: [{ type: 'thinking', thinking: 'Karan.' }, { type: 'tool_use', name: 'agent_getTake', input }], cutAfterChars: 'Karan.'.length + 14 },
      toolUseReply('agent_getTake', input),
      textReply('That is his take.'),
    );
    const { message } = await run(assistant, 'karan ka hisaab batao');
    const [cut, again, answer] = messageRequests();
    expect(again!.max_tokens).toBeGreaterThan(cut!.max_tokens);
    expect(again!.messages).toEqual(cut!.messages.map((m) => m));
    expect(toolResults(again!)).toHaveLength(0);
    expect(records[0]!.calls).toEqual([{ tool: 'agent.getTake', args: { playerId: karan } }]);
    expect(toolResults(answer!)).toHaveLength(1);
    expect(message.text).toBe('That is his take.');
  });

  it('gives a reply that spent its room on thinking a second try, then answers offline with the reason', async () => {
    const { assistant } = await desk();
    const thinkingOnly = { kind: 'message' as const, content: [{ type: 'thinking' as const, thinking: 'Let me think about this at great length.' }, { type: 'text' as const, text: 'Never said.' }], cutAfterChars: 20 };
    fake.script(thinkingOnly, textReply('Your book is quiet today.'));
    expect((await run(assistant, 'kya chal raha hai')).message.text).toBe('Your book is quiet today.');
    fake.script(thinkingOnly, thinkingOnly);
    const { message } = await run(assistant, 'show my downline');
    expect(message.text).toMatch(/^Claude's answer was cut off, so I answered offline\./);
    expect(message.text).not.toContain('no answer');
    expect(cardOf(message.cards, 'downline_tree')).toBeDefined();
  });

  it('never shows text cut off mid-word: the sentences shown stand and the offline planner answers', async () => {
    const { assistant } = await desk();
    fake.script({ kind: 'message', content: [{ type: 'text', text: 'Your downline is below. It has three sub-agents and twelve players.' }], cutAfterChars: 40 });
    const { message, streamed } = await run(assistant, 'show my downline');
    expect(streamed).not.toContain('It has th');
    expect(message.text).not.toContain('It has th');
    expect(message.text).toMatch(/^Your downline is below\. Claude's answer was cut off, so I answered offline\./);
    expect(cardOf(message.cards, 'downline_tree')).toBeDefined();
  });

  it('answers a refusal offline, saying Claude declined, and shows none of its words', async () => {
    const { assistant, records } = await desk();
    fake.script({ kind: 'message', content: [{ type: 'text', text: 'I can' }], stopReason: 'refusal', stopDetails: { category: 'general_harms', explanation: null } });
    const { message } = await run(assistant, 'show my downline');
    expect(message.text).toMatch(/^Claude declined to answer this, so I answered offline\./);
    expect(message.text).not.toContain('I can');
    expect(cardOf(message.cards, 'downline_tree')).toBeDefined();
    expect(records[0]!.fallback).toBe('Claude declined to answer this');
  });

  it('continues a paused turn by sending the assistant content back as it came', async () => {
    const { assistant } = await desk();
    fake.script(
      withThinking({ kind: 'message', content: [{ type: 'text', text: 'Looking at the book. ' }], stopReason: 'pause_turn' }, 'Still going.'),
      textReply('Nothing is open.'),
    );
    const { message } = await run(assistant, 'kuch open hai?');
    expect(message.text).toBe('Looking at the book. Nothing is open.');
    const [, second] = messageRequests();
    expect(second!.messages.at(-1)!.role).toBe('assistant');
    expect(assistantBlocks(second!)[0]).toMatchObject({ type: 'thinking', thinking: 'Still going.' });
  });
});

describe('a model that misbehaves mid-turn', () => {
  it('gives up on a hung API within the call\'s deadline, retrying only while the deadline allows', async () => {
    const { assistant } = await desk({ idleTimeoutMs: 200, callDeadlineMs: 550 });
    fake.script({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const { message } = await run(assistant, 'show my downline');
    expect(message.text).toMatch(/^Claude did not answer in time, so I answered offline\./);
    expect(messageRequests()).toHaveLength(2);
  });

  it('waits at most 8 s for a first event and reaches the offline answer within 15 s of Enter when the API hangs', () => {
    // The real timings, played out: every attempt waits its whole window and fails, with the largest backoff.
    let elapsed = 0;
    for (let attempt = 0; ; attempt++) {
      const window = attemptWindow(elapsed, IDLE_TIMEOUT_MS, CALL_DEADLINE_MS);
      if (window === null) break;
      expect(window).toBeLessThanOrEqual(8_000);
      elapsed += window + backoffMs(attempt, () => 1);
    }
    expect(elapsed).toBeLessThanOrEqual(15_000);
  });

  it('retries a stream that opens and goes silent', async () => {
    const { assistant } = await desk({ idleTimeoutMs: 200 });
    fake.script({ kind: 'idle' }, textReply('Back.'));
    expect((await run(assistant, 'status?')).message.text).toBe('Back.');
    expect(messageRequests()).toHaveLength(2);
  });

  it('shows one card per result when the answer fails after its text was shown: no offline re-run of the same read', async () => {
    const { assistant, records } = await desk();
    fake.script(toolUseReply('agent_getDownline', {}), { kind: 'stream_error', errorType: 'api_error', textBefore: 'Here is your downline. It has' });
    const { message } = await run(assistant, 'downline dikhao');
    expect(message.cards.filter((c) => c.type === 'downline_tree')).toHaveLength(1);
    expect(message.text).toBe("Here is your downline. Claude's answer broke off; the cards above are what it found.");
    expect(message.text).not.toContain('It has');
    expect(records[0]!.calls).toHaveLength(1);
  });

  it('runs a call the model repeats only once a turn, and caps a runaway loop without adding an offline table', async () => {
    const { assistant, records } = await desk();
    fake.script(toolUseReply('agent_getDownline', { depth: 2 }), toolUseReply('agent_getDownline', { depth: 2 }), textReply('Done.'));
    const { message } = await run(assistant, 'downline dikhao');
    expect(message.cards.filter((c) => c.type === 'downline_tree')).toHaveLength(1);
    expect(records[0]!.calls).toHaveLength(1);
    expect(toolResults(messageRequests()[2]!).at(-1)!.content).toMatch(/already/i);

    fake.requests.length = 0;
    fake.respond((_, i) => toolUseReply('agent_getDownline', { depth: (i % 10) + 1 }));
    const runaway = await run(assistant, 'downline dikhao phir se');
    expect(runaway.message.cards.filter((c) => c.type === 'downline_tree').length).toBeLessThanOrEqual(MAX_CALLS_PER_TURN);
    expect(records[1]!.calls.length).toBeLessThanOrEqual(MAX_CALLS_PER_TURN);
  });
});

describe('stopping', () => {
  it('ends a streaming answer with what had arrived, marked stopped', async () => {
    const { assistant } = await desk();
    fake.script(textReply('One sentence here. Another sentence follows. '.repeat(40), { chunkChars: 8, delayMs: 5 }));
    let requestId = '';
    const { message } = await run(assistant, 'tell me a long story', (e) => {
      if (e.type === 'start') requestId = e.requestId;
      if (e.type === 'text' && requestId) assistant.stop(requestId, user);
    });
    expect(message.stopped).toBe(true);
    expect(message.text.length).toBeGreaterThan(0);
    expect(message.text.length).toBeLessThan('One sentence here. Another sentence follows. '.repeat(40).trim().length);
  });

  it('refuses to stop another user\'s turn', async () => {
    const { assistant } = await desk();
    expect(assistant.stop('no-such-turn', user)).toBe(false);
  });
});

describe('the fast path never hides Claude behind a confident wrong plan', () => {
  it('sends a polite request for a summary of the book\'s take to Claude, never answering "no player called …" offline', async () => {
    const { assistant, records } = await desk({ planner: new RulePlanner() });
    for (const text of ['Please summarise the book\'s take for me', 'Could you please give me a summary of the book\'s take?']) {
      fake.script(toolUseReply('agent_getTake', {}), textReply('Here is the take across your book.'));
      const { message } = await run(assistant, text);
      expect(records.at(-1)!.planner).toBe('claude');
      expect(message.text).not.toMatch(/couldn't find a player/i);
      expect(cardOf(message.cards, 'take_table')).toBeDefined();
    }
  });

  it('sends an order to double a limit, worded so the rules read only the limit, to the strong model as an order: it asks the amount, never answers with a read', async () => {
    const { assistant, records } = await desk({ planner: new RulePlanner() });
    const karan = await accountId(backend, 'karan');
    const { rows } = await api.agent.getCreditLimit.query({ playerId: karan });
    fake.script(
      toolUseReply('agent_editLimit', { player: 'Karan Malhotra', limitType: 'creditLimit', newValue: rows[0]!.creditLimit * 2 }),
      textReply('What should Karan\'s new credit limit be? Type the amount and I will prepare the change.'),
    );
    const { message } = await run(assistant, 'I want Karan Malhotra\'s CL doubled');
    expect(records[0]!.planner).toBe('claude');
    expect(messageRequests()[0]!.model).toBe('claude-sonnet-5-5');
    // Taken as an order: the change is held only to the amount rule (a change's amount is one the user typed).
    expect(records[0]!.notes).toContain('refused agent.editLimit: an amount the user did not type');
    expect(message.cards).toEqual([]);
    expect(message.text).toMatch(/new credit limit/);
  });

  it('takes "share the pnl report with X" as the order it is: Claude\'s share proposal stands', async () => {
    const { assistant, records } = await desk({ planner: new RulePlanner() });
    // A report made and finished before the turn: what is checked is the share, not how long a report takes.
    let report = await api.reports.generate.mutate({ template: 'per_player_pnl', format: 'xlsx', filters: {} });
    for (let i = 0; i < 400 && report.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      report = await api.reports.get.query({ artifactId: report.artifactId });
    }
    fake.script(toolUseReply('agent_shareReport', { artifactId: report.artifactId, player: 'Arjun Mehta' }));
    const { message } = await run(assistant, 'share the pnl report with Arjun Mehta');
    expect(records[0]!.planner).toBe('claude');
    expect(records[0]!.notes.filter((n) => n.startsWith('refused'))).toEqual([]);
    const share = cardOf(message.cards, 'report_share')!;
    expect(share.data).toMatchObject({ recipientName: 'Arjun Mehta' });
    expect(share.actions?.find((a) => a.id === 'confirm')?.nonce).toBeTruthy();
  });
});
