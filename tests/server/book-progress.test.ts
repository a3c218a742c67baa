import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBackend } from '../../src/server/backend.js';
import { BOOK_STAGES, type BookProgress } from '../../src/shared/contracts/startup.js';

/** Enough of a book to write every table in several batches' worth of steps, small enough for a test. */
const tiny = { seed: 'progress', players: 8, bets: 400, days: 14 };

describe('writing a new demo book', () => {
  it('reports each step in order with a share that only grows, and nothing when the book exists', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'book-progress-')), 'pglite');
    try {
      const seen: BookProgress[] = [];
      const first = await openBackend({ database: { engine: 'pglite', dataDir }, seedDemoIfEmpty: true, book: tiny, onProgress: (p) => seen.push(p) });
      await first.database.close();

      expect(seen[0]).toEqual({ stage: 'database', percent: 0 });
      // Every step, in the contract's order, each one at least once.
      const stages = seen.map((p) => p.stage).filter((stage, i, all) => all.indexOf(stage) === i);
      expect(stages).toEqual([...BOOK_STAGES]);
      for (const [before, after] of seen.slice(0, -1).map((p, i) => [p, seen[i + 1]!] as const)) {
        expect(BOOK_STAGES.indexOf(after.stage)).toBeGreaterThanOrEqual(BOOK_STAGES.indexOf(before.stage));
        expect(after.percent).toBeGreaterThanOrEqual(before.percent);
      }
      for (const p of seen) expect(Number.isInteger(p.percent) && p.percent >= 0 && p.percent < 100).toBe(true);
      // Rows are counted as they are written: the writing step moves, and ends where indexing starts.
      const writing = seen.filter((p) => p.stage === 'writing').map((p) => p.percent);
      expect(writing.length).toBeGreaterThan(1);
      expect(writing.at(-1)).toBe(seen.find((p) => p.stage === 'indexing')!.percent);

      const again: BookProgress[] = [];
      const second = await openBackend({ database: { engine: 'pglite', dataDir }, seedDemoIfEmpty: true, book: tiny, onProgress: (p) => again.push(p) });
      expect(second.book?.seed).toBe('progress');
      await second.database.close();
      expect(again).toEqual([]);
    } finally {
      rmSync(dirname(dataDir), { recursive: true, force: true });
    }
  }, 180_000); // a new database created and written: seconds idle, far more on a loaded machine
});
