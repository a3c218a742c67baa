/**
 * A PostgreSQL cluster of the fault run's own, in a temp folder on a free port, so it can be
 * restarted (and broken) without touching the machine's shared server that other runs use. The
 * server refuses to run as root, so when this process is root it runs as the `postgres` OS user.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from '../lib/processes.js';

const run = promisify(execFile);

/** Where Debian's packages put the server's programs; PG_BIN names another. */
const BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/14/bin'];

export interface PrivatePostgres {
  port: number;
  /** The connection string of `database` on this cluster. */
  url(database?: string): string;
  /**
   * Stops the server (fast: sessions ended, a checkpoint; immediate: a crash, recovery on start),
   * leaves it down for `downMs`, and starts it again.
   */
  restart(mode: 'fast' | 'immediate', downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The cluster, or the reason there can be none on this machine (the caller skips and says it). */
export async function startPrivatePostgres(): Promise<PrivatePostgres | { unavailable: string }> {
  const bin = process.env.PG_BIN ?? BIN_DIRS.find((d) => existsSync(join(d, 'pg_ctl')));
  if (!bin || !existsSync(join(bin, 'initdb'))) return { unavailable: 'no PostgreSQL server programs (initdb, pg_ctl) found: set PG_BIN' };
  const root = process.getuid?.() === 0;
  if (root) {
    try {
      await run('id', ['-u', 'postgres']);
    } catch {
      return { unavailable: 'running as root, and there is no postgres OS user to run the server as' };
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'fault-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  // As the postgres user when root (initdb and postgres refuse root); as ourselves otherwise.
  const as = (program: string, args: string[]) => (root ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args));
  // Loopback only, the socket in the temp folder (not /var/run, which the shared server owns); no fsync: a test cluster.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const pgCtl = (args: string[]) => as('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', ...args]);
  try {
    if (root) await chown(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
    await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    await pgCtl(['-o', serverOptions, 'start']);
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return { unavailable: `the private PostgreSQL cluster could not be started: ${stderr || (error as Error).message}` };
  }
  return {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async restart(mode, downMs = 0) {
      await pgCtl(['-m', mode, 'stop']);
      if (downMs > 0) await sleep(downMs);
      await pgCtl(['-o', serverOptions, 'start']);
    },
    async stop() {
      await pgCtl(['-m', 'immediate', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
