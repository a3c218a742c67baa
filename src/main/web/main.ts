/**
 * `npm run web`: the browser shell. The same main-process runtime as the desktop app (embedded
 * backend on PGlite in PGLITE_DIR, default ./.data/desk, or BACKEND_URL; the audit log and the
 * conversations in DESK_DATA_DIR, default ./.data), serving the renderer and the desk router on
 * 127.0.0.1 only.
 *
 * The page is served first, from a few small modules; the runtime (the desk router, the backend
 * and its book, the assistant) loads after, while the browser loads the page, and desk
 * connections wait for it (bench/ui.ts, start-up, measures both).
 */
import { resolve } from 'node:path';
import { type LogLevel, createLogger } from '../../infra/log.js';
import type { StartupState } from '../../shared/contracts/startup.js';
import type { DeskServices } from '../desk/router.js';
import { DeskSessions } from '../desk/sessions.js';
import { serveBrowserShell } from './server.js';

const log = createLogger({ level: (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info', base: { service: 'agent-desk-web' } });

function port(value: string | undefined): number {
  if (!value) return 5180;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`WEB_PORT must be a port number, got "${value}"`);
  return n;
}

/** Ends the process with the reason, as a book that cannot open always did. */
function fail(what: string, error: unknown): never {
  log.error(what, { err: error });
  process.stderr.write(`Agent Desk: ${what}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

/** How long nobody may have asked the shell anything before the intent classifier trains. */
const IDLE_BEFORE_TRAINING_MS = 500;

const webPort = port(process.env.WEB_PORT);
const sessions = new DeskSessions();
let startup: StartupState = { phase: 'opening' };
let services!: { resolve(value: DeskServices): void };
const loading = new Promise<DeskServices>((done) => { services = { resolve: done }; });
const shell = await serveBrowserShell({ sessions, log, services: loading, rendererDir: resolve('out/renderer'), port: webPort, startup: () => startup });
process.stdout.write(`Agent Desk (browser shell): ${shell.url}\n`);

// The backend first, so that PGlite's WebAssembly compiles on V8's own threads while the rest loads.
const [{ backendConfigFromEnv, connectBackend, openingConnection }, { browserShellDataDirs }] = await Promise.all([
  import('../backend/connection.js'),
  import('../data-dirs.js'),
]).catch((error: unknown) => fail('the browser shell could not load', error));
const dirs = browserShellDataDirs(process.env);
const backendConfig = backendConfigFromEnv(process.env, dirs.pgliteDir);
const opening = connectBackend(backendConfig, log, (progress) => { startup = { phase: 'creating', ...progress }; });
opening.then(() => { startup = { phase: 'ready' }; }, (error: unknown) => fail('the backend could not be opened', error));
const backend = openingConnection(backendConfig, opening);

const [{ confirmTtlFromEnv, createAgentRuntime }, { browserShellSecretStores }, { DeskAlerts }, { stepUpRuleFromEnv }] = await Promise.all([
  import('../assistant/create.js'),
  import('../secrets/secret-store.js'),
  import('../desk/alerts.js'),
  import('../confirm/step-up.js'),
]).catch((error: unknown) => fail('the browser shell could not load', error));
const secrets = await browserShellSecretStores(process.env, log);
// The page shows the alerts here (a Web Notification or a toast): the feed's default notifier.
const alerts = new DeskAlerts({ sessions, backend, log });
const runtime = createAgentRuntime({
  dataDir: dirs.dataDir, log, confirmTtlSeconds: confirmTtlFromEnv(process.env), stepUp: stepUpRuleFromEnv(process.env), secrets, clock: backend.clock,
  // Not while the book opens or a page loads: training takes the thread for a few hundred ms.
  trainIntentModel: (train) => void opening.then(() => shell.idle(IDLE_BEFORE_TRAINING_MS)).then(train, () => undefined),
});
services.resolve({ backend, sessions, alerts, ...runtime, log });
log.info('browser shell ready', { url: shell.url, backend: backend.mode, dataDir: dirs.dataDir, ...(backend.mode === 'embedded' && { pgliteDir: dirs.pgliteDir }) });

const shutdown = async (signal: string) => {
  log.info('shutting down', { signal });
  alerts.close();
  await shell.close();
  await backend.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
