import { join, resolve } from 'node:path';
import { auditFileIn } from './audit/audit-log.js';

/** Where the desk (the desktop app or the browser shell) keeps what it writes. */
export interface DeskDataDirs {
  /** DESK_DATA_DIR: the audit log and the conversations. */
  dataDir: string;
  /** `<dataDir>/audit/audit.jsonl`. */
  auditFile: string;
  /** `<dataDir>/conversations`, one file per user. */
  conversationsDir: string;
  /** PGLITE_DIR: the embedded backend's database (unused when BACKEND_URL names a backend). */
  pgliteDir: string;
}

/**
 * The desk's data locations from the environment, as README's configuration table states them:
 * DESK_DATA_DIR (default `defaultDataDir`: `./.data` for the browser shell, the user-data folder
 * for the desktop app) holds `audit/` and `conversations/`, and the embedded PGlite database in
 * `<DESK_DATA_DIR>/<pgliteFolder>` unless PGLITE_DIR names another folder. Relative paths are
 * taken from the working directory.
 */
export function deskDataDirsFromEnv(env: NodeJS.ProcessEnv, defaultDataDir: string, pgliteFolder: string): DeskDataDirs {
  const dataDir = resolve(env.DESK_DATA_DIR?.trim() || defaultDataDir);
  const pglite = env.PGLITE_DIR?.trim();
  return {
    dataDir,
    auditFile: auditFileIn(dataDir),
    conversationsDir: join(dataDir, 'conversations'),
    pgliteDir: pglite ? (pglite.includes('://') ? pglite : resolve(pglite)) : join(dataDir, pgliteFolder),
  };
}

/** The browser shell's (`npm run web`) defaults: `./.data`, its database in `./.data/desk`. */
export function browserShellDataDirs(env: NodeJS.ProcessEnv): DeskDataDirs {
  return deskDataDirsFromEnv(env, '.data', 'desk');
}
