/**
 * Claude benchmark: the real SDK, runtime, gate, registry and embedded demo
 * book (PGlite, default size) against the fake Messages API in this process, which plays a
 * plausible model: a short sentence and a read tool on a turn's first call, then two sentences
 * in small chunks after the result. What is measured is ours, not the model's:
 *
 * 1. Time to first text (turn start → first `text` event) and the planner's overhead per model
 *    turn (the turn's wall time minus the time spent in model calls), p50/p95 over 40 turns.
 * 2. How many turns of the public golden set never reach the model (key present, fast path on).
 * 3. The prompt cache: the cache-read share from the second turn on of one 10-turn conversation.
 *    Goal ≥ 0.8.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Assistant, type TurnRecord } from '../src/main/assistant/assistant.js';
import { ClaudeBrain } from '../src/main/assistant/claude/brain.js';
import { cacheReadShare } from '../src/main/assistant/claude/prices.js';
import { RateLimiter } from '../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../src/main/assistant/history.js';
import { RulePlanner } from '../src/main/assistant/planner/rule-planner.js';
import { AuditLog } from '../src/main/audit/audit-log.js';
import { embeddedConnection } from '../src/main/backend/connection.js';
import { NonceStore } from '../src/main/confirm/nonce-store.js';
import { environmentStore } from '../src/main/secrets/secret-store.js';
import { createToolRegistry } from '../src/main/tools/registry.js';
import { openBackend } from '../src/server/backend.js';
import { silentLogger } from '../src/infra/log.js';
import { belowFastPath, parseCases, runEval, summarizeClaude } from '../scripts/eval-harness.js';
import { TEST_BOOK } from '../tests/helpers/test-book.js';
import { DEFAULT_FAKE_KEY, type MessageReply, type MessagesRequestBody, startFakeMessagesApi, textReply, toolUseReply } from '../tests/fakes/messages-api.js';

const NOW = new Date('2026-11-20T12:00:00+05:30');
const TURNS = 40;
const WARM_UP = 5;
const CONVERSATION = 10;
const CACHE_GOAL = 0.8;

const p = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** A model that reads before it answers; 1 ms between SSE events stands in for generation so the stream arrives in pieces. */
const afterToolResult = (body: MessagesRequestBody) => {
  const content = body.messages.at(-1)?.content;
  return Array.isArray(content) && content.some((b) => (b as { type?: string }).type === 'tool_result');
};
const plausible = (body: MessagesRequestBody): MessageReply => (afterToolResult(body)
  ? { ...(textReply('Your downline looks steady from here. Nothing in it needs your attention right now.') as MessageReply), chunkChars: 4, delayMs: 1 }
  : { ...(toolUseReply('agent_getDownline', {}, 'Let me look at your downline.') as MessageReply), chunkChars: 4, delayMs: 1 });

const fake = await startFakeMessagesApi({ responder: plausible });
const env = { ANTHROPIC_API_KEY: DEFAULT_FAKE_KEY, ANTHROPIC_BASE_URL: fake.url };

/**
 * Model-call time, timed at the transport: the SDK takes the global fetch when its client is
 * built (on the brain's first turn, after this), so every call goes through this wrapper, which
 * times from the request leaving to the last byte of the response being read. That is the
 * model's (the fake's) share of a turn plus the socket; SSE parsing and everything the app does
 * between and after calls stays outside it, so total − model is our overhead.
 */
const modelSpans: Array<{ start: number; end: number }> = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith(fake.url)) return realFetch(input, init);
  const start = performance.now();
  const response = await realFetch(input, init);
  if (!response.body) {
    modelSpans.push({ start, end: performance.now() });
    return response;
  }
  const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: () => void modelSpans.push({ start, end: performance.now() }) }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};

process.stdout.write(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine (timings are wall clock)\n`);
process.stdout.write('claude bench: opening the embedded demo book (PGlite, default size) and the fake Messages API…\n');
const backend = await openBackend({ database: { engine: 'pglite' }, seedDemoIfEmpty: true, now: () => NOW });
const connection = embeddedConnection(backend, silentLogger);
const token = (await connection.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' })).token;
const api = connection.client(token);
const user = await api.auth.me.query();
const scratch = mkdtempSync(join(tmpdir(), 'bench-claude-'));
const page = { path: '/agent/dashboard', query: {} };

function desk(): { assistant: Assistant; records: TurnRecord[] } {
  const registry = createToolRegistry();
  const claude = new ClaudeBrain({
    secrets: { read: [environmentStore(env)], write: null, writeNote: '' }, dataDir: mkdtempSync(join(scratch, 'd-')), env, registry, log: silentLogger,
  });
  const records: TurnRecord[] = [];
  const assistant = new Assistant({
    registry, planners: [belowFastPath(new RulePlanner())], claude, history: new MemoryChatHistory(), log: silentLogger,
    limiter: new RateLimiter({ limit: 1_000_000 }), nonces: new NonceStore(), audit: new AuditLog(join(scratch, 'audit.jsonl')),
    onTurn: (r) => records.push(r),
  });
  return { assistant, records };
}

// ── 1. time to first text and the planner's overhead ────────────────────────────────────────
const questions = ['how is my downline doing', 'anything in my book I should look at', 'kaisa chal raha hai sab', 'which players need attention', 'give me a quick overview'];
const first = desk();
const ttft: number[] = [];
const overhead: number[] = [];
const inModel: number[] = [];
for (let i = 0; i < TURNS + WARM_UP; i++) {
  const t0 = performance.now();
  let firstText: number | null = null;
  for await (const event of first.assistant.turn({ kind: 'message', text: questions[i % questions.length]!, page }, { user, api })) {
    if (event.type === 'text' && firstText === null) firstText = performance.now();
  }
  const t1 = performance.now();
  const model = modelSpans.filter((s) => s.start >= t0 && s.end <= t1).reduce((n, s) => n + (s.end - s.start), 0);
  if (first.records.at(-1)?.planner !== 'claude' || firstText === null) throw new Error(`turn ${i} did not go through the model (${first.records.at(-1)?.notes.join('; ')})`);
  if (i < WARM_UP) continue;
  ttft.push(firstText - t0);
  inModel.push(model);
  overhead.push(t1 - t0 - model);
}
process.stdout.write(`\nmodel turns (read tool, then a two-sentence answer; fake model at 1 ms an SSE event), ${TURNS} turns after ${WARM_UP} warm-up\n`);
process.stdout.write(`  time to first text      p50 ${ms(p(ttft, 0.5))}  p95 ${ms(p(ttft, 0.95))}\n`);
process.stdout.write(`  inside model calls      p50 ${ms(p(inModel, 0.5))}  p95 ${ms(p(inModel, 0.95))}\n`);
process.stdout.write(`  planner overhead        p50 ${ms(p(overhead, 0.5))}  p95 ${ms(p(overhead, 0.95))}   (turn − model calls: runtime, gate, tool, guard)\n`);

// ── 2. the fast path on the public golden set ───────────────────────────────────────────────
const publicSet = fileURLToPath(new URL('../../shared/eval/golden.jsonl', import.meta.url));
const goldenFile = existsSync(publicSet) ? publicSet : fileURLToPath(new URL('../tests/fixtures/golden.jsonl', import.meta.url));
const golden = parseCases(readFileSync(goldenFile, 'utf8'));
// The small test book: whether a turn reaches the model is settled by the offline plan before any
// name is looked up, so the book's size changes nothing here but the time to seed it.
const results = await runEval(golden, { planners: () => [new RulePlanner()], claude: { env }, book: TEST_BOOK });
const summary = summarizeClaude(results);
const offline = summary.turns - summary.modelTurns;
process.stdout.write(`\nfast path on the public golden set (${goldenFile === publicSet ? '../shared/eval/golden.jsonl' : 'tests/fixtures/golden.jsonl, the copy'}), key present\n`);
process.stdout.write(`  turns with no model call ${offline}/${summary.turns}  ${((100 * offline) / Math.max(1, summary.turns)).toFixed(1)}%   `
  + `(eval ${results.filter((r) => r.difference === null).length}/${results.length} passed)\n`);

// ── 3. the prompt cache over one conversation ────────────────────────────────────────────────
const talk = desk();
for (let i = 0; i < CONVERSATION; i++) {
  for await (const _event of talk.assistant.turn({ kind: 'message', text: questions[i % questions.length]!, page }, { user, api })) { /* drained */ }
}
const later = talk.records.slice(1).map((r) => r.usage!);
const share = cacheReadShare({
  inputTokens: later.reduce((n, u) => n + u.inputTokens, 0),
  cacheWriteTokens: later.reduce((n, u) => n + u.cacheWriteTokens, 0),
  cacheReadTokens: later.reduce((n, u) => n + u.cacheReadTokens, 0),
});
const perTurn = talk.records.map((r) => cacheReadShare(r.usage!).toFixed(2)).join(' ');
process.stdout.write(`\nprompt cache, one conversation of ${CONVERSATION} model turns (2 calls each)\n`);
process.stdout.write(`  per turn                ${perTurn}\n`);
process.stdout.write(`  prompt tokens, turns 2–${CONVERSATION}: ${later.reduce((n, u) => n + u.cacheReadTokens, 0)} read, `
  + `${later.reduce((n, u) => n + u.cacheWriteTokens, 0)} written, ${later.reduce((n, u) => n + u.inputTokens, 0)} uncached   `
  + `(each turn writes its own tool results; later turns read them back with the rest of the conversation)\n`);
process.stdout.write(`  cache-read share, turns 2–${CONVERSATION}: ${share.toFixed(3)}   goal ≥ ${CACHE_GOAL}: ${share >= CACHE_GOAL ? 'met' : 'NOT MET'}\n`);

globalThis.fetch = realFetch;
await connection.close();
await fake.close();
process.exit(share >= CACHE_GOAL ? 0 : 1);
