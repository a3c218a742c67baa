import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { MAX_DESK_MESSAGE_BYTES } from '../../shared/contracts/desk-transport.js';
import { type DeskServices, deskRouter } from '../desk/router.js';
import { slotFromCookie } from '../desk/senders.js';
import type { DownloadSaver } from './downloads.js';

export interface DeskSocket {
  /** Completes an upgrade already checked (origin, path, slot) and serves the desk router on it. */
  accept(req: http.IncomingMessage, socket: Duplex, head: Buffer, attach: () => () => void): void;
  close(): void;
}

/**
 * The browser shell's WebSocket: the same contract as Electron's IPC channel
 * (shared/contracts/desk-bridge.ts), tRPC's own WebSocket messages, which
 * tests/main/desk-transport-contract.test.ts holds both to. A module of its own because the desk
 * router brings in the whole runtime, which the shell loads only after it serves the page.
 */
export function deskSocket(options: DeskServices & { downloads: DownloadSaver; maxBatchSize: number; onMessage?: () => void }): DeskSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_DESK_MESSAGE_BYTES });
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
    createContext: ({ req }) => ({
      sessions: options.sessions, backend: options.backend, log: options.log, chat: options.chat, audit: options.audit, models: options.models, approvals: options.approvals, mcpAudit: options.mcpAudit, files: options.downloads, alerts: options.alerts,
      // The upgrade was already checked: the slot is the one this server issued.
      slot: slotFromCookie(req.headers.cookie)!,
    }),
  });
  return {
    accept(req, socket, head, attach) {
      // ws answers a malformed handshake (key, version, upgrade header) with a 4xx itself.
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.once('close', attach());
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
