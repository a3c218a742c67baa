/**
 * Read-path benchmark: every read procedure of the tRPC router, measured four ways interleaved
 * in the same run on the same database: through the real HTTP stack (the backend's server and
 * main's remote connection, an @trpc/client httpLink, a logged-in session), as a backend elsewhere
 * is called; the bare service behind a plain node:http server, called with the same HTTP client
 * (what any transport across the same process boundary costs, without tRPC); through tRPC in
 * process, as the desk calls its embedded book (embeddedConnection's localLink); and as a bare
 * service call (no transport, no tRPC, no zod, no session lookup). Prints p50/p95 per procedure
 * and what tRPC adds, per book and engine, and checks the targets in docs/benchmarks.md: tRPC in
 * process against the bare call, tRPC over HTTP against the bare service over HTTP.
 *
 * Topology: a backend reached over HTTP is a separate process in
 * the product, so by default the backend (its database, PGlite included, and `startBackendServer`)
 * runs in a child process forked from `bench/server-reads-backend.ts` under tsx, and only main's
 * HTTP client runs here. The HTTP call is timed here; the in-process tRPC call and the bare call
 * are timed by the child around the call alone and sent back over IPC (the IPC itself is outside
 * every timing). `--topology one-process` puts everything in this process instead (where a
 * PGlite query, the server and the client share one event loop); `--topology both` runs each
 * book and engine both ways, one after the other. The report names the topology of every figure.
 *
 *   npm run bench                                  # default + 10x book, PGlite + PostgreSQL
 *   npm run bench -- --quick                       # default book only
 *   npm run bench -- --engines pglite              # one engine (pglite | postgres | both, comma-separated)
 *   npm run bench -- --books 10x --n10x 20         # 10x book only, at most 20 measured rounds a case
 *   npm run bench -- --http-in-process             # everything in one process (same as --topology one-process)
 *   npm run bench -- --topology both               # both topologies, one after the other
 *   npm run bench -- --json bench-results.json     # also write the raw numbers
 *   npm run bench -- --help                        # every flag
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); each book is
 * written into a private schema bench_<pid>_<time> that is dropped at the end (also on Ctrl-C,
 * after the backend process is stopped).
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import pg from 'pg';
import { silentLogger } from '../src/infra/log.js';
import { REMOTE_TIMEOUT_MS, connectBackend } from '../src/main/backend/connection.js';
import { type NodeFetch, createNodeFetch } from '../src/main/backend/node-fetch.js';
import {
  BOOKS, type BackendPath, BackendRunner, type BookName, CHILD_FLAG, type Case, type Client, type EngineName, type Ids, NOW, type OpenRequest,
  type Opened, PASSWORD, type Reply, type Request, type Timing, USERNAME, buildCases, caseLabel, timed,
} from './server-reads-backend.js';

// ── configuration ────────────────────────────────────────────────────────────────────────────
const TARGET_P95_MS: Record<BookName, number> = { default: 50, '10x': 150, '100x': 50 };
/** The 100x book's reads stay flat: each case's p95 within this many times the default book's, same engine and topology. */
const TARGET_FLAT_RATIO = 2;
/** The 100x book is written in at most this long (PostgreSQL). */
const TARGET_100X_SEED_MS = 5 * 60_000;
const TARGET_RATIO = 1.5;
const TARGET_EXTRA_MS = 1;

/** Where the HTTP path's backend runs: its own process (as deployed), or the bench's. */
type Topology = 'separate' | 'one-process';
const TOPOLOGY_LABEL: Record<Topology, string> = {
  separate: 'backend in its own process',
  'one-process': 'backend, server and client in one process',
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
        n100x: { type: 'string', default: '20' },
        'min-n': { type: 'string', default: '10' },
        'case-seconds': { type: 'string', default: '4' },
        warmup: { type: 'string', default: '5' },
        topology: { type: 'string' },
        'http-in-process': { type: 'boolean', default: false },
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
  process.stdout.write(`usage: npm run bench -- [--quick] [--engines pglite,postgres] [--books default,10x,100x]
       [--n 50] [--n10x 30] [--n100x 20] [--min-n 10] [--case-seconds 4] [--warmup 5]
       [--topology separate|one-process|both] [--http-in-process] [--json FILE]
  --quick         default book only (same as --books default)
  --topology      where the backend reached over HTTP runs: separate (default; its own process,
                  forked, as deployed), one-process (the bench's own process, with the client,
                  sharing its event loop), or both (each book and engine both ways, one after the other)
  --http-in-process  same as --topology one-process
  --books         default, 10x (both by default) and 100x (5,000 players / 1M bets, PostgreSQL only: its p95s are
                  also held to 2x the default book's, so run it with default: --books default,100x --engines postgres)
  --n, --n10x, --n100x  measured rounds (tRPC over HTTP, bare over HTTP, in process, bare) per case on the default / 10x / 100x book, at most
  --case-seconds  time budget per case: slow cases get fewer rounds, never fewer than --min-n
  --warmup        warm-up rounds per case, at most (stops after ~1 s of warm-up, at least one)
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
const books = flags.quick ? (['default'] as BookName[]) : listFlag(flags.books, ['default', '10x', '100x'] as const, 'books');
const samples: Record<BookName, number> = { default: intFlag(flags.n, 'n'), '10x': intFlag(flags.n10x, 'n10x'), '100x': intFlag(flags.n100x, 'n100x') };
const warmup = intFlag(flags.warmup, 'warmup');
if (flags['http-in-process'] && flags.topology !== undefined) usageError('--http-in-process is --topology one-process: give one of them');
const topologies: Topology[] = flags['http-in-process'] ? ['one-process'] : listFlag(flags.topology ?? 'separate', ['separate', 'one-process'] as const, 'topology');
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
// Backend processes forked by this run: stopped before their schemas are dropped.
const liveChildren = new Set<ChildProcess>();
/** Ends a backend process (SIGTERM, then SIGKILL after 5 s) and resolves when it has gone. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(kill); resolve(); });
    child.kill('SIGTERM');
  });
}
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  out('\ninterrupted: stopping the backend and dropping bench schemas…');
  void Promise.allSettled([...liveChildren].map(stopChild))
    .then(() => Promise.allSettled([...liveSchemas].map(dropSchema)))
    .then(() => process.exit(130));
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

// ── the backend's side ───────────────────────────────────────────────────────────────────────
/**
 * The backend as the bench sees it: the server's address, and the in-process and bare calls of
 * case i timed on the backend's side (its clock, around the call alone).
 */
interface BackendSide {
  readonly opened: Opened;
  /** Logs the session's caller in on the backend's side and builds the cases there; returns their labels. */
  prepare(token: string, ids: Ids): Promise<string[]>;
  call(index: number, path: BackendPath, withValue: boolean): Promise<Timing>;
  /** One session lookup (`resolveSession`), timed. */
  session(): Promise<number>;
  close(): Promise<void>;
}

/** `one-process`: the backend in this process, beside the HTTP client, sharing its event loop. */
async function backendHere(request: OpenRequest): Promise<BackendSide> {
  const runner = await BackendRunner.open(request, true);
  return {
    opened: runner.opened,
    prepare: (token, ids) => runner.prepare(token, ids),
    call: (index, path, withValue) => runner.call(index, path, withValue),
    session: () => runner.session(),
    close: () => runner.close(),
  };
}

const BACKEND_ENTRY = fileURLToPath(new URL('./server-reads-backend.ts', import.meta.url));

/**
 * The backend in its own process: `server-reads-backend.ts` forked under tsx (this process's own
 * loader flags when it runs under tsx, else `--import tsx`), asked over IPC.
 */
async function backendProcess(request: OpenRequest): Promise<BackendSide> {
  const underTsx = process.execArgv.some((arg) => arg.includes('tsx'));
  const child = fork(BACKEND_ENTRY, [CHILD_FLAG], {
    execArgv: underTsx ? process.execArgv : [...process.execArgv, '--import', 'tsx'],
    serialization: 'json',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  liveChildren.add(child);
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let gone: Error | null = null;
  child.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(new Error(`backend process: ${reply.error}`));
  });
  child.on('exit', (code, signal) => {
    liveChildren.delete(child);
    gone = new Error(`the backend process ended (${signal ?? `exit code ${code}`})`);
    for (const waiter of pending.values()) waiter.reject(gone);
    pending.clear();
  });
  child.on('error', (error) => {
    gone ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });
  // Distributive, so each request keeps its own fields without its id.
  type Body = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;
  const ask = <T>(body: Body): Promise<T> => new Promise<T>((resolve, reject) => {
    if (gone) { reject(gone); return; }
    const id = nextId++;
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    child.send({ ...body, id } as Request, (error) => {
      if (error && pending.delete(id)) reject(error);
    });
  });
  try {
    const opened = await ask<Opened>({ op: 'open', open: request });
    return {
      opened,
      prepare: (token, ids) => ask<string[]>({ op: 'prepare', token, ids }),
      call: (index, path, withValue) => ask<Timing>({ op: 'call', index, path, withValue }),
      session: () => ask<number>({ op: 'session' }),
      close: async () => {
        try {
          if (!gone) await ask<null>({ op: 'close' });
        } finally {
          if (child.connected) child.disconnect();
          await stopChild(child);
        }
      },
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

// ── measuring ────────────────────────────────────────────────────────────────────────────────
interface Stats { p50: number; p95: number; min: number; max: number }
/** One way of calling a procedure through tRPC, against the bare service call measured beside it. */
interface Overhead { p50: number; p95: number; ratioP50: number; ratioP95: number; extraMs: number; met: boolean }
interface CaseResult {
  procedure: string; variant: string; n: number;
  /** tRPC over HTTP (a backend elsewhere), tRPC in process (the desk's embedded book), the bare service. */
  http: Overhead; local: Overhead; direct: Stats;
  /** The bare service behind a plain node:http server, called with the same HTTP client as tRPC's link. */
  bareHttp: Stats;
  /** tRPC over HTTP against the bare service over HTTP: what tRPC adds once both cross the same process boundary. */
  httpOverBareHttp: Overhead;
  /** A tRPC answer differed from the bare one (after JSON); a bench bug or an output-schema strip. */
  answersDiffer: boolean;
}
interface RunResult {
  book: BookName; engine: EngineName; topology: Topology; players: number; bets: number; ledgerRows: number;
  seedMs: number; measureMs: number; sessionMs: Stats; healthMs: Stats; cases: CaseResult[];
}

const stats = (xs: number[]): Stats => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), min: s[0]!, max: s[s.length - 1]! };
};

/** The target: a read through tRPC may cost 1.5x the bare call or 1 ms more, whichever allows more. */
const allowedMs = (bareMs: number) => Math.max(bareMs * TARGET_RATIO, bareMs + TARGET_EXTRA_MS);

function overhead(times: number[], direct: Stats): Overhead {
  return overheadOf(stats(times), direct);
}

function overheadOf(t: Stats, direct: Stats): Overhead {
  return {
    p50: t.p50, p95: t.p95, ratioP50: t.p50 / direct.p50, ratioP95: t.p95 / direct.p95,
    extraMs: t.p50 - direct.p50, met: t.p50 <= allowedMs(direct.p50),
  };
}

/**
 * Warms up the four paths, then measures rounds (tRPC over HTTP, bare over HTTP, in process, bare),
 * rotating which goes first so drift and noise hit all alike. Rounds: maxN, or fewer (never below
 * --min-n) when maxN of this case would overrun the per-case time budget. Both HTTP calls are
 * timed here; the other two by the backend (in its own process by default), around the call alone.
 */
async function measure(c: Case, index: number, http: Client, bareHttp: NodeFetch, backend: BackendSide, maxN: number): Promise<CaseResult> {
  const bareUrl = `${backend.opened.bareUrl}/case/${index}`;
  const paths: Array<{ name: 'http' | 'bareHttp' | BackendPath; call: (withValue: boolean) => Promise<Timing> }> = [
    { name: 'http', call: () => timed(() => c.trpc(http)) },
    { name: 'bareHttp', call: () => timed(async () => (await bareHttp(bareUrl)).json()) },
    { name: 'local', call: (withValue) => backend.call(index, 'local', withValue) },
    { name: 'direct', call: (withValue) => backend.call(index, 'direct', withValue) },
  ];
  const first = new Map<string, unknown>();
  let roundMs = 0;
  const warmStarted = performance.now();
  for (let i = 0; i < warmup && (i === 0 || performance.now() - warmStarted < WARMUP_BUDGET_MS); i++) {
    const roundStarted = performance.now();
    for (const path of paths) {
      const { value } = await path.call(!first.has(path.name));
      if (!first.has(path.name)) first.set(path.name, value);
    }
    roundMs = performance.now() - roundStarted;
  }
  const n = Math.max(Math.min(maxN, minSamples), Math.min(maxN, Math.floor(caseBudgetMs / Math.max(roundMs, 0.001))));
  const times: Record<'http' | 'bareHttp' | BackendPath, number[]> = { http: [], bareHttp: [], local: [], direct: [] };
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < paths.length; k++) {
      const path = paths[(i + k) % paths.length]!;
      times[path.name].push((await path.call(false)).ms);
    }
  }
  const direct = stats(times.direct);
  const bareOverHttp = stats(times.bareHttp);
  const bare = viaJson(first.get('direct'));
  return {
    procedure: c.procedure, variant: c.variant, n, direct, bareHttp: bareOverHttp,
    http: overhead(times.http, direct), local: overhead(times.local, direct), httpOverBareHttp: overhead(times.http, bareOverHttp),
    answersDiffer: !isDeepStrictEqual(first.get('http'), bare) || !isDeepStrictEqual(viaJson(first.get('local')), bare)
      || !isDeepStrictEqual(first.get('bareHttp'), bare),
  };
}

async function runOne(book: BookName, engine: EngineName, topology: Topology): Promise<RunResult> {
  const size = BOOKS[book];
  const schema = `bench_${process.pid}_${Date.now().toString(36)}`;
  if (engine === 'postgres') liveSchemas.add(schema);
  try {
    out(`\n→ ${book} book (${size.players.toLocaleString('en-US')} players, ${size.bets.toLocaleString('en-US')} bets) on ${engine}${engine === 'postgres' ? ` (schema ${schema})` : ''}, ${TOPOLOGY_LABEL[topology]}: seeding…`);
    const request: OpenRequest = { book, engine, pgUrl, schema };
    const backend = topology === 'separate' ? await backendProcess(request) : await backendHere(request);
    try {
      const { url, seedMs, ledgerRows } = backend.opened;
      out(`  seeded in ${seconds(seedMs)} (${ledgerRows.toLocaleString('en-US')} ledger rows); measuring…`);
      // Main's own client of a remote backend (connectBackend's httpLink, its fetch over
      // node:http and its deadline), as the desk calls a backend elsewhere.
      const remote = await connectBackend({ mode: 'remote', url }, silentLogger);
      // The bare service over HTTP goes through the same client code as tRPC's link (node-fetch.ts).
      const bareHttp = createNodeFetch(REMOTE_TIMEOUT_MS, (input, init) => fetch(input, init));
      try {
        const token = (await remote.client(null).auth.login.mutate({ username: USERNAME, password: PASSWORD })).token;
        const client = remote.client(token);

        const anita = (await client.agent.searchPlayers.query({ query: 'Anita Desai' })).players.find((p) => p.name === 'Anita Desai');
        const indAus = (await client.match.searchFixtures.query({ query: 'India vs Australia' })).fixtures.find((f) => f.name === 'India vs Australia');
        if (!anita || !indAus) throw new Error('the demo book lacks Anita Desai or India vs Australia');
        const ids: Ids = { anita: anita.id, indAus: indAus.id };
        // Both sides build the list from the same ids: the backend's labels must be these.
        const cases = buildCases(ids);
        const labels = await backend.prepare(token, ids);
        if (!isDeepStrictEqual(labels, cases.map(caseLabel))) throw new Error('the backend built a different case list');

        const measureStarted = performance.now();
        // The fixed costs every tRPC call pays on top of its query: an HTTP round trip (from this
        // process) and the session lookup (on the backend's side).
        const sessionTimes: number[] = [];
        const healthTimes: number[] = [];
        for (let i = 0; i < 10 + 50; i++) {
          const session = await backend.session();
          const health = await timed(async () => (await fetch(`${url}/health`)).text());
          if (i >= 10) { sessionTimes.push(session); healthTimes.push(health.ms); }
        }
        const results: CaseResult[] = [];
        for (const [index, c] of cases.entries()) {
          if (interrupted) break;
          const r = await measure(c, index, client, bareHttp, backend, samples[book]);
          results.push(r);
          process.stdout.write(`  ${caseLabel(c).padEnd(58)} p50 http ${fmt(r.http.p50).padStart(6)} / bare over http ${fmt(r.bareHttp.p50).padStart(6)}`
            + ` / in process ${fmt(r.local.p50).padStart(6)} / bare ${fmt(r.direct.p50).padStart(6)} ms  n=${r.n}\n`);
        }
        return {
          book, engine, topology, players: size.players, bets: size.bets, ledgerRows, seedMs,
          measureMs: performance.now() - measureStarted, sessionMs: stats(sessionTimes), healthMs: stats(healthTimes), cases: results,
        };
      } finally {
        bareHttp.close();
        await remote.close();
      }
    } finally {
      await backend.close();
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
  lines.push(`### ${r.book} book on ${r.engine === 'pglite' ? 'PGlite (in-memory)' : 'PostgreSQL'}, ${TOPOLOGY_LABEL[r.topology]}`);
  lines.push('');
  lines.push(`${r.players.toLocaleString('en-US')} players, ${r.bets.toLocaleString('en-US')} bets, ${r.ledgerRows.toLocaleString('en-US')} ledger rows; `
    + `seeded in ${seconds(r.seedMs)}; measured in ${seconds(r.measureMs)}. `
    + (r.topology === 'separate'
      ? 'Both HTTP paths timed in the bench\'s process against the backend in its own; in process and bare timed in the backend\'s process. '
      : 'Backend, servers and HTTP clients all in the bench\'s process. ')
    + `Fixed costs: HTTP round trip (GET /health) p50 ${fmt(r.healthMs.p50)} ms; `
    + `session lookup p50 ${fmt(r.sessionMs.p50)} ms (p95 ${fmt(r.sessionMs.p95)} ms), answered from the session cache after a token's first call. `
    + `Each tRPC cell: p50 ms (+ms over the baseline, ratio); ❌ = over the allowance, max(${TARGET_RATIO}x, +${TARGET_EXTRA_MS} ms) of the baseline. `
    + 'Baselines: the bare call for tRPC in process; the bare service over HTTP (a plain node:http server in the backend\'s process, the same client) for tRPC over HTTP. '
    + '"HTTP vs bare" is tRPC over HTTP against the bare call in process, the process boundary included (a figure, not judged: see docs/benchmarks.md). n = measured rounds of the four paths.');
  lines.push('');
  lines.push('| procedure | tRPC over HTTP (vs bare over HTTP) | HTTP p95 | bare over HTTP | HTTP vs bare | tRPC in process (vs bare) | bare p50 | bare p95 | n |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const c of r.cases) {
    const miss = c.http.p95 >= target ? ' ❌' : '';
    const name = `${c.procedure}${c.variant ? ` (${c.variant})` : ''}${c.answersDiffer ? ' †' : ''}`;
    lines.push(`| ${name} | ${overheadCell(c.httpOverBareHttp)} | ${fmt(c.http.p95)}${miss} | ${fmt(c.bareHttp.p50)} | +${fmt(c.http.extraMs)}, ${fmtRatio(c.http.ratioP50)}${c.http.met ? '' : ' (over)'} `
      + `| ${overheadCell(c.local)} | ${fmt(c.direct.p50)} | ${fmt(c.direct.p95)} | ${c.n} |`);
  }
  lines.push('');
  const latencyMisses = r.cases.filter((c) => c.http.p95 >= target);
  const worst = [...r.cases].sort((a, b) => b.http.p95 - a.http.p95)[0];
  const httpMisses = missList(r.cases, (c) => c.httpOverBareHttp);
  const localMisses = missList(r.cases, (c) => c.local);
  const boundaryWithin = r.cases.filter((c) => c.http.met).length;
  lines.push(`Targets (${r.book} book, ${r.engine}, ${TOPOLOGY_LABEL[r.topology]}): p95 over HTTP < ${target} ms: `
    + (latencyMisses.length === 0
      ? `**met** by all ${r.cases.length} cases (worst: ${worst ? `${worst.procedure} (${worst.variant}) ${fmt(worst.http.p95)} ms` : 'n/a'})`
      : `**MISSED** by ${latencyMisses.length}/${r.cases.length}: ${latencyMisses.map((c) => `${c.procedure} (${c.variant}) ${fmt(c.http.p95)} ms`).join('; ')}`)
    + `. tRPC p50 within max(${TARGET_RATIO}x, +${TARGET_EXTRA_MS} ms) of the bare service, in process: `
    + (localMisses ? `**MISSED** by ${r.cases.filter((c) => !c.local.met).length}/${r.cases.length}: ${localMisses}` : `**met** by all ${r.cases.length} cases`)
    + '; over HTTP, against the bare service over the same HTTP: '
    + (httpMisses ? `**MISSED** by ${r.cases.filter((c) => !c.httpOverBareHttp.met).length}/${r.cases.length}: ${httpMisses}` : `**met** by all ${r.cases.length} cases`)
    + `. Over HTTP against the bare call in process (the process boundary included, not judged): ${boundaryWithin} of ${r.cases.length} within, `
    + `median +${fmt(medianOf(r.cases.map((c) => c.http.extraMs)))} ms, of which the bare service over HTTP pays +${fmt(medianOf(r.cases.map((c) => c.bareHttp.p50 - c.direct.p50)))} ms.`);
  if (r.cases.some((c) => c.answersDiffer)) {
    lines.push('');
    lines.push('† an answer over tRPC or plain HTTP differed from the bare call\'s (after a JSON round trip) on the first warm-up call.');
  }
  return lines;
}

const medianOf = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

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
    + `rounds per case: default ≤ ${samples.default}, 10x ≤ ${samples['10x']} (≥ ${minSamples}, ~${caseBudgetMs / 1000} s budget a case); `
    + `warm-up ≤ ${warmup}`);
  out(`HTTP topology: ${topologies.map((t) => TOPOLOGY_LABEL[t]).join('; then ')}`);

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
      for (const topology of topologies) {
        if (interrupted) break;
        // A million bets in an in-memory PGlite is gigabytes of heap: the 100x book is PostgreSQL's.
        if (book === '100x' && engine === 'pglite') {
          out(`\n→ 100x book on pglite: skipped (PostgreSQL only)`);
          continue;
        }
        results.push(await runOne(book, engine, topology));
      }
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
    const httpMisses = r.cases.filter((c) => !c.httpOverBareHttp.met).length;
    const localMisses = r.cases.filter((c) => !c.local.met).length;
    const maxP95 = Math.max(...r.cases.map((c) => c.http.p95));
    // Flat in the size of the book: each case of the 100x book against the same case of the default book, same engine and topology.
    const base = r.book === '100x' ? results.find((o) => o.book === 'default' && o.engine === r.engine && o.topology === r.topology) : undefined;
    const flatMisses = base ? r.cases.filter((c) => {
      const b = base.cases.find((o) => o.procedure === c.procedure && o.variant === c.variant);
      return b !== undefined && c.http.p95 > TARGET_FLAT_RATIO * b.http.p95;
    }) : [];
    const seedMissed = r.book === '100x' && r.seedMs > TARGET_100X_SEED_MS;
    allMet &&= latencyMisses === 0 && httpMisses === 0 && localMisses === 0 && flatMisses.length === 0 && !seedMissed && !r.cases.some((c) => c.answersDiffer);
    const verdict = (misses: number) => (misses === 0 ? 'MET' : `MISSED (${misses} of ${r.cases.length} cases)`);
    out(`- ${r.book} / ${r.engine} (${TOPOLOGY_LABEL[r.topology]}): p95 < ${target} ms ${verdict(latencyMisses)}, worst p95 ${fmt(maxP95)} ms; `
      + `tRPC within max(${TARGET_RATIO}x, +${TARGET_EXTRA_MS} ms): in process ${verdict(localMisses)}, median +${fmt(medianOf(r.cases.map((c) => c.local.extraMs)))} ms; `
      + `over HTTP (against the bare service over HTTP) ${verdict(httpMisses)}, median +${fmt(medianOf(r.cases.map((c) => c.httpOverBareHttp.extraMs)))} ms; `
      + `over HTTP against the bare call in process (not judged): ${r.cases.filter((c) => c.http.met).length} of ${r.cases.length} within, median +${fmt(medianOf(r.cases.map((c) => c.http.extraMs)))} ms`
      + (r.book !== '100x' ? '' : `; seeded in ${seconds(r.seedMs)}, ≤ ${seconds(TARGET_100X_SEED_MS)} ${seedMissed ? 'MISSED' : 'MET'}`)
      + (r.book !== '100x' ? '' : !base ? '; flatness not judged (no default book on this engine in this run)'
        : `; HTTP p95 ≤ ${TARGET_FLAT_RATIO}x the default book's ${flatMisses.length === 0 ? 'MET'
          : `MISSED (${flatMisses.map((c) => `${caseLabel(c)} ${fmt(c.http.p95)} ms`).join('; ')})`}`)
      + `${r.cases.some((c) => c.answersDiffer) ? '; ANSWERS DIFFER (†)' : ''}`);
  }
  out(`- overall: ${results.length === 0 ? 'nothing ran' : allMet ? 'all targets met' : 'some targets missed'}; total bench time ${seconds(performance.now() - started)}`);
  // `npm run bench` (bench/all.ts) reads a missed target from the exit code, as every bench says it.
  if (results.length === 0 || !allMet) process.exitCode = 1;

  if (flags.json) {
    writeFileSync(flags.json, `${JSON.stringify({
      machine: { cpu: cpu[0]?.model, cores: cpu.length, memoryBytes: os.totalmem(), node: process.version, os: `${os.type()} ${os.release()}` },
      code: codeVersion(), now: NOW.toISOString(), warmup, minSamples, caseBudgetMs, topologies, results,
    }, null, 2)}\n`);
    out(`raw results written to ${flags.json}`);
  }
}

main().catch(async (error: unknown) => {
  // Ctrl-C stops the backend process, which fails the call waiting on it: the SIGINT handler cleans up and exits.
  if (interrupted) return;
  const cause = error instanceof Error && error.cause !== undefined ? `\ncaused by: ${error.cause instanceof Error ? error.cause.stack ?? error.cause.message : String(error.cause)}` : '';
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}${cause}\n`);
  await Promise.allSettled([...liveChildren].map(stopChild));
  await Promise.allSettled([...liveSchemas].map(dropSchema));
  process.exit(1);
});
