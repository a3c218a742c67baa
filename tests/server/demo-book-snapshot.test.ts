import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBackend } from '../../src/server/backend.js';
import { MIGRATIONS_DIR } from '../../src/server/db/client.js';
import { DEFAULT_CAST_PATH } from '../../src/server/seed/cast.js';
import { bookDigest, demoBookKey, findDemoBookSnapshot, generatorSourceDigest, generatorSources, writeDemoBookSnapshot } from '../../src/server/seed/snapshot.js';
import type { BookProgress } from '../../src/shared/contracts/startup.js';

/** Small enough for a test, with every table written: the cast, filler players, settled weeks. */
const small = { seed: 'snapshot', players: 8, bets: 400, days: 14 };
const work = mkdtempSync(join(tmpdir(), 'demo-book-snapshot-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the demo book snapshot', () => {
  it('restores the same book the generator writes, table for table, without generating it', async () => {
    const snapshots = join(work, 'snapshots');
    const file = await writeDemoBookSnapshot(snapshots, { options: small });
    expect(readdirSync(snapshots)).toEqual([file.slice(snapshots.length + 1)]);

    const restoredSteps: BookProgress[] = [];
    const restored = await openBackend({
      database: { engine: 'pglite', dataDir: join(work, 'restored') }, seedDemoIfEmpty: true, book: small, snapshotDir: snapshots,
      onProgress: (p) => restoredSteps.push(p),
    });
    const writtenSteps: BookProgress[] = [];
    const written = await openBackend({
      database: { engine: 'pglite', dataDir: join(work, 'written') }, seedDemoIfEmpty: true, book: small, snapshotDir: null,
      onProgress: (p) => writtenSteps.push(p),
    });
    try {
      // The restore skipped the generator: no step past preparing the database.
      expect(restoredSteps.map((p) => p.stage)).toEqual(['database']);
      expect(writtenSteps.map((p) => p.stage)).toContain('writing');

      expect(restored.book).toEqual(written.book);
      const [fromSnapshot, fromGenerator] = [await bookDigest(restored.database.db), await bookDigest(written.database.db)];
      expect(Object.keys(fromGenerator)).toEqual(expect.arrayContaining(['accounts', 'bets', 'ledger', 'balances', 'settlements', 'book_meta']));
      expect(fromGenerator.bets).toMatch(/^400:/);
      expect(fromSnapshot).toEqual(fromGenerator);
    } finally {
      await restored.database.close();
      await written.database.close();
    }
  }, 300_000); // two books written and one restored: seconds idle, far more on a loaded machine

  it('is found only by the inputs it was made from: a new migration, cast, options or generator code misses it', () => {
    const migrationsDir = join(work, 'migrations');
    cpSync(MIGRATIONS_DIR, migrationsDir, { recursive: true });
    const castPath = join(work, 'cast.json');
    cpSync(new URL(DEFAULT_CAST_PATH), castPath);
    const sourceDigest = generatorSourceDigest();
    const inputs = { options: small, migrationsDir, castPath, sourceDigest };
    const key = demoBookKey(inputs);
    // The copies are the running code's own inputs: the same key as the defaults give.
    expect(demoBookKey({ options: small })).toBe(key);

    // Filed under its key: a folder holding a database (its PG_VERSION) is found, nothing else.
    const snapshots = join(work, 'keyed');
    mkdirSync(join(snapshots, key), { recursive: true });
    expect(findDemoBookSnapshot(snapshots, inputs)).toBeNull();
    writeFileSync(join(snapshots, key, 'PG_VERSION'), '17\n');
    expect(findDemoBookSnapshot(snapshots, inputs)).toBe(join(snapshots, key));

    expect(demoBookKey({ ...inputs, options: { ...small, bets: 401 } })).not.toBe(key);
    expect(demoBookKey({ ...inputs, sourceDigest: `${sourceDigest}x` })).not.toBe(key);
    const cast = JSON.parse(readFileSync(castPath, 'utf8')) as { accounts: Array<{ name: string }> };
    cast.accounts[0]!.name += ' Jr';
    writeFileSync(castPath, JSON.stringify(cast, null, 2));
    expect(demoBookKey(inputs)).not.toBe(key);
    cpSync(new URL(DEFAULT_CAST_PATH), castPath);
    expect(demoBookKey(inputs)).toBe(key);

    // Another engineer's new migration (a rollup table, an index): the old snapshot is not used.
    writeFileSync(join(migrationsDir, '9999_rollups.sql'), 'create index bets_placed_at on bets (placed_at);\n');
    expect(demoBookKey(inputs)).not.toBe(key);
    expect(findDemoBookSnapshot(snapshots, inputs)).toBeNull();
  });

  it('digests the generator and everything it imports from the project', () => {
    const sources = generatorSources().map((file) => file.slice(file.lastIndexOf('/src/') + 1));
    // write.ts → services/ledger.ts (the balances) → domain/cascade.ts; generate.ts → shared/money.ts.
    expect(sources).toEqual(expect.arrayContaining([
      'src/server/seed/generate.ts', 'src/server/seed/write.ts', 'src/server/seed/names.ts', 'src/server/db/schema.ts',
      'src/server/services/ledger.ts', 'src/server/domain/cascade.ts', 'src/shared/money.ts',
    ]));
    expect(generatorSourceDigest()).toMatch(/^[0-9a-f]{64}$/);
    expect(generatorSourceDigest([new URL('../../src/server/seed/generate.ts', import.meta.url)])).not.toBe(generatorSourceDigest());
  });
});
