import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { type DeskServices, deskRouter } from '../desk/router.js';
import { isOwnOrigin, slotCookie, slotFromCookie } from '../desk/senders.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2',
};

export interface BrowserShell {
  url: string;
  close(): Promise<void>;
}

/**
 * The browser shell: the same desk router the desktop app serves over IPC, here over a WebSocket
 * on loopback only, next to the built renderer. A slot cookie (HttpOnly, SameSite=Strict) ties a
 * browser to its backend session, which stays in this process.
 */
export async function startBrowserShell(options: DeskServices & {
  rendererDir: string;
  port?: number;
}): Promise<BrowserShell> {
  const issuedSlots = new Set<string>();
  let ownOrigin = '';

  const server = http.createServer((req, res) => {
    void serveStatic(req, res).catch((error: unknown) => {
      options.log.error('static file failed', { error: String(error) });
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', ownOrigin).pathname);
    const headers: Record<string, string> = {
      'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ${ownOrigin.replace('http', 'ws')}; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    };
    if (!slotFromCookie(req.headers.cookie) || !issuedSlots.has(slotFromCookie(req.headers.cookie)!)) {
      const slot = randomBytes(32).toString('base64url');
      issuedSlots.add(slot);
      headers['set-cookie'] = slotCookie(slot);
    }
    if (!existsSync(join(options.rendererDir, 'index.html'))) {
      res.writeHead(503, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      res.end('The renderer is not built yet: run `npm run build`, then reload.\n');
      return;
    }
    // Routes of the single-page app fall back to index.html; files must stay inside the folder.
    const candidate = normalize(join(options.rendererDir, path));
    const inside = candidate.startsWith(options.rendererDir + sep);
    const file = inside && extname(candidate) && existsSync(candidate) ? candidate : join(options.rendererDir, 'index.html');
    const body = await readFile(file);
    res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024 });
  const handler = applyWSSHandler({
    wss,
    router: deskRouter,
    createContext: ({ req }) => {
      // The upgrade was already checked below; the slot is the one this server issued.
      const slot = slotFromCookie(req.headers.cookie)!;
      return { sessions: options.sessions, backend: options.backend, log: options.log, chat: options.chat, audit: options.audit, slot };
    },
  });
  server.on('upgrade', (req, socket, head) => {
    const slot = slotFromCookie(req.headers.cookie);
    const path = new URL(req.url ?? '/', ownOrigin).pathname;
    if (path !== '/desk' || !isOwnOrigin(req.headers.origin, ownOrigin) || !slot || !issuedSlots.has(slot)) {
      options.log.warn('desk connection refused', { origin: req.headers.origin ?? null, path });
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the shell holds a signed-in session and must not be reachable from the network.
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  ownOrigin = `http://127.0.0.1:${port}`;
  return {
    url: ownOrigin,
    close: async () => {
      handler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
