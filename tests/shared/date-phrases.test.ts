import { describe, expect, it } from 'vitest';
import { findDateRange } from '../../src/shared/parse/dates.js';

const TODAY = '2026-11-20'; // a Friday
const range = (text: string, today = TODAY) => {
  const r = findDateRange(text, today);
  return r ? [r.from, r.to] : null;
};

describe('date phrases → inclusive calendar days', () => {
  it.each([
    ["what's my pnl today", ['2026-11-20', '2026-11-20']],
    ['zoe nunez pnl yesterday', ['2026-11-19', '2026-11-19']],
    ['pnl last week', ['2026-11-09', '2026-11-15']],
    ['this week', ['2026-11-16', '2026-11-20']],
    ['commission this month', ['2026-11-01', '2026-11-20']],
    ['show my profit and loss for last month', ['2026-10-01', '2026-10-31']],
    ['last 7 days', ['2026-11-14', '2026-11-20']],
    ['past 30 days', ['2026-10-22', '2026-11-20']],
    ['since Monday', ['2026-11-16', '2026-11-20']],
    ['since friday', ['2026-11-20', '2026-11-20']],
    ['pnl in October', ['2026-10-01', '2026-10-31']],
    ['bets in december', ['2025-12-01', '2025-12-31']], // a month not yet reached this year is last year's
    ['for november', ['2026-11-01', '2026-11-20']], // the current month runs to today
    ['on 14 Nov', ['2026-11-14', '2026-11-14']],
    ['Nov 14th', ['2026-11-14', '2026-11-14']],
    ['2026-10-28', ['2026-10-28', '2026-10-28']],
    ['28/10/2026', ['2026-10-28', '2026-10-28']],
    ['from 1 Nov to 15 Nov', ['2026-11-01', '2026-11-15']],
    ['between 2026-10-01 and 2026-10-15', ['2026-10-01', '2026-10-15']],
    ['1-15 Nov', ['2026-11-01', '2026-11-15']],
    ['since 10 Nov', ['2026-11-10', '2026-11-20']],
    ['this year', ['2026-01-01', '2026-11-20']],
    ['october pnl', ['2026-10-01', '2026-10-31']],
    ['bets in may 2025', ['2025-05-01', '2025-05-31']],
  ])('%s', (text, expected) => {
    expect(range(text)).toEqual(expected);
  });

  it('crosses month and year ends', () => {
    expect(range('last month', '2027-01-05')).toEqual(['2026-12-01', '2026-12-31']);
    expect(range('last week', '2027-01-01')).toEqual(['2026-12-21', '2026-12-27']);
    expect(range('yesterday', '2028-03-01')).toEqual(['2028-02-29', '2028-02-29']);
    expect(range('this week', '2027-01-01')).toEqual(['2026-12-28', '2027-01-01']);
    expect(range('last month', '2026-03-31')).toEqual(['2026-02-01', '2026-02-28']);
  });

  it('finds nothing where there is no date, and refuses impossible days', () => {
    expect(range('show my downline')).toBeNull();
    expect(range('set CL for Rahul to 50k')).toBeNull();
    expect(range('top 5 markets by pnl')).toBeNull();
    expect(range('I may settle Deepak')).toBeNull();
    expect(range('settle 5,000 with Suresh')).toBeNull();
    expect(range('on 31 Feb')).toBeNull();
    expect(range('from 15 Nov to 1 Nov')).toBeNull();
  });
});
