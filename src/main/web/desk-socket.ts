import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { MAX_DESK_MESSAGE_BYTES } from '../../shared/contracts/desk-transport.js';
import { type CookieSlot, type DeskServices, deskRouter } from '../desk/router.js';
import type { DownloadSaver } from './downloads.js';

/** The slot one desk connection acts for: its cookie's at the handshake, a new one once it signs in. */
export interface ConnectionSlot extends CookieSlot {
  readonly slot: string;
  /** The connection has closed. */
  release(): void;
}

export interface DeskSocket {
  /**
   * Completes an upgrade already checked (origin, path, slot) and serves the desk router on it,
   * acting for the slot `bind` returns once the handshake is done.
   */
  accept(req: http.IncomingMessage, socket: Duplex, head: Buffer, bind: () => ConnectionSlot): void;
  close(): void;
}

/**
 * The browser shell's WebSocket: the same contract as Electron's IPC channel
 * (shared/contracts/desk-bridge.ts), tRPC's own WebSocket messages, which
 * tests/main/desk/desk-transport-contract.test.ts holds both to. A module of its own because the desk
 * router brings in the whole runtime, which the shell loads only after it serves the page.
 */
export function deskSocket(options: DeskServices & { downloads: DownloadSaver; maxBatchSize: number; onMessage?: () => void }): DeskSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_DESK_MESSAGE_BYTES });
  const connectionSlots = new WeakMap<object, ConnectionSlot>();
  const handler = applyWSSHandler({
    wss,
    router: deskRouter,
    // The client is told only "internal error" (the router's errorFormatter); the cause is logged.
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') options.log.error('desk call failed', { path: path ?? null, err: error.cause ?? error });
    },
    // The renderer's wsLink sends the calls made in one tick as one array: a page asks for a few
    // at once; far more in one frame is not the app, and each would run.
    maxBatchSize: options.maxBatchSize,
    createContext: ({ res }) => {
      // Bound in `accept` before the connection is handed over.
      const bound = connectionSlots.get(res)!;
      return {
        sessions: options.sessions, backend: options.backend, log: options.log, chat: options.chat, audit: options.audit, models: options.models, approvals: options.approvals, mcpAudit: options.mcpAudit, files: options.downloads, alerts: options.alerts,
        // Read at each call, not fixed at the handshake: a sign-in moves this connection to a new slot.
        get slot() { return bound.slot; },
        cookieSlot: { renew: () => bound.renew(), claim: () => bound.claim() },
      };
    },
  });
  return {
    accept(req, socket, head, bind) {
      // ws answers a malformed handshake (key, version, upgrade header) with a 4xx itself.
      wss.handleUpgrade(req, socket, head, (ws) => {
        const bound = bind();
        connectionSlots.set(ws, bound);
        ws.once('close', () => bound.release());
        if (options.onMessage) ws.on('message', options.onMessage);
        wss.emit('connection', ws, req);
      });
    },
    close() {
      handler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
