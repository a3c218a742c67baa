/**
 * `npm run seed -- [--players N] [--bets N] [--days N] [--seed S]` writes a demo book into the
 * database of the environment (DATABASE_URL, else PGlite in PGLITE_DIR or ./.data/pglite).
 * It refuses a database that already holds accounts.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openBackend } from '../backend.js';
import { databaseConfigFromEnv } from '../db/client.js';
import { DEFAULT_BOOK } from './generate.js';

const { values } = parseArgs({
  options: {
    players: { type: 'string' }, bets: { type: 'string' }, days: { type: 'string' }, seed: { type: 'string' },
  },
  strict: true,
});

function whole(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got "${value}"`);
  return n;
}

const options = {
  seed: values.seed ?? DEFAULT_BOOK.seed,
  players: whole('players', values.players, DEFAULT_BOOK.players),
  bets: whole('bets', values.bets, DEFAULT_BOOK.bets),
  days: whole('days', values.days, DEFAULT_BOOK.days),
};
const database = databaseConfigFromEnv(process.env, resolve('.data/pglite'));
const started = performance.now();
const backend = await openBackend({ database, seedDemoIfEmpty: true, book: options });
const written = backend.book;
await backend.database.close();
if (!written || written.seed !== options.seed || written.players !== options.players || written.bets !== options.bets) {
  console.error(`the database already holds a book (${JSON.stringify(written)}); point PGLITE_DIR or DATABASE_URL at an empty one`);
  process.exit(1);
}
console.log(JSON.stringify({ written, engine: database.engine, ms: Math.round(performance.now() - started) }));
