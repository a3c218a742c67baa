import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Db, queryRows } from '../db/client.js';
import * as t from '../db/schema.js';
import { rebuildBalances, rebuildRollups } from '../services/ledger.js';
import { rebuildBetRollups } from '../services/bet-rollups.js';
import { rebuildMarketVolume } from '../services/market-volume.js';
import { hashPassword } from '../services/passwords.js';
import type { Book, BookOptions } from './generate.js';

const BATCH_ROWS = 20_000;

/** What an array literal's element must be quoted for: empty, NULL as a word, or holding a character the literal gives a meaning. */
const NEEDS_QUOTES = /^$|^null$|[{}",\\\s]/i;

/** One element of a PostgreSQL array literal: a Date as its instant, a string quoted where it must be. */
export function arrayElement(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (v instanceof Date) return v.toISOString();
  // A text[] column travels as its own array literal, one text per row, and is cast back per row.
  const text = Array.isArray(v) ? `{${v.map((x) => JSON.stringify(String(x))).join(',')}}` : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : text;
}

/**
 * One INSERT … SELECT FROM unnest(array per column) per batch: a handful of parameters however many
 * rows, which both engines parse far faster than a multi-row VALUES list. Each array is sent as
 * its literal, written here: the driver's own conversion of a JS array escapes element by element
 * and cost as much as the rest of the write on a large book.
 */
async function insertAll<T extends object>(db: Db, table: PgTable, rows: readonly T[], written: (rows: number) => void = () => {}): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => key in rows[0]!);
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const batch = rows.slice(i, i + BATCH_ROWS);
    const arrays = columns.map(([key, column]) => {
      const elements = new Array<string>(batch.length);
      for (let r = 0; r < batch.length; r++) elements[r] = arrayElement((batch[r] as Record<string, unknown>)[key]);
      const literal = `{${elements.join(',')}}`;
      const sqlType = column.getSQLType();
      const elementType = sqlType.endsWith('[]') ? 'text' : sqlType;
      const cast = sqlType.endsWith('[]') ? sql`::${sql.raw(sqlType)}` : sql``;
      return { name: column.name, param: sql`unnest(${literal}::${sql.raw(elementType)}[])`, cast };
    });
    const names = sql.join(columns.map(([, c]) => sql.identifier(c.name)), sql`, `);
    const selects = sql.join(arrays.map((a, n) => sql`${sql.identifier(`c${n}`)}${a.cast}`), sql`, `);
    const sources = sql.join(arrays.map((a) => a.param), sql`, `);
    const aliases = sql.join(arrays.map((_, n) => sql.identifier(`c${n}`)), sql`, `);
    await db.execute(sql`insert into ${table} (${names}) select ${selects} from rows from (${sources}) as r(${aliases})`);
    written(batch.length);
    // Each batch runs synchronously inside PGlite: a turn between them keeps the process answering
    // (the browser shell's login page asks how far the writing has got).
    await nextTurn();
  }
}

/** The tables a book's size is in: loaded without their secondary indexes and foreign keys. */
const BULK_TABLES = ['bets', 'ledger'];
/**
 * The rollups, filled from the ledger in one statement each: without their foreign keys, which
 * would otherwise be checked row by row (a third of the time the rollups took on a large book).
 */
const ROLLUP_TABLES = [
  'ledger_daily', 'ledger_market_daily', 'player_daily_by_agent', 'player_monthly_by_agent', 'market_volume_daily', 'market_volume_monthly',
  'open_positions', 'bet_totals',
];

/**
 * Drops the secondary indexes and foreign keys of `tables` (in the caller's transaction, on an
 * empty database) and returns what puts them back exactly as they were defined: building an index
 * once over a million rows, and checking a foreign key with one join, is far cheaper than keeping
 * them up to date row by row during the load.
 */
async function setAsideIndexes(tx: Db, tables: readonly string[]): Promise<() => Promise<void>> {
  const names = sql.join(tables.map((name) => sql`${name}`), sql`, `);
  const constraints = await queryRows<{ table_name: string; name: string; definition: string }>(tx, sql`
    select t.relname as table_name, c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where c.contype = 'f' and t.relname in (${names}) and t.relnamespace = current_schema()::regnamespace
    order by 1, 2`);
  const indexes = await queryRows<{ name: string; definition: string }>(tx, sql`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
    where i.schemaname = current_schema() and i.tablename in (${names})
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.contype in ('p', 'u'))
    order by 1`);
  for (const c of constraints) await tx.execute(sql`alter table ${sql.identifier(c.table_name)} drop constraint ${sql.identifier(c.name)}`);
  for (const i of indexes) await tx.execute(sql`drop index ${sql.identifier(i.name)}`);
  return async () => {
    for (const i of indexes) await tx.execute(sql.raw(i.definition));
    for (const c of constraints) await tx.execute(sql`alter table ${sql.identifier(c.table_name)} add constraint ${sql.identifier(c.name)} ${sql.raw(c.definition)}`);
  };
}

export interface BookMeta extends BookOptions {
  clock: string;
}

/** What writeBook has done: rows written of the book's rows, then the tables analysed. */
export type WriteProgress = { step: 'rows'; done: number; total: number } | { step: 'indexing' };

/** Writes a generated book into an empty database, all or nothing. */
export async function writeBook(db: Db, book: Book, progress: (state: WriteProgress) => void = () => {}): Promise<void> {
  const accounts = await Promise.all(book.accounts.map(async ({ password, ...a }) => ({
    ...a,
    // A salt drawn from the seed keeps the book byte-for-byte reproducible; these are demo passwords.
    passwordHash: password === null ? null : await hashPassword(password, createHash('sha256').update(`${book.options.seed}:salt:${a.username}`).digest().subarray(0, 16)),
  })));
  const meta: BookMeta = { ...book.options, clock: book.clock.toISOString() };
  const tablesInOrder: [PgTable, readonly object[]][] = [
    // Parents before children: the tree is written in depth order.
    [t.accounts, [...accounts].sort((a, b) => a.depth - b.depth)],
    [t.playerLimits, book.playerLimits],
    [t.teams, book.teams],
    [t.fixtures, book.fixtures],
    [t.markets, book.markets],
    [t.outcomes, book.outcomes],
    [t.bets, book.bets],
    [t.settlements, book.settlements],
    [t.ledger, book.ledger],
  ];
  const total = tablesInOrder.reduce((sum, [, rows]) => sum + rows.length, 0);
  let done = 0;
  const written = (rows: number) => progress({ step: 'rows', done: (done += rows), total });
  await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const restoreBulk = await setAsideIndexes(txDb, BULK_TABLES);
    const restoreRollups = await setAsideIndexes(txDb, ROLLUP_TABLES);
    for (const [table, rows] of tablesInOrder) await insertAll(txDb, table, rows, written);
    // The ledger's indexes first: the balances are summed through them.
    await restoreBulk();
    await rebuildBalances(txDb);
    await rebuildRollups(txDb);
    await rebuildMarketVolume(txDb);
    await rebuildBetRollups(txDb);
    await restoreRollups();
    await insertAll(txDb, t.bookMeta, [{ key: 'demo_book', value: meta }]);
  });
  progress({ step: 'indexing' });
  // Fresh statistics for the planner, and a visibility map so the covering indexes are used
  // index-only (PGlite has no autovacuum to do it later).
  // Only the book's tables: a bare VACUUM would sweep every schema of a shared server.
  const tables = [t.accounts, t.playerLimits, t.fixtures, t.markets, t.outcomes, t.bets, t.settlements, t.ledger, t.balances, t.ledgerDaily, t.ledgerMarketDaily, t.playerDailyByAgent,
    t.playerMonthlyByAgent, t.marketVolumeDaily, t.marketVolumeMonthly, t.openPositions, t.betTotals];
  await db.execute(sql`vacuum analyze ${sql.join(tables.map((table) => sql`${table}`), sql`, `)}`);
}

export async function readBookMeta(db: Db): Promise<BookMeta | null> {
  const rows = await db.select().from(t.bookMeta).where(eq(t.bookMeta.key, 'demo_book'));
  return (rows[0]?.value as BookMeta | undefined) ?? null;
}
