/**
 * The composition root of the desktop app: the backend connection (embedded PGlite in
 * PGLITE_DIR, default `<data>/pglite`, with the demo book on first run, or BACKEND_URL), the
 * data folder (DESK_DATA_DIR, default Electron's user-data folder: the audit log and the
 * conversations), the sessions main holds, and the Electron adapter that serves the renderer and
 * the desk router.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../infra/log.js';
import { backendConfigFromEnv, connectBackend } from './backend/connection.js';
import { confirmTtlFromEnv, createAgentRuntime } from './assistant/create.js';
import { stepUpRuleFromEnv } from './confirm/step-up.js';
import { deskDataDirsFromEnv } from './data-dirs.js';
import { DeskAlerts } from './desk/alerts.js';
import { DeskSessions } from './desk/sessions.js';
import { startElectronApp, userDataDir } from './electron/app.js';
import { desktopSecretStores } from './electron/safe-storage-store.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const log = createLogger({ base: { service: 'agent-desk' } });

const dirs = deskDataDirsFromEnv(process.env, userDataDir(), 'pglite');
const backend = await connectBackend(backendConfigFromEnv(process.env, dirs.pgliteDir), log);
const runtime = createAgentRuntime({
  dataDir: dirs.dataDir, log, confirmTtlSeconds: confirmTtlFromEnv(process.env), stepUp: stepUpRuleFromEnv(process.env),
  secrets: await desktopSecretStores(dirs.dataDir, process.env, log), clock: backend.clock,
});
const sessions = new DeskSessions();
await startElectronApp({
  backend,
  sessions,
  alerts: new DeskAlerts({ sessions, backend, log }),
  ...runtime,
  log,
  rendererDir: join(here, '../renderer'),
  preload: join(here, '../preload/index.cjs'),
  // Packaged, resources/ sits in the app's asar beside out/ (electron-builder.yml, files).
  icon: join(here, '../../resources/icon.png'),
});
