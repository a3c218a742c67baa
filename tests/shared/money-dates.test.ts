import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays, dayRangeToInstants, endOfMonth, isIsoDate, isoWeekId, isoWeekRange, localDate, startOfLocalDay, startOfWeek,
} from '../../src/shared/dates.js';
import { formatPoints, mulDivFloor, mulDivRound, paisaFromSql } from '../../src/shared/money.js';
import { normalizeForSearch } from '../../src/shared/text.js';

describe('money', () => {
  it('formats paisa as points with thousands separators', () => {
    expect(formatPoints(5_000_000)).toBe('50,000.00');
    expect(formatPoints(120_000)).toBe('1,200.00');
    expect(formatPoints(-123)).toBe('-1.23');
    expect(formatPoints(5)).toBe('0.05');
    expect(formatPoints(100_000_000_000)).toBe('1,000,000,000.00');
  });

  it('rounds half away from zero, exactly', () => {
    expect(mulDivRound(10, 5, 100)).toBe(1); // 0.5 → 1
    expect(mulDivRound(-10, 5, 100)).toBe(-1); // −0.5 → −1
    expect(mulDivRound(333, 85, 100)).toBe(283); // 283.05
    expect(mulDivRound(14, 1, 4)).toBe(4); // 3.5 → 4
    expect(mulDivRound(9_007_199_254_740_991, 1, 1)).toBe(9_007_199_254_740_991);
  });

  it('floors toward minus infinity', () => {
    expect(mulDivFloor(999, 200, 10_000)).toBe(19);
    expect(mulDivFloor(-999, 200, 10_000)).toBe(-20);
    expect(mulDivFloor(999, -200, 10_000)).toBe(-20);
    expect(mulDivFloor(-999, 200, -10_000)).toBe(19);
    expect(mulDivFloor(-10_000, 200, 10_000)).toBe(-200); // exact: no step down
  });

  // Each of these products is past 2^53, where floats round before the division does; where that
  // changes the answer the float's is noted, so a helper that let the product into a float fails.
  it('stays exact when a × numerator passes Number.MAX_SAFE_INTEGER', () => {
    expect(mulDivFloor(999_999_999_999_800, 150, 10_000)).toBe(14_999_999_999_997); // float: …996
    expect(mulDivFloor(999_999_999_999_069, 333, 10_000)).toBe(33_299_999_999_968); // float: …969
    expect(mulDivFloor(9_007_199_254_740_449, 200, 10_000)).toBe(180_143_985_094_808); // float: …809
    expect(mulDivFloor(-9_007_199_254_740_449, 200, 10_000)).toBe(-180_143_985_094_809);
    expect(mulDivFloor(Number.MAX_SAFE_INTEGER, 9_999, 10_000)).toBe(9_006_298_534_815_516);
    expect(mulDivRound(Number.MAX_SAFE_INTEGER, 9_999, 10_000)).toBe(9_006_298_534_815_517);
    expect(mulDivRound(-Number.MAX_SAFE_INTEGER, 9_999, 10_000)).toBe(-9_006_298_534_815_517);
    expect(mulDivRound(Number.MAX_SAFE_INTEGER, 3, 3)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses what it cannot answer exactly instead of rounding it', () => {
    expect(() => mulDivFloor(Number.MAX_SAFE_INTEGER, 2, 1)).toThrow(RangeError);
    expect(() => mulDivRound(Number.MAX_SAFE_INTEGER, 2, 1)).toThrow(RangeError);
    expect(() => mulDivFloor(2 ** 53, 1, 1)).toThrow(/safe integer/);
    expect(() => mulDivRound(1.5, 1, 1)).toThrow(/safe integer/);
    expect(() => mulDivFloor(1, 1, 0)).toThrow(/division by zero/);
    expect(() => mulDivRound(1, 1, 0)).toThrow(/division by zero/);
  });

  // The definitions themselves, checked in BigInt for any safe inputs: floor leaves a remainder in
  // [0, |d|) on the side of d, and round lands within half of d, a tie going away from zero.
  it('floors and rounds by their definitions for any safe integers', () => {
    const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
    const ratio = fc.integer({ min: -1_000_000, max: 1_000_000 });
    const divisor = fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((d) => d !== 0);
    const fits = (a: number, n: number, d: number) => {
      const q = (BigInt(a) * BigInt(n)) / BigInt(d);
      return q >= BigInt(Number.MIN_SAFE_INTEGER) + 1n && q <= BigInt(Number.MAX_SAFE_INTEGER) - 1n;
    };
    fc.assert(fc.property(safe, ratio, divisor, (a, n, d) => {
      fc.pre(fits(a, n, d));
      const exact = BigInt(a) * BigInt(n);
      const bd = BigInt(d);
      const abs = (x: bigint) => (x < 0n ? -x : x);
      const floor = BigInt(mulDivFloor(a, n, d));
      const floorRest = exact - floor * bd; // same sign as d, smaller than it
      expect(bd > 0n ? floorRest >= 0n && floorRest < bd : floorRest <= 0n && floorRest > bd).toBe(true);
      const rounded = BigInt(mulDivRound(a, n, d));
      const twiceRest = 2n * abs(exact - rounded * bd);
      expect(twiceRest <= abs(bd)).toBe(true);
      if (twiceRest === abs(bd)) expect(abs(rounded * bd) > abs(exact)).toBe(true);
    }), { numRuns: 2_000 });
  });

  it('refuses fractions coming back from SQL', () => {
    expect(paisaFromSql('12345')).toBe(12_345);
    expect(paisaFromSql(null)).toBe(0);
    expect(() => paisaFromSql('1.5')).toThrow(/whole number of paisa/);
  });
});

describe('calendar days in a timezone', () => {
  it('places midnight in India at 18:30 UTC the day before', () => {
    expect(startOfLocalDay('2026-11-20', 'Asia/Kolkata').toISOString()).toBe('2026-11-19T18:30:00.000Z');
    expect(startOfLocalDay('2026-11-20', 'Asia/Dubai').toISOString()).toBe('2026-11-19T20:00:00.000Z');
  });

  it('reads the local day of an instant', () => {
    expect(localDate(new Date('2026-11-19T19:00:00Z'), 'Asia/Kolkata')).toBe('2026-11-20');
    expect(localDate(new Date('2026-11-19T19:00:00Z'), 'UTC')).toBe('2026-11-19');
  });

  it('handles a DST change (London, last Sunday of October)', () => {
    const { start, end } = dayRangeToInstants('2026-10-25', '2026-10-25', 'Europe/London');
    expect(start.toISOString()).toBe('2026-10-24T23:00:00.000Z');
    expect(end.toISOString()).toBe('2026-10-26T00:00:00.000Z');
  });

  it('crosses month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(endOfMonth('2026-02-10')).toBe('2026-02-28');
    expect(startOfWeek('2027-01-01')).toBe('2026-12-28'); // weeks start on Monday
  });

  it('knows ISO weeks', () => {
    expect(isoWeekId('2026-11-16')).toBe('2026-W47');
    expect(isoWeekRange('2026-W46')).toEqual({ from: '2026-11-09', to: '2026-11-15' });
    expect(isoWeekId('2027-01-01')).toBe('2026-W53');
    expect(() => isoWeekRange('2026-W60')).toThrow(/not an ISO week/);
  });

  it('validates calendar dates', () => {
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('20261120')).toBe(false);
  });
});

describe('search normal form', () => {
  it('folds accents, case and apostrophes', () => {
    expect(normalizeForSearch('Zoë Ñúñez')).toBe('zoe nunez');
    expect(normalizeForSearch("Sam O'Brien")).toBe('sam obrien');
    expect(normalizeForSearch('  MI vs. CSK ')).toBe('mi vs csk');
  });
});
