import { type TRPCClient, createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import type { DeskRouter } from '../../../main/desk/router';
import type { DeskBridge } from '../../../shared/contracts/desk-bridge';
import { deskLink } from './desk-link';

declare global {
  interface Window {
    deskBridge?: DeskBridge;
  }
}

export type DeskClient = TRPCClient<DeskRouter>;

/**
 * The one desk client of the renderer. In Electron it rides the preload's IPC bridge; in the
 * browser shell, the WebSocket the shell serves next to the page (wsLink, which reconnects).
 * Both carry the same messages (`shared/contracts/desk-bridge.ts`); the choice is made here only.
 */
function createDeskClient(): DeskClient {
  const bridge = window.deskBridge;
  if (bridge) return createTRPCClient<DeskRouter>({ links: [deskLink(bridge)] });
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = createWSClient({ url: `${scheme}://${window.location.host}/desk` });
  return createTRPCClient<DeskRouter>({ links: [wsLink({ client: ws })] });
}

export const desk = createDeskClient();
