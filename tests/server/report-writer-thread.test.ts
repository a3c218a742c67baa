import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Column, Line } from '../../src/server/services/report-rows.js';
import { openWriterThread } from '../../src/server/services/report-writer-thread.js';
import { openWriter } from '../../src/server/services/report-writers.js';

const HEADING = { title: 'Bets', sheetName: 'Bets', subtitle: 'Generated 20 Nov 2026, 12:00 (Asia/Kolkata)', legend: 'Result is the player\'s.', timezone: 'Asia/Kolkata' };
const COLUMNS: Column[] = [
  { header: 'Placed', kind: 'datetime', width: 18 }, { header: 'Player', kind: 'text', width: 22 },
  { header: 'Stake', kind: 'points', width: 14 }, { header: 'Odds', kind: 'odds', width: 8 },
];
/** Batches of rows, a group line and a total: every kind of line, over more batches than the thread holds at once. */
const BATCHES: Line[][] = Array.from({ length: 7 }, (_, b) => [
  { type: 'group', label: `Match ${b}` },
  ...Array.from({ length: 40 }, (_, i): Line => ({
    type: 'row', cells: [new Date(Date.UTC(2026, 10, 1 + b, i % 24, i)).toISOString(), `Player "${b}-${i}", Ñúñez`, { paisa: 1_000 * (i + 1), words: '' }, 150 + i],
  })),
  { type: 'total', cells: [`Match ${b} total`, null, { paisa: 820_000, words: '' }, null] },
]);

describe('a report written in a thread of its own', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'writer-thread-')); });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('writes the same file as the writer in this thread, batch after batch in order', async () => {
    const here = await openWriter('csv', join(dir, 'here.csv'), HEADING, COLUMNS);
    for (const batch of BATCHES) here.write(batch);
    const hereSize = await here.finish();
    const thread = await openWriterThread('csv', join(dir, 'thread.csv'), HEADING, COLUMNS);
    for (const batch of BATCHES) await thread.write(batch);
    expect(await thread.finish()).toBe(hereSize);
    const written = await readFile(join(dir, 'thread.csv'), 'utf8');
    expect(written).toBe(await readFile(join(dir, 'here.csv'), 'utf8'));
    expect(written).toContain('Player ""6-39"", Ñúñez');
    // The next report takes the thread the last one finished on, and writes the same.
    const again = await openWriterThread('csv', join(dir, 'again.csv'), HEADING, COLUMNS);
    for (const batch of BATCHES) await again.write(batch);
    await again.finish();
    expect(await readFile(join(dir, 'again.csv'), 'utf8')).toBe(written);
  });

  it('a file that cannot be written fails the job with the file system\'s code, as in this thread', async () => {
    const path = join(dir, 'no such folder', 'r.xlsx');
    await expect((async () => {
      const w = await openWriterThread('xlsx', path, HEADING, COLUMNS);
      for (const batch of BATCHES) await w.write(batch);
      await w.finish();
    })()).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('abandoned, the thread is stopped and takes nothing more', async () => {
    const w = await openWriterThread('pdf', join(dir, 'abandoned.pdf'), HEADING, COLUMNS);
    await w.write(BATCHES[0]!);
    await w.abandon();
    await expect(w.write(BATCHES[1]!)).rejects.toThrow(/writer thread stopped/);
    await expect(w.finish()).rejects.toThrow(/writer thread stopped/);
  });
});
