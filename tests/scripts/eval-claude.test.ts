/**
 * `npm run eval -- FILE --planner claude`: the eval with Claude behind the rule planner, against
 * the fake Messages API standing in for the real one. A run recorded through the proxy replays
 * offline to the same results, and the summary line adds up the turns' own records.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CaseResult, type EvalCase, claudeEndpoint, formatClaudeSummary, parseCases, runEval, summarizeClaude } from '../../scripts/eval-harness.js';
import type { TurnRecord } from '../../src/main/assistant/assistant.js';
import { RulePlanner } from '../../src/main/assistant/planner/rule-planner.js';
import { cacheReadShare } from '../../src/main/assistant/claude/prices.js';
import { formatMicroUsd } from '../../src/shared/usd.js';
import { type FakeMessagesApi, type MessagesRequestBody, type Responder, startFakeMessagesApi, textReply, toolUseReply } from '../fakes/messages-api.js';
import { testBookSnapshot } from '../helpers/backend.js';

// Not the fake's default key: the files must not hold the one that was really used.
const SECRET = 'sk-ant-upstream-secret-7f3a9c2e1b5d';

const golden = parseCases(await readFile(new URL('../fixtures/golden.jsonl', import.meta.url), 'utf8'));
const pick = (...ids: string[]): EvalCase[] => ids.map((id) => {
  const found = golden.find((c) => c.id === id);
  if (!found) throw new Error(`no golden case ${id}`);
  return found;
});

const lastUserText = (body: MessagesRequestBody): string => {
  const content = body.messages.at(-1)?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((b) => (b as { text?: string }).text ?? '').join('') : '';
};
const afterToolResult = (body: MessagesRequestBody): boolean => {
  const content = body.messages.at(-1)?.content;
  return Array.isArray(content) && content.some((b) => (b as { type?: string }).type === 'tool_result');
};

/** A model with a read tool for each question it knows, and plain words after a result (no figures: the guard would drop them). */
const scriptedModel: Responder = (body) => {
  if (afterToolResult(body)) return textReply('Here is what I found. Ask me if you want more detail.', { chunkChars: 7 });
  const text = lastUserText(body);
  if (/karan/i.test(text)) return toolUseReply('agent_getTake', { player: 'Karan Malhotra' }, 'Let me check.');
  if (/downline/i.test(text)) return toolUseReply('agent_getDownline', {}, 'Let me look.');
  if (/owes me/i.test(text)) return toolUseReply('agent_getTake', {});
  return textReply('I can help with your book: balances, bets and limits.');
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});
async function upstream(): Promise<FakeMessagesApi> {
  const fake = await startFakeMessagesApi({ key: SECRET, responder: scriptedModel });
  closers.push(() => fake.close());
  return fake;
}

const planners = () => [new RulePlanner()];
const outcome = (r: CaseResult) => ({ id: r.id, difference: r.difference, planned: r.planned, tools: r.tools });
const callsOf = (records: Array<[string, TurnRecord]>) => records.map(([id, r]) => ({ id, planner: r.planner, calls: r.calls, usage: r.usage }));

describe('eval --planner claude', () => {
  it('replays a run recorded through the proxy to the same results and tool calls, offline, and never writes the key', async () => {
    const api = await upstream();
    const dir = await mkdtemp(join(tmpdir(), 'eval-claude-rec-'));
    const cases = pick('take-karan', 'downline', 'take-all', 'direct-hi');

    const recording = await claudeEndpoint({ kind: 'record', dir }, { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: api.url });
    const recordedTurns: Array<[string, TurnRecord]> = [];
    const recorded = await runEval(cases, { planners, from: await testBookSnapshot(), claude: { env: recording.env, alwaysModel: true }, onTurn: (id, r) => recordedTurns.push([id, r]) })
      .finally(() => recording.close());
    const upstreamCalls = api.requests.filter((r) => r.path === '/v1/messages').length;
    await api.close();

    // The replay has no key of its own and nothing upstream to reach.
    const replaying = await claudeEndpoint({ kind: 'replay', dir }, {});
    const replayedTurns: Array<[string, TurnRecord]> = [];
    const replayed = await runEval(cases, { planners, from: await testBookSnapshot(), claude: { env: replaying.env, alwaysModel: true }, onTurn: (id, r) => replayedTurns.push([id, r]) })
      .finally(() => replaying.close());

    // Every turn went to the model (always-model), and the model's tool calls went through the gate.
    expect(recordedTurns.map(([, r]) => r.planner)).toEqual(['claude', 'claude', 'claude', 'claude']);
    expect(recordedTurns.flatMap(([, r]) => r.calls.map((c) => c.tool))).toEqual(['agent.getTake', 'agent.getDownline', 'agent.getTake']);
    expect(recordedTurns[0]![1].calls[0]!.args).toHaveProperty('playerId');
    expect(recorded.find((r) => r.id === 'take-karan')!.difference).toBeNull();

    // Every request matched its recording: nothing was answered with an error for drift.
    expect(replaying.drift).toEqual([]);
    expect(replayed.map(outcome)).toEqual(recorded.map(outcome));
    expect(callsOf(replayedTurns)).toEqual(callsOf(recordedTurns));

    const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
    expect(files.length).toBe(upstreamCalls);
    expect(upstreamCalls).toBe(7);
    for (const f of files) {
      const text = await readFile(join(dir, f), 'utf8');
      expect(text).toContain('"events"');
      expect(text).not.toContain(SECRET);
    }
  }, 120_000);

  it('sums the turns\' own records into the claude summary line: model-call share, tokens, cache-read share and cost', async () => {
    const api = await upstream();
    const live = await claudeEndpoint({ kind: 'live' }, { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: api.url });
    closers.push(() => live.close());
    const offTopic = pick('off-topic')[0]!;
    // The fast path is on: only the unsure plans (the off-topic questions) go to the model.
    const cases = [...pick('direct-hi', 'downline', 'off-topic', 'take-karan'), { ...offTopic, id: 'off-topic-again', query: "what's the weather in Delhi" }];
    const records: TurnRecord[] = [];
    const results = await runEval(cases, { planners, from: await testBookSnapshot(), claude: { env: live.env }, onTurn: (_, r) => records.push(r) });

    const model = records.filter((r) => (r.usage?.calls ?? 0) > 0).map((r) => r.usage!);
    expect(records.length).toBe(5);
    expect(model.length).toBe(2);
    expect(api.requests.filter((r) => r.path === '/v1/messages').length).toBe(2);
    const second = model[1]!;
    const inTokens = model.reduce((n, u) => n + u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens, 0);
    const outTokens = model.reduce((n, u) => n + u.outputTokens, 0);
    const cost = model.reduce((n, u) => n + u.costMicroUsd, 0);
    expect(second.cacheReadTokens).toBeGreaterThan(0);
    expect(cost).toBeGreaterThan(0);

    const line = formatClaudeSummary(summarizeClaude(results));
    expect(line).toBe(`claude: 2 of 5 turns called the model (40.0%), ${inTokens} tokens in / ${outTokens} out, `
      + `cache-read share ${cacheReadShare(second).toFixed(2)} (from the second model turn on), cost ${formatMicroUsd(cost)}`);
  }, 120_000);
});
