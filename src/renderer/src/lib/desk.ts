import { type TRPCClient, createTRPCClient, createWSClient, httpLink, wsLink } from '@trpc/client';
import type { DeskRouter } from '../../../main/desk/router';
import type { DeskBridge } from '../../../shared/contracts/desk-bridge';

declare global {
  interface Window {
    deskBridge?: DeskBridge;
  }
}

export type DeskClient = TRPCClient<DeskRouter>;

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
    return createTRPCClient<DeskRouter>({ links: [httpLink({ url: 'desk://trpc', fetch: ipcFetch })] });
  }
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = createWSClient({ url: `${scheme}://${window.location.host}/desk` });
  return createTRPCClient<DeskRouter>({ links: [wsLink({ client: ws })] });
}

export const desk = createDeskClient();
