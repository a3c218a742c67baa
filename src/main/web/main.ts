/**
 * `npm run web`: the browser shell. The same main-process runtime as the desktop app (embedded
 * backend on PGlite in PGLITE_DIR, default ./.data/desk, or BACKEND_URL; the audit log and the
 * conversations in DESK_DATA_DIR, default ./.data), serving the renderer and the desk router on
 * 127.0.0.1 only.
 */
import { resolve } from 'node:path';
import { type LogLevel, createLogger } from '../../infra/log.js';
import { backendConfigFromEnv, connectBackend, openingConnection } from '../backend/connection.js';
import { confirmTtlFromEnv, createAgentRuntime } from '../assistant/create.js';
import { browserShellDataDirs } from '../data-dirs.js';
import { browserShellSecretStores } from '../secrets/secret-store.js';
import { DeskAlerts } from '../desk/alerts.js';
import { DeskSessions } from '../desk/sessions.js';
import { startBrowserShell } from './server.js';

const log = createLogger({ level: (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info', base: { service: 'agent-desk-web' } });

function port(value: string | undefined): number {
  if (!value) return 5180;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`WEB_PORT must be a port number, got "${value}"`);
  return n;
}

const dirs = browserShellDataDirs(process.env);
// The login page is served while the book opens (calls made meanwhile wait for it); a book that
// cannot open ends the process with the reason, as before.
const backendConfig = backendConfigFromEnv(process.env, dirs.pgliteDir);
const opening = connectBackend(backendConfig, log);
opening.catch((error: unknown) => {
  log.error('backend failed to open', { err: error });
  process.stderr.write(`Agent Desk: the backend could not be opened: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
const backend = openingConnection(backendConfig, opening);
const secrets = await browserShellSecretStores(process.env, log);
const sessions = new DeskSessions();
// The page shows the alerts here (a Web Notification or a toast): the feed's default notifier.
const alerts = new DeskAlerts({ sessions, backend, log });
const shell = await startBrowserShell({
  backend, sessions, alerts, ...createAgentRuntime({ dataDir: dirs.dataDir, log, confirmTtlSeconds: confirmTtlFromEnv(process.env), secrets }), log, rendererDir: resolve('out/renderer'), port: port(process.env.WEB_PORT),
});
log.info('browser shell ready', { url: shell.url, backend: backend.mode, dataDir: dirs.dataDir, ...(backend.mode === 'embedded' && { pgliteDir: dirs.pgliteDir }) });
process.stdout.write(`Agent Desk (browser shell): ${shell.url}\n`);

const shutdown = async (signal: string) => {
  log.info('shutting down', { signal });
  alerts.close();
  await shell.close();
  await backend.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
