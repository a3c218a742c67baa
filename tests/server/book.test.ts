import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../src/server/db/client.js';
import { loadCast } from '../../src/server/seed/cast.js';
import { generateBook } from '../../src/server/seed/generate.js';
import { writeBook } from '../../src/server/seed/write.js';
import { normalizeForSearch } from '../../src/shared/text.js';

const small = { seed: 'determinism', players: 25, bets: 1_500, days: 30 };
/** Enough of a book to write every table, small enough to write twice in a test. */
const tiny = { seed: 'determinism', players: 8, bets: 400, days: 14 };
const TABLES = ['accounts', 'player_limits', 'teams', 'fixtures', 'markets', 'outcomes', 'bets', 'settlements', 'ledger', 'book_meta'];

async function dumpHash(database: Database): Promise<string> {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    const rows = await queryRows<{ line: string }>(database.db, sql`select t::text as line from ${sql.identifier(table)} t order by 1`);
    hash.update(`${table}\n${rows.map((r) => r.line).join('\n')}\n`);
  }
  return hash.digest('hex');
}

describe('the demo book', () => {
  const cast = loadCast();

  it('is the same book, byte for byte, for the same seed', async () => {
    // Two separate generations written into two databases: nothing may depend on time, order of
    // insertion or anything but the seed.
    const hashes: string[] = [];
    for (let run = 0; run < 2; run++) {
      const database = await openDatabase({ engine: 'pglite' });
      try {
        await writeBook(database.db, generateBook(cast, tiny));
        hashes.push(await dumpHash(database));
      } finally {
        await database.close();
      }
    }
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).toBe(hashes[1]);
  }, 120_000); // two databases opened and written: seconds idle, far more on a loaded machine

  it('is written with every index and foreign key the migrations define, as they define them', async () => {
    // writeBook loads the big tables without them and builds them after: none may be lost or changed.
    const definitions = async (database: Database) => [
      ...await queryRows<{ line: string }>(database.db, sql`select indexdef as line from pg_indexes where schemaname = current_schema() order by 1`),
      ...await queryRows<{ line: string }>(database.db, sql`
        select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as line
        from pg_constraint where connamespace = current_schema()::regnamespace order by 1`),
    ].map((r) => r.line);
    const empty = await openDatabase({ engine: 'pglite' });
    const written = await openDatabase({ engine: 'pglite' });
    try {
      await writeBook(written.db, generateBook(cast, tiny));
      const expected = await definitions(empty);
      expect(expected.some((line) => line.includes('bets_player_summary_idx'))).toBe(true);
      expect(await definitions(written)).toEqual(expected);
    } finally {
      await empty.close();
      await written.close();
    }
  }, 120_000);

  it('is another book for another seed', () => {
    const digest = (seed: string) => createHash('sha256').update(JSON.stringify(generateBook(cast, { ...tiny, seed }))).digest('hex');
    expect(digest(tiny.seed)).toBe(digest(tiny.seed));
    expect(digest('another seed')).not.toBe(digest(tiny.seed));
  });

  it('scales by flags and keeps cast ids put', () => {
    const a = generateBook(cast, small);
    const b = generateBook(cast, { ...small, players: 60, bets: 4_000 });
    expect(a.bets).toHaveLength(1_500);
    expect(b.bets).toHaveLength(4_000);
    expect(b.accounts.filter((x) => x.role === 'player')).toHaveLength(60 + cast.accounts.filter((x) => x.role === 'player').length);
    const priyaA = a.accounts.find((x) => x.username === 'priya')!;
    const priyaB = b.accounts.find((x) => x.username === 'priya')!;
    expect(priyaA.id).toBe(priyaB.id);
  });

  it('gives filler names that share no word with the cast', () => {
    const book = generateBook(cast, { ...small, players: 300 });
    const castWords = new Set([...cast.accounts.map((a) => a.name), ...cast.teams.flatMap((t) => [t.name, ...t.short])].flatMap((n) => normalizeForSearch(n).split(' ')));
    const castNames = new Set(cast.accounts.map((a) => a.name));
    const castTeams = new Set(cast.teams.map((t) => t.name));
    for (const a of book.accounts.filter((x) => !castNames.has(x.displayName))) {
      expect(normalizeForSearch(a.displayName).split(' ').filter((w) => castWords.has(w)), a.displayName).toEqual([]);
    }
    for (const t of book.teams.filter((x) => !castTeams.has(x.name))) {
      expect(normalizeForSearch(t.name).split(' ').filter((w) => castWords.has(w)), t.name).toEqual([]);
    }
  });

  it('meets the cast facts: settled history and an open India vs Australia bet for priya\'s and arjun\'s players', () => {
    const book = generateBook(cast, small);
    const byId = new Map(book.accounts.map((a) => [a.id, a]));
    const indAus = book.fixtures.find((f) => f.name === 'India vs Australia')!;
    const indAusMarkets = new Set(book.markets.filter((m) => m.fixtureId === indAus.id).map((m) => m.id));
    const castPlayers = cast.accounts.filter((a) => a.role === 'player' && ['priya', 'arjun'].includes(a.parent!));
    for (const p of castPlayers) {
      const id = book.accounts.find((a) => a.username === p.username)!.id;
      const mine = book.bets.filter((x) => x.playerId === id);
      expect(mine.some((x) => x.status === 'settled'), p.name).toBe(true);
      expect(mine.some((x) => x.status === 'open' && indAusMarkets.has(x.marketId)), p.name).toBe(true);
      expect(byId.get(id)!.role).toBe('player');
    }
  });

  it('refuses a cast that is not well formed', async () => {
    const { castSchema } = await import('../../src/server/seed/cast.js');
    const broken = structuredClone(cast) as unknown as { accounts: Array<Record<string, unknown>> };
    broken.accounts[0]!.timezone = 'Mars/Olympus';
    expect(() => castSchema.parse(broken)).toThrow(/unknown timezone/);
  });
});
