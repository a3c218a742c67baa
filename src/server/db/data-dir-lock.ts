/**
 * One process at a time on an embedded PGlite book. PGlite keeps no lock of its own: two processes
 * that open the same folder each run their own copy of the database in memory and write over each
 * other's files (seen here: each saw only its own rows). The desk, the browser shell, the MCP
 * server, `npm run server`, `npm run report` and `npm run seed` all open the book through here, so
 * the second one is refused with what to do instead. A lock left by a process that died (kill -9,
 * a crash) names a pid that no longer runs, and is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

/** Folders this process holds, so a second open in the same process is refused as well. */
const held = new Set<string>();

const lockFileOf = (dataDir: string) => `${dataDir.replace(/[/\\]+$/, '')}.lock`;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder's lock, or throws DataDirInUseError; the returned function gives it back. */
export function lockDataDir(dataDir: string): () => void {
  const file = lockFileOf(dataDir);
  if (held.has(file)) throw new DataDirInUseError(inUse(dataDir, process.pid));
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && running(owner)) throw new DataDirInUseError(inUse(dataDir, owner));
      unlinkSync(file);
    }
  }
  held.add(file);
  const release = () => {
    if (!held.delete(file)) return;
    process.off('exit', release);
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
    } catch {
      // Already gone: nothing to give back.
    }
  };
  process.on('exit', release);
  return release;
}

function inUse(dataDir: string, pid: number): string {
  return `the book in ${dataDir} is open in another process (pid ${pid}): close it, or run the backend on its own `
    + '(`npm run server`) and point every app at it with BACKEND_URL';
}
