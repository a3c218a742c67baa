/**
 * Assistant benchmark (docs/benchmarks.md), on the embedded demo book (PGlite, default size):
 *
 * 1. Planner + policy without I/O: the rule planner and the gate over every priya case of the
 *    public golden set and the project's case files (tests/fixtures/eval), every read the gate makes answered from what the real
 *    backend answered in the warm-up rounds (same data, no database). Target: p95 < 1 ms a message.
 * 2. A read turn end to end: message in → cards out through the real runtime, registry and
 *    in-process backend, measured interleaved with the bare backend calls the same turn makes,
 *    so the runtime's own share is a ratio from one run. Target: p95 < 100 ms.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Assistant } from '../src/main/assistant/assistant.js';
import { listCaseFiles, readCaseFiles } from '../scripts/eval-expected.js';
import { RateLimiter } from '../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../src/main/assistant/history.js';
import { AuditLog } from '../src/main/audit/audit-log.js';
import { NonceStore } from '../src/main/confirm/nonce-store.js';
import { gate } from '../src/main/assistant/policy/gate.js';
import { RulePlanner } from '../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT } from '../src/main/assistant/planner/types.js';
import { embeddedConnection } from '../src/main/backend/connection.js';
import { type ToolImplementations, implementations } from '../src/main/tools/index.js';
import { createToolRegistry } from '../src/main/tools/registry.js';
import { openBackend } from '../src/server/backend.js';
import { silentLogger } from '../src/infra/log.js';
import { parseChatRoute } from '../src/shared/contracts/chat.js';
import { localDate } from '../src/shared/dates.js';

const NOW = new Date('2026-11-20T12:00:00+05:30');
const root = fileURLToPath(new URL('..', import.meta.url));
const cases = (await readCaseFiles(root, await listCaseFiles(root))).flatMap((f) => f.cases)
  .filter((c) => c.user === 'priya' && !c.page.includes('{'));

const p = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const ms = (x: number) => `${x.toFixed(3)} ms`;

process.stdout.write('assistant bench: opening the embedded demo book (PGlite, default size)…\n');
const backend = await openBackend({ database: { engine: 'pglite' }, seedDemoIfEmpty: true, now: () => NOW });
const connection = embeddedConnection(backend, silentLogger);
const token = (await connection.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' })).token;
const api = connection.client(token);
const user = await api.auth.me.query();
const today = localDate(NOW, user.timezone);

// ── 1. planner + policy, no I/O ──────────────────────────────────────────────────────────────
/*
 * Every read the gate makes (its name searches, a sub-agent's players, a limit a change starts
 * from…) is answered from memory: each distinct call goes to the real backend once, in the
 * warm-up rounds, and its answer is kept, so the measured rounds time the rules and the gate's
 * own work. Every read is kept, not only the name searches, and under every wording the gate asks
 * it in (the leading words of a name too): a read left to the database, or a search kept under
 * other words that then found nothing and tripped the breaker, would time I/O and error handling
 * as the gate's.
 */
type Implementation = NonNullable<ToolImplementations[keyof ToolImplementations]>;
const remembered = new Map<string, Promise<unknown>>();
const remember = (key: string, call: () => Promise<unknown>) => {
  let answer = remembered.get(key);
  if (!answer) remembered.set(key, answer = call());
  return answer;
};
const memoryRegistry = createToolRegistry({
  implementations: Object.fromEntries(Object.entries(implementations).map(([name, impl]) => {
    const real = impl as Implementation;
    return [name, {
      ...real,
      invoke: (args: never, callCtx: never) => remember(`${name} invoke ${JSON.stringify(args)}`, () => real.invoke(args, callCtx)),
      ...(real.prepare && { prepare: (args: never, callCtx: never) => remember(`${name} prepare ${JSON.stringify(args)}`, () => real.prepare!(args, callCtx)) }),
    }];
  })) as ToolImplementations,
});
const planner = new RulePlanner();
const ctx = { api, user, requestId: 'bench' };
const planTimes: number[] = [];
const planOnly: number[] = [];
for (let round = 0; round < 60; round++) {
  for (const c of cases) {
    const input = { requestId: 'bench', text: c.query, page: parseChatRoute(c.page), today, role: user.role, context: EMPTY_CONTEXT };
    const t0 = performance.now();
    const decision = planner.plan(input);
    const t1 = performance.now();
    await gate(decision, memoryRegistry, user, ctx);
    const t2 = performance.now();
    if (round >= 10) {
      planOnly.push(t1 - t0);
      planTimes.push(t2 - t0);
    }
  }
}
const planP95 = p(planTimes, 0.95);
process.stdout.write(`\nplanner + policy (no I/O), ${cases.length} messages × 50 rounds\n`);
process.stdout.write(`  planner alone      p50 ${ms(p(planOnly, 0.5))}  p95 ${ms(p(planOnly, 0.95))}\n`);
process.stdout.write(`  planner + gate     p50 ${ms(p(planTimes, 0.5))}  p95 ${ms(planP95)}   target < 1 ms: ${planP95 < 1 ? 'met' : 'NOT MET'}\n`);

// ── 2. a read turn end to end, side by side with the bare backend calls ─────────────────────
const questions = ['how much does Karan owe me', 'exposure on India vs Australia', "Anita Desai's pnl this month", 'open bets for Sneha Iyer', 'top 5 markets by volume this week'];
const assistant = new Assistant({
  registry: createToolRegistry(), planners: [planner], history: new MemoryChatHistory(), log: silentLogger, limiter: new RateLimiter({ limit: 1_000_000 }),
  nonces: new NonceStore(), audit: new AuditLog(join(mkdtempSync(join(tmpdir(), 'bench-')), 'audit.jsonl')),
});
const page = { path: '/agent/dashboard', query: {} };
const turnTimes: number[] = [];
const bareTimes: number[] = [];
// What each turn asks of the backend, made directly: the same queries without planner, gate, registry or composer.
const ids = { karan: '', anita: '', sneha: '', ind: '' };
ids.karan = (await api.agent.searchPlayers.query({ query: 'Karan Malhotra', limit: 1 })).players[0]!.id;
ids.anita = (await api.agent.searchPlayers.query({ query: 'Anita Desai', limit: 1 })).players[0]!.id;
ids.sneha = (await api.agent.searchPlayers.query({ query: 'Sneha Iyer', limit: 1 })).players[0]!.id;
ids.ind = (await api.match.searchFixtures.query({ query: 'India vs Australia', limit: 1 })).fixtures[0]!.id;
const bare = [
  async () => { await api.agent.searchPlayers.query({ query: 'karan', limit: 10 }); await api.agent.getTake.query({ playerId: ids.karan }); },
  async () => { await api.match.searchFixtures.query({ query: 'india vs australia', limit: 10 }); await api.agent.getLiveExposure.query({ fixtureId: ids.ind }); },
  async () => { await api.agent.searchPlayers.query({ query: 'anita desai', limit: 10 }); await api.agent.getPnL.query({ playerId: ids.anita, from: '2026-11-01', to: '2026-11-20' }); },
  async () => { await api.agent.searchPlayers.query({ query: 'sneha iyer', limit: 10 }); await api.agent.getBetHistory.query({ playerId: ids.sneha, status: ['open'] }); },
  async () => { await api.agent.getTopMarkets.query({ period: 'week', metric: 'volume', limit: 5 }); },
];
for (let round = 0; round < 25; round++) {
  for (let i = 0; i < questions.length; i++) {
    const t0 = performance.now();
    for await (const _event of assistant.turn({ kind: 'message', text: questions[i]!, page }, { user, api })) { /* drained */ }
    const t1 = performance.now();
    await bare[i]!();
    const t2 = performance.now();
    if (round >= 5) {
      turnTimes.push(t1 - t0);
      bareTimes.push(t2 - t1);
    }
  }
}
const turnP95 = p(turnTimes, 0.95);
process.stdout.write(`\nread turn end to end (embedded backend, default book), ${questions.length} questions × 20 rounds, interleaved\n`);
process.stdout.write(`  bare backend calls p50 ${ms(p(bareTimes, 0.5))}  p95 ${ms(p(bareTimes, 0.95))}\n`);
process.stdout.write(`  whole turn         p50 ${ms(p(turnTimes, 0.5))}  p95 ${ms(turnP95)}   target < 100 ms: ${turnP95 < 100 ? 'met' : 'NOT MET'}\n`);
process.stdout.write(`  turn / bare        p50 ${(p(turnTimes, 0.5) / p(bareTimes, 0.5)).toFixed(2)}x  p95 ${(turnP95 / p(bareTimes, 0.95)).toFixed(2)}x\n`);

await connection.close();
process.exit(planP95 < 1 && turnP95 < 100 ? 0 : 1);
