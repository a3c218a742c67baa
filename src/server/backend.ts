import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { type Database, type DatabaseConfig, createsNewDatabase, openDatabase, queryRows } from './db/client.js';
import { loadCast } from './seed/cast.js';
import { type BookOptions, DEFAULT_BOOK, generateBook } from './seed/generate.js';
import { type BookMeta, readBookMeta, writeBook } from './seed/write.js';
import { demoBookSnapshotDir, findDemoBookSnapshot } from './seed/snapshot.js';
import type { ServiceDeps } from './services/caller.js';
import { listenForNotifications } from './db/notifications.js';
import { EVENTS_CHANNEL } from './services/event-outbox.js';
import { createEventFeed } from './services/events.js';
import { AUTH_CHANNEL, SessionCache } from './services/session-cache.js';
import { startReportMaintenance } from './services/reports.js';
import { type Logger, silentLogger } from '../infra/log.js';
import type { BookProgress, BookStage } from '../shared/contracts/startup.js';
import type { ClockKind } from '../shared/business-clock.js';

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

/** Which clock `createClock` makes of the same settings: the page says so on screen ("Demo book — clock at …"). */
export function clockKindOf(spec: string | undefined, bookClock: Date | null): ClockKind {
  const trimmed = spec?.trim();
  if (trimmed === 'real' || (!trimmed && !bookClock)) return 'real';
  return trimmed ? 'set' : 'book';
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

/**
 * Where each step of writing a new demo book starts, in percent of the whole: the shares of the
 * time each took writing the default book into a new PGlite data folder on this project's
 * machine (creating and migrating the database 42 %, generating 1 %, writing 52 %, analysing 3 %).
 */
const STAGE_STARTS: Record<BookStage, number> = { database: 0, generating: 40, writing: 45, indexing: 95 };

/**
 * The new PGlite data folder about to be made, when it starts empty: one that does not exist or
 * holds nothing, so that undoing a failed copy removes nothing but what the copy wrote. A folder
 * with files but no database is left to PGlite to judge; a book in memory is written as before.
 */
function newPgliteFolder(config: DatabaseConfig): string | null {
  if (config.engine !== 'pglite' || config.from || !config.dataDir || config.dataDir.includes('://')) return null;
  return !existsSync(config.dataDir) || readdirSync(config.dataDir).length === 0 ? config.dataDir : null;
}

/**
 * Opens the database and, when asked and it is empty, puts the demo book in it first: restored
 * from the snapshot the build made of the same book (`seed/snapshot.ts`), or else generated and
 * written here.
 */
export async function openBackend(options: {
  database: DatabaseConfig;
  seedDemoIfEmpty?: boolean;
  book?: Partial<BookOptions>;
  clock?: string;
  /** Business time given outright (tests): it counts as a set clock. */
  now?: () => Date;
  realNow?: () => Date;
  /** Where the event feed reports a lost listener connection, and the pool a connection lost between queries. */
  log?: Logger;
  /** Hears how far the writing of a new demo book has got (the login page shows it); never called for a book that exists. */
  onProgress?: (progress: BookProgress) => void;
  /** Where demo-book snapshots are looked for (default `demoBookSnapshotDir()`); null: never restore, always write. */
  snapshotDir?: string | null;
}): Promise<Backend> {
  const report = options.onProgress ?? (() => {});
  const log = options.log ?? silentLogger;
  const bookOptions: BookOptions = { ...DEFAULT_BOOK, ...options.book };
  // A new database is created and migrated before the book is written: the first step.
  if (options.seedDemoIfEmpty && createsNewDatabase(options.database)) report({ stage: 'database', percent: STAGE_STARTS.database });
  const open = (config: DatabaseConfig) => openDatabase(config, undefined, (error) => {
    // Its message and code only: pg hangs the whole broken client on the error.
    log.warn('database connection lost between queries', { message: error.message, code: (error as { code?: unknown }).code });
  });
  const newFolder = options.seedDemoIfEmpty && options.snapshotDir !== null ? newPgliteFolder(options.database) : null;
  const snapshot = newFolder ? findDemoBookSnapshot(options.snapshotDir ?? demoBookSnapshotDir(), { options: bookOptions }) : null;
  let database: Database;
  if (newFolder && snapshot && options.database.engine === 'pglite') {
    try {
      database = await open({ ...options.database, copyOf: snapshot });
      log.info('demo book restored from its snapshot', { snapshot });
    } catch (error) {
      // Another process has the folder: its files are its own, not ours to undo.
      if (error instanceof DataDirInUseError) throw error;
      // A snapshot this PGlite cannot open (another version wrote it): the book is written instead.
      log.warn('the demo book snapshot could not be opened; writing the book instead', { err: error });
      rmSync(newFolder, { recursive: true, force: true });
      mkdirSync(newFolder, { recursive: true });
      database = await open(options.database);
    }
  } else {
    database = await open(options.database);
  }
  try {
    if (options.seedDemoIfEmpty && (await isEmpty(database))) {
      report({ stage: 'generating', percent: STAGE_STARTS.generating });
      // Generating is one synchronous stretch: a turn first lets whoever asks hear that it started.
      await nextTurn();
      const book = generateBook(loadCast(), bookOptions);
      const writing = STAGE_STARTS.indexing - STAGE_STARTS.writing;
      await writeBook(database.db, book, (state) => report(state.step === 'rows'
        ? { stage: 'writing', percent: STAGE_STARTS.writing + Math.floor((writing * state.done) / state.total) }
        : { stage: 'indexing', percent: STAGE_STARTS.indexing }));
    }
    const book = await readBookMeta(database.db);
    const bookClock = book ? new Date(book.clock) : null;
    const now = options.now ?? createClock(options.clock, bookClock);
    const clockKind: ClockKind = options.now ? 'set' : clockKindOf(options.clock, bookClock);
    const sessionCache = new SessionCache();
    const deps: ServiceDeps = { db: database.db, now, clockKind, realNow: options.realNow ?? (() => new Date()), sessionCache };
    // Expired reports are pruned now and hourly; closing stops that and any report still being written.
    const reports = await startReportMaintenance(deps);
    const events = createEventFeed(database, log);
    // Every backend on the database hears every commit, so its feed and cache follow the others' writes too.
    const notifications = await listenForNotifications(database, log, {
      channels: { [EVENTS_CHANNEL]: (recipientId) => events.feed.notify(recipientId), [AUTH_CHANNEL]: (payload) => sessionCache.invalidate(payload) },
      listening: () => {
        events.feed.wakeAll();
        sessionCache.resume();
      },
      lost: () => sessionCache.suspend(),
    }).catch(async (error: unknown) => {
      events.stop();
      await reports.stop();
      throw error;
    });
    const closing: Database = {
      ...database,
      async close() {
        events.stop();
        await notifications.stop();
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
