import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/**
 * One message of a subscription's stream, main → renderer, keyed by the id the renderer chose.
 * `error` and `complete` end the stream; after either, main sends nothing more for that id.
 * Everything in it is plain JSON, so it reads the same as over the browser shell's WebSocket.
 */
export type DeskStreamMessage =
  | { id: string; type: 'data'; data: unknown }
  | { id: string; type: 'error'; code: TRPC_ERROR_CODE_KEY; message: string }
  | { id: string; type: 'complete' };

/** A subscription the renderer asks main to run: a subscription path of the desk router and its input. */
export interface DeskSubscriptionRequest {
  /** Chosen by the renderer, unique among its live subscriptions; names the stream's messages. */
  id: string;
  path: string;
  input: unknown;
}

/**
 * The one thing the preload exposes to the renderer (`window.deskBridge`): a fetch-shaped call
 * for queries and mutations, and subscriptions, which main answers through the desk router after
 * checking which frame sent them.
 */
export interface DeskBridge {
  fetch(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; headers: Record<string, string>; body: string }>;
  /** Starts a subscription; `listener` gets its messages. The returned function stops it (idempotent). */
  subscribe(request: DeskSubscriptionRequest, listener: (message: DeskStreamMessage) => void): () => void;
}
