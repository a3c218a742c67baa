/**
 * The composition root of the desktop app: the backend connection (embedded PGlite in the
 * user-data folder with the demo book on first run, or BACKEND_URL), the sessions main holds,
 * and the Electron adapter that serves the renderer and the desk router.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../server/log.js';
import { backendConfigFromEnv, connectBackend } from './backend/connection.js';
import { confirmTtlFromEnv, createAgentRuntime } from './agent/create.js';
import { DeskSessions } from './desk/sessions.js';
import { startElectronApp, userDataDir } from './electron/app.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const log = createLogger({ base: { service: 'agent-desk' } });

const runtime = createAgentRuntime({ dataDir: userDataDir(), log, confirmTtlSeconds: confirmTtlFromEnv(process.env) });
const backend = await connectBackend(backendConfigFromEnv(process.env, join(userDataDir(), 'pglite')), log);
await startElectronApp({
  backend,
  sessions: new DeskSessions(),
  ...runtime,
  log,
  rendererDir: join(here, '../renderer'),
  preload: join(here, '../preload/index.cjs'),
});
