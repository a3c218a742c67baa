import type { Range } from '@tanstack/react-virtual';

/**
 * A virtualized table draws whole blocks of this many rows. A scroll step that stays inside the
 * blocks drawn changes nothing in the DOM, so the browser only moves what it has painted (no table
 * layout, no repaint); rows are added and dropped a block at a time, every few steps of a wheel,
 * instead of a few on every step.
 */
export const ROW_BLOCK = 10;

/**
 * The virtualizer's range extractor: the rows in view and the overscan on either side, widened out
 * to whole ROW_BLOCKs and clipped to the rows there are.
 */
export function blockRange({ startIndex, endIndex, overscan, count }: Range): number[] {
  if (count === 0) return [];
  const first = Math.floor(Math.max(0, startIndex - overscan) / ROW_BLOCK) * ROW_BLOCK;
  const last = Math.min(count - 1, Math.ceil((endIndex + overscan + 1) / ROW_BLOCK) * ROW_BLOCK - 1);
  const rows: number[] = [];
  for (let i = first; i <= last; i++) rows.push(i);
  return rows;
}
