import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, sep } from 'node:path';
import type { Logger } from '../../infra/log.js';
import { SLOT_CLAIM_HEADER, SLOT_CLAIM_PATH } from '../../shared/contracts/slot-claim.js';
import type { StartupAnswer, StartupState } from '../../shared/contracts/startup.js';
// Types only, and small modules: the page is served before the runtime (the desk router, the
// backend, the assistant) has loaded, which takes most of a second (bench/ui.ts, start-up).
import type { DeskServices } from '../desk/router.js';
import type { DeskSessions } from '../desk/sessions.js';
import { isOwnOrigin, slotCookie, slotFromCookie } from '../desk/senders.js';
import type { ConnectionSlot, DeskSocket } from './desk-socket.js';
import { DOWNLOAD_PATH, DownloadSaver } from './downloads.js';
import { SlotRegistry } from './session-slots.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2',
};

/** Request headers larger than this get 431 (Node's default, stated here so the limit is ours). */
const MAX_HEADER_BYTES = 16 * 1024;

/** The most calls one WebSocket frame may carry. */
export const MAX_WS_BATCH = 50;

export interface BrowserShell {
  url: string;
  /** How many slots the shell remembers now (bounded; see SlotRegistry). */
  slotCount(): number;
  /** Where the desk's saves go: one-time download addresses on this server. */
  downloads: DownloadSaver;
  /** Resolves once no request and no desk message has come for `ms`, counted from the call (work that can wait goes then). */
  idle(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** The path of an origin-form request target, decoded; null when it is not one or does not decode. */
export function requestPath(target: string | undefined): string | null {
  if (!target || !target.startsWith('/')) return null;
  const raw = target.split(/[?#]/, 1)[0]!;
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return path.includes('\0') ? null : path;
}

/** Answers a socket that has no response object (a refused upgrade, a request Node could not parse), then closes it. */
function answerRaw(socket: Duplex, status: number): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const response = `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
  socket.end(response, () => socket.destroy());
  // A peer that never reads must not keep the socket open.
  const timer = setTimeout(() => socket.destroy(), 2_000).unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * The browser shell: the same desk router the desktop app serves over IPC, here over a WebSocket
 * on loopback only, next to the built renderer. A slot cookie (HttpOnly, SameSite=Strict) ties a
 * browser to its backend session, which stays in this process.
 *
 * Anything on this machine (and any web page in the user's browser) can send it requests, so no
 * request may stop it: every handler below answers malformed input with a 4xx, and the slots it
 * issues are bounded.
 */
export function startBrowserShell(options: DeskServices & { rendererDir: string; port?: number }): Promise<BrowserShell> {
  return serveBrowserShell({ ...options, services: Promise.resolve(options) });
}

export interface EarlyShellOptions {
  rendererDir: string;
  port?: number;
  log: Logger;
  sessions: DeskSessions;
  /** The rest of the desk, still loading: desk connections wait for it (a login page sent meanwhile works once it is here). */
  services: Promise<DeskServices>;
  /** How far the backend has got (`GET /startup`, which the login page shows); absent: always ready. */
  startup?: () => StartupState;
}

/**
 * The browser shell before its runtime: the page is served at once, and desk connections are
 * completed when `services` has loaded (a connection that fails to load is answered 503).
 */
export async function serveBrowserShell(options: EarlyShellOptions): Promise<BrowserShell> {
  const slots = new SlotRegistry({ hasSession: (slot) => options.sessions.get(slot) !== null });
  const downloads = new DownloadSaver();
  let ownOrigin = '';
  let desk: DeskSocket | null = null;
  let lastActivity = performance.now();
  const touch = () => { lastActivity = performance.now(); };
  const deskLoaded = options.services.then(async (services) => {
    const { deskSocket } = await import('./desk-socket.js');
    desk = deskSocket({ ...services, downloads, maxBatchSize: MAX_WS_BATCH, onMessage: touch });
    return desk;
  });
  // A runtime that failed to load is the caller's to report; here each connection hears 503.
  deskLoaded.catch(() => undefined);

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    touch();
    serveStatic(req, res).catch((error: unknown) => {
      options.log.error('static file failed', { err: error });
      if (!res.headersSent) res.writeHead(500, { connection: 'close' }).end();
      else res.destroy();
    });
  });

  /**
   * A desk connection's slot. Signing in moves that connection (and no other on the old slot, such
   * as one opened by whoever planted the cookie) to a new slot, and forgets the old slot at once.
   */
  function bindConnection(initial: string): ConnectionSlot {
    let slot = initial;
    let release = slots.attach(slot);
    return {
      get slot() { return slot; },
      renew() {
        const previous = slot;
        slot = slots.issue();
        release();
        release = slots.attach(slot);
        options.sessions.clear(previous);
        slots.forget(previous);
        return slot;
      },
      claim: () => slots.claim(slot),
      release: () => release(),
    };
  }

  /**
   * Trades a claim (see `shared/contracts/slot-claim.ts`) for its slot's cookie: from the shell's
   * own page only, once. Every refusal is the same 403. Nothing is read from the body.
   */
  function redeemClaim(req: http.IncomingMessage, res: http.ServerResponse): void {
    const claim = req.headers[SLOT_CLAIM_HEADER];
    const slot = isOwnOrigin(req.headers.origin, ownOrigin) && typeof claim === 'string' ? slots.redeem(claim) : null;
    const headers = { 'cache-control': 'no-store', connection: 'close', 'content-length': '0' };
    if (!slot) {
      options.log.warn('slot claim refused', { origin: String(req.headers.origin ?? '').slice(0, 200) || null });
      res.writeHead(403, headers).end();
      return;
    }
    res.writeHead(204, { ...headers, 'set-cookie': slotCookie(slot) }).end();
  }

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'POST' && requestPath(req.url) === SLOT_CLAIM_PATH) {
      redeemClaim(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // Its body is not read: the connection closes after the answer.
      res.writeHead(405, { allow: 'GET, HEAD', connection: 'close', 'content-length': '0' }).end();
      return;
    }
    const path = requestPath(req.url);
    if (path === null) {
      res.writeHead(400, { 'content-length': '0' }).end();
      return;
    }
    if (path === '/startup') {
      const slot = slotFromCookie(req.headers.cookie);
      const answer: StartupAnswer = {
        ...(options.startup?.() ?? { phase: 'ready' }),
        signedIn: slot !== null && slots.has(slot) && options.sessions.get(slot) !== null,
      };
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(answer));
      return;
    }
    if (path === '/metrics') {
      // Prometheus text for a scraper on this machine: counts and timings only (a page elsewhere cannot read it: no CORS).
      const { mainMetrics } = await import('../metrics.js');
      const text = await mainMetrics.registry.metrics();
      res.writeHead(200, { 'content-type': mainMetrics.registry.contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    const download = DOWNLOAD_PATH.exec(path);
    if (download || path.startsWith('/downloads/')) {
      await serveDownload(req, res, download?.[1] ?? null);
      return;
    }
    const headers: Record<string, string> = {
      'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ${ownOrigin.replace('http', 'ws')}; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    };
    // Routes of the single-page app fall back to index.html; files must stay inside the folder.
    const candidate = normalize(join(options.rendererDir, path));
    const inside = candidate.startsWith(options.rendererDir + sep);
    const file = inside && extname(candidate) && existsSync(candidate) ? candidate : join(options.rendererDir, 'index.html');
    const isPage = file === join(options.rendererDir, 'index.html');
    // Only the page opens the desk, so only the page gets a slot (and only a browser without one).
    if (isPage) {
      const slot = slotFromCookie(req.headers.cookie);
      if (!slot || !slots.has(slot)) headers['set-cookie'] = slotCookie(slots.issue());
    }
    if (isPage && !existsSync(file)) {
      res.writeHead(503, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      res.end('The renderer is not built yet: run `npm run build`, then reload.\n');
      return;
    }
    const body = await readFile(file);
    res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /**
   * A saved report, once, to the browser whose slot asked for it. Every refusal (unknown, used,
   * expired, another slot's, a HEAD that would not take it) is the same 404, so a token cannot be probed.
   */
  async function serveDownload(req: http.IncomingMessage, res: http.ServerResponse, token: string | null): Promise<void> {
    const slot = slotFromCookie(req.headers.cookie);
    const file = token && req.method === 'GET' && slot && slots.has(slot) ? downloads.take(token, slot) : null;
    if (!file) {
      res.writeHead(404, { 'content-length': '0', 'cache-control': 'no-store' }).end();
      return;
    }
    const { contentDisposition } = await import('../desk/file-saver.js');
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-length': String(file.bytes.byteLength),
      'content-disposition': contentDisposition(file.fileName),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'referrer-policy': 'no-referrer',
    });
    res.end(file.bytes);
  }

  // Requests Node cannot parse (a bad request line or header, oversized headers, a timeout): an
  // answer where one can still be written, then the socket goes.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node does by default: no answer over a response already under way, or to a peer that left.
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    answerRaw(socket, error.code === 'HPE_HEADER_OVERFLOW' ? 431
      : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400);
  });

  // Handshakes waiting for the runtime: an upgraded socket is no longer the server's to close.
  const waiting = new Set<Duplex>();
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    touch();
    // The socket is ours from here: an error on it must not reach the process.
    socket.on('error', () => socket.destroy());
    try {
      // The origin first, before anything of the request is parsed.
      if (!isOwnOrigin(req.headers.origin, ownOrigin)) {
        options.log.warn('desk connection refused', { reason: 'origin', origin: String(req.headers.origin ?? '').slice(0, 200) || null });
        answerRaw(socket, 403);
        return;
      }
      const slot = slotFromCookie(req.headers.cookie);
      if (req.method !== 'GET' || requestPath(req.url) !== '/desk' || !slot || !slots.has(slot)) {
        options.log.warn('desk connection refused', { reason: slot ? 'path or slot' : 'no slot' });
        answerRaw(socket, 403);
        return;
      }
      const accept = (loaded: DeskSocket) => {
        if (socket.destroyed) return;
        try {
          loaded.accept(req, socket, head, () => bindConnection(slot));
        } catch (error) {
          options.log.warn('desk connection refused', { reason: 'malformed', err: error });
          answerRaw(socket, 400);
        }
      };
      // Until the runtime has loaded, the handshake waits (the page's calls queue in its wsLink).
      if (desk) {
        accept(desk);
      } else {
        waiting.add(socket);
        socket.once('close', () => waiting.delete(socket));
        deskLoaded.then(accept, () => answerRaw(socket, 503));
      }
    } catch (error) {
      options.log.warn('desk connection refused', { reason: 'malformed', err: error });
      answerRaw(socket, 400);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the shell holds a signed-in session and must not be reachable from the network.
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After listening, a server error (running out of file descriptors on accept, say) is logged, not fatal.
  server.on('error', (error) => options.log.error('browser shell server error', { err: error }));
  const { port } = server.address() as AddressInfo;
  ownOrigin = `http://127.0.0.1:${port}`;
  return {
    url: ownOrigin,
    slotCount: () => slots.size,
    downloads,
    idle: async (ms) => {
      // Counted from the call too: calls that waited for what the caller waited for run first.
      const since = performance.now();
      for (let quiet = performance.now() - Math.max(since, lastActivity); quiet < ms; quiet = performance.now() - Math.max(since, lastActivity)) {
        await new Promise((resolve) => setTimeout(resolve, ms - quiet).unref());
      }
    },
    close: async () => {
      (desk as DeskSocket | null)?.close();
      for (const socket of waiting) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
