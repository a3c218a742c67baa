/**
 * `npm run load -- --agents 100 --rate 10 --minutes 30 [--backends 2] [--max-error-rate 0.001] [--keep] [--seed S]`
 * (docs/benchmarks.md, "Load"): many agents at their desks, each calling tools at --rate a minute, against
 * the standalone backend on PostgreSQL.
 *
 * The calls go through the tool layer the desk uses — createToolRegistry over a tRPC client of the
 * backend — so validation, retries, breakers and envelopes are all in the figures. Mostly reads;
 * about one call in twenty-five is a settlement or a limit edit, each previewed (`prepare`) and then
 * run confirmed with an idempotency key and the preview's snapshot, as a confirmed proposal runs.
 *
 * Pacing is open-loop: each agent's calls arrive as a Poisson process of --rate a minute whether or
 * not its earlier calls have answered, so a slow backend shows up as latency, not as a lower rate.
 *
 * The backend: BACKEND_URL (comma-separated for several) if set; otherwise a fresh database
 * `load_<pid>` on the local PostgreSQL (LOAD_DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres names the server), seeded with the demo book by
 * `npm run seed` in a child process, served by
 * --backends child processes of `npm run server` (LOG_LEVEL warn unless set) that the client
 * round-robins between; the database is dropped afterwards unless --keep.
 *
 * Many simulated agents share the demo book's five agent logins, each with a session of its own
 * and a tool registry (so breakers) of its own, as each desk has. An agent starts calling as soon
 * as its own sign-in has answered and calls for --minutes from then; a sign-in refused as busy (503)
 * is tried again after its Retry-After.
 * Prints a progress line per interval, then per tool p50/p95/p99, counts and error rates, the first
 * minute's p95, the drift
 * of p95 from the first to the last five minutes (fifths, for a run under 25 minutes), and memory.
 * Exit 1 when the error rate is above --max-error-rate; 2 on a bad command line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { TRPCClientError, createTRPCClient, httpLink } from '@trpc/client';
import pg from 'pg';
import { z } from 'zod';
import type { BackendClient } from '../src/main/backend/connection.js';
import { previewSnapshotSchema } from '../src/main/confirm/snapshot.js';
import { createToolRegistry } from '../src/main/tools/registry.js';
import type { ToolContext, ToolPreview, ToolRegistry } from '../src/main/tools/types.js';
import { loadCast } from '../src/server/seed/cast.js';
import { SeededRandom } from '../src/server/seed/random.js';
import type { AppRouter } from '../src/server/trpc/router.js';
import type { User } from '../src/shared/contracts/agent-api.js';
import { UsageError, parseFlags } from './lib/command-line.js';
import { freePort, healthy } from './lib/processes.js';
import type { Envelope } from '../src/shared/contracts/assistant.js';

const USAGE = 'usage: npm run load -- --agents N --rate CALLS_PER_MINUTE --minutes M [--backends B] [--max-error-rate R] [--keep] [--seed S]';
const MINUTE = 60_000;
/** The drift compares windows of at most five minutes at either end of the run. */
const DRIFT_WINDOW_MS = 5 * MINUTE;
/** How long one call may take before the client gives up (as the desk's remote connection). */
const CALL_TIMEOUT_MS = 10_000;
/** Sign-ins at once: each is an Argon2 verification on the backend, which is meant to be slow. */
const LOGIN_CONCURRENCY = 4;
/** How often a sign-in is tried before the run gives up, when the backend was busy or did not answer in time. */
const SIGN_IN_ATTEMPTS = 10;

export const loadOptions = z.object({
  agents: z.number().int().positive().max(10_000),
  /** Tool calls a minute, per agent. */
  rate: z.number().positive().max(600),
  durationMs: z.number().positive().max(24 * 60 * MINUTE),
  backends: z.number().int().min(1).max(8),
  /** A fraction: 0.001 is 0.1 %. */
  maxErrorRate: z.number().min(0).max(1),
  keep: z.boolean(),
  seed: z.string().min(1),
});
export type LoadOptions = z.infer<typeof loadOptions>;

export interface Login { username: string; password: string }

export interface ToolFigures { tool: string; count: number; errors: number; errorRate: number; p50: number; p95: number; p99: number }
export interface MemorySeries { label: string; rssMb: { start: number; end: number; max: number; growth: number }; heapMb: { start: number; end: number; max: number; growth: number } }

export interface LoadReport {
  agents: number;
  rate: number;
  durationMs: number;
  backends: string[];
  /** From the first sign-in to the last: the agents' calls begin as each signs in, inside this. */
  loginMs: number;
  /** From the first sign-in to the last call's end: the sign-ins, then --minutes for the last desk signed in. */
  wallMs: number;
  /** Sign-ins tried again because the backend answered busy or not in time. */
  signInRetries: number;
  /** p95 of the calls that finished in the first minute of the run (sign-ins included): the burst, if there is one. */
  firstMinuteP95: number;
  calls: number;
  /** Calls that failed for a reason other than an expected conflict. */
  errors: number;
  errorRate: number;
  /** A confirmed write refused because a concurrent one moved the state its preview showed (PRECONDITION_FAILED): the guard working. */
  conflicts: number;
  /** Previews the guardrails refused, or that would change nothing: not executed. */
  refusedPreviews: number;
  writes: { settlements: number; limitEdits: number };
  firstErrors: string[];
  tools: ToolFigures[];
  all: ToolFigures;
  drift: { windowMs: number; firstP95: number; lastP95: number; ratio: number };
  /** How late calls started against their schedule: large values mean the driver, not the backend, was the bottleneck. */
  scheduleLagMs: { p99: number; max: number };
  memory: MemorySeries[];
  /** Backend-side errors per procedure and code, read from /metrics (retries the registry hid included). */
  backendErrors: Record<string, number>;
  /** The driver's heap after a full collection before and after the run, when node runs with --expose-gc: what it kept, not what it had not collected yet. */
  driverLiveHeapMb: { start: number; end: number } | null;
}

/** Heap used after a full collection, when the process allows one (--expose-gc). */
function liveHeapMb(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  return round1(process.memoryUsage().heapUsed / 1024 / 1024);
}

/** Read tools by weight (out of 100, with the writes): what an agent at the desk asks most. */
const READS: ReadonlyArray<[string, number]> = [
  ['agent.getDownline', 14], ['agent.getTake', 14], ['agent.getPnL', 12], ['agent.getLiveExposure', 12], ['agent.getBetHistory', 12],
  ['agent.getSettlementHistory', 8], ['agent.getTopMarkets', 8], ['agent.getCreditLimit', 8], ['agent.searchPlayers', 4], ['agent.getUpline', 4],
];
const SETTLE_WEIGHT = 2;
const EDIT_WEIGHT = 2;

interface Player { id: string; name: string; perClickWin: number | null }

interface Agent {
  index: number;
  /** Each desk has its own registry, so its own breakers: one desk's timeouts do not fail the others' calls. */
  registry: ToolRegistry;
  api: BackendClient;
  user: User;
  players: Player[];
  rng: SeededRandom;
  /** When its desk stops calling (ms since the start): --minutes after its own sign-in. */
  until: number;
}

/** A sample: when a call finished (ms since the start) and how long it took. */
interface Sample { at: number; ms: number }

class Recorder {
  readonly perTool = new Map<string, { samples: Sample[]; errors: number }>();
  readonly firstErrors: string[] = [];
  errors = 0;
  conflicts = 0;
  refusedPreviews = 0;
  settlements = 0;
  limitEdits = 0;
  readonly lags: number[] = [];
  /** Per progress interval, reset as it is printed. */
  interval = { calls: 0, errors: 0, ms: [] as number[] };

  constructor(private readonly t0: number) {}

  record(tool: string, envelope: Envelope, ms: number): void {
    let entry = this.perTool.get(tool);
    if (!entry) this.perTool.set(tool, (entry = { samples: [], errors: 0 }));
    entry.samples.push({ at: performance.now() - this.t0, ms });
    this.interval.calls++;
    this.interval.ms.push(ms);
    if (envelope.ok) return;
    if (envelope.error.code === 'PRECONDITION_FAILED') {
      this.conflicts++;
      return;
    }
    entry.errors++;
    this.errors++;
    this.interval.errors++;
    if (this.firstErrors.length < 5) this.firstErrors.push(`${tool}: ${envelope.error.code}: ${envelope.error.message}`);
  }
}

/** Nearest-rank percentile of unsorted values; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function figures(tool: string, samples: readonly Sample[], errors: number): ToolFigures {
  const ms = samples.map((s) => s.ms);
  return {
    tool, count: ms.length, errors, errorRate: ms.length ? errors / ms.length : 0,
    p50: round1(percentile(ms, 50)), p95: round1(percentile(ms, 95)), p99: round1(percentile(ms, 99)),
  };
}

/**
 * A tRPC client like the desk's remote connection (bearer token, x-request-id, a deadline per
 * call), whose requests go to the backends in turn: two instances behind the client's round robin.
 */
export function roundRobinClient(urls: readonly string[], token: string | null): BackendClient {
  const bases = urls.map((u) => new URL(u).origin);
  let next = 0;
  const first = `${bases[0]}/trpc`;
  return createTRPCClient<AppRouter>({
    links: [httpLink({
      url: first,
      headers: () => ({ 'x-request-id': randomUUID(), ...(token ? { authorization: `Bearer ${token}` } : {}) }),
      fetch: (url, init) => {
        const base = bases[next++ % bases.length]!;
        const target = base + String(url).slice(bases[0]!.length);
        const deadline = AbortSignal.timeout(CALL_TIMEOUT_MS);
        return fetch(target, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
      },
    })],
  });
}

/** The five agent logins of the demo book (the cast's passwords, the rest `demo-<username>` as the generator writes them). */
export function demoAgentLogins(): Login[] {
  return loadCast().accounts.filter((a) => a.role === 'agent').map((a) => ({ username: a.username, password: a.password ?? `demo-${a.username}` }));
}

async function inBatches<T, R>(items: readonly T[], size: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let at = 0;
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, async () => {
    while (at < items.length) {
      const i = at++;
      out[i] = await run(items[i]!, i);
    }
  }));
  return out;
}

/** Seconds a busy backend asked a refused call to wait (503 with Retry-After), or null for any other failure. */
export function busyRetryAfterSeconds(error: unknown): number | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as { code?: unknown; retryAfterSeconds?: unknown } | undefined;
  return data?.code === 'SERVICE_UNAVAILABLE' && typeof data.retryAfterSeconds === 'number' ? data.retryAfterSeconds : null;
}

/**
 * auth.login as a person at a sign-in form does it: after a "busy" answer, again once the wait it
 * names has passed; after no answer in time, again a second later. A refusal (a wrong password,
 * a throttled address) ends the run.
 */
async function signIn(client: BackendClient, login: Login, onRetry: () => void): Promise<{ token: string; user: User }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.auth.login.mutate({ username: login.username, password: login.password });
    } catch (error) {
      const unanswered = error instanceof TRPCClientError && typeof (error.data as { code?: unknown } | undefined)?.code !== 'string';
      const wait = busyRetryAfterSeconds(error) ?? (unanswered ? 1 : null);
      if (wait === null || attempt >= SIGN_IN_ATTEMPTS) throw error;
      onRetry();
      await new Promise((r) => setTimeout(r, wait * 1000));
    }
  }
}

/** One of the agent's direct players, by the rows of agent.getCreditLimit (every page). */
async function playersOf(registry: ToolRegistry, ctx: ToolContext): Promise<Player[]> {
  const players: Player[] = [];
  let cursor: string | undefined;
  do {
    const envelope = await registry.call('agent.getCreditLimit', { limit: 200, ...(cursor && { cursor }) }, ctx);
    if (!envelope.ok) throw new Error(`could not list ${ctx.user.username}'s players: ${envelope.error.code}: ${envelope.error.message}`);
    const data = envelope.data as { rows: Array<{ accountId: string; name: string; role: string; perClickWin: number | null }>; nextCursor: string | null };
    for (const row of data.rows) if (row.role === 'player') players.push({ id: row.accountId, name: row.name, perClickWin: row.perClickWin });
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return players;
}

/** Prometheus samples of a name, by their label text (`{...}`, or '' for none). */
export function promSamples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    const match = /^(\{[^}]*\})? (\S+)$/.exec(rest);
    if (match) out.set(match[1] ?? '', Number(match[2]));
  }
  return out;
}

interface MemoryPoint { at: number; rss: number; heap: number }

async function backendMemory(url: string): Promise<{ rss: number; heap: number } | null> {
  try {
    const text = await (await fetch(new URL('/metrics', url), { signal: AbortSignal.timeout(5_000) })).text();
    const rss = promSamples(text, 'process_resident_memory_bytes').get('');
    const heap = promSamples(text, 'nodejs_heap_size_used_bytes').get('');
    return rss === undefined || heap === undefined ? null : { rss, heap };
  } catch {
    return null;
  }
}

function memorySeries(label: string, points: readonly MemoryPoint[], windowMs: number, endAt: number): MemorySeries {
  const mb = (n: number) => round1(n / 1024 / 1024);
  const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const first = points.filter((p) => p.at <= windowMs);
  const last = points.filter((p) => p.at >= endAt - windowMs);
  const of = (key: 'rss' | 'heap') => ({
    start: mb(points[0]?.[key] ?? 0), end: mb(points.at(-1)?.[key] ?? 0), max: mb(Math.max(0, ...points.map((p) => p[key]))),
    growth: mb(mean(last.map((p) => p[key])) - mean(first.map((p) => p[key]))),
  });
  return { label, rssMb: of('rss'), heapMb: of('heap') };
}

export interface RunLoadInput {
  urls: readonly string[];
  agents: number;
  rate: number;
  durationMs: number;
  logins: readonly Login[];
  seed: string;
  /** Progress lines (one per interval); none when absent. */
  print?: (line: string) => void;
  /** Percent of calls that settle, and that edit a limit: 2 and 2 unless given (a short test asks for more). */
  mix?: { settle: number; edit: number };
}

/** The driver's core: signs the agents in, runs the mix for the duration, and measures. */
export async function runLoad(input: RunLoadInput): Promise<LoadReport> {
  const print = input.print ?? (() => {});
  const { settle: settleWeight, edit: editWeight } = input.mix ?? { settle: SETTLE_WEIGHT, edit: EDIT_WEIGHT };
  const anonymous = roundRobinClient(input.urls, null);

  const liveAtStart = liveHeapMb();
  const t0 = performance.now();
  const rec = new Recorder(t0);
  const call = async (agent: Agent, tool: string, args: unknown, mode: 'call' | 'prepare' = 'call', extra: Partial<ToolContext> = {}): Promise<Envelope> => {
    const ctx: ToolContext = { api: agent.api, user: agent.user, requestId: randomUUID(), ...extra };
    const started = performance.now();
    const envelope = mode === 'prepare'
      ? await agent.registry.prepare(tool, args, ctx)
      : await agent.registry.call(tool, args, ctx, extra.idempotencyKey ? { confirmed: true } : {});
    rec.record(mode === 'prepare' ? `${tool} (preview)` : tool, envelope, performance.now() - started);
    return envelope;
  };

  /** A destructive tool as a confirmed proposal runs it: preview, then the frozen call with its key and snapshot. */
  const confirmed = async (agent: Agent, tool: string, args: Record<string, unknown>): Promise<boolean> => {
    const preview = await call(agent, tool, args, 'prepare');
    if (!preview.ok) return false;
    const { snapshot, refusal, noOp } = preview.data as ToolPreview;
    if (refusal !== null || noOp) {
      rec.refusedPreviews++;
      return false;
    }
    const done = await call(agent, tool, args, 'call', { idempotencyKey: randomUUID().replaceAll('-', ''), expected: previewSnapshotSchema.parse(snapshot) });
    return done.ok;
  };

  const act = async (agent: Agent): Promise<void> => {
    const { rng } = agent;
    const roll = rng.next() * 100;
    const player = agent.players.length ? rng.pick(agent.players) : null;
    if (player && roll < settleWeight) {
      // The agent reads the player's take, then settles a part of it (the whole of it would leave nothing for the next).
      const take = await call(agent, 'agent.getTake', { playerId: player.id });
      const owed = take.ok ? Math.abs((take.data as { rows: Array<{ take: number }> }).rows[0]?.take ?? 0) : 0;
      if (owed === 0) return;
      if (await confirmed(agent, 'agent.settlePlayer', { playerId: player.id, mode: 'amount', amount: Math.max(1, Math.floor(owed / 20)) })) rec.settlements++;
      return;
    }
    if (player && roll < settleWeight + editWeight) {
      // Nudges the per-click win by a point either way around what the book had, so it never wanders off.
      const base = player.perClickWin ?? 1_000_000;
      const newValue = Math.max(100, base + rng.int(-2, 2) * 100);
      if (await confirmed(agent, 'agent.editLimit', { playerId: player.id, limitType: 'perClickWin', newValue })) rec.limitEdits++;
      return;
    }
    let r = rng.next() * READS.reduce((a, [, w]) => a + w, 0);
    const tool = READS.find(([, w]) => (r -= w) < 0)?.[0] ?? READS[0]![0];
    const args: Record<string, unknown> = {};
    switch (tool) {
      case 'agent.getDownline': args.depth = rng.pick([1, 2, 2, 3]); break;
      case 'agent.getTake': if (player && rng.chance(0.3)) args.playerId = player.id; break;
      case 'agent.getPnL': if (player && rng.chance(0.2)) args.playerId = player.id; break;
      case 'agent.getBetHistory':
        args.limit = 50;
        if (player && rng.chance(0.4)) args.playerId = player.id;
        else if (rng.chance(0.3)) args.status = ['open'];
        break;
      case 'agent.getTopMarkets': Object.assign(args, { period: rng.pick(['today', 'week', 'month']), metric: rng.pick(['pnl', 'volume', 'exposure']), limit: 10 }); break;
      case 'agent.getCreditLimit': args.limit = 50; break;
      case 'agent.searchPlayers': args.query = (player?.name ?? 'a').slice(0, rng.int(2, 5)); break;
      default: break;
    }
    await call(agent, tool, args);
  };

  // Memory: every backend's /metrics and this process, sampled through the run.
  const sampleEveryMs = Math.max(1_000, Math.min(15_000, input.durationMs / 40));
  const memory = new Map<string, MemoryPoint[]>([...input.urls.map((u) => [u, []] as [string, MemoryPoint[]]), ['driver', []]]);
  const sampleMemory = async () => {
    const at = performance.now() - t0;
    await Promise.all(input.urls.map(async (u) => {
      const m = await backendMemory(u);
      if (m) memory.get(u)!.push({ at, ...m });
    }));
    const own = process.memoryUsage();
    memory.get('driver')!.push({ at, rss: own.rss, heap: own.heapUsed });
  };
  await sampleMemory();
  const sampler = setInterval(() => void sampleMemory(), sampleEveryMs);

  const progressEveryMs = Math.max(1_000, Math.min(MINUTE, input.durationMs / 10));
  const progress = setInterval(() => {
    const { calls, errors, ms } = rec.interval;
    rec.interval = { calls: 0, errors: 0, ms: [] };
    print(`${((performance.now() - t0) / 1000).toFixed(0)} s: ${calls} calls, ${errors} errors, p50 ${round1(percentile(ms, 50))} ms, p95 ${round1(percentile(ms, 95))} ms`);
  }, progressEveryMs);

  // Open-loop arrivals: each agent's next call is scheduled from the previous schedule, never from an answer.
  const meanGapMs = MINUTE / input.rate;
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const schedule = (agent: Agent, at: number) => {
    if (at >= agent.until) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      rec.lags.push(Math.max(0, performance.now() - t0 - at));
      const running = act(agent).catch((error: unknown) => {
        rec.errors++;
        if (rec.firstErrors.length < 5) rec.firstErrors.push(`driver: ${error instanceof Error ? error.message : String(error)}`);
      }).finally(() => inFlight.delete(running));
      inFlight.add(running);
      schedule(agent, at - meanGapMs * Math.log(1 - agent.rng.next()));
    }, Math.max(0, at - (performance.now() - t0)));
    timers.add(timer);
  };

  // Sign-in as desks do it: an agent starts calling as soon as its own sign-in has answered (and
  // its first call comes a Poisson gap after that, as every later one does), not when the last of
  // a thousand has. People reach their desks over minutes, not in one instant, and a backend can
  // sign them in no faster than it hashes their passwords: the first calls cannot arrive sooner
  // than the sign-ins do. The agents of one login share its player list, read once.
  const playersByUser = new Map<string, Promise<Player[]>>();
  let signInRetries = 0;
  let lastUntil = 0;
  const loginStarted = performance.now();
  const signIns = inBatches(Array.from({ length: input.agents }, (_, i) => input.logins[i % input.logins.length]!), LOGIN_CONCURRENCY * input.urls.length,
    async (login, index) => {
      const session = await signIn(anonymous, login, () => signInRetries++);
      const agent: Agent = {
        index, registry: createToolRegistry(), api: roundRobinClient(input.urls, session.token), user: session.user, players: [],
        rng: new SeededRandom(`load:${input.seed}:${index}`), until: 0,
      };
      let players = playersByUser.get(session.user.id);
      if (!players) {
        players = playersOf(agent.registry, { api: agent.api, user: agent.user, requestId: randomUUID() });
        playersByUser.set(session.user.id, players);
      }
      agent.players = await players;
      const from = performance.now() - t0;
      agent.until = from + input.durationMs;
      lastUntil = Math.max(lastUntil, agent.until);
      schedule(agent, from - meanGapMs * Math.log(1 - agent.rng.next()));
    });
  const signedIn = signIns.then(() => {
    const ms = Math.round(performance.now() - loginStarted);
    print(`signed in ${input.agents} agents in ${(ms / 1000).toFixed(1)} s`);
    return ms;
  });

  let loginMs: number;
  try {
    // Each desk calls for the run's minutes after its own sign-in; a sign-in that fails for good ends the run.
    loginMs = await signedIn;
    await new Promise((r) => setTimeout(r, Math.max(0, lastUntil - (performance.now() - t0))));
  } finally {
    for (const timer of timers) clearTimeout(timer);
    clearInterval(progress);
    clearInterval(sampler);
  }
  await Promise.all([...inFlight]);
  const endAt = performance.now() - t0;
  await sampleMemory();
  const liveAtEnd = liveHeapMb();

  // Backend-side errors, with what the registry's retries hid.
  const backendErrors: Record<string, number> = {};
  for (const url of input.urls) {
    try {
      const text = await (await fetch(new URL('/metrics', url), { signal: AbortSignal.timeout(5_000) })).text();
      for (const [labels, n] of promSamples(text, 'agent_desk_request_errors_total')) {
        const m = /procedure="([^"]+)",code="([^"]+)"/.exec(labels);
        if (m && n > 0) backendErrors[`${m[1]} ${m[2]}`] = (backendErrors[`${m[1]} ${m[2]}`] ?? 0) + n;
      }
      // Refused at the door, before tRPC: busy (503, Retry-After), by gate.
      for (const [labels, n] of promSamples(text, 'agent_desk_requests_refused_busy_total')) {
        const m = /gate="([^"]+)"/.exec(labels);
        if (m && n > 0) backendErrors[`busy (${m[1]})`] = (backendErrors[`busy (${m[1]})`] ?? 0) + n;
      }
    } catch { /* a backend without /metrics (an older one at BACKEND_URL) has none to give */ }
  }

  const tools = [...rec.perTool.entries()].map(([tool, e]) => figures(tool, e.samples, e.errors)).sort((a, b) => b.count - a.count);
  const everything = [...rec.perTool.values()].flatMap((e) => e.samples);
  const calls = everything.length;
  const windowMs = Math.min(DRIFT_WINDOW_MS, input.durationMs / 5);
  const firstP95 = percentile(everything.filter((s) => s.at <= windowMs).map((s) => s.ms), 95);
  const firstMinuteP95 = percentile(everything.filter((s) => s.at <= MINUTE).map((s) => s.ms), 95);
  const lastP95 = percentile(everything.filter((s) => s.at >= endAt - windowMs).map((s) => s.ms), 95);
  return {
    agents: input.agents, rate: input.rate, durationMs: input.durationMs, backends: [...input.urls], loginMs, wallMs: Math.round(endAt), signInRetries, firstMinuteP95: round1(firstMinuteP95),
    calls, errors: rec.errors, errorRate: calls ? rec.errors / calls : 0, conflicts: rec.conflicts, refusedPreviews: rec.refusedPreviews,
    writes: { settlements: rec.settlements, limitEdits: rec.limitEdits }, firstErrors: rec.firstErrors,
    tools, all: figures('all', everything, [...rec.perTool.values()].reduce((a, e) => a + e.errors, 0)),
    drift: { windowMs, firstP95: round1(firstP95), lastP95: round1(lastP95), ratio: firstP95 > 0 ? Math.round((lastP95 / firstP95) * 100) / 100 : 0 },
    scheduleLagMs: { p99: round1(percentile(rec.lags, 99)), max: round1(Math.max(0, ...rec.lags)) },
    memory: [...memory.entries()].map(([label, points]) => memorySeries(label === 'driver' ? 'driver' : `backend ${label}`, points, windowMs, endAt)),
    backendErrors,
    driverLiveHeapMb: liveAtStart !== null && liveAtEnd !== null ? { start: liveAtStart, end: liveAtEnd } : null,
  };
}

export function formatReport(r: LoadReport): string {
  const pct = (x: number) => `${(x * 100).toFixed(3)} %`;
  const lines = [
    `load: ${r.agents} agents × ${r.rate} calls/min for ${(r.durationMs / MINUTE).toFixed(2)} min on ${r.backends.length} backend(s) (${r.backends.join(', ')}); sign-in ${(r.loginMs / 1000).toFixed(1)} s (${r.signInRetries} tried again)`,
    `calls ${r.calls} (${(r.calls / (r.wallMs / 1000)).toFixed(1)}/s over ${(r.wallMs / 1000).toFixed(0)} s), errors ${r.errors} (${pct(r.errorRate)}), write conflicts ${r.conflicts}, previews refused or no-op ${r.refusedPreviews}, settlements ${r.writes.settlements}, limit edits ${r.writes.limitEdits}`,
    '',
    `${'tool'.padEnd(36)} ${'count'.padStart(7)} ${'errors'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`,
    ...[...r.tools, r.all].map((t) => `${t.tool.padEnd(36)} ${String(t.count).padStart(7)} ${String(t.errors).padStart(7)} ${t.p50.toFixed(1).padStart(8)} ${t.p95.toFixed(1).padStart(8)} ${t.p99.toFixed(1).padStart(8)}`),
    '',
    `first minute (sign-ins included): p95 ${r.firstMinuteP95} ms`,
    `p95 drift: first ${(r.drift.windowMs / 1000).toFixed(0)} s ${r.drift.firstP95} ms → last ${(r.drift.windowMs / 1000).toFixed(0)} s ${r.drift.lastP95} ms: ×${r.drift.ratio}`,
    `schedule lag (driver): p99 ${r.scheduleLagMs.p99} ms, max ${r.scheduleLagMs.max} ms`,
    ...r.memory.map((m) => `memory ${m.label}: RSS ${m.rssMb.start} → ${m.rssMb.end} MB (max ${m.rssMb.max}, last window − first ${m.rssMb.growth >= 0 ? '+' : ''}${m.rssMb.growth}); heap used ${m.heapMb.start} → ${m.heapMb.end} MB (max ${m.heapMb.max}, last window − first ${m.heapMb.growth >= 0 ? '+' : ''}${m.heapMb.growth})`),
    ...(r.driverLiveHeapMb ? [`driver heap after a full GC: ${r.driverLiveHeapMb.start} → ${r.driverLiveHeapMb.end} MB`] : []),
    `backend errors (from /metrics, refusals included): ${Object.keys(r.backendErrors).length ? Object.entries(r.backendErrors).map(([k, n]) => `${k} ${n}`).join(', ') : 'none'}`,
  ];
  if (r.firstErrors.length) lines.push('first errors:', ...r.firstErrors.map((e) => `  ${e}`));
  return lines.join('\n');
}

export function parseCommandLine(argv: string[]): LoadOptions {
  const { values, num } = parseFlags(argv, {
    agents: { type: 'string' }, rate: { type: 'string' }, minutes: { type: 'string' }, backends: { type: 'string' },
    'max-error-rate': { type: 'string' }, keep: { type: 'boolean' }, seed: { type: 'string' },
  });
  const parsed = loadOptions.safeParse({
    agents: num('agents', 100), rate: num('rate', 10), durationMs: num('minutes') * MINUTE, backends: num('backends', 1),
    maxErrorRate: num('max-error-rate', 0.001), keep: values.keep === true, seed: typeof values.seed === 'string' ? values.seed : 'load',
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; '));
  return parsed.data;
}

function runToEnd(child: ChildProcess, what: string): Promise<void> {
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`${what} exited with ${code}`))));
  });
}

/** A backend child on its feet, or the reason it is not (it exited, or 120 s passed). */
async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the backend at ${url} exited with ${child.exitCode}`);
    if (await healthy(url)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the backend at ${url} did not become healthy in 120 s`);
}

const root = resolve(new URL('..', import.meta.url).pathname);

async function main(): Promise<number> {
  let options: LoadOptions;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  const print = (l: string) => process.stdout.write(`${l}\n`);
  const children: ChildProcess[] = [];
  let dropDatabase: (() => Promise<void>) | null = null;
  try {
    let urls: string[];
    const given = process.env.BACKEND_URL?.trim();
    if (given) {
      urls = given.split(',').map((u) => u.trim()).filter(Boolean);
    } else {
      const server = new URL(process.env.LOAD_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
      const name = `load_${process.pid}`;
      const admin = async (statement: string) => {
        const client = new pg.Client({ connectionString: server.toString() });
        await client.connect();
        try {
          await client.query(statement);
        } finally {
          await client.end();
        }
      };
      await admin(`CREATE DATABASE ${name}`);
      dropDatabase = async () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      const databaseUrl = new URL(server);
      databaseUrl.pathname = `/${name}`;
      // Written by `npm run seed` in a process of its own: a backend that generated the book itself
      // would carry the generator's garbage and start its measured minutes in a long collection.
      const seeding = performance.now();
      await runToEnd(spawn(process.execPath, ['--import', 'tsx', 'src/server/seed/cli.ts'], {
        cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DATABASE_URL: databaseUrl.toString() },
      }), 'npm run seed');
      print(`database ${name}: demo book written in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
      urls = [];
      for (let i = 0; i < options.backends; i++) {
        const port = await freePort();
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
          cwd: root, stdio: ['ignore', 'inherit', 'inherit'],
          env: { ...process.env, DATABASE_URL: databaseUrl.toString(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', SEED_DEMO: '0' },
        });
        children.push(child);
        const url = `http://127.0.0.1:${port}`;
        await waitHealthy(url, child);
        urls.push(url);
      }
      print(`backends: ${urls.join(', ')} (pids ${children.map((c) => c.pid).join(', ')})`);
    }
    const report = await runLoad({ urls, agents: options.agents, rate: options.rate, durationMs: options.durationMs, logins: demoAgentLogins(), seed: options.seed, print });
    print('');
    print(formatReport(report));
    if (report.errorRate > options.maxErrorRate) {
      print(`FAIL: error rate ${(report.errorRate * 100).toFixed(3)} % is above --max-error-rate ${(options.maxErrorRate * 100).toFixed(3)} %`);
      return 1;
    }
    return 0;
  } finally {
    await Promise.all(children.map((child) => new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    })));
    if (dropDatabase && !options.keep) await dropDatabase();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  main().then((code) => { process.exitCode = code; }, (error: unknown) => {
    process.stderr.write(`load failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
