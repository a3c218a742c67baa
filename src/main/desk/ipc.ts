import { TRPCError, callTRPCProcedure, getTRPCErrorFromUnknown, getTRPCErrorShape } from '@trpc/server';
import type { DeskCallId, DeskErrorShape, DeskResponse } from '../../shared/contracts/desk-bridge.js';
import { MAX_DESK_MESSAGE_BYTES, deskRequestSchema } from '../../shared/contracts/desk-transport.js';
import { type DeskContext, type DeskServices, deskRouter } from './router.js';
import { type IpcSenderEvent, slotForIpcSender } from './senders.js';

/**
 * The desk router behind Electron's one IPC channel: each message is one call of the contract in
 * `shared/contracts/desk-bridge.ts` (tRPC's WebSocket messages, one at a time), answered through
 * `reply` as the browser shell's WebSocket would answer it.
 */

/** Live subscriptions one window may hold; a chat panel needs one or two, a runaway page no more. */
export const MAX_SUBSCRIPTIONS_PER_WINDOW = 16;

const REFUSED = 'refused: not the app window';
const MALFORMED = 'malformed desk request';

/** Live subscriptions by webContents id, then by the renderer's call id; each stops through its controller. */
const live = new Map<number, Map<DeskCallId, AbortController>>();

/**
 * One message from a renderer. Malformed ones are refused unread; every call then gets its
 * context from `createContext`, which checks the sender frame, before the router sees the call.
 * Resolves once the call (or the subscription's stream) is over; never rejects.
 */
export async function handleDeskMessage(
  raw: unknown, sender: IpcSenderEvent, isAppUrl: (url: string | undefined) => boolean,
  deps: DeskServices, reply: (response: DeskResponse) => void,
): Promise<void> {
  const request = parseRequest(raw);
  if (!request.ok) {
    // As the WebSocket answers a message it cannot read: PARSE_ERROR, to no call in particular.
    send(reply, deps, { id: null, error: errorShape(new TRPCError({ code: 'PARSE_ERROR', message: MALFORMED }), null) });
    return;
  }
  const message = request.value;
  if (message.method === 'subscription.stop') {
    if (slotForIpcSender(sender, isAppUrl)) live.get(sender.sender.id)?.get(message.id)?.abort();
    return;
  }
  const { id, method: type, params: { path, input } } = message;
  const fail = (cause: unknown, ctx: DeskContext | null) => {
    const error = getTRPCErrorFromUnknown(cause);
    if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error('desk call failed', { path, err: error.cause ?? error });
    send(reply, deps, { id, error: errorShape(error, { type, path, input, ctx }) });
  };
  let ctx: DeskContext;
  try {
    ctx = createContext(sender, isAppUrl, deps);
  } catch (cause) {
    return fail(cause, null);
  }
  if (type !== 'subscription') {
    try {
      const data = await callTRPCProcedure({ router: deskRouter, path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 });
      if (isAsyncIterable(data)) throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: `Cannot return an async iterable from a ${type} procedure` });
      send(reply, deps, { id, result: { type: 'data', data: asJson(data) } });
    } catch (cause) {
      fail(cause, ctx);
    }
    return;
  }

  const windowId = sender.sender.id;
  const own = live.get(windowId) ?? new Map<DeskCallId, AbortController>();
  if (own.has(id)) return fail(new TRPCError({ code: 'BAD_REQUEST', message: `Duplicate id ${id}` }), ctx);
  if (own.size >= MAX_SUBSCRIPTIONS_PER_WINDOW) return fail(new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'too many live subscriptions' }), ctx);
  const controller = new AbortController();
  own.set(id, controller);
  live.set(windowId, own);
  let deaf = false;
  try {
    await runSubscription(ctx, path, input, controller, (result) => {
      if (deaf) return;
      // Nobody can hear the rest: stop the work rather than run it for nothing.
      if (!send(reply, deps, { id, result })) {
        deaf = true;
        controller.abort();
      }
    }, (cause) => fail(cause, ctx));
  } finally {
    own.delete(id);
    if (own.size === 0 && live.get(windowId) === own) live.delete(windowId);
  }
}

/** Stops every subscription of a webContents, when it is destroyed: nobody is left to hear them. */
export function stopDeskSubscriptions(webContentsId: number): void {
  for (const controller of live.get(webContentsId)?.values() ?? []) controller.abort();
  live.delete(webContentsId);
}

/**
 * The context of every IPC call, as `createContext` is for the WebSocket: the frame must be the
 * app's own page, and its window names the session slot. A foreign frame is FORBIDDEN.
 */
function createContext(sender: IpcSenderEvent, isAppUrl: (url: string | undefined) => boolean, deps: DeskServices): DeskContext {
  const slot = slotForIpcSender(sender, isAppUrl);
  if (!slot) {
    deps.log.warn('desk call from an unexpected frame refused', { url: sender.senderFrame?.url ?? null });
    throw new TRPCError({ code: 'FORBIDDEN', message: REFUSED });
  }
  return { ...deps, slot };
}

type Parsed = { ok: true; value: ReturnType<typeof deskRequestSchema.parse> } | { ok: false };

/**
 * IPC's structured clone carries more than JSON (Maps, Dates, cycles, BigInts); a request is cut
 * down to JSON here, as the WebSocket's frames are, so the procedure's own validation sees the
 * same input on both transports, and it is bounded as a frame is.
 */
function parseRequest(raw: unknown): Parsed {
  let json: string | undefined;
  try {
    json = JSON.stringify(raw);
  } catch {
    return { ok: false };
  }
  if (json === undefined || json.length > MAX_DESK_MESSAGE_BYTES) return { ok: false };
  const parsed = deskRequestSchema.safeParse(JSON.parse(json));
  // An unknown path is left to the router, whose NOT_FOUND the WebSocket gives too.
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

function errorShape(error: TRPCError, call: { type: 'query' | 'mutation' | 'subscription'; path: string; input: unknown; ctx: DeskContext | null } | null): DeskErrorShape {
  return getTRPCErrorShape({
    config: deskRouter._def._config, error, type: call?.type ?? 'unknown', path: call?.path, input: call?.input, ctx: call?.ctx ?? undefined,
  }) as DeskErrorShape;
}

/** Delivers one answer; false when it could not be (the window is gone, the value does not clone). */
function send(reply: (response: DeskResponse) => void, deps: DeskServices, response: DeskResponse): boolean {
  try {
    reply(response);
    return true;
  } catch (error) {
    deps.log.warn('desk answer not delivered', { err: error });
    return false;
  }
}

/** As JSON, so the renderer reads the same values the WebSocket transport would give it. */
function asJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value)) as unknown;
}

type SubscriptionResult = Extract<DeskResponse, { result: unknown }>['result'];

const STOPPED = Symbol('stopped');

/** A subscription's stream: started, data…, stopped; or an error instead of the rest. */
async function runSubscription(
  ctx: DeskContext, path: string, input: unknown, controller: AbortController,
  emit: (result: SubscriptionResult) => void, fail: (cause: unknown) => void,
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
    if (!isAsyncIterable(result)) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: `Subscription ${path} did not return an AsyncGenerator` });
    iterator = result[Symbol.asyncIterator]();
    emit({ type: 'started' });
    for (;;) {
      if (signal.aborted) break;
      const next = await Promise.race([iterator.next(), stopped]);
      if (next === STOPPED) break;
      if (next.done) {
        completed = true;
        break;
      }
      emit({ type: 'data', data: asJson(next.value) });
    }
    // The end of the stream, or the answer to a stop, as the WebSocket gives it.
    emit({ type: 'stopped' });
  } catch (cause) {
    if (signal.aborted) return; // a stopped stream ends quietly: nobody is listening
    fail(cause);
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
