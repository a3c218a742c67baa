/**
 * Where a fault run happens: a private PostgreSQL cluster (private-postgres.ts), a database on it
 * holding a small demo book, and the standalone backend (`npm run server`, src/server/main.ts) as
 * a child process on a fixed port, which the run may kill and start again. Nothing here is shared
 * with another run: the cluster, its port and its temp folder are this run's alone.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openBackend } from '../../src/server/backend.js';
import type { BookOptions } from '../../src/server/seed/generate.js';
import { type Child, freePort, healthy, killHard, runTs } from '../lib/processes.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';

/** A small book (the whole cast, some filler), quick to write: the runs are about faults, not volume. */
export const FAULT_BOOK: BookOptions = { seed: 'fault-runs', players: 40, bets: 3_000, days: 90 };

export interface Lab {
  pg: PrivatePostgres;
  databaseUrl: string;
  /** The backend's base address: the same across restarts, as BACKEND_URL would be. */
  url: string;
  backend: Child | null;
  /** Starts the backend (again) and waits for /health; answers how long that took. */
  startBackend(): Promise<number>;
  /** kill -9 the backend. */
  killBackend(): Promise<void>;
  /** The backend's last output, when it ended without being killed (a crash is the finding). */
  crashed(): string | null;
  /** One query on a connection of its own (a pool would outlive a restart of the cluster badly). */
  query<T extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function waitFor(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 60_000, everyMs = 100): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await condition()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The lab, or why there can be none here (no server programs, no postgres user): the caller skips. */
export async function openLab(options: { env?: Record<string, string>; book?: BookOptions } = {}): Promise<Lab | { unavailable: string }> {
  const cluster = await startPrivatePostgres();
  if ('unavailable' in cluster) return cluster;
  const database = 'fault_run';
  try {
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    // The book is written here, in this process, once; the backend child then finds it.
    const writer = await openBackend({ database: { engine: 'postgres', url: cluster.url(database) }, seedDemoIfEmpty: true, book: options.book ?? FAULT_BOOK });
    await writer.database.close();
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: cluster.url(database), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...options.env };
  const killed = new Set<Child>();
  const lab: Lab = {
    pg: cluster,
    databaseUrl: cluster.url(database),
    url,
    backend: null,
    async startBackend() {
      const started = performance.now();
      const child = runTs('src/server/main.ts', [], env);
      lab.backend = child;
      let exited: number | null | undefined;
      void child.exited.then((code) => { exited = code; });
      await waitFor(`the backend on ${url} to answer /health`, async () => {
        if (exited !== undefined) throw new Error(`the backend exited (${exited}) before it answered:\n${child.output.join('').slice(-2_000)}`);
        return healthy(url);
      }, 60_000);
      return performance.now() - started;
    },
    async killBackend() {
      killed.add(lab.backend!);
      await killHard(lab.backend);
    },
    crashed() {
      const child = lab.backend;
      if (!child || killed.has(child) || (child.process.exitCode === null && child.process.signalCode === null)) return null;
      return `the backend ended by itself (exit ${child.process.exitCode ?? child.process.signalCode}):\n${child.output.join('').slice(-3_000)}`;
    },
    async query<T extends pg.QueryResultRow>(text: string, params: unknown[] = []) {
      const client = new pg.Client({ connectionString: lab.databaseUrl });
      await client.connect();
      try {
        return (await client.query<T>(text, params)).rows;
      } finally {
        await client.end();
      }
    },
    async close() {
      await killHard(lab.backend);
      await cluster.stop();
    },
  };
  return lab;
}
