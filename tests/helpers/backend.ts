import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { openBackend, type Backend } from '../../src/server/backend.js';
import { type DatabaseConfig, openDatabase, queryRows } from '../../src/server/db/client.js';
import { type BackendServer, startBackendServer } from '../../src/server/http.js';
import { silentLogger } from '../../src/infra/log.js';
import type { BookOptions } from '../../src/server/seed/generate.js';
import { BOOK_NOW, REAL_NOW, TEST_BOOK, postgresUrl } from './test-book.js';
import type { AppRouter } from '../../src/server/trpc/router.js';

export { BOOK_NOW, REAL_NOW, TEST_BOOK } from './test-book.js';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export const ENGINES: Array<DatabaseConfig['engine']> = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])];

export interface TestBackend extends Backend {
  server: BackendServer;
  /** `now` moves business time ("today", periods); `real` moves the wall clock (sessions, throttling, audit times). */
  clock: { now: Date; real: Date };
  /** PostgreSQL only: the connection string of this backend's own database. */
  databaseUrl?: string;
  client(token?: string): ReturnType<typeof createTRPCClient<AppRouter>>;
  login(username: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export const DEMO_PASSWORDS: Record<string, string> = {
  priya: 'demo-priya', arjun: 'demo-arjun', meera: 'demo-meera', admin: 'demo-admin', vikram: 'demo-vikram', sanjay: 'demo-sanjay',
};

/** Copies the global setup's test book into `dataDir`, a folder that does not exist yet, for PGlite or a command to open. */
export function copyTestBook(dataDir: string): void {
  cpSync(inject('testBook').pgliteFolder, dataDir, { recursive: true });
}

/**
 * A PGlite database of the test book of its own: a copy of the folder, opened where it lies.
 * `remove` deletes the copy once the database is closed.
 */
export function testBookCopy(): { config: Extract<DatabaseConfig, { engine: 'pglite' }>; remove(): void } {
  const { pgliteFolder, pgliteCopies } = inject('testBook');
  const dir = mkdtempSync(join(pgliteCopies, 'book-'));
  // The test book is small: 16 MB of buffers hold what a test reads, and start in half the CPU of the default 128.
  return { config: { engine: 'pglite', dataDir: join(dir, 'db'), copyOf: pgliteFolder, sharedBuffersMb: 16 }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let snapshot: Promise<Blob> | undefined;

/** The test book as PGlite's tarball (what `from` and the eval harness take), made once per worker. */
export function testBookSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const copy = testBookCopy();
    try {
      const database = await openDatabase(copy.config);
      try {
        return await database.snapshot!();
      } finally {
        await database.close();
      }
    } finally {
      copy.remove();
    }
  })();
  return snapshot;
}

/**
 * A database of its own for one test backend. The standard book is copied from the global
 * setup's (a PGlite tarball, or a PostgreSQL template database); another book starts empty and
 * is written by openBackend. `drop` removes a PostgreSQL database after its pool is closed.
 */
async function testDatabase(engine: DatabaseConfig['engine'], standardBook: boolean): Promise<{ config: DatabaseConfig; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    if (!standardBook) return { config: { engine: 'pglite' }, drop: async () => {} };
    const copy = testBookCopy();
    return { config: copy.config, drop: async () => copy.remove() };
  }
  const name = `agent_desk_t_${randomBytes(6).toString('hex')}`;
  const template = standardBook ? inject('testBook').postgresTemplate : null;
  if (standardBook && !template) throw new Error('the global setup wrote no PostgreSQL template: is TEST_DATABASE_URL set for the whole run?');
  const onServer = async (statement: string) => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await onServer(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  // Not WITH (FORCE): a pool's connections can still be saying goodbye after pool.end(), and a
  // forced drop would kill them mid-way (an unhandled error in the test). Wait for them instead.
  const drop = async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await onServer(`DROP DATABASE IF EXISTS ${name}`);
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  return { config: { engine: 'postgres', url: postgresUrl(name) }, drop };
}

/** A backend on its own copy of the test book (or of `book`, written fresh), served over HTTP. */
export async function startTestBackend(engine: DatabaseConfig['engine'], book: Partial<BookOptions> = {}): Promise<TestBackend> {
  const database = await testDatabase(engine, Object.keys(book).length === 0);
  const clock = { now: new Date(BOOK_NOW), real: new Date(REAL_NOW) };
  const backend = await openBackend({
    database: database.config, seedDemoIfEmpty: true, book: { ...TEST_BOOK, ...book }, now: () => new Date(clock.now), realNow: () => new Date(clock.real),
  });
  const server = await startBackendServer(backend.deps, silentLogger, { port: 0 });
  const client = (token?: string) => createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${server.url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })],
  });
  return {
    ...backend, server, clock, client,
    ...(database.config.engine === 'postgres' && { databaseUrl: database.config.url }),
    async login(username, password = DEMO_PASSWORDS[username]) {
      return (await client().auth.login.mutate({ username, password: password! })).token;
    },
    async close() {
      await server.close();
      await backend.database.close();
      await database.drop();
    },
  };
}

/** The test book copied into an in-process backend, for the desk's embedded connection; closing it removes the copy. */
export async function openTestBookBackend(now: () => Date = () => new Date(BOOK_NOW)): Promise<Backend> {
  const copy = testBookCopy();
  try {
    const backend = await openBackend({ database: copy.config, now, realNow: () => new Date(REAL_NOW) });
    const { close } = backend.database;
    return { ...backend, database: { ...backend.database, close: () => close().finally(() => copy.remove()) } };
  } catch (error) {
    copy.remove();
    throw error;
  }
}

export async function accountId(backend: Backend, username: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(backend.deps.db, sql`select id from accounts where username = ${username}`);
  if (!row) throw new Error(`no account ${username}`);
  return row.id;
}

export interface PlayerLimits { creditLimit: number; perClickWin: number; aggregateDailyWin: number; minStake: number }

/** A new player under `parent` with these limits, nothing open and nothing owed: returns its id. */
export async function addPlayer(backend: Backend, parent: string, limits: PlayerLimits, prefix = 't'): Promise<string> {
  const db = backend.deps.db;
  const [p] = await queryRows<{ id: string; path: string; depth: number }>(db, sql`select id, path, depth from accounts where username = ${parent}`);
  if (!p) throw new Error(`no account ${parent}`);
  const id = randomUUID();
  const username = `${prefix}.${id.slice(0, 8)}`;
  await db.execute(sql`insert into accounts (id, username, display_name, search_name, role, parent_id, path, depth, commission_bps, credit_limit, timezone, created_at)
    values (${id}, ${username}, ${`Test ${username}`}, ${username}, 'player', ${p.id}, ${`${p.path}.${id}`}, ${p.depth + 1}, 200, ${limits.creditLimit}, 'Asia/Kolkata', now())`);
  await db.execute(sql`insert into player_limits (account_id, per_click_win, aggregate_daily_win, min_stake)
    values (${id}, ${limits.perClickWin}, ${limits.aggregateDailyWin}, ${limits.minStake})`);
  await db.execute(sql`insert into balances (child_id, parent_id, take) values (${id}, ${p.id}, 0)`);
  return id;
}

/**
 * How far a rollup table is from what it should hold: its rows (`columns` of `table`) that
 * `expected` (a query of the same columns, from the raw rows) lacks, plus the expected rows it lacks.
 */
export async function tableMismatches(backend: Backend, table: string, columns: string, expected: SQL): Promise<number> {
  const held = sql`select ${sql.raw(columns)} from ${sql.identifier(table)}`;
  const [row] = await queryRows<{ n: string | number }>(backend.deps.db, sql`
    select count(*) as n from ((${held} except all ${expected}) union all (${expected} except all ${held})) d`);
  return Number(row!.n);
}

/** A fingerprint of every table, to show that a refused call changed nothing. */
export async function databaseFingerprint(backend: Backend): Promise<string> {
  const tables = ['accounts', 'player_limits', 'sessions', 'bets', 'ledger', 'settlements', 'idempotency_keys', 'audit_log', 'audit_heads'];
  const parts: string[] = [];
  for (const table of tables) {
    const [row] = await queryRows<{ h: string | null }>(backend.deps.db, sql`select md5(string_agg(t::text, '|' order by t::text)) as h from ${sql.identifier(table)} t`);
    parts.push(`${table}:${row?.h ?? 'empty'}`);
  }
  return parts.join(' ');
}
