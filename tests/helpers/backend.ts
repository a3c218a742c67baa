import { randomBytes } from 'node:crypto';
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openBackend, type Backend } from '../../src/server/backend.js';
import { type DatabaseConfig, queryRows } from '../../src/server/db/client.js';
import { type BackendServer, startBackendServer } from '../../src/server/http.js';
import { silentLogger } from '../../src/server/log.js';
import type { BookOptions } from '../../src/server/seed/generate.js';
import type { AppRouter } from '../../src/server/trpc/router.js';

/** The cast's clock: the demo book is a snapshot taken then. */
export const BOOK_NOW = new Date('2026-11-20T12:00:00+05:30');

/**
 * The wall clock the test backends start at: days after the book's clock, as on a real demo, so a
 * security time read from the business clock (or the reverse) shows in a test.
 */
export const REAL_NOW = new Date('2026-11-23T09:00:00Z');

/** A small book: the whole cast plus a little filler, quick to write on either engine. */
export const TEST_BOOK: BookOptions = { seed: 'test-book', players: 40, bets: 3_000, days: 90 };

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export const ENGINES: Array<DatabaseConfig['engine']> = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])];

export interface TestBackend extends Backend {
  server: BackendServer;
  /** `now` moves business time ("today", periods); `real` moves the wall clock (sessions, throttling, audit times). */
  clock: { now: Date; real: Date };
  client(token?: string): ReturnType<typeof createTRPCClient<AppRouter>>;
  login(username: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export const DEMO_PASSWORDS: Record<string, string> = {
  priya: 'demo-priya', arjun: 'demo-arjun', meera: 'demo-meera', admin: 'demo-admin', vikram: 'demo-vikram', sanjay: 'demo-sanjay',
};

export async function startTestBackend(engine: DatabaseConfig['engine'], book: Partial<BookOptions> = {}): Promise<TestBackend> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const database: DatabaseConfig = engine === 'pglite'
    ? { engine: 'pglite' }
    : { engine: 'postgres', url: process.env.TEST_DATABASE_URL!, schema };
  const clock = { now: new Date(BOOK_NOW), real: new Date(REAL_NOW) };
  const backend = await openBackend({
    database, seedDemoIfEmpty: true, book: { ...TEST_BOOK, ...book }, now: () => new Date(clock.now), realNow: () => new Date(clock.real),
  });
  const server = await startBackendServer(backend.deps, silentLogger, { port: 0 });
  const client = (token?: string) => createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${server.url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })],
  });
  return {
    ...backend, server, clock, client,
    async login(username, password = DEMO_PASSWORDS[username]) {
      return (await client().auth.login.mutate({ username, password: password! })).token;
    },
    async close() {
      await server.close();
      await backend.database.close();
      if (engine === 'postgres') {
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      }
    },
  };
}

export async function accountId(backend: Backend, username: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(backend.deps.db, sql`select id from accounts where username = ${username}`);
  if (!row) throw new Error(`no account ${username}`);
  return row.id;
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
