import { contextBridge, ipcRenderer } from 'electron';
import type { DeskBridge } from '../shared/contracts/desk-bridge.js';

/** The preload exposes the desk transport and nothing else. */
const bridge: DeskBridge = {
  fetch: (url, init) => ipcRenderer.invoke('desk', { url, method: init.method, headers: init.headers, body: init.body ?? null }),
};

contextBridge.exposeInMainWorld('deskBridge', bridge);
