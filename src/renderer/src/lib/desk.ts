import { type TRPCClient, type TRPCLink, TRPCClientError, createTRPCClient, createWSClient, httpLink, splitLink, wsLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { DeskRouter } from '../../../main/desk/router';
import type { DeskBridge } from '../../../shared/contracts/desk-bridge';

declare global {
  interface Window {
    deskBridge?: DeskBridge;
  }
}

export type DeskClient = TRPCClient<DeskRouter>;

/**
 * Subscriptions over the preload's bridge (httpLink cannot carry them). Errors take the shape
 * wsLink gives them, so `error.data.code` reads the same on both transports.
 */
export function ipcSubscriptionLink(bridge: DeskBridge): TRPCLink<DeskRouter> {
  return () => ({ op }) => observable((observer) => {
    const stop = bridge.subscribe({ id: crypto.randomUUID(), path: op.path, input: op.input }, (message) => {
      if (message.type === 'data') observer.next({ result: { type: 'data', data: message.data } });
      else if (message.type === 'complete') observer.complete();
      else {
        observer.error(TRPCClientError.from({
          error: { code: TRPC_ERROR_CODES_BY_KEY[message.code], message: message.message, data: { code: message.code, path: op.path } },
        }));
      }
    });
    // Runs on unsubscribe, and after complete/error (when the bridge has already let go).
    return stop;
  });
}

/**
 * The one desk client of the renderer. In Electron it rides the preload's IPC bridge; in the
 * browser shell, the WebSocket the shell serves next to the page. The choice is made here only.
 */
function createDeskClient(): DeskClient {
  const bridge = window.deskBridge;
  if (bridge) {
    const ipcFetch = async (url: URL | RequestInfo, init?: { method?: string | undefined; headers?: unknown; body?: unknown }) => {
      const headers: Record<string, string> = {};
      new Headers(init?.headers as HeadersInit | undefined).forEach((value, key) => { headers[key] = value; });
      const res = await bridge.fetch(String(url), {
        method: init?.method ?? 'GET', headers, ...(typeof init?.body === 'string' && { body: init.body }),
      });
      return new Response(res.body, { status: res.status, headers: res.headers });
    };
    return createTRPCClient<DeskRouter>({
      links: [splitLink({
        condition: (op) => op.type === 'subscription',
        true: ipcSubscriptionLink(bridge),
        false: httpLink({ url: 'desk://trpc', fetch: ipcFetch }),
      })],
    });
  }
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = createWSClient({ url: `${scheme}://${window.location.host}/desk` });
  return createTRPCClient<DeskRouter>({ links: [wsLink({ client: ws })] });
}

export const desk = createDeskClient();
