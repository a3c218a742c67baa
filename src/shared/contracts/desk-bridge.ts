import type { TRPCClientOutgoingMessage, TRPCResponseMessage, TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/**
 * The desk transport's contract: the messages the renderer and main exchange, whichever carries
 * them. They are tRPC's own WebSocket messages, one call a message, so the browser shell's
 * WebSocket (tRPC's adapter) and Electron's IPC channel (`desk/ipc.ts`) speak the same thing; the
 * zod schemas that check them at both ends are in `desk-transport.ts`, and
 * `tests/main/desk/desk-transport-contract.test.ts` runs the same calls through both.
 *
 * This file holds no runtime code but the channel's name: the sandboxed preload imports it, and
 * may bundle nothing else.
 */

/** The one IPC channel of the desk, both ways. */
export const DESK_CHANNEL = 'desk';

/** The id a call's answers carry; the caller picks it, unique among its calls in flight. */
export type DeskCallId = number | string;

/** Renderer → main: one call of the desk router, or the end of a running subscription. */
export type DeskRequest =
  | { id: DeskCallId; method: 'query' | 'mutation' | 'subscription'; params: { path: string; input: unknown } }
  | { id: DeskCallId; method: 'subscription.stop' };

/** How a refused or failed call reads on every transport: the desk router's error shape. */
export interface DeskErrorShape {
  code: number;
  message: string;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number; path?: string | undefined };
}

/**
 * Main → renderer. A query or mutation gets one `data` or one `error`. A subscription gets
 * `started`, then `data`…, then `stopped` (its end, or after a stop), or an `error` instead of
 * the rest. `id` is null only when the message had no id to answer.
 */
export type DeskResponse =
  | { id: DeskCallId; result: { type: 'started' } | { type: 'data'; data?: unknown } | { type: 'stopped' } }
  | { id: DeskCallId | null; error: DeskErrorShape };

/**
 * What the preload exposes as `window.deskBridge`, and all it exposes: the messages above, out
 * and back. Main checks the sender frame of every message before it reads the call.
 */
export interface DeskBridge {
  send(request: DeskRequest): void;
  /** Every answer from main goes to `listener` until the returned function is called. */
  onMessage(listener: (response: unknown) => void): () => void;
}

// The contract is tRPC's WebSocket protocol, narrowed: checked here, so a tRPC upgrade that
// changes it fails the typecheck rather than the browser shell at run time.
type Extends<T extends U, U> = T;
export type RequestIsTRPCMessage = Extends<DeskRequest, TRPCClientOutgoingMessage>;
export type ResponseIsTRPCMessage = Extends<Extract<DeskResponse, { result: unknown }>, TRPCResponseMessage>;
