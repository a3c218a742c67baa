import { contextBridge, ipcRenderer } from 'electron';
import type { DeskBridge, DeskStreamMessage } from '../shared/contracts/desk-bridge.js';

/** Live subscriptions of this page, by id: one IPC listener dispatches every stream message. */
const listeners = new Map<string, (message: DeskStreamMessage) => void>();

ipcRenderer.on('desk:stream', (_event, message: DeskStreamMessage) => {
  const listener = listeners.get(message?.id);
  if (!listener) return; // stopped here already; main may still have had messages in flight
  // Forgotten before the listener runs, so a stop() it triggers does not send a needless unsubscribe.
  if (message.type !== 'data') listeners.delete(message.id);
  listener(message);
});

/** The preload exposes the desk transport and nothing else. */
const bridge: DeskBridge = {
  fetch: (url, init) => ipcRenderer.invoke('desk', { url, method: init.method, headers: init.headers, body: init.body ?? null }),
  subscribe: (request, listener) => {
    const { id } = request;
    // Main would refuse it too, but this page's listener for the live one would be replaced.
    if (listeners.has(id)) throw new Error(`desk subscription ${id} is already running`);
    listeners.set(id, listener);
    ipcRenderer.send('desk:subscribe', { id, path: request.path, input: request.input });
    return () => {
      if (!listeners.delete(id)) return;
      ipcRenderer.send('desk:unsubscribe', id);
    };
  },
};

contextBridge.exposeInMainWorld('deskBridge', bridge);
