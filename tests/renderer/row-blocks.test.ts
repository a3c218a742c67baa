import { describe, expect, it } from 'vitest';
import { ROW_BLOCK, blockRange } from '../../src/renderer/src/lib/row-blocks.js';

const range = (startIndex: number, endIndex: number, count = 1000, overscan = 5) => ({ startIndex, endIndex, overscan, count });
const span = (rows: number[]) => [rows[0], rows.at(-1)];

describe('rows a virtualized table draws', () => {
  it('widens the rows in view and the overscan to whole blocks, with no gap', () => {
    const rows = blockRange(range(12, 21));
    expect(span(rows)).toEqual([0, 29]);
    expect(rows).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('draws the same rows for every scroll step inside a block, and a new block only when the overscan crosses into it', () => {
    // Rows 15-23 in view (overscan 10-28), 16-24 (11-29) and 18-26 (13-31): only the last crosses into rows 30-39.
    expect(blockRange(range(16, 24))).toEqual(blockRange(range(15, 23)));
    expect(span(blockRange(range(15, 23)))).toEqual([10, 29]);
    expect(span(blockRange(range(18, 26)))).toEqual([10, 39]);
  });

  it('stops at the first and last rows there are', () => {
    expect(span(blockRange(range(0, 8, 23)))).toEqual([0, 19]);
    expect(span(blockRange(range(14, 22, 23)))).toEqual([0, 22]);
    expect(span(blockRange(range(0, 3, 4)))).toEqual([0, 3]);
    expect(blockRange(range(0, -1, 0))).toEqual([]);
  });

  it('starts and ends each span on a block boundary away from the ends', () => {
    for (let start = 0; start < 200; start += 7) {
      const rows = blockRange(range(start, start + 9));
      expect(rows[0]! % ROW_BLOCK).toBe(0);
      expect((rows.at(-1)! + 1) % ROW_BLOCK).toBe(0);
      expect(rows[0]).toBeLessThanOrEqual(Math.max(0, start - 5));
      expect(rows.at(-1)).toBeGreaterThanOrEqual(start + 9 + 5);
    }
  });
});
