/**
 * The backend side of `bench/server-reads.ts`: the database and `startBackendServer`, and the two
 * paths measured beside HTTP (tRPC in process through `embeddedConnection`'s local link, and the
 * bare service call), timed where the backend runs.
 *
 * By default the bench forks this file (`fork(…, ['--server-reads-backend'])`, under tsx's
 * loader) so that the backend runs in its own process, as a backend reached over HTTP does in the
 * product; the bench's process keeps only main's HTTP client. The child answers the bench over IPC
 * (`process.send`, JSON): each request names a case and a path, and the answer is the
 * milliseconds the child measured around that one call with its own clock (plus, when asked once
 * per case, the answer itself for the equality check). With `--topology one-process` the bench
 * runs the same `BackendRunner` in its own process instead.
 *
 * The case list is built on both sides by `buildCases` from the same ids, so case i is the same
 * procedure and input in both processes (the parent checks the labels match); the parent uses
 * each case's `trpc`, the backend its `trpc` (on the local link) and `direct`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { createTRPCClient } from '@trpc/client';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import * as api from '../src/shared/contracts/agent-api.js';
import { type Backend, openBackend } from '../src/server/backend.js';
import type { DatabaseConfig } from '../src/server/db/client.js';
import { type BackendServer, startBackendServer } from '../src/server/http.js';
import { silentLogger } from '../src/infra/log.js';
import { embeddedConnection } from '../src/main/backend/connection.js';
import { DEFAULT_BOOK } from '../src/server/seed/generate.js';
import { resolveSession } from '../src/server/services/auth.js';
import { getCreditLimit, getDownline, getTake, getUpline } from '../src/server/services/book.js';
import type { Caller, ServiceDeps } from '../src/server/services/caller.js';
import { getLiveExposure } from '../src/server/services/exposure.js';
import { getBetHistory, getSettlementHistory } from '../src/server/services/history.js';
import { getCommission, getPnL, getTopMarkets } from '../src/server/services/pnl.js';
import { searchFixtures, searchPlayers } from '../src/server/services/search.js';
import type { AppRouter } from '../src/server/trpc/router.js';

// ── shared between the bench and its backend ─────────────────────────────────────────────────
export const NOW = new Date('2026-11-20T06:30:00Z');
export const USERNAME = 'priya';
export const PASSWORD = 'demo-priya';

export type BookName = 'default' | '10x' | '100x';
export type EngineName = 'pglite' | 'postgres';
export const BOOKS: Record<BookName, { players: number; bets: number }> = {
  default: { players: DEFAULT_BOOK.players, bets: DEFAULT_BOOK.bets },
  '10x': { players: DEFAULT_BOOK.players * 10, bets: DEFAULT_BOOK.bets * 10 },
  // The size the reads must stay flat to: 5,000 players, a million bets (PostgreSQL only).
  '100x': { players: 5_000, bets: 1_000_000 },
};

export type Client = ReturnType<typeof createTRPCClient<AppRouter>>;

export interface Case {
  /** Procedure path, as in the router. */
  procedure: string;
  /** What this input exercises. */
  variant: string;
  /** The call through a tRPC client: over HTTP, or in process as the desk's embedded connection makes it. */
  trpc: (client: Client) => Promise<unknown>;
  /** The bare service call, on the backend's deps as the session's caller. */
  direct: (deps: ServiceDeps, caller: Caller) => Promise<unknown>;
}

export interface Ids { anita: string; indAus: string }

export const caseLabel = (c: Pick<Case, 'procedure' | 'variant'>) => `${c.procedure} ${c.variant}`;

/**
 * Each case is one procedure with one realistic input; the direct side gets the same input after
 * the contract's own parse (so defaults such as `limit` are the ones tRPC applies), parsed once
 * outside the timed region. Deterministic: the same ids give the same list in every process.
 */
export function buildCases(ids: Ids): Case[] {
  const cases: Case[] = [];
  const add = (procedure: string, variant: string, trpc: Case['trpc'], direct: Case['direct']) =>
    cases.push({ procedure, variant, trpc, direct });
  const lastMonth = { from: '2026-10-01', to: '2026-10-31' };

  for (const [variant, query] of [['"Rahul" (prefix)', 'Rahul'], ['"Anitha" (fuzzy)', 'Anitha']] as const) {
    const input = api.searchPlayersInput.parse({ query });
    add('agent.searchPlayers', variant, (client) => client.agent.searchPlayers.query({ query }),
      async (deps, caller) => ({ players: await searchPlayers(deps, caller, input.query, input.limit) }));
  }
  {
    const input = api.getDownlineInput.parse({});
    add('agent.getDownline', 'depth 2 (default)', (client) => client.agent.getDownline.query({}), (deps, caller) => getDownline(deps, caller, input));
  }
  for (const [variant, raw] of [['direct downline', {}], ['one player', { playerId: ids.anita }]] as const) {
    const takeInput = api.getTakeInput.parse(raw);
    add('agent.getTake', variant, (client) => client.agent.getTake.query(raw), (deps, caller) => getTake(deps, caller, takeInput));
  }
  for (const [variant, raw] of [['direct downline', {}], ['one player', { playerId: ids.anita }]] as const) {
    const clInput = api.getCreditLimitInput.parse(raw);
    add('agent.getCreditLimit', variant, (client) => client.agent.getCreditLimit.query(raw), (deps, caller) => getCreditLimit(deps, caller, clInput));
  }
  for (const [variant, raw] of [['total', {}], ['one fixture', { fixtureId: ids.indAus }]] as const) {
    const input = api.getLiveExposureInput.parse(raw);
    add('agent.getLiveExposure', variant, (client) => client.agent.getLiveExposure.query(raw), (deps, caller) => getLiveExposure(deps, caller, input));
  }
  for (const [variant, raw] of [
    ['today', {}],
    ['last month', lastMonth],
    ['last month, one player', { ...lastMonth, playerId: ids.anita }],
  ] as const) {
    const input = api.getPnLInput.parse(raw);
    add('agent.getPnL', variant, (client) => client.agent.getPnL.query(raw), (deps, caller) => getPnL(deps, caller, input));
  }
  {
    const input = api.getCommissionInput.parse(lastMonth);
    add('agent.getCommission', 'last month', (client) => client.agent.getCommission.query(lastMonth), (deps, caller) => getCommission(deps, caller, input));
  }
  for (const [variant, raw] of [['first page', {}], ['one player', { counterpartyId: ids.anita }]] as const) {
    const input = api.getSettlementHistoryInput.parse(raw);
    add('agent.getSettlementHistory', variant, (client) => client.agent.getSettlementHistory.query(raw), (deps, caller) => getSettlementHistory(deps, caller, input));
  }
  const betInputs: Array<[string, z.input<typeof api.getBetHistoryInput>]> = [
    ['first page, unfiltered', {}],
    ['one player', { playerId: ids.anita }],
    ['open bets on a fixture', { fixtureId: ids.indAus, status: ['open'] }],
  ];
  for (const [variant, raw] of betInputs) {
    const input = api.getBetHistoryInput.parse(raw);
    add('agent.getBetHistory', variant, (client) => client.agent.getBetHistory.query(raw), (deps, caller) => getBetHistory(deps, caller, input));
  }
  add('agent.getUpline', '', (client) => client.agent.getUpline.query({}), (deps, caller) => getUpline(deps, caller));
  for (const [variant, raw] of [
    ['week by volume', { period: 'week', metric: 'volume' }],
    ['week by pnl', { period: 'week', metric: 'pnl' }],
    ['month by volume', { period: 'month', metric: 'volume' }],
    ['by exposure', { period: 'today', metric: 'exposure' }],
  ] as const) {
    const input = api.getTopMarketsInput.parse(raw);
    add('agent.getTopMarkets', variant, (client) => client.agent.getTopMarkets.query(raw), (deps, caller) => getTopMarkets(deps, caller, input));
  }
  for (const [variant, query] of [['"India vs Australia"', 'India vs Australia'], ['"IND v AUS" (codes)', 'IND v AUS']] as const) {
    const input = api.searchFixturesInput.parse({ query });
    add('match.searchFixtures', variant, (client) => client.match.searchFixtures.query({ query }),
      async (deps) => ({ fixtures: await searchFixtures(deps, input.query, input.limit) }));
  }
  return cases;
}

export async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; value: unknown }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

// ── the backend ──────────────────────────────────────────────────────────────────────────────
export interface OpenRequest { book: BookName; engine: EngineName; pgUrl: string; schema: string }
/**
 * `url`: the backend's own server (tRPC). `bareUrl`: a plain node:http server in the same process
 * that answers `GET /case/<i>` with case i's bare service call as JSON, nothing else: no tRPC, no
 * session, no zod. It is the bare call as another process can reach it, so tRPC over HTTP can be
 * told apart from the round trip between two processes that any transport pays.
 */
export interface Opened { url: string; bareUrl: string; seedMs: number; ledgerRows: number }
/** One measured call on the backend's side: its milliseconds, and its answer when asked. */
export interface Timing { ms: number; value?: unknown }
export type BackendPath = 'local' | 'direct';

async function countRows(backend: Backend, table: string): Promise<number> {
  const result = (await backend.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

/**
 * The backend (database + HTTP server) and the two paths timed on its side. The same class runs in
 * the forked backend process (default) and in the bench's own process (`--topology one-process`).
 */
export class BackendRunner {
  private calls: Array<Record<BackendPath, () => Promise<unknown>>> = [];
  private token = '';

  private constructor(readonly backend: Backend, readonly server: BackendServer, private readonly bareServer: http.Server, readonly opened: Opened) {}

  /**
   * Seeds the book and starts the server on port 0. `sharedProcess`: the HTTP client runs in this
   * process too, so the server's idle timeout is raised (below); a backend in its own process
   * keeps the server's own 5 s, as deployed.
   */
  static async open(request: OpenRequest, sharedProcess: boolean): Promise<BackendRunner> {
    const database: DatabaseConfig = request.engine === 'pglite'
      ? { engine: 'pglite' }
      : { engine: 'postgres', url: request.pgUrl, schema: request.schema };
    const seedStarted = performance.now();
    const backend = await openBackend({ database, seedDemoIfEmpty: true, book: BOOKS[request.book], now: () => new Date(NOW) });
    try {
      const seedMs = performance.now() - seedStarted;
      const ledgerRows = await countRows(backend, 'ledger');
      const server = await startBackendServer(backend.deps, silentLogger, { port: 0 });
      // Client and server in one process, with PGlite running queries synchronously: a query of
      // several seconds freezes both keep-alive timers, and when they fire together the server can
      // close an idle socket the client is reusing ("fetch failed"). A long server idle timeout
      // keeps that one-process race out of the numbers; a request still pays no new connection.
      // In separate processes the client drops an idle socket at 4 s, before the server's 5 s.
      if (sharedProcess) server.server.keepAliveTimeout = 120_000;
      let runner: BackendRunner | null = null;
      const bareServer = http.createServer((req, res) => {
        const index = /^\/case\/(\d+)$/.exec(req.url ?? '')?.[1];
        const call = index === undefined ? undefined : runner?.calls[Number(index)]?.direct;
        if (!call) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no case at ${req.url}` }));
          return;
        }
        call().then((value) => {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        }, (error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
        });
      });
      bareServer.keepAliveTimeout = server.server.keepAliveTimeout;
      await new Promise<void>((resolve, reject) => {
        bareServer.once('error', reject);
        bareServer.listen(0, '127.0.0.1', () => resolve());
      });
      const barePort = (bareServer.address() as AddressInfo).port;
      runner = new BackendRunner(backend, server, bareServer, { url: server.url, bareUrl: `http://127.0.0.1:${barePort}`, seedMs, ledgerRows });
      return runner;
    } catch (error) {
      await backend.database.close();
      throw error;
    }
  }

  /** The session's caller and the desk's local link for `token`, and the cases; returns the case labels. */
  async prepare(token: string, ids: Ids): Promise<string[]> {
    this.token = token;
    const caller = await resolveSession(this.backend.deps, token);
    // The desk's own link to an embedded book: tRPC in process, the same router, context and middleware.
    const local = embeddedConnection(this.backend, silentLogger).client(token);
    const deps = this.backend.deps;
    const cases = buildCases(ids);
    this.calls = cases.map((c) => ({ local: () => c.trpc(local), direct: () => c.direct(deps, caller) }));
    return cases.map(caseLabel);
  }

  /** Times one call of case `index` on `path`; the answer is returned only when asked. */
  async call(index: number, path: BackendPath, withValue: boolean): Promise<Timing> {
    const call = this.calls[index]?.[path];
    if (!call) throw new Error(`no case ${index}`);
    const { ms, value } = await timed(call);
    return withValue ? { ms, value } : { ms };
  }

  /** The per-request session lookup, timed (the cached path after the token's first call). */
  async session(): Promise<number> {
    return (await timed(() => resolveSession(this.backend.deps, this.token))).ms;
  }

  async close(): Promise<void> {
    try {
      await new Promise<void>((resolve) => {
        this.bareServer.close(() => resolve());
        this.bareServer.closeAllConnections();
      });
      await this.server.close();
    } finally {
      await this.backend.database.close();
    }
  }
}

// ── the forked backend process ───────────────────────────────────────────────────────────────
export const CHILD_FLAG = '--server-reads-backend';

export type Request =
  | { id: number; op: 'open'; open: OpenRequest }
  | { id: number; op: 'prepare'; token: string; ids: Ids }
  | { id: number; op: 'call'; index: number; path: BackendPath; withValue: boolean }
  | { id: number; op: 'session' }
  | { id: number; op: 'close' };
export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

async function childMain(): Promise<void> {
  const send = process.send!.bind(process);
  let runner: BackendRunner | null = null;
  // Ctrl-C reaches the whole process group: the bench decides (it stops this process, then drops
  // the schema), so this process ignores it. It ends with the bench's IPC channel.
  process.on('SIGINT', () => {});
  process.on('disconnect', () => {
    void (runner?.close() ?? Promise.resolve()).catch(() => {}).finally(() => process.exit(0));
  });
  const handle = async (request: Request): Promise<unknown> => {
    switch (request.op) {
      case 'open':
        if (runner) throw new Error('the backend is already open');
        runner = await BackendRunner.open(request.open, false);
        return runner.opened;
      case 'prepare': return need(runner).prepare(request.token, request.ids);
      case 'call': return need(runner).call(request.index, request.path, request.withValue);
      case 'session': return need(runner).session();
      case 'close': {
        const open = runner;
        runner = null;
        await open?.close();
        return null;
      }
    }
  };
  process.on('message', (message: Request) => {
    handle(message).then(
      (result) => send({ id: message.id, ok: true, result } satisfies Reply),
      (error: unknown) => send({ id: message.id, ok: false, error: error instanceof Error ? error.stack ?? error.message : String(error) } satisfies Reply),
    );
  });
}

function need(runner: BackendRunner | null): BackendRunner {
  if (!runner) throw new Error('the backend is not open');
  return runner;
}

if (typeof process.send === 'function' && process.argv.includes(CHILD_FLAG)) void childMain();
