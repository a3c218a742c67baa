import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, isIsoDate } from '../../src/shared/dates.js';
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
    ['mahina kaisa gaya', ['2026-11-01', '2026-11-20']],
    ['oct ka pnl', ['2026-10-01', '2026-10-31']],
    ['sept ki bets', ['2026-09-01', '2026-09-30']],
    ['pnl oct', ['2026-10-01', '2026-10-31']],
    ['i may', null],
    ['weekly recap', ['2026-11-16', '2026-11-20']],
    // The week a day is in, as the London trade says it; a weekday cut to four letters.
    ['comms w/c 9th', ['2026-11-09', '2026-11-15']],
    ['pnl week commencing 16 nov', ['2026-11-16', '2026-11-20']],
    ['the week of the 10th', ['2026-11-09', '2026-11-15']],
    ["Karan's bets Tues", ['2026-11-17', '2026-11-17']],
    ['pnl thurs', ['2026-11-19', '2026-11-19']],
    ['karan sat hazaar', null],
    ['teen din pehle ka pnl', ['2026-11-17', '2026-11-17']],
    ['3 days ago', ['2026-11-17', '2026-11-17']],
    ['a week ago', ['2026-11-13', '2026-11-13']],
    ['ek hafte ka comm', ['2026-11-14', '2026-11-20']],
    ['last one week', ['2026-11-14', '2026-11-20']],
    ['do mahine ka pnl', ['2026-10-01', '2026-11-20']],
    ['monthly pnl', ['2026-11-01', '2026-11-20']],
    ['aggregate daily win for karan', null],
    ['hafta kaisa raha bhai', ['2026-11-16', '2026-11-20']],
    ['pichla hafta kaisa raha', ['2026-11-09', '2026-11-15']],
    ['do hafte kaise gaye', null],
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

describe('date phrases by chrono plus the domain rules', () => {
  // TODAY is Friday 2026-11-20; this week began Monday 2026-11-16.
  it.each([
    // ordinals without a month: this month's, or last month's when the day is still to come
    ['pnl from the 4th onwards', ['2026-11-04', '2026-11-20'], 'from the 4th onwards'],
    ['bets since the 4th', ['2026-11-04', '2026-11-20'], 'since the 4th'],
    ['since the 25th', ['2026-10-25', '2026-11-20'], 'since the 25th'],
    ['pnl 2nd to 9th', ['2026-11-02', '2026-11-09'], '2nd to 9th'],
    ['25th to 5th', ['2026-10-25', '2026-11-05'], '25th to 5th'],
    ['on the 3rd of last month', ['2026-10-03', '2026-10-03'], 'on the 3rd of last month'],
    // weekdays
    ['pnl on friday', ['2026-11-20', '2026-11-20'], 'on friday'],
    ['on wednesday', ['2026-11-18', '2026-11-18'], 'on wednesday'],
    ['on saturday', ['2026-11-14', '2026-11-14'], 'on saturday'],
    ['last friday', ['2026-11-13', '2026-11-13'], 'last friday'],
    ['last wednesday', ['2026-11-18', '2026-11-18'], 'last wednesday'],
    ['friday last week', ['2026-11-13', '2026-11-13'], 'friday last week'],
    ["last week's monday", ['2026-11-09', '2026-11-09'], "last week's monday"],
    ['pichle hafte ka friday', ['2026-11-13', '2026-11-13'], 'pichle hafte ka friday'],
    ['monday to wednesday', ['2026-11-16', '2026-11-18'], 'monday to wednesday'],
    ['thursday to monday', ['2026-11-12', '2026-11-16'], 'thursday to monday'],
    ['since wed', ['2026-11-18', '2026-11-20'], 'since wed'],
    ['bets on sat', ['2026-11-14', '2026-11-14'], 'on sat'],
    ['mon to wed', ['2026-11-16', '2026-11-18'], 'mon to wed'],
    // explicit ranges
    ['between 5 and 8 oct', ['2026-10-05', '2026-10-08'], 'between 5 and 8 oct'],
    ['5-8 oct', ['2026-10-05', '2026-10-08'], '5-8 oct'],
    ['5 to 8 October', ['2026-10-05', '2026-10-08'], '5 to 8 october'],
    ['oct 5 to oct 8', ['2026-10-05', '2026-10-08'], 'oct 5 to oct 8'],
    ['from 1 nov to 10 nov', ['2026-11-01', '2026-11-10'], 'from 1 nov to 10 nov'],
    ['from 1 nov till 10', ['2026-11-01', '2026-11-10'], 'from 1 nov till 10'],
    ['between 28 oct and 3 nov', ['2026-10-28', '2026-11-03'], 'between 28 oct and 3 nov'],
    ['dec 28 to jan 3', ['2025-12-28', '2026-01-03'], 'dec 28 to jan 3'],
    ['oct 28 - nov 3 2025', ['2025-10-28', '2025-11-03'], 'oct 28 - nov 3 2025'],
    ['bets from 5 nov to yesterday', ['2026-11-05', '2026-11-19'], 'from 5 nov to yesterday'],
    ['pnl yesterday and today', ['2026-11-19', '2026-11-20'], 'yesterday and today'],
    ['kal aur aaj ka pnl', ['2026-11-19', '2026-11-20'], 'kal aur aaj'],
    ['since 1 nov', ['2026-11-01', '2026-11-20'], 'since 1 nov'],
    ['since 1 nov till date', ['2026-11-01', '2026-11-20'], 'since 1 nov till date'],
    // day-first numeric dates, as in India
    ['20/11', ['2026-11-20', '2026-11-20'], '20/11'],
    ['on 1/2', ['2026-02-01', '2026-02-01'], 'on 1/2'],
    ['5/11/2025', ['2025-11-05', '2025-11-05'], '5/11/2025'],
    ['dec 28', ['2025-12-28', '2025-12-28'], 'dec 28'],
    // periods
    ['the week before last', ['2026-11-02', '2026-11-08'], 'the week before last'],
    ['the month before last', ['2026-09-01', '2026-09-30'], 'the month before last'],
    ['past 3 weeks', ['2026-10-31', '2026-11-20'], 'past 3 weeks'],
    ['last 3 weeks', ['2026-10-31', '2026-11-20'], 'last 3 weeks'],
    ['last fortnight', ['2026-11-07', '2026-11-20'], 'last fortnight'],
    ['past fortnight', ['2026-11-07', '2026-11-20'], 'past fortnight'],
    ['this fortnight', ['2026-11-09', '2026-11-20'], 'this fortnight'],
    ['P&L for the fortnight ending 15th', ['2026-11-02', '2026-11-15'], 'fortnight ending 15th'],
    ['1 se 10 nov tak ka pnl nikalo', ['2026-11-01', '2026-11-10'], '1 se 10 nov'],
    ['pnl for the week ending 8 nov', ['2026-11-02', '2026-11-08'], 'week ending 8 nov'],
    ['kindly share Q4 P&L so far', ['2026-10-01', '2026-11-20'], 'q4'],
    ['commission q3', ['2026-07-01', '2026-09-30'], 'q3'],
    ['pnl last quarter', ['2026-07-01', '2026-09-30'], 'last quarter'],
    ['last 3 months', ['2026-09-01', '2026-11-20'], 'last 3 months'],
    ['pnl till date', ['2026-11-01', '2026-11-20'], 'till date'],
    ['commission to date', ['2026-11-01', '2026-11-20'], 'to date'],
    ['how much have I made so far', ['2026-11-01', '2026-11-20'], 'so far'],
    ['this month till date', ['2026-11-01', '2026-11-20'], 'this month till date'],
    ['this year till date', ['2026-01-01', '2026-11-20'], 'this year till date'],
    ['this week so far', ['2026-11-16', '2026-11-20'], 'this week so far'],
    ['since october', ['2026-10-01', '2026-11-20'], 'since october'],
    ['may 2025', ['2025-05-01', '2025-05-31'], 'may 2025'],
    // Hinglish
    ['kal ka pnl', ['2026-11-19', '2026-11-19'], 'kal'],
    ['aaj ka commission', ['2026-11-20', '2026-11-20'], 'aaj'],
    ['parso ki bets', ['2026-11-18', '2026-11-18'], 'parso'],
    ['pichle hafte ka pnl', ['2026-11-09', '2026-11-15'], 'pichle hafte'],
    ['is hafte', ['2026-11-16', '2026-11-20'], 'is hafte'],
    ['pichle mahine', ['2026-10-01', '2026-10-31'], 'pichle mahine'],
    ['is mahine ka pnl', ['2026-11-01', '2026-11-20'], 'is mahine'],
    ['pichle 7 din', ['2026-11-14', '2026-11-20'], 'pichle 7 din'],
    ['pichle saal', ['2025-01-01', '2025-12-31'], 'pichle saal'],
  ])('%s', (text, expected, raw) => {
    const r = findDateRange(text, TODAY);
    expect(r ? [r.from, r.to] : null).toEqual(expected);
    expect(r?.raw).toBe(raw);
    // Callers blank the phrase out of the lower-cased text.
    expect(text.toLowerCase()).toContain(r!.raw);
    expect(Object.keys(r!).sort()).toEqual(['from', 'raw', 'to']);
  });

  it('reads weekdays and ordinals relative to the day asked', () => {
    // Wednesday 2026-11-18: friday is last week's; the 25th is last month's.
    expect(range('on friday', '2026-11-18')).toEqual(['2026-11-13', '2026-11-13']);
    expect(range('last friday', '2026-11-18')).toEqual(['2026-11-13', '2026-11-13']);
    expect(range('since the 25th', '2026-01-10')).toEqual(['2025-12-25', '2026-01-10']);
    expect(range('pichle hafte', '2027-01-01')).toEqual(['2026-12-21', '2026-12-27']);
    expect(range('this fortnight', '2026-11-16')).toEqual(['2026-11-09', '2026-11-16']);
  });

  it('never reads numbers that are not dates as dates', () => {
    for (const text of ['top 5 markets', 'last 20 bets', '50k', 'set CL to 5000', 'set CL for Rahul to 50k',
      'show the 5th bet', 'settle 2 lakh with Rahul', 'I may 25 times', 'hedge 500 at 1.85', 'what do I owe',
      'rahul 5000 limit for 3 days', 'pnl in lakhs', 'settle Kalpana', 'sun pharma bets', 'set CL to sat hazaar',
      'show the 4th']) {
      expect(range(text), text).toBeNull();
    }
  });

  it('refuses a range it cannot read whole, never a single day in its place', () => {
    expect(range('from 1 nov to 31 nov')).toBeNull();
    expect(range('30/2')).toBeNull();
    expect(range('31 february')).toBeNull();
    expect(range('from 10 to 5 oct')).toBeNull();
    expect(range('2nd to 31st')).toEqual(['2026-10-02', '2026-10-31']); // the 31st still to come is October's
  });

  it('any range found is real, ordered and near the day asked (property)', () => {
    const words = ['today', 'yesterday', 'kal', 'aaj', 'last', 'this', 'past', 'week', 'month', 'fortnight', 'since',
      'from', 'to', 'between', 'and', 'the', 'on', 'friday', 'mon', 'nov', 'oct', 'dec', 'feb', '4th', '31st', '2nd',
      'till', 'date', 'so', 'far', 'pichle', 'hafte', 'mahine', 'is', '3', '7', '15', '29', '20/11', '31/12', '-',
      'weeks', 'days', 'before', 'onwards', 'pnl', 'bets', '50k', '2025', '2026-10-28'];
    fc.assert(fc.property(
      fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 7 }),
      fc.integer({ min: Date.UTC(2001, 0, 1), max: Date.UTC(2099, 11, 31) }),
      (parts, ms) => {
        const today = new Date(ms).toISOString().slice(0, 10);
        const text = parts.join(' ');
        const r = findDateRange(text, today);
        if (!r) return;
        expect(isIsoDate(r.from) && isIsoDate(r.to), text).toBe(true);
        expect(r.from <= r.to, text).toBe(true);
        expect(text.toLowerCase()).toContain(r.raw);
        // Nothing here names a year far from today's.
        expect(/\d{4}|\//.test(text) || Number(today.slice(0, 4)) - Number(r.from.slice(0, 4)) <= 1, text).toBe(true);
        expect(r.to <= addDays(today, 7) || /\d{4}|20\/11|31\/12|next/.test(text), text).toBe(true);
      },
    ), { numRuns: 400, seed: 20261123 });
  });

  it('never reads a relative span against anything but today ("this 15 days" is no calendar day)', () => {
    for (const today of ['2001-01-01', '2026-11-20', '2099-12-31']) {
      const r = findDateRange('this 15 days is', today);
      expect(r === null || (r.to <= today && r.from >= addDays(today, -15)), `${today}: ${JSON.stringify(r)}`).toBe(true);
    }
  });

  it('ranges of the last N days, weeks and fortnights end today and hold N days (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 365 }), fc.constantFrom(['days', 1], ['weeks', 7], ['fortnights', 14]),
      (n, [unit, size]) => {
        const r = findDateRange(`last ${n} ${unit as string}`, TODAY);
        expect(r?.to).toBe(TODAY);
        expect(r?.from).toBe(addDays(TODAY, -(n * (size as number) - 1)));
      }), { numRuns: 100 });
  });
});
