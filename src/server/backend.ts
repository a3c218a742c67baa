import { sql } from 'drizzle-orm';
import { type Database, type DatabaseConfig, openDatabase, queryRows } from './db/client.js';
import { loadCast } from './seed/cast.js';
import { type BookOptions, DEFAULT_BOOK, generateBook } from './seed/generate.js';
import { type BookMeta, readBookMeta, writeBook } from './seed/write.js';
import type { ServiceDeps } from './services/caller.js';
import { startEventFeed } from './services/events.js';
import { startReportMaintenance } from './services/reports.js';
import { type Logger, silentLogger } from '../infra/log.js';

/**
 * Business time. A demo book is a snapshot taken at its own clock, so by default its time starts
 * there and runs on; `CLOCK=real` or an ISO instant overrides that.
 */
export function createClock(spec: string | undefined, bookClock: Date | null, realNow: () => number = Date.now): () => Date {
  const trimmed = spec?.trim();
  if (trimmed === 'real' || (!trimmed && !bookClock)) return () => new Date(realNow());
  const start = trimmed ? new Date(trimmed) : bookClock!;
  if (Number.isNaN(start.getTime())) throw new Error(`CLOCK must be "real" or an ISO-8601 instant, got "${trimmed}"`);
  const startedAt = realNow();
  return () => new Date(start.getTime() + (realNow() - startedAt));
}

export interface Backend {
  database: Database;
  deps: ServiceDeps;
  book: BookMeta | null;
}

async function isEmpty(database: Database): Promise<boolean> {
  const rows = await queryRows(database.db, sql`select 1 from accounts limit 1`);
  return rows.length === 0;
}

/** Opens the database and, when asked and it is empty, writes the demo book into it first. */
export async function openBackend(options: {
  database: DatabaseConfig;
  seedDemoIfEmpty?: boolean;
  book?: Partial<BookOptions>;
  clock?: string;
  now?: () => Date;
  realNow?: () => Date;
  /** Where the event feed reports a lost listener connection, and the pool a connection lost between queries. */
  log?: Logger;
}): Promise<Backend> {
  const database = await openDatabase(options.database, undefined, (error) => {
    // Its message and code only: pg hangs the whole broken client on the error.
    (options.log ?? silentLogger).warn('database connection lost between queries', { message: error.message, code: (error as { code?: unknown }).code });
  });
  try {
    if (options.seedDemoIfEmpty && (await isEmpty(database))) {
      await writeBook(database.db, generateBook(loadCast(), { ...DEFAULT_BOOK, ...options.book }));
    }
    const book = await readBookMeta(database.db);
    const now = options.now ?? createClock(options.clock, book ? new Date(book.clock) : null);
    const deps: ServiceDeps = { db: database.db, now, realNow: options.realNow ?? (() => new Date()) };
    // Expired reports are pruned now and hourly; closing stops that and any report still being written.
    const reports = await startReportMaintenance(deps);
    // Live events: LISTEN on PostgreSQL (every backend on the server hears every commit), PGlite's own listen embedded.
    const events = await startEventFeed(database, options.database, options.log ?? silentLogger).catch(async (error: unknown) => {
      await reports.stop();
      throw error;
    });
    const closing: Database = {
      ...database,
      async close() {
        await events.stop();
        await reports.stop();
        await database.close();
      },
    };
    return { database: closing, deps, book };
  } catch (error) {
    await database.close();
    throw error;
  }
}
