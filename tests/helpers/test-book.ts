/**
 * The book every database test starts from, and the clocks around it. No vitest import here:
 * the global setup (main process) writes this book once, and the workers copy it per test.
 */
import type { BookOptions } from '../../src/server/seed/generate.js';

/** The cast's clock: the demo book is a snapshot taken then. */
export const BOOK_NOW = new Date('2026-11-20T12:00:00+05:30');

/**
 * The wall clock the test backends start at: days after the book's clock, as on a real demo, so a
 * security time read from the business clock (or the reverse) shows in a test.
 */
export const REAL_NOW = new Date('2026-11-23T09:00:00Z');

/** A small book: the whole cast plus a little filler. */
export const TEST_BOOK: BookOptions = { seed: 'test-book', players: 40, bets: 3_000, days: 90 };

/** What the global setup hands the workers (vitest's provide/inject). */
export interface TestBookCopies {
  /** A PGlite data folder holding TEST_BOOK, shut down cleanly: copy it, never open it. */
  pgliteFolder: string;
  /** Where this run's copies of it go (memory-backed where the machine has /dev/shm); emptied at the end of the run. */
  pgliteCopies: string;
  /** A PostgreSQL database holding TEST_BOOK, to copy with CREATE DATABASE … TEMPLATE; null without a server. */
  postgresTemplate: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testBook: TestBookCopies;
  }
}

/** The connection string of `database` on the server TEST_DATABASE_URL names. */
export function postgresUrl(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}
