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
