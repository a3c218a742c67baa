import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { BrowserWindow, app, ipcMain, protocol, session, shell } from 'electron';
import { DESK_CHANNEL } from '../../shared/contracts/desk-bridge.js';
import { handleDeskMessage, stopDeskSubscriptions } from '../desk/ipc.js';
import type { DeskServices } from '../desk/router.js';
import { ElectronFileSaver } from './file-saver.js';
import { ElectronNotifier } from './notifier.js';
import { APP_ORIGIN, RENDERER_CSP, allowsPermission, isAllowedExternal, isAppUrl } from './security.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.json': 'application/json',
};

// Both must happen before the app is ready, and the composition root opens the backend first.
protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

/** The Electron adapter: window, hardening, the desk IPC channel. Everything else is plain Node. */
export async function startElectronApp(given: DeskServices & { rendererDir: string; preload: string; icon: string }): Promise<void> {
  // Reports are saved through the native dialog here (the browser shell hands out downloads instead).
  const deps = { ...given, files: given.files ?? new ElectronFileSaver() };
  await app.whenReady();
  const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL || undefined;
  const isOwn = (url: string | undefined) => isAppUrl(url, devServerUrl);

  // The renderer is served from app://desk/ (never file://), with its CSP on every response.
  protocol.handle('app', async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    const file = normalize(join(deps.rendererDir, path === '/' ? 'index.html' : path));
    const inside = file.startsWith(deps.rendererDir + sep);
    const target = inside && extname(file) ? file : join(deps.rendererDir, 'index.html');
    try {
      return new Response(await readFile(target), { headers: { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream', 'content-security-policy': RENDERER_CSP } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });

  session.defaultSession.setPermissionRequestHandler((wc, permission, callback) => callback(allowsPermission(permission, wc.getURL(), devServerUrl)));
  session.defaultSession.setPermissionCheckHandler((_wc, permission, origin) => allowsPermission(permission, origin, devServerUrl));

  app.on('web-contents-created', (_event, contents) => {
    // Read now: once destroyed, the contents can no longer be asked for its id.
    const id = contents.id;
    contents.once('destroyed', () => stopDeskSubscriptions(id));
    contents.on('will-navigate', (event, url) => {
      if (!isOwn(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternal(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });

  // Every desk call and its answers: one channel, each answer to the contents that asked, until a
  // call is answered, its subscription stops, or the contents is destroyed.
  ipcMain.on(DESK_CHANNEL, (event, request: unknown) => {
    const contents = event.sender;
    void handleDeskMessage(request, event, isOwn, deps, (response) => {
      if (!contents.isDestroyed()) contents.send(DESK_CHANNEL, response);
    });
  });

  const window = new BrowserWindow({
    width: 1360, height: 860, show: false, title: 'Agent Desk', icon: deps.icon,
    webPreferences: {
      preload: deps.preload, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, spellcheck: false,
      // A middle-click on a link is one more way to ask for a new window; setWindowOpenHandler
      // denies those already, and the page has no use for the event at all.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => window.show());
  // Alerts are the system's notifications here; a click comes back to this window.
  deps.alerts?.useNotifier(new ElectronNotifier(() => window, (userId, open) => deps.alerts?.open(userId, open)));
  // The id is read now: after 'closed' the window's webContents is gone.
  const slot = `window-${window.webContents.id}`;
  window.on('closed', () => deps.sessions.clear(slot));
  await window.loadURL(devServerUrl ?? `${APP_ORIGIN}/`);

  app.on('window-all-closed', () => {
    deps.alerts?.close();
    void deps.backend.close().finally(() => app.quit());
  });
}

export function userDataDir(): string {
  return app.getPath('userData');
}
