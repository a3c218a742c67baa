/**
 * Read-path benchmark: every read procedure of the tRPC router, measured three ways interleaved
 * in the same run on the same database: through the real HTTP stack (the backend's server and
 * main's remote connection, an @trpc/client httpLink, a logged-in session), as a backend elsewhere is called; through tRPC in
 * process, as the desk calls its embedded book (embeddedConnection's localLink); and as a bare
 * service call (no transport, no tRPC, no zod, no session lookup). Prints p50/p95 per procedure
 * and what tRPC adds, per book and engine, and checks the targets in docs/benchmarks.md.
 *
 *   npm run bench                                  # default + 10x book, PGlite + PostgreSQL
 *   npm run bench -- --quick                       # default book only
 *   npm run bench -- --engines pglite              # one engine (pglite | postgres | both, comma-separated)
 *   npm run bench -- --books 10x --n10x 20         # 10x book only, at most 20 measured pairs a case
 *   npm run bench -- --json bench-results.json     # also write the raw numbers
 *   npm run bench -- --help                        # every flag
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); each book is
 * written into a private schema bench_<pid>_<time> that is dropped at the end (also on Ctrl-C).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import type { createTRPCClient } from '@trpc/client';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { z } from 'zod';
import * as api from '../src/shared/contracts/agent-api.js';
import { type Backend, openBackend } from '../src/server/backend.js';
import type { DatabaseConfig } from '../src/server/db/client.js';
import { startBackendServer } from '../src/server/http.js';
import { silentLogger } from '../src/infra/log.js';
import { connectBackend, embeddedConnection } from '../src/main/backend/connection.js';
import { DEFAULT_BOOK } from '../src/server/seed/generate.js';
import { resolveSession } from '../src/server/services/auth.js';
import { getCreditLimit, getDownline, getTake, getUpline } from '../src/server/services/book.js';
import type { Caller, ServiceDeps } from '../src/server/services/caller.js';
import { getLiveExposure } from '../src/server/services/exposure.js';
import { getBetHistory, getSettlementHistory } from '../src/server/services/history.js';
import { getCommission, getPnL, getTopMarkets } from '../src/server/services/pnl.js';
import { searchFixtures, searchPlayers } from '../src/server/services/search.js';
import type { AppRouter } from '../src/server/trpc/router.js';

// ── configuration ────────────────────────────────────────────────────────────────────────────
const NOW = new Date('2026-11-20T06:30:00Z');
const USERNAME = 'priya';
const PASSWORD = 'demo-priya';
const TARGET_P95_MS: Record<BookName, number> = { default: 50, '10x': 150 };
const TARGET_RATIO = 1.5;
const TARGET_EXTRA_MS = 1;

type BookName = 'default' | '10x';
type EngineName = 'pglite' | 'postgres';
const BOOKS: Record<BookName, { players: number; bets: number }> = {
  default: { players: DEFAULT_BOOK.players, bets: DEFAULT_BOOK.bets },
  '10x': { players: DEFAULT_BOOK.players * 10, bets: DEFAULT_BOOK.bets * 10 },
};

/** A bad command line: the reason and the usage, without a stack trace. */
function usageError(message: string): never {
  process.stderr.write(`${message}\nrun with --help for the flags\n`);
  process.exit(2);
}

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        engines: { type: 'string', default: 'pglite,postgres' },
        books: { type: 'string', default: 'default,10x' },
        n: { type: 'string', default: '50' },
        n10x: { type: 'string', default: '30' },
        'min-n': { type: 'string', default: '10' },
        'case-seconds': { type: 'string', default: '4' },
        warmup: { type: 'string', default: '5' },
        json: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      allowPositionals: false,
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
})();
const flags = parsed.values;

if (flags.help) {
  process.stdout.write(`usage: npm run bench -- [--quick] [--engines pglite,postgres] [--books default,10x]
       [--n 50] [--n10x 30] [--min-n 10] [--case-seconds 4] [--warmup 5] [--json FILE]
  --quick         default book only (same as --books default)
  --n, --n10x     measured tRPC+direct pairs per case on the default / 10x book, at most
  --case-seconds  time budget per case: slow cases get fewer pairs, never fewer than --min-n
  --warmup        warm-up pairs per case, at most (stops after ~1 s of warm-up, at least one)
  --json FILE     also write the raw numbers as JSON
`);
  process.exit(0);
}

const listFlag = <T extends string>(value: string, allowed: readonly T[], name: string): T[] => {
  const items = value.split(',').map((s) => s.trim()).filter(Boolean).flatMap((s) => (s === 'both' || s === 'all' ? [...allowed] : [s]));
  for (const item of items) if (!allowed.includes(item as T)) usageError(`--${name}: unknown value "${item}" (expected ${allowed.join(', ')})`);
  return [...new Set(items)] as T[];
};
const intFlag = (value: string, name: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) usageError(`--${name} must be a whole number ≥ 1, got "${value}"`);
  return n;
};

const engines = listFlag(flags.engines, ['pglite', 'postgres'] as const, 'engines');
const books = flags.quick ? (['default'] as BookName[]) : listFlag(flags.books, ['default', '10x'] as const, 'books');
const samples: Record<BookName, number> = { default: intFlag(flags.n, 'n'), '10x': intFlag(flags.n10x, 'n10x') };
const warmup = intFlag(flags.warmup, 'warmup');
const minSamples = intFlag(flags['min-n'], 'min-n');
const caseBudgetMs = Number(flags['case-seconds']) * 1000;
if (!(caseBudgetMs > 0)) usageError(`--case-seconds must be a positive number, got "${flags['case-seconds']}"`);
const WARMUP_BUDGET_MS = 1000;
const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// ── helpers ──────────────────────────────────────────────────────────────────────────────────
const out = (line = '') => process.stdout.write(`${line}\n`);
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const fmtRatio = (r: number) => `${r.toFixed(2)}x`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; value: unknown }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/** Undefined keys dropped and dates as ISO strings, as JSON over HTTP would leave them. */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

// PostgreSQL schemas created by this run, dropped at the end and on Ctrl-C.
const liveSchemas = new Set<string>();
async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    // An interrupted seed may still hold locks on the schema: give up rather than hang.
    await client.query(`SET lock_timeout = '10s'`);
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    liveSchemas.delete(schema);
  } catch (error) {
    process.stderr.write(`could not drop schema ${schema} (${error instanceof Error ? error.message : String(error)}): drop it with DROP SCHEMA ${schema} CASCADE\n`);
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  out('\ninterrupted: dropping bench schemas…');
  void Promise.allSettled([...liveSchemas].map(dropSchema)).then(() => process.exit(130));
});

/** Why PostgreSQL cannot be used, or null when it can. */
async function postgresUnavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

// ── the cases ────────────────────────────────────────────────────────────────────────────────
type Client = ReturnType<typeof createTRPCClient<AppRouter>>;

interface Case {
  /** Procedure path, as in the router. */
  procedure: string;
  /** What this input exercises. */
  variant: string;
  /** The call through a tRPC client: over HTTP, or in process as the desk's embedded connection makes it. */
  trpc: (client: Client) => Promise<unknown>;
  direct: () => Promise<unknown>;
}

interface Ids { anita: string; indAus: string }

/**
 * Each case is one procedure with one realistic input; the direct side gets the same input after
 * the contract's own parse (so defaults such as `limit` are the ones tRPC applies), parsed once
 * outside the timed region.
 */
function buildCases(deps: ServiceDeps, caller: Caller, ids: Ids): Case[] {
  const cases: Case[] = [];
  const add = (procedure: string, variant: string, trpc: (client: Client) => Promise<unknown>, direct: () => Promise<unknown>) =>
    cases.push({ procedure, variant, trpc, direct });
  const lastMonth = { from: '2026-10-01', to: '2026-10-31' };

  for (const [variant, query] of [['"Rahul" (prefix)', 'Rahul'], ['"Anitha" (fuzzy)', 'Anitha']] as const) {
    const input = api.searchPlayersInput.parse({ query });
    add('agent.searchPlayers', variant, (client) => client.agent.searchPlayers.query({ query }),
      async () => ({ players: await searchPlayers(deps, caller, input.query, input.limit) }));
  }
  {
    const input = api.getDownlineInput.parse({});
    add('agent.getDownline', 'depth 2 (default)', (client) => client.agent.getDownline.query({}), () => getDownline(deps, caller, input));
  }
  for (const [variant, raw] of [['direct downline', {}], ['one player', { playerId: ids.anita }]] as const) {
    const takeInput = api.getTakeInput.parse(raw);
    add('agent.getTake', variant, (client) => client.agent.getTake.query(raw), () => getTake(deps, caller, takeInput));
  }
  for (const [variant, raw] of [['direct downline', {}], ['one player', { playerId: ids.anita }]] as const) {
    const clInput = api.getCreditLimitInput.parse(raw);
    add('agent.getCreditLimit', variant, (client) => client.agent.getCreditLimit.query(raw), () => getCreditLimit(deps, caller, clInput));
  }
  for (const [variant, raw] of [['total', {}], ['one fixture', { fixtureId: ids.indAus }]] as const) {
    const input = api.getLiveExposureInput.parse(raw);
    add('agent.getLiveExposure', variant, (client) => client.agent.getLiveExposure.query(raw), () => getLiveExposure(deps, caller, input));
  }
  for (const [variant, raw] of [
    ['today', {}],
    ['last month', lastMonth],
    ['last month, one player', { ...lastMonth, playerId: ids.anita }],
  ] as const) {
    const input = api.getPnLInput.parse(raw);
    add('agent.getPnL', variant, (client) => client.agent.getPnL.query(raw), () => getPnL(deps, caller, input));
  }
  {
    const input = api.getCommissionInput.parse(lastMonth);
    add('agent.getCommission', 'last month', (client) => client.agent.getCommission.query(lastMonth), () => getCommission(deps, caller, input));
  }
  for (const [variant, raw] of [['first page', {}], ['one player', { counterpartyId: ids.anita }]] as const) {
    const input = api.getSettlementHistoryInput.parse(raw);
    add('agent.getSettlementHistory', variant, (client) => client.agent.getSettlementHistory.query(raw), () => getSettlementHistory(deps, caller, input));
  }
  const betInputs: Array<[string, z.input<typeof api.getBetHistoryInput>]> = [
    ['first page, unfiltered', {}],
    ['one player', { playerId: ids.anita }],
    ['open bets on a fixture', { fixtureId: ids.indAus, status: ['open'] }],
  ];
  for (const [variant, raw] of betInputs) {
    const input = api.getBetHistoryInput.parse(raw);
    add('agent.getBetHistory', variant, (client) => client.agent.getBetHistory.query(raw), () => getBetHistory(deps, caller, input));
  }
  add('agent.getUpline', '', (client) => client.agent.getUpline.query({}), () => getUpline(deps, caller));
  for (const [variant, raw] of [
    ['week by volume', { period: 'week', metric: 'volume' }],
    ['week by pnl', { period: 'week', metric: 'pnl' }],
    ['month by volume', { period: 'month', metric: 'volume' }],
    ['by exposure', { period: 'today', metric: 'exposure' }],
  ] as const) {
    const input = api.getTopMarketsInput.parse(raw);
    add('agent.getTopMarkets', variant, (client) => client.agent.getTopMarkets.query(raw), () => getTopMarkets(deps, caller, input));
  }
  for (const [variant, query] of [['"India vs Australia"', 'India vs Australia'], ['"IND v AUS" (codes)', 'IND v AUS']] as const) {
    const input = api.searchFixturesInput.parse({ query });
    add('match.searchFixtures', variant, (client) => client.match.searchFixtures.query({ query }),
      async () => ({ fixtures: await searchFixtures(deps, input.query, input.limit) }));
  }
  return cases;
}

// ── measuring ────────────────────────────────────────────────────────────────────────────────
interface Stats { p50: number; p95: number; min: number; max: number }
/** One way of calling a procedure through tRPC, against the bare service call measured beside it. */
interface Overhead { p50: number; p95: number; ratioP50: number; ratioP95: number; extraMs: number; met: boolean }
interface CaseResult {
  procedure: string; variant: string; n: number;
  /** tRPC over HTTP (a backend elsewhere), tRPC in process (the desk's embedded book), the bare service. */
  http: Overhead; local: Overhead; direct: Stats;
  /** A tRPC answer differed from the bare one (after JSON); a bench bug or an output-schema strip. */
  answersDiffer: boolean;
}
interface RunResult {
  book: BookName; engine: EngineName; players: number; bets: number; ledgerRows: number;
  seedMs: number; measureMs: number; sessionMs: Stats; healthMs: Stats; cases: CaseResult[];
}

const stats = (xs: number[]): Stats => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), min: s[0]!, max: s[s.length - 1]! };
};

/** Issue 17: a read through tRPC may cost 1.5x the bare call or 1 ms more, whichever allows more. */
const allowedMs = (bareMs: number) => Math.max(bareMs * TARGET_RATIO, bareMs + TARGET_EXTRA_MS);

function overhead(times: number[], direct: Stats): Overhead {
  const t = stats(times);
  return {
    p50: t.p50, p95: t.p95, ratioP50: t.p50 / direct.p50, ratioP95: t.p95 / direct.p95,
    extraMs: t.p50 - direct.p50, met: t.p50 <= allowedMs(direct.p50),
  };
}

interface Clients { http: Client; local: Client }

/**
 * Warms up the three paths, then measures triples (over HTTP, in process, bare), rotating which
 * goes first so drift and noise hit all alike. Triples: maxN, or fewer (never below --min-n) when
 * maxN of this case would overrun the per-case time budget.
 */
async function measure(c: Case, clients: Clients, maxN: number): Promise<CaseResult> {
  const paths: Array<{ name: 'http' | 'local' | 'direct'; call: () => Promise<unknown> }> = [
    { name: 'http', call: () => c.trpc(clients.http) },
    { name: 'local', call: () => c.trpc(clients.local) },
    { name: 'direct', call: c.direct },
  ];
  const first = new Map<string, unknown>();
  let roundMs = 0;
  const warmStarted = performance.now();
  for (let i = 0; i < warmup && (i === 0 || performance.now() - warmStarted < WARMUP_BUDGET_MS); i++) {
    const roundStarted = performance.now();
    for (const path of paths) {
      const value = await path.call();
      if (!first.has(path.name)) first.set(path.name, value);
    }
    roundMs = performance.now() - roundStarted;
  }
  const n = Math.max(Math.min(maxN, minSamples), Math.min(maxN, Math.floor(caseBudgetMs / Math.max(roundMs, 0.001))));
  const times: Record<'http' | 'local' | 'direct', number[]> = { http: [], local: [], direct: [] };
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < paths.length; k++) {
      const path = paths[(i + k) % paths.length]!;
      times[path.name].push((await timed(path.call)).ms);
    }
  }
  const direct = stats(times.direct);
  const bare = viaJson(first.get('direct'));
  return {
    procedure: c.procedure, variant: c.variant, n, direct,
    http: overhead(times.http, direct), local: overhead(times.local, direct),
    answersDiffer: !isDeepStrictEqual(first.get('http'), bare) || !isDeepStrictEqual(viaJson(first.get('local')), bare),
  };
}

async function countRows(backend: Backend, table: string): Promise<number> {
  const result = (await backend.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

async function runOne(book: BookName, engine: EngineName): Promise<RunResult> {
  const size = BOOKS[book];
  const schema = `bench_${process.pid}_${Date.now().toString(36)}`;
  const database: DatabaseConfig = engine === 'pglite' ? { engine: 'pglite' } : { engine: 'postgres', url: pgUrl, schema };
  if (engine === 'postgres') liveSchemas.add(schema);
  try {
    out(`\n→ ${book} book (${size.players.toLocaleString('en-US')} players, ${size.bets.toLocaleString('en-US')} bets) on ${engine}${engine === 'postgres' ? ` (schema ${schema})` : ''}: seeding…`);
    const seedStarted = performance.now();
    const backend = await openBackend({ database, seedDemoIfEmpty: true, book: size, now: () => new Date(NOW) });
    try {
      const seedMs = performance.now() - seedStarted;
      const ledgerRows = await countRows(backend, 'ledger');
      out(`  seeded in ${seconds(seedMs)} (${ledgerRows.toLocaleString('en-US')} ledger rows); measuring…`);

      const server = await startBackendServer(backend.deps, silentLogger, { port: 0 });
      // Client and server share this process, and PGlite runs queries synchronously: a query of
      // several seconds freezes both keep-alive timers, and when they fire together the server can
      // close an idle socket the client is reusing ("fetch failed"). A long server idle timeout
      // keeps that bench-only race out of the numbers; a request still pays no new connection.
      server.server.keepAliveTimeout = 120_000;
      try {
        // Main's own client of a remote backend (connectBackend's httpLink, its fetch over
        // node:http and its deadline), as the desk calls a backend elsewhere.
        const remote = await connectBackend({ mode: 'remote', url: server.url }, silentLogger);
        try {
          const token = (await remote.client(null).auth.login.mutate({ username: USERNAME, password: PASSWORD })).token;
          const client = remote.client(token);
          const caller = await resolveSession(backend.deps, token);

          const anita = (await client.agent.searchPlayers.query({ query: 'Anita Desai' })).players.find((p) => p.name === 'Anita Desai');
          const indAus = (await client.match.searchFixtures.query({ query: 'India vs Australia' })).fixtures.find((f) => f.name === 'India vs Australia');
          if (!anita || !indAus) throw new Error('the demo book lacks Anita Desai or India vs Australia');

          const measureStarted = performance.now();
          // The fixed costs every tRPC call pays on top of its query: an HTTP round trip and the session lookup.
          const sessionTimes: number[] = [];
          const healthTimes: number[] = [];
          for (let i = 0; i < 10 + 50; i++) {
            const session = await timed(() => resolveSession(backend.deps, token));
            const health = await timed(async () => (await fetch(`${server.url}/health`)).text());
            if (i >= 10) { sessionTimes.push(session.ms); healthTimes.push(health.ms); }
          }
          const cases: CaseResult[] = [];
          // The desk's own link to an embedded book: tRPC in process, the same router, context and middleware.
          const local = embeddedConnection(backend, silentLogger).client(token);
          for (const c of buildCases(backend.deps, caller, { anita: anita.id, indAus: indAus.id })) {
            if (interrupted) break;
            const r = await measure(c, { http: client, local }, samples[book]);
            cases.push(r);
            process.stdout.write(`  ${`${c.procedure} ${c.variant}`.padEnd(58)} p50 http ${fmt(r.http.p50).padStart(6)} / in process ${fmt(r.local.p50).padStart(6)} / bare ${fmt(r.direct.p50).padStart(6)} ms  n=${r.n}\n`);
          }
          return {
            book, engine, players: size.players, bets: size.bets, ledgerRows, seedMs,
            measureMs: performance.now() - measureStarted, sessionMs: stats(sessionTimes), healthMs: stats(healthTimes), cases,
          };
        } finally {
          await remote.close();
        }
      } finally {
        await server.close();
      }
    } finally {
      await backend.database.close();
    }
  } finally {
    if (engine === 'postgres') await dropSchema(schema);
  }
}

// ── reporting ────────────────────────────────────────────────────────────────────────────────
const overheadCell = (o: Overhead) => `${fmt(o.p50)} (+${fmt(o.extraMs)}, ${fmtRatio(o.ratioP50)})${o.met ? '' : ' ❌'}`;
const missList = (cases: CaseResult[], pick: (c: CaseResult) => Overhead) => cases
  .filter((c) => !pick(c).met)
  .map((c) => `${c.procedure} (${c.variant}) ${fmtRatio(pick(c).ratioP50)}, +${fmt(pick(c).extraMs)} ms`).join('; ');

function report(r: RunResult): string[] {
  const target = TARGET_P95_MS[r.book];
  const lines: string[] = [];
  lines.push(`### ${r.book} book on ${r.engine === 'pglite' ? 'PGlite (in-memory)' : 'PostgreSQL'}`);
  lines.push('');
  lines.push(`${r.players.toLocaleString('en-US')} players, ${r.bets.toLocaleString('en-US')} bets, ${r.ledgerRows.toLocaleString('en-US')} ledger rows; `
    + `seeded in ${seconds(r.seedMs)}; measured in ${seconds(r.measureMs)}. `
    + `Fixed costs: HTTP round trip (GET /health) p50 ${fmt(r.healthMs.p50)} ms; `
    + `session lookup p50 ${fmt(r.sessionMs.p50)} ms (p95 ${fmt(r.sessionMs.p95)} ms), answered from the session cache after a token's first call. `
    + `Each cell: p50 ms (+ms over bare, ratio); ❌ = over the allowance, max(${TARGET_RATIO}x, +${TARGET_EXTRA_MS} ms) of bare; n = measured triples.`);
  lines.push('');
  lines.push('| procedure | tRPC over HTTP | HTTP p95 | tRPC in process | bare p50 | bare p95 | n |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const c of r.cases) {
    const miss = c.http.p95 >= target ? ' ❌' : '';
    const name = `${c.procedure}${c.variant ? ` (${c.variant})` : ''}${c.answersDiffer ? ' †' : ''}`;
    lines.push(`| ${name} | ${overheadCell(c.http)} | ${fmt(c.http.p95)}${miss} | ${overheadCell(c.local)} | ${fmt(c.direct.p50)} | ${fmt(c.direct.p95)} | ${c.n} |`);
  }
  lines.push('');
  const latencyMisses = r.cases.filter((c) => c.http.p95 >= target);
  const worst = [...r.cases].sort((a, b) => b.http.p95 - a.http.p95)[0];
  const httpMisses = missList(r.cases, (c) => c.http);
  const localMisses = missList(r.cases, (c) => c.local);
  lines.push(`Targets (${r.book} book, ${r.engine}): p95 over HTTP < ${target} ms: `
    + (latencyMisses.length === 0
      ? `**met** by all ${r.cases.length} cases (worst: ${worst ? `${worst.procedure} (${worst.variant}) ${fmt(worst.http.p95)} ms` : 'n/a'})`
      : `**MISSED** by ${latencyMisses.length}/${r.cases.length}: ${latencyMisses.map((c) => `${c.procedure} (${c.variant}) ${fmt(c.http.p95)} ms`).join('; ')}`)
    + `. tRPC p50 within max(${TARGET_RATIO}x, +${TARGET_EXTRA_MS} ms) of bare, over HTTP: `
    + (httpMisses ? `**MISSED** by ${r.cases.filter((c) => !c.http.met).length}/${r.cases.length}: ${httpMisses}` : `**met** by all ${r.cases.length} cases`)
    + '; in process: '
    + (localMisses ? `**MISSED** by ${r.cases.filter((c) => !c.local.met).length}/${r.cases.length}: ${localMisses}` : `**met** by all ${r.cases.length} cases`)
    + '.');
  if (r.cases.some((c) => c.answersDiffer)) {
    lines.push('');
    lines.push('† a tRPC answer differed from the bare call\'s (after a JSON round trip) on the first warm-up call.');
  }
  return lines;
}

/** The commit measured, and whether src/ differs from it (numbers belong to a version). */
function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--', 'src') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes under src/' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

async function main(): Promise<void> {
  const cpu = os.cpus();
  out('# Agent Desk server read benchmark');
  out('');
  out(`Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, `
    + `${os.type()} ${os.release()} ${os.arch()}, Node ${process.version}`);
  out(`Clock: ${NOW.toISOString()} (fixed); caller: ${USERNAME}; books: ${books.join(', ')}; engines: ${engines.join(', ')}; `
    + `pairs per case: default ≤ ${samples.default}, 10x ≤ ${samples['10x']} (≥ ${minSamples}, ~${caseBudgetMs / 1000} s budget a case); `
    + `warm-up ≤ ${warmup}`);

  out(`Code: ${codeVersion()}`);

  const started = performance.now();
  let runEngines = engines;
  if (engines.includes('postgres')) {
    const reason = await postgresUnavailable();
    if (reason) {
      out(`\nPostgreSQL skipped: cannot connect to ${pgUrl.replace(/\/\/[^@/]*@/, '//…@')}: ${reason}`);
      runEngines = engines.filter((e) => e !== 'postgres');
    } else {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      const { rows } = await client.query<{ server_version: string }>('show server_version');
      await client.end();
      out(`PostgreSQL ${rows[0]?.server_version ?? '?'} at ${pgUrl.replace(/\/\/[^@/]*@/, '//…@')}`);
    }
  }

  const results: RunResult[] = [];
  for (const book of books) {
    for (const engine of runEngines) {
      if (interrupted) break;
      results.push(await runOne(book, engine));
    }
  }

  out('');
  for (const r of results) {
    for (const line of report(r)) out(line);
    out('');
  }
  out('## Summary');
  out('');
  let allMet = true;
  for (const r of results) {
    const target = TARGET_P95_MS[r.book];
    const latencyMisses = r.cases.filter((c) => c.http.p95 >= target).length;
    const httpMisses = r.cases.filter((c) => !c.http.met).length;
    const localMisses = r.cases.filter((c) => !c.local.met).length;
    const maxP95 = Math.max(...r.cases.map((c) => c.http.p95));
    const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
    allMet &&= latencyMisses === 0 && httpMisses === 0 && localMisses === 0;
    const verdict = (misses: number) => (misses === 0 ? 'MET' : `MISSED (${misses} of ${r.cases.length} cases)`);
    out(`- ${r.book} / ${r.engine}: p95 < ${target} ms ${verdict(latencyMisses)}, worst p95 ${fmt(maxP95)} ms; `
      + `tRPC within max(${TARGET_RATIO}x, +${TARGET_EXTRA_MS} ms): over HTTP ${verdict(httpMisses)}, median +${fmt(median(r.cases.map((c) => c.http.extraMs)))} ms; `
      + `in process ${verdict(localMisses)}, median +${fmt(median(r.cases.map((c) => c.local.extraMs)))} ms`);
  }
  out(`- overall: ${results.length === 0 ? 'nothing ran' : allMet ? 'all targets met' : 'some targets missed'}; total bench time ${seconds(performance.now() - started)}`);

  if (flags.json) {
    writeFileSync(flags.json, `${JSON.stringify({
      machine: { cpu: cpu[0]?.model, cores: cpu.length, memoryBytes: os.totalmem(), node: process.version, os: `${os.type()} ${os.release()}` },
      code: codeVersion(), now: NOW.toISOString(), warmup, minSamples, caseBudgetMs, results,
    }, null, 2)}\n`);
    out(`raw results written to ${flags.json}`);
  }
}

main().catch(async (error: unknown) => {
  const cause = error instanceof Error && error.cause !== undefined ? `\ncaused by: ${error.cause instanceof Error ? error.cause.stack ?? error.cause.message : String(error.cause)}` : '';
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}${cause}\n`);
  await Promise.allSettled([...liveSchemas].map(dropSchema));
  process.exit(1);
});
