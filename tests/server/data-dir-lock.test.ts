import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.js';
import { DataDirInUseError, lockDataDir } from '../../src/server/db/data-dir-lock.js';

/** A second process holding a folder's lock until killed, the way a running desk would. */
async function holder(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `
    const { lockDataDir } = await import(${JSON.stringify(new URL('../../src/server/db/data-dir-lock.ts', import.meta.url).pathname)});
    lockDataDir(${JSON.stringify(dataDir)});
    process.stdout.write('locked\\n');
    setInterval(() => {}, 1000);
  `], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('locked')) resolve(); });
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return child;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('one process at a time on an embedded book', () => {
  it('refuses a second open in this process, and gives the lock back on release', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'lock-')), 'book');
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    lockDataDir(dir)();
  });

  it('refuses a book another running process holds, naming it; takes over once that process is gone', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'lock-')), 'book');
    const child = await holder(dir);
    children.push(child);
    await expect(openDatabase({ engine: 'pglite', dataDir: dir })).rejects.toThrow(new RegExp(`open in another process \\(pid ${child.pid}\\).*BACKEND_URL`));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // A lock left by a process killed outright names a pid that no longer runs.
    expect(existsSync(`${dir}.lock`)).toBe(true);
    const database = await openDatabase({ engine: 'pglite', dataDir: dir });
    await database.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  }, 60_000);
});
