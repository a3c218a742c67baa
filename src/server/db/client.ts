import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Logger } from '../../infra/log.js';
import { lockDataDir } from './data-dir-lock.js';
import { type NotificationListener, type NotificationRoutes, listenOnPostgres } from './notifications.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The one database contract both engines satisfy; services only ever see this. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseConfig =
  /**
   * `from`: start from a data folder saved by `snapshot()` instead of an empty one. `copyOf`: a
   * data folder on disk copied into `dataDir` when that holds no database yet (a shut-down PGlite
   * folder: the demo book's snapshot, src/server/seed/snapshot.ts).
   */
  | {
    engine: 'pglite'; dataDir?: string; from?: Blob; copyOf?: string;
    /**
     * PostgreSQL's shared_buffers inside PGlite, in MB (its default is 128). A start sets up every
     * buffer, which is most of a start's CPU: a small book opened many times over (the test suite's
     * copies) starts in half the CPU with 16.
     */
    sharedBuffersMb?: number;
  }
  | { engine: 'postgres'; url: string; schema?: string };

/**
 * An open database. What differs between the engines is said here as what it means to the code
 * above, so nothing outside this module asks which engine it is; `engine` is for log lines.
 */
export interface Database {
  readonly db: Db;
  readonly engine: DatabaseConfig['engine'];
  /**
   * True when transactions commit one at a time, so identity ids become visible in the order they
   * were taken (PGlite). On PostgreSQL two transactions can commit out of id order.
   */
  readonly commitsInIdOrder: boolean;
  /**
   * Hears the `pg_notify` of every commit, on this backend or another, on the given channels:
   * PostgreSQL through a dedicated `LISTEN` connection that reconnects, PGlite in process.
   */
  listen(routes: NotificationRoutes, log: Logger): Promise<NotificationListener>;
  /**
   * PGlite only: the whole data folder as a tarball, to open again with `from`. Copying a written
   * book is much cheaper than writing it again (the test suite seeds once and copies per test).
   */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens the engine the configuration names and brings its schema up to date. `onIdleError`
 * hears of a pooled PostgreSQL connection that broke between queries (the server restarted).
 */
export async function openDatabase(config: DatabaseConfig, migrationsFolder = MIGRATIONS_DIR, onIdleError: (error: Error) => void = () => {}): Promise<Database> {
  if (config.engine === 'pglite') {
    const dataDir = config.dataDir ?? 'memory://';
    // PGlite creates only the last folder of the path; a fresh clone has none of them.
    const onDisk = !dataDir.includes('://');
    if (onDisk) mkdirSync(dataDir, { recursive: true });
    const release = onDisk ? lockDataDir(dataDir) : () => {};
    try {
      // Under the folder's lock, so two processes opening one new folder never both copy into it.
      if (config.copyOf && onDisk && !existsSync(join(dataDir, 'PG_VERSION'))) cpSync(config.copyOf, dataDir, { recursive: true });
      const client = new PGlite(dataDir, {
        extensions: { pg_trgm },
        ...(config.from && { loadDataDir: config.from }),
        ...(config.sharedBuffersMb !== undefined && { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${Math.trunc(config.sharedBuffersMb)}MB`] }),
      });
      const db = drizzlePglite(client, { schema });
      await migratePglite(db, { migrationsFolder });
      return {
        db: db as unknown as Db,
        engine: 'pglite',
        commitsInIdOrder: true,
        async listen(routes) {
          const unlisten = await Promise.all(Object.entries(routes.channels).map(([channel, route]) => client.listen(channel, route)));
          routes.listening();
          return { stop: async () => { await Promise.all(unlisten.map((u) => u().catch(() => {}))); } };
        },
        snapshot: () => client.dumpDataDir('none'),
        close: () => client.close().finally(release),
      };
    } catch (error) {
      release();
      throw error;
    }
  }
  const pgSchema = config.schema;
  if (pgSchema !== undefined && !SCHEMA_NAME.test(pgSchema)) throw new Error(`invalid schema name: ${pgSchema}`);
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 8,
    // A private schema per test run keeps suites apart on one server; public stays on the
    // path for the pg_trgm operator classes.
    ...(pgSchema ? { options: `-c search_path=${pgSchema},public` } : {}),
  });
  // A connection the server ended (a restart, an admin's kill) is an 'error' event: on the pool
  // while the connection is idle, on the client while it is checked out between two queries (a
  // transaction awaiting its next statement). Unheard, either ends the process. The query in
  // flight fails on its own; the pool drops a broken connection when it comes back and opens a
  // fresh one for the next query, so a restarted server is found again by itself.
  pool.on('error', onIdleError);
  pool.on('connect', (client) => client.on('error', onIdleError));
  try {
    if (pgSchema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${pgSchema}`);
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder, ...(pgSchema ? { migrationsSchema: pgSchema } : {}) });
    return {
      db: db as unknown as Db,
      engine: 'postgres',
      commitsInIdOrder: false,
      listen: (routes, log) => listenOnPostgres(config.url, routes, log),
      close: () => pool.end(),
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

/** Runs raw SQL on either engine and returns its rows. */
export async function queryRows<T extends object>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The configuration from the environment: PostgreSQL when DATABASE_URL is set, PGlite otherwise. */
export function databaseConfigFromEnv(env: NodeJS.ProcessEnv, defaultDataDir: string): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) return { engine: 'postgres', url };
  return embeddedDatabaseConfig(env.PGLITE_DIR?.trim() || defaultDataDir);
}

/** A database inside this process, kept in `dataDir`: what a process opens when it is given no server to use. */
export function embeddedDatabaseConfig(dataDir: string): DatabaseConfig {
  return { engine: 'pglite', dataDir };
}

/**
 * True when opening this configuration will first create and migrate a database on disk, which
 * takes long enough to show as a step of its own: a PGlite data folder not written yet.
 */
export function createsNewDatabase(config: DatabaseConfig): boolean {
  if (config.engine !== 'pglite' || !config.dataDir || config.dataDir.includes('://')) return false;
  return !existsSync(join(config.dataDir, 'PG_VERSION'));
}

/** SQLSTATEs of a server that is going away or not yet back: 08 connection exceptions, 57P01–57P03 shutdowns and start-up. */
const UNAVAILABLE_STATES = /^(?:08[0-9A-Z]{3}|57P0[123])$/;
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);
const UNAVAILABLE_WORDS = /^(?:Connection terminated|Client has encountered a connection error|Connection ended)/;

/**
 * True when an error (or one it wraps) says the database could not be reached or went away
 * mid-query — the server restarting, not the query being wrong. Such a call may succeed later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (UNAVAILABLE_WORDS.test(e.message)) return true;
  }
  return false;
}
