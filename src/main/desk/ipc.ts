import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { z } from 'zod';
import type { Logger } from '../../server/log.js';
import type { BackendConnection } from '../backend/connection.js';
import { deskRouter } from './router.js';
import type { DeskSessions } from './sessions.js';

/** What the preload may send over the one IPC channel; anything else is refused unread. */
export const ipcRequestSchema = z.strictObject({
  url: z.string().max(8192).startsWith('desk://trpc/'),
  method: z.enum(['GET', 'POST']),
  headers: z.record(z.string().max(200), z.string().max(4096)),
  body: z.string().max(256 * 1024).nullable(),
});

export interface IpcResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The desk router behind the IPC channel. The sender is checked in `createContext`, as every call
 * starts: the frame must be the app's own page, and its window names the session slot.
 */
export async function handleDeskIpc(
  raw: unknown, sender: IpcSenderEvent, isAppUrl: (url: string | undefined) => boolean,
  deps: { backend: BackendConnection; sessions: DeskSessions; log: Logger },
): Promise<IpcResponse> {
  const parsed = ipcRequestSchema.safeParse(raw);
  if (!parsed.success) return { status: 400, headers: {}, body: JSON.stringify({ error: 'malformed desk request' }) };
  const { url, method, headers, body } = parsed.data;
  const req = new Request(url.replace('desk://', 'http://desk/'), { method, headers, ...(body !== null && method === 'POST' && { body }) });
  const res = await fetchRequestHandler({
    endpoint: '/trpc',
    req,
    router: deskRouter,
    createContext: () => {
      const slot = slotForIpcSender(sender, isAppUrl);
      if (!slot) {
        deps.log.warn('desk call from an unexpected frame refused', { url: sender.senderFrame?.url ?? null });
        throw new TRPCError({ code: 'FORBIDDEN', message: 'refused: not the app window' });
      }
      return { slot, sessions: deps.sessions, backend: deps.backend, log: deps.log };
    },
  });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

/** The parts of Electron's IpcMainInvokeEvent the check reads (a fake one in tests). */
export interface IpcSenderEvent {
  senderFrame: { url: string } | null;
  sender: { id: number };
}

/**
 * The frame must be the app's own page; its window id names the session slot. Anything else
 * (a stray frame, a navigated or destroyed one) is refused before the router sees it.
 */
export function slotForIpcSender(event: IpcSenderEvent, isAppUrl: (url: string | undefined) => boolean): string | null {
  const url = event.senderFrame?.url;
  return isAppUrl(url) ? `window-${event.sender.id}` : null;
}
