import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, sep } from 'node:path';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { MAX_DESK_MESSAGE_BYTES } from '../../shared/contracts/desk-transport.js';
import { type DeskServices, deskRouter } from '../desk/router.js';
import { contentDisposition } from '../desk/file-saver.js';
import { isOwnOrigin, slotCookie, slotFromCookie } from '../desk/senders.js';
import { mainMetrics } from '../metrics.js';
import { DOWNLOAD_PATH, DownloadSaver } from './downloads.js';
import { SlotRegistry } from './slots.js';

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
export async function startBrowserShell(options: DeskServices & {
  rendererDir: string;
  port?: number;
}): Promise<BrowserShell> {
  const slots = new SlotRegistry({ hasSession: (slot) => options.sessions.get(slot) !== null });
  const downloads = new DownloadSaver();
  let ownOrigin = '';

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    serveStatic(req, res).catch((error: unknown) => {
      options.log.error('static file failed', { err: error });
      if (!res.headersSent) res.writeHead(500, { connection: 'close' }).end();
      else res.destroy();
    });
  });

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
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
    if (path === '/metrics') {
      // Prometheus text for a scraper on this machine: counts and timings only (a page elsewhere cannot read it: no CORS).
      const text = await mainMetrics.registry.metrics();
      res.writeHead(200, { 'content-type': mainMetrics.registry.contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    const download = DOWNLOAD_PATH.exec(path);
    if (download || path.startsWith('/downloads/')) {
      serveDownload(req, res, download?.[1] ?? null);
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
  function serveDownload(req: http.IncomingMessage, res: http.ServerResponse, token: string | null): void {
    const slot = slotFromCookie(req.headers.cookie);
    const file = token && req.method === 'GET' && slot && slots.has(slot) ? downloads.take(token, slot) : null;
    if (!file) {
      res.writeHead(404, { 'content-length': '0', 'cache-control': 'no-store' }).end();
      return;
    }
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

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_DESK_MESSAGE_BYTES });
  // The same contract as Electron's IPC channel (shared/contracts/desk-bridge.ts): tRPC's own
  // WebSocket messages, which tests/main/desk-transport-contract.test.ts holds both to.
  const handler = applyWSSHandler({
    wss,
    router: deskRouter,
    // The client is told only "internal error" (the router's errorFormatter); the cause is logged.
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') options.log.error('desk call failed', { path: path ?? null, err: error.cause ?? error });
    },
    // The renderer's wsLink sends the calls made in one tick as one array: a page asks for a few
    // at once; far more in one frame is not the app, and each would run.
    maxBatchSize: MAX_WS_BATCH,
    createContext: ({ req }) => {
      // The upgrade was already checked below; the slot is the one this server issued.
      const slot = slotFromCookie(req.headers.cookie)!;
      return { sessions: options.sessions, backend: options.backend, log: options.log, chat: options.chat, audit: options.audit, models: options.models, approvals: options.approvals, mcpAudit: options.mcpAudit, files: downloads, alerts: options.alerts, slot };
    },
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
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
      // ws answers a malformed handshake (key, version, upgrade header) with a 4xx itself.
      wss.handleUpgrade(req, socket, head, (ws) => {
        const release = slots.attach(slot);
        ws.once('close', release);
        wss.emit('connection', ws, req);
      });
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
    close: async () => {
      handler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
