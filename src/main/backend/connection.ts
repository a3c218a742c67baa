import { randomUUID } from 'node:crypto';
import { type Operation, type TRPCClient, TRPCClientError, type TRPCLink, httpLink, httpSubscriptionLink, localLink, splitLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { EventSource } from 'eventsource';
import { type Backend, openBackend } from '../../server/backend.js';
import { embeddedDatabaseConfig } from '../../server/db/client.js';
import { warmUp } from '../../server/services/warm-up.js';
import { REQUEST_ID } from '../../server/http.js';
import type { BookOptions } from '../../server/seed/generate.js';
import type { Logger } from '../../infra/log.js';
import type { BookProgress } from '../../shared/contracts/startup.js';
import { BusinessClock } from '../../shared/business-clock.js';
import { createNodeFetch } from './node-fetch.js';
import { createPromiseClient } from './promise-client.js';
import { type AppRouter, appRouter } from '../../server/trpc/router.js';

export type BackendClient = TRPCClient<AppRouter>;

/**
 * How main reaches the backend: the same typed client whether the backend runs embedded in this
 * process (called in-process, no HTTP) or as a server at BACKEND_URL. Only main holds tokens.
 */
export interface BackendConnection {
  readonly mode: 'embedded' | 'remote';
  /** Remote only: the server's base address, for what is not tRPC (a report's download, `GET /reports/<id>`). */
  readonly url?: string;
  client(token: string | null): BackendClient;
  /** The terminating link `client` is made of: what a connection that is still opening hands calls on to. */
  link(token: string | null): TRPCLink<AppRouter>;
  /**
   * The backend's business clock, main's one "now" for what it records and shows (audit entries,
   * proposals' expiry, mutes): the embedded backend's own clock, or a remote one's as last read
   * (`auth.me` answers; the desk reads it on sign-in and every probe).
   */
  readonly clock: BusinessClock;
  close(): Promise<void>;
}

export type BackendConfig =
  | { mode: 'embedded'; dataDir: string; clock?: string; now?: () => Date; book?: Partial<BookOptions> }
  | { mode: 'remote'; url: string; timeoutMs?: number };

/**
 * The correlation id of a call: a chat turn passes its request id on every backend call it makes
 * (`callOptions`), and the backend logs each procedure under it. Remote, it travels as the
 * `x-request-id` header; embedded, it is the local link's context. A call without one gets a fresh id.
 */
export const callOptions = (requestId: string, signal?: AbortSignal) => ({ context: { requestId }, ...(signal && { signal }) });

function requestIdOf(op: Operation): string {
  const id = op.context.requestId;
  return typeof id === 'string' && REQUEST_ID.test(id) ? id : randomUUID();
}

/** How long main waits for a remote backend's answer before calling it unreachable. */
export const REMOTE_TIMEOUT_MS = 10_000;

/** `onProgress`: an embedded backend writing a new demo book reports each step (the login page shows it). */
export async function connectBackend(config: BackendConfig, log: Logger, onProgress?: (progress: BookProgress) => void): Promise<BackendConnection> {
  if (config.mode === 'remote') {
    const base = new URL('/trpc', config.url).toString();
    const timeoutMs = config.timeoutMs ?? REMOTE_TIMEOUT_MS;
    // A backend that accepts the connection and never answers would otherwise hold the page (and a
    // chat turn) for ever: every call gets a deadline, on top of the caller's own cancellation.
    // Calls go over node:http on kept-alive sockets rather than the global fetch (`node-fetch.ts` says why).
    const fetchWithDeadline = createNodeFetch(timeoutMs, (url, init) => fetch(url, init));
    const link = (token: string | null): TRPCLink<AppRouter> => {
      const headers = (op: Operation) => ({ 'x-request-id': requestIdOf(op), ...(token ? { authorization: `Bearer ${token}` } : {}) });
      return splitLink({
            condition: (op) => op.type === 'subscription',
            // Server-sent events, which never end, so no deadline: the server pings and the link
            // reconnects after a silence, resuming from the last event id. Node has no EventSource
            // of its own, and the browser's cannot send headers; this one takes a fetch that can.
            true: httpSubscriptionLink({
              url: base,
              EventSource,
              eventSourceOptions: ({ op }) => {
                const extra = headers(op);
                return { fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, ...extra } }) };
              },
            }),
            false: httpLink({ url: base, fetch: fetchWithDeadline, headers: ({ op }) => headers(op) }),
          });
    };
    return {
      mode: 'remote',
      url: config.url,
      link,
      clock: new BusinessClock(),
      client: (token) => createPromiseClient<AppRouter>(link(token)),
      close: async () => { fetchWithDeadline.close(); },
    };
  }
  const backend: Backend = await openBackend({
    database: embeddedDatabaseConfig(config.dataDir),
    seedDemoIfEmpty: true,
    log,
    ...(config.clock !== undefined && { clock: config.clock }),
    ...(config.now && { now: config.now }),
    ...(config.book && { book: config.book }),
    ...(onProgress && { onProgress }),
  });
  // While the login page waits for someone to type; a failure only costs the first reads their speed.
  const warming = performance.now();
  await warmUp(backend.deps).then(
    (as) => log.info('first reads warmed', { as, ms: Math.round(performance.now() - warming) }),
    (error: unknown) => log.warn('warming the first reads failed', { err: error }),
  );
  log.info('embedded backend ready', { engine: backend.database.engine, book: backend.book });
  return embeddedConnection(backend, log);
}

/**
 * A backend opened in this process, called in-process through tRPC's local link (no HTTP). The
 * local link runs subscriptions too (`events.stream` as an async iterator) and resumes one from
 * its last tracked id when the procedure fails with a retryable error.
 */
export function embeddedConnection(backend: Backend, log: Logger): BackendConnection {
  // One local link per call, so the backend's context carries that call's request id.
  const link = (token: string | null): TRPCLink<AppRouter> => (runtime) => (opts) => {
    const requestId = requestIdOf(opts.op);
    return localLink<AppRouter>({
      router: appRouter,
      createContext: async () => ({ deps: backend.deps, token, requestId, log: log.child({ requestId }), clientAddress: 'embedded' }),
    })(runtime)(opts);
  };
  const clock = new BusinessClock();
  clock.follow({ now: backend.deps.now, kind: backend.deps.clockKind ?? 'real' });
  return {
    mode: 'embedded',
    link,
    clock,
    client: (token) => createPromiseClient<AppRouter>(link(token)),
    close: () => backend.database.close(),
  };
}

/**
 * A connection usable before it is open: calls made meanwhile wait for it, then go through it as
 * if it had been open all along (and fail as it failed, if it could not open). The browser shell
 * serves its login page at once instead of after the embedded book has opened (about a second).
 */
export function openingConnection(config: BackendConfig, opening: Promise<BackendConnection>): BackendConnection {
  let open: BackendConnection | null = null;
  // One clock from the start: main may stamp something before the book is open.
  const clock = new BusinessClock();
  opening.then((connection) => {
    open = connection;
    clock.follow(connection.clock);
  }, () => undefined);
  const link = (token: string | null): TRPCLink<AppRouter> => (runtime) => {
    let inner: ReturnType<TRPCLink<AppRouter>> | null = null;
    return ({ op, next }) => observable((observer) => {
      let subscription: { unsubscribe(): void } | null = null;
      let ended = false;
      opening.then((connection) => {
        if (ended) return;
        inner ??= connection.link(token)(runtime);
        subscription = inner({ op, next }).subscribe(observer);
      }, (error: unknown) => {
        if (!ended) observer.error(TRPCClientError.from(error instanceof Error ? error : new Error(String(error))));
      });
      return () => {
        ended = true;
        subscription?.unsubscribe();
      };
    });
  };
  return {
    mode: config.mode,
    ...(config.mode === 'remote' && { url: config.url }),
    clock,
    link: (token) => (open ? open.link(token) : link(token)),
    client: (token) => (open ? open.client(token) : createPromiseClient<AppRouter>(link(token))),
    close: async () => {
      const connection = await opening.catch(() => null);
      await connection?.close();
    },
  };
}

/** BACKEND_URL names a running server; otherwise the backend runs embedded, its database in `dataDir`. */
export function backendConfigFromEnv(env: NodeJS.ProcessEnv, dataDir: string): BackendConfig {
  const url = env.BACKEND_URL?.trim();
  if (url) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`BACKEND_URL must be http(s), got ${parsed.protocol}`);
    return { mode: 'remote', url };
  }
  return { mode: 'embedded', dataDir, ...(env.CLOCK !== undefined && { clock: env.CLOCK }) };
}
