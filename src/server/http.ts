import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { TRPCError } from '@trpc/server';
import { type BulkheadPolicy, BulkheadRejectedError, bulkhead } from 'cockatiel';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { reportLink } from '../shared/contracts/reports.js';
import type { Logger } from '../infra/log.js';
import type { ServiceDeps } from './services/caller.js';
import { resolveSession } from './services/auth.js';
import { retryAfterSeconds } from './services/login-throttle.js';
import { openDownload } from './services/reports.js';
import { type JsonHandlerOptions, createJsonHandler } from './trpc/node-handler.js';
import { appRouter } from './trpc/router.js';
import { serverMetrics } from './metrics.js';

/** Bodies above this are refused before parsing (a huge string is a client error, not a load). */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * Calls one batched request may carry. Every list procedure caps its page, so a full batch of
 * full pages stays near a megabyte; without this cap a few kilobytes of request could ask for
 * tens of megabytes of answer.
 */
export const MAX_BATCH_CALLS = 10;
/** GET inputs ride in the URL; past this the input belongs in a POST body (Node itself cuts all headers at 16 KiB). */
export const MAX_URL_BYTES = 8 * 1024;

export const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * How many requests one gate runs at once, how many more wait for a place before the rest are
 * refused, and how long one waits before it is refused all the same.
 */
export interface GateLimits { running: number; waiting: number; waitMs: number }

/**
 * The bounds on what one backend takes on at once. Past them a request is answered at once with
 * 503 and Retry-After, rather than queued until the client's own deadline (10 s) passes: a client
 * told "busy, come back in a second" can retry or say so, one left waiting learns nothing.
 */
export interface AdmissionLimits {
  /** Every tRPC call but sign-ins and event streams. */
  calls: GateLimits;
  /** `auth.login`: an Argon2 verification each, CPU on libuv's pool that the reads need too. */
  signIns: GateLimits;
}

/**
 * - calls: 32 running is four times the database pool (db/client.ts), enough to keep every
 *   connection busy while the answers of others are written; 256 waiting drain in under 2.5 s
 *   at 100 calls a second (one backend served about 175 a second in `npm run load`). A backend
 *   starved of CPU drains far slower, so a call is also refused once it has waited 2 s: a quick
 *   "busy" then, rather than an answer that comes after the client stopped waiting.
 * - sign-ins: one core's worth fewer than the machine has, so hashing never takes every core from
 *   the calls; a sign-in takes tens of milliseconds, so 64 waiting is a few seconds, and a person
 *   at a sign-in form waits 5 s before being told to try again.
 */
export const DEFAULT_ADMISSION: AdmissionLimits = {
  calls: { running: 32, waiting: 256, waitMs: 2_000 },
  signIns: { running: Math.max(1, availableParallelism() - 1), waiting: 64, waitMs: 5_000 },
};

/** What a refused client is told to wait, in seconds: about what a full queue takes to drain. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** The path of a sign-in; a batch that holds one is gated as a sign-in. */
const SIGN_IN = 'auth.login';

export interface BackendServer {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

/**
 * How /trpc/ is served: the router, its limits, the context of a call and the headers of a
 * refusal. `createJsonHandler` serves it; the tests hand the same options to tRPC's standalone
 * adapter and compare the two.
 */
export function backendTRPCOptions(deps: ServiceDeps, log: Logger): JsonHandlerOptions {
  return {
    router: appRouter,
    basePath: '/trpc/',
    maxBodySize: MAX_BODY_BYTES,
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: (req, res) => {
      const header = req.headers['x-request-id'];
      const requestId = typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
      res.setHeader('x-request-id', requestId);
      const auth = req.headers.authorization;
      const token = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7).trim() : null;
      // The TCP peer, not X-Forwarded-For: a header is whatever the client says it is.
      const clientAddress = req.socket.remoteAddress ?? 'unknown';
      return { deps, token, requestId, log: log.child({ requestId }), clientAddress };
    },
    // A refused sign-in says when to come back, in the header HTTP clients know too.
    errorHeaders: (errors) => {
      const wait = retryAfterSeconds(errors);
      return wait === null ? {} : { 'retry-after': String(wait) };
    },
  };
}

/**
 * cockatiel's bulkheads around tRPC calls, one for sign-ins and one for the rest. A call holds its
 * place until its answer is written or its client goes; a waiting call whose client goes leaves
 * the queue. Event streams never end on their own and are not gated.
 */
function admissionGate(limits: AdmissionLimits) {
  const gates = {
    calls: bulkhead(limits.calls.running, limits.calls.waiting),
    signIns: bulkhead(limits.signIns.running, limits.signIns.waiting),
  };
  return (req: http.IncomingMessage, res: http.ServerResponse, path: string, serve: () => void): void => {
    if (req.headers.accept?.includes('text/event-stream')) {
      serve();
      return;
    }
    const kind = path.slice('/trpc/'.length).split(',').some((p) => decodeURIComponentSafe(p) === SIGN_IN) ? 'signIns' : 'calls';
    const gate: BulkheadPolicy = gates[kind];
    const limit = limits[kind];
    const refuse = (reason: 'full' | 'waited') => {
      serverMetrics.requestsRefusedBusy.inc({ gate: kind });
      const what = kind === 'signIns' ? 'sign-ins' : 'calls';
      const message = reason === 'waited'
        ? `the backend is busy (this call waited ${limit.waitMs / 1000} s for one of ${limit.running} places for ${what}): try again in ${BUSY_RETRY_AFTER_SECONDS} s`
        : `the backend is busy (${limit.running} ${what} running and ${limit.waiting} waiting): try again in ${BUSY_RETRY_AFTER_SECONDS} s`;
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) });
      res.end(JSON.stringify({
        error: { message, code: TRPC_ERROR_CODES_BY_KEY.SERVICE_UNAVAILABLE, data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS } },
      }));
    };
    // Either ends a wait: the client leaving, or the wait running out. The bulkhead drops a
    // cancelled call when its turn comes; the timer answers the waiting client when its time is up.
    const left = new AbortController();
    const expired = new AbortController();
    let started = false;
    const closed = new Promise<void>((resolve) => res.once('close', () => {
      left.abort();
      resolve();
    }));
    const timer = setTimeout(() => {
      if (started || left.signal.aborted) return;
      expired.abort();
      refuse('waited');
    }, limit.waitMs);
    gate.execute(() => {
      started = true;
      clearTimeout(timer);
      if (res.destroyed) return undefined;
      serve();
      return closed;
    }, AbortSignal.any([left.signal, expired.signal])).catch((error: unknown) => {
      clearTimeout(timer);
      if (error instanceof BulkheadRejectedError) refuse('full');
      // Otherwise cancelled while waiting: nobody to answer, or already told it was busy.
    });
  };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function createBackendHandler(deps: ServiceDeps, log: Logger, admission: AdmissionLimits = DEFAULT_ADMISSION): http.RequestListener {
  const trpc = createJsonHandler(backendTRPCOptions(deps, log));
  const admit = admissionGate(admission);
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ ok: true }));
      return;
    }
    if (path === '/metrics' && req.method === 'GET') {
      // Prometheus text; counts and timings only, no ids or amounts (the backend listens on loopback unless HOST says otherwise).
      serverMetrics.registry.metrics().then((text) => {
        res.writeHead(200, { 'content-type': serverMetrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(text);
      }, (error: unknown) => {
        log.error('metrics failed', { err: error });
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'internal error' }));
      });
      return;
    }
    const download = path ? REPORT_PATH.exec(path) : null;
    if (download && (req.method === 'GET' || req.method === 'HEAD')) {
      void serveReport(deps, log, req, res, download[1]!);
      return;
    }
    if (path?.startsWith('/trpc/')) {
      const refusal = transportRefusal(req);
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ error: { message: refusal.message, code: refusal.rpcCode, data: { code: refusal.code, httpStatus: refusal.status } } }));
        return;
      }
      admit(req, res, path, () => trpc(req, res));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'not found' }));
  };
}

const REPORT_PATH = /^\/reports\/([0-9a-fA-F-]{36})$/;

function bearerToken(req: http.IncomingMessage): string | null {
  const auth = req.headers.authorization;
  return typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7).trim() : null;
}

/**
 * `GET /reports/<id>?u=&exp=&sig=`: the signed link and the session of the user it names, both
 * required (a link alone, forwarded or leaked, downloads nothing). The file goes out in chunks
 * read from the database one at a time, waiting for the socket to drain between them.
 */
async function serveReport(deps: ServiceDeps, log: Logger, req: http.IncomingMessage, res: http.ServerResponse, artifactId: string): Promise<void> {
  const requestId = randomUUID();
  try {
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    const parsed = reportLink.safeParse({ artifactId: artifactId.toLowerCase(), userId: query.get('u'), exp: Number(query.get('exp')), sig: query.get('sig') });
    if (!parsed.success) throw new TRPCError({ code: 'BAD_REQUEST', message: 'not a report link: it needs u, exp and sig' });
    const caller = await resolveSession(deps, bearerToken(req));
    if (caller.role === 'player') throw new TRPCError({ code: 'FORBIDDEN', message: 'the agent desk is for agents' });
    const file = await openDownload(deps, caller, parsed.data);
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-length': String(file.totalBytes),
      'content-disposition': `attachment; filename="${file.fileName}"`,
      'cache-control': 'private, no-store',
      'x-request-id': requestId,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    for await (const chunk of file.chunks()) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
    }
    res.end();
    log.info('report download', { requestId, artifactId, bytes: file.totalBytes });
  } catch (error) {
    const trpcError = error instanceof TRPCError ? error : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'internal error', cause: error });
    if (trpcError.code === 'INTERNAL_SERVER_ERROR') log.error('report download failed', { requestId, artifactId, err: error });
    if (res.headersSent) {
      // Mid-file: cut the connection so the client sees a broken download, not a short file.
      res.destroy();
      return;
    }
    res.writeHead(getHTTPStatusCodeFromError(trpcError), { 'content-type': 'application/json', 'x-request-id': requestId });
    res.end(JSON.stringify({ error: { message: trpcError.code === 'INTERNAL_SERVER_ERROR' ? 'internal error' : trpcError.message, code: trpcError.code } }));
  }
}

interface TransportRefusal { status: number; code: 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE'; rpcCode: number; message: string }

/**
 * Limits checked before tRPC reads anything, each answered in tRPC's error shape with a message
 * that names the limit. tRPC enforces the body and batch limits itself too, but says only
 * "PAYLOAD_TOO_LARGE" or "Batch call exceeds maximum size".
 */
function transportRefusal(req: http.IncomingMessage): TransportRefusal | null {
  const url = req.url ?? '/';
  if (Buffer.byteLength(url) > MAX_URL_BYTES) {
    return { status: 414, code: 'BAD_REQUEST', rpcCode: -32600, message: `the URL is over ${MAX_URL_BYTES} bytes: send a large input as a POST body` };
  }
  const length = Number(req.headers['content-length']);
  if (Number.isFinite(length) && length > MAX_BODY_BYTES) {
    return { status: 413, code: 'PAYLOAD_TOO_LARGE', rpcCode: -32013, message: `the request body is over ${MAX_BODY_BYTES} bytes` };
  }
  const query = url.indexOf('?');
  if (query >= 0 && new URLSearchParams(url.slice(query + 1)).get('batch') === '1') {
    // Counted as tRPC will read the path: decoded, so an encoded comma separates calls too.
    let path = url.slice(0, query);
    try {
      path = decodeURIComponent(path);
    } catch { /* tRPC refuses a path that does not decode */ }
    const calls = path.split(',').length;
    if (calls > MAX_BATCH_CALLS) {
      return { status: 400, code: 'BAD_REQUEST', rpcCode: -32600, message: `a batch holds at most ${MAX_BATCH_CALLS} calls; this one has ${calls}` };
    }
  }
  return null;
}

/** Listens on host:port (port 0 picks a free one) and resolves once it is accepting. */
export async function startBackendServer(deps: ServiceDeps, log: Logger, options: { port: number; host?: string; admission?: AdmissionLimits }): Promise<BackendServer> {
  const handler = createBackendHandler(deps, log, options.admission);
  // Event streams never finish on their own, so server.close() would wait for them for ever; they
  // are cut on close instead (a client resumes from its last event id on another backend or later).
  const streams = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (req.headers.accept?.includes('text/event-stream')) {
      streams.add(res);
      res.once('close', () => streams.delete(res));
    }
    handler(req, res);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    server,
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeIdleConnections();
      for (const res of streams) res.destroy();
    }),
  };
}
