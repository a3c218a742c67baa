import { contextBridge, ipcRenderer } from 'electron';
import { DESK_CHANNEL, type DeskBridge } from '../shared/contracts/desk-bridge.js';

/** The page's listeners for main's answers; one IPC listener serves them all. */
const listeners = new Set<(response: unknown) => void>();

ipcRenderer.on(DESK_CHANNEL, (_event, response: unknown) => {
  for (const listener of listeners) listener(response);
});

/**
 * The preload exposes the desk transport and nothing else: messages out on the one channel, and
 * main's answers back. The page never holds `ipcRenderer` or the event (whose `sender` it is).
 */
const bridge = {
  send: (request) => ipcRenderer.send(DESK_CHANNEL, request),
  onMessage: (listener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
} satisfies DeskBridge;

contextBridge.exposeInMainWorld('deskBridge', bridge);
