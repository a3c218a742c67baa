import { type AnyTRPCProcedure, TRPCError, callTRPCProcedure, getTRPCErrorFromUnknown } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { z } from 'zod';
import type { DeskStreamMessage } from '../../shared/contracts/desk-bridge.js';
import { type DeskContext, type DeskServices, deskRouter } from './router.js';

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
  deps: DeskServices,
): Promise<IpcResponse> {
  const parsed = ipcRequestSchema.safeParse(raw);
  if (!parsed.success) return { status: 400, headers: {}, body: JSON.stringify({ error: 'malformed desk request' }) };
  const { url, method, headers, body } = parsed.data;
  const req = new Request(url.replace('desk://', 'http://desk/'), { method, headers, ...(body !== null && method === 'POST' && { body }) });
  const res = await fetchRequestHandler({
    endpoint: '/trpc',
    req,
    router: deskRouter,
    // The renderer's link sends one call a request: a batch here could only be a page gone wrong,
    // asking for many answers at once.
    allowBatching: false,
    createContext: () => {
      const ctx = deskContextFor(sender, isAppUrl, deps);
      if (!ctx) throw new TRPCError({ code: 'FORBIDDEN', message: REFUSED });
      return ctx;
    },
  });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

const REFUSED = 'refused: not the app window';

/** The one context rule of both IPC paths: the app's own frame, its window's slot, main's services. */
function deskContextFor(sender: IpcSenderEvent, isAppUrl: (url: string | undefined) => boolean, deps: DeskServices): DeskContext | null {
  const slot = slotForIpcSender(sender, isAppUrl);
  if (!slot) {
    deps.log.warn('desk call from an unexpected frame refused', { url: sender.senderFrame?.url ?? null });
    return null;
  }
  return { ...deps, slot };
}

// tRPC keeps a flat path → procedure map at runtime (its static type is the nested record).
const SUBSCRIPTION_PATHS: ReadonlySet<string> = new Set(
  Object.entries(deskRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>)
    .filter(([, procedure]) => procedure._def.type === 'subscription')
    .map(([path]) => path),
);

export const MAX_SUBSCRIPTION_INPUT = 64 * 1024;
/** Live subscriptions one window may hold; a chat panel needs one or two, a runaway page no more. */
export const MAX_SUBSCRIPTIONS_PER_WINDOW = 16;

const subscriptionId = z.string().min(1).max(64);

/**
 * What the preload may send on `desk:subscribe`. IPC's structured clone carries more than JSON
 * (Maps, Dates, cycles); the input is cut down to JSON here, as HTTP and WebSocket input is, so
 * the procedure's own validation sees the same thing on every transport.
 */
export const subscriptionRequestSchema = z.strictObject({
  id: subscriptionId,
  path: z.string().max(200).refine((path) => SUBSCRIPTION_PATHS.has(path), 'not a desk subscription'),
  input: z.unknown(),
}).transform((request, ctx) => {
  let json: string | undefined;
  try {
    json = JSON.stringify(request.input);
  } catch {
    json = undefined;
  }
  if (json !== undefined && json.length > MAX_SUBSCRIPTION_INPUT) {
    ctx.addIssue({ code: 'custom', message: 'input too large', path: ['input'] });
    return z.NEVER;
  }
  if (json === undefined && request.input !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'input is not JSON', path: ['input'] });
    return z.NEVER;
  }
  return { ...request, input: json === undefined ? undefined : JSON.parse(json) as unknown };
});

/** Live subscriptions by webContents id, then by the renderer's id; each stops through its controller. */
const live = new Map<number, Map<string, AbortController>>();

/**
 * Runs one desk subscription for an IPC sender and streams it through `send` as
 * {@link DeskStreamMessage}s: data…, then complete, or one error. The sender is checked as in
 * `handleDeskIpc`, before the procedure is looked at; a refusal is an error on the stream. Resolves
 * once the stream has ended or been stopped; never rejects.
 */
export async function handleDeskSubscription(
  raw: unknown, sender: IpcSenderEvent, isAppUrl: (url: string | undefined) => boolean,
  deps: DeskServices, send: (message: DeskStreamMessage) => void,
): Promise<void> {
  const controller = new AbortController();
  const emit = (message: DeskStreamMessage): void => {
    try {
      send(message);
    } catch (error) {
      // Nobody can hear the rest: stop the work rather than run it for nothing.
      deps.log.warn('desk stream message not delivered', { error: String(error) });
      controller.abort();
    }
  };

  const parsed = subscriptionRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const id = subscriptionId.safeParse((raw as { id?: unknown } | null)?.id);
    if (id.success) emit({ id: id.data, type: 'error', code: 'BAD_REQUEST', message: 'malformed desk subscription' });
    return;
  }
  const { id, path, input } = parsed.data;
  const ctx = deskContextFor(sender, isAppUrl, deps);
  if (!ctx) return emit({ id, type: 'error', code: 'FORBIDDEN', message: REFUSED });

  const windowId = sender.sender.id;
  const own = live.get(windowId) ?? new Map<string, AbortController>();
  if (own.has(id)) return emit({ id, type: 'error', code: 'BAD_REQUEST', message: `subscription ${id} is already running` });
  if (own.size >= MAX_SUBSCRIPTIONS_PER_WINDOW) return emit({ id, type: 'error', code: 'TOO_MANY_REQUESTS', message: 'too many live subscriptions' });
  own.set(id, controller);
  live.set(windowId, own);
  try {
    await runSubscription(ctx, path, input, controller, (message) => emit({ id, ...message } as DeskStreamMessage));
  } finally {
    own.delete(id);
    if (own.size === 0 && live.get(windowId) === own) live.delete(windowId);
  }
}

/** `desk:unsubscribe`: stops one of the sender's own subscriptions; anything else is ignored. */
export function handleDeskUnsubscribe(raw: unknown, sender: IpcSenderEvent, isAppUrl: (url: string | undefined) => boolean): void {
  const id = subscriptionId.safeParse(raw);
  if (!id.success || !slotForIpcSender(sender, isAppUrl)) return;
  live.get(sender.sender.id)?.get(id.data)?.abort();
}

/** Stops every subscription of a webContents, when it is destroyed: nobody is left to hear them. */
export function stopDeskSubscriptions(webContentsId: number): void {
  for (const controller of live.get(webContentsId)?.values() ?? []) controller.abort();
  live.delete(webContentsId);
}

type StreamMessage = DistributiveOmit<DeskStreamMessage, 'id'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const STOPPED = Symbol('stopped');

async function runSubscription(
  ctx: DeskContext, path: string, input: unknown, controller: AbortController, emit: (message: StreamMessage) => void,
): Promise<void> {
  const { signal } = controller;
  // Every wait races this, so a stop ends the stream at once even if the procedure ignores its signal.
  const stopped = new Promise<typeof STOPPED>((resolve) => {
    if (signal.aborted) resolve(STOPPED);
    else signal.addEventListener('abort', () => resolve(STOPPED), { once: true });
  });
  let iterator: AsyncIterator<unknown> | undefined;
  let completed = false;
  try {
    // callTRPCProcedure runs the middlewares and input parser, and refuses any non-subscription path.
    const result = await Promise.race([
      callTRPCProcedure({ router: deskRouter, path, getRawInput: async () => input, ctx, type: 'subscription', signal, batchIndex: 0 }),
      stopped,
    ]);
    if (result === STOPPED) return;
    if (!isAsyncIterable(result)) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: `${path} did not return an async iterable` });
    iterator = result[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), stopped]);
      if (next === STOPPED) return;
      if (next.done) break;
      // As JSON, so the renderer reads the same values the WebSocket transport would give it.
      emit({ type: 'data', data: next.value === undefined ? undefined : JSON.parse(JSON.stringify(next.value)) as unknown });
      if (signal.aborted) return;
    }
    completed = true;
    emit({ type: 'complete' });
  } catch (cause) {
    if (signal.aborted) return; // a stopped stream ends quietly: nobody is listening
    const error = getTRPCErrorFromUnknown(cause);
    if (error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.log.error('desk subscription failed', { path, error: String(error.cause ?? error) });
      emit({ type: 'error', code: error.code, message: 'internal error' });
    } else {
      emit({ type: 'error', code: error.code, message: error.message });
    }
  } finally {
    // Whatever the procedure still has running (a model call, a tool) learns it is no longer wanted.
    if (!completed) controller.abort();
    // Closing the generator runs its `finally` blocks. Not awaited: a generator parked on an await
    // only returns once that settles, and the stream is over for the renderer either way.
    if (iterator && !completed) void iterator.return?.()?.catch(() => undefined);
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
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
