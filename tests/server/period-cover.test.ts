// A period's cover: signed months, days and raw stretches that count every instant of the period
// exactly once and nothing outside it, reading little raw time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Cover, coverPeriod } from '../../src/server/services/period-cover.js';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);
const instant = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** How many times the cover counts the instant `t`. */
function counted(cover: Cover, t: number): number {
  let n = 0;
  for (const r of [...cover.months, ...cover.days]) if (instant(r.first) <= t && t < instant(r.after)) n += r.times;
  for (const r of cover.raw) if (r.from.getTime() <= t && t < r.to.getTime()) n += r.times;
  return n;
}

describe('coverPeriod', () => {
  it('counts every instant of the period once and none outside it, with months or without', () => {
    const base = Date.UTC(2026, 0, 1);
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 900 * 48 }), fc.integer({ min: 0, max: 200 * 48 }), fc.boolean(), fc.boolean(),
      fc.array(fc.integer({ min: -40 * 48, max: 1_200 * 48 }), { minLength: 1, maxLength: 40 }),
      (startHalfHour, lengthHalfHours, aligned, months, probes) => {
        const start = aligned ? Math.floor((base + startHalfHour * 1_800_000) / DAY) * DAY : base + startHalfHour * 1_800_000 + 1;
        const end = start + lengthHalfHours * 1_800_000;
        const cover = coverPeriod(new Date(start), new Date(end), { months });
        // The instants that matter most: the ends, a millisecond either side, and random ones.
        const ts = [start - 1, start, start + 1, end - 1, end, end + 1, ...probes.map((p) => base + p * 1_800_000 + 7)];
        for (const t of ts) expect(counted(cover, t), `t=${new Date(t).toISOString()}`).toBe(t >= start && t < end ? 1 : 0);
        // Raw time read: at most half of each of the (at most two) part-days.
        const raw = cover.raw.reduce((sum, r) => sum + r.to.getTime() - r.from.getTime(), 0);
        expect(raw).toBeLessThanOrEqual(DAY);
      },
    ), { numRuns: 500 });
  });

  it('reads a month in India as the UTC month and two evening stretches, and the end of today as the day less a future', () => {
    // October in Asia/Kolkata: 30 Sep 18:30 UTC to 31 Oct 18:30 UTC.
    const october = coverPeriod(at('2026-09-30T18:30:00Z'), at('2026-10-31T18:30:00Z'), { months: true });
    expect(october).toEqual({
      months: [{ first: '2026-10-01', after: '2026-11-01', times: 1 }],
      days: [],
      raw: [
        { from: at('2026-09-30T18:30:00Z'), to: at('2026-10-01T00:00:00Z'), times: 1 },
        { from: at('2026-10-31T18:30:00Z'), to: at('2026-11-01T00:00:00Z'), times: -1 },
      ],
    });
    // Without months, the same period is its 31 days, less the evening of the last, and the first evening.
    const byDays = coverPeriod(at('2026-09-30T18:30:00Z'), at('2026-10-31T18:30:00Z'), { months: false });
    expect(byDays.days).toEqual([{ first: '2026-10-01', after: '2026-11-01', times: 1 }]);
    expect(byDays.raw).toHaveLength(2);
    // A week is its days: no month is mostly inside it.
    expect(coverPeriod(at('2026-11-09T18:30:00Z'), at('2026-11-16T18:30:00Z'), { months: true }).months).toEqual([]);
    // Today in India until its end: yesterday's evening raw, and today's UTC day less its evening.
    const today = coverPeriod(at('2026-11-19T18:30:00Z'), at('2026-11-20T18:30:00Z'), { months: true });
    expect(today.days).toEqual([{ first: '2026-11-20', after: '2026-11-21', times: 1 }]);
    expect(today.raw).toEqual([
      { from: at('2026-11-19T18:30:00Z'), to: at('2026-11-20T00:00:00Z'), times: 1 },
      { from: at('2026-11-20T18:30:00Z'), to: at('2026-11-21T00:00:00Z'), times: -1 },
    ]);
    expect(coverPeriod(at('2026-11-20T10:00:00Z'), at('2026-11-20T10:00:00Z'), { months: true })).toEqual({ months: [], days: [], raw: [] });
  });
});
