/**
 * The number guard reads a figure in every form the trade writes one (digits, a scale, words, a
 * currency) and holds it to the money or the count the turn's results carry: results hold paisa,
 * answers state points, so paisa shown as points (100× too big) is withheld in any form.
 */
import { describe, expect, it } from 'vitest';
import { WITHHELD, allowedFigures, guardNumbers } from '../../../../src/main/assistant/guards/number-guard.js';
import { MONEY_FIELDS } from '../../../../src/main/tools/money-fields.js';

/** A take read for one account: `take` paisa, under a credit limit of 10,00,000.00 points. */
const takeOf = (take: number) => ({
  rows: [{ accountId: 'a1', name: 'Rahul Sharma', role: 'player', take, creditLimit: 100_000_000, available: 100_000_000 - take }],
  matched: 1, totals: { take, cl: 100_000_000, available: 100_000_000 - take },
});
const flagged = (text: string, results: unknown[], extra: string[] = []) => guardNumbers(text, allowedFigures(results, extra)).flagged;

describe('the number guard reads money in every form, in points', () => {
  // Rahul owes 1,200.00 points: 120000 paisa.
  const owes = [takeOf(120_000)];

  it('lets the points through however they are written', () => {
    for (const said of ['1,200.00', '1,200', '1200', '1,200 points', '₹1,200', 'rs. 1200', '1.2k', 'twelve hundred', 'one thousand two hundred']) {
      expect(flagged(`Rahul owes you ${said}.`, owes), said).toEqual([]);
    }
  });

  it('withholds the paisa shown as points, 100× too big, in every form', () => {
    for (const said of ['120,000', '120000', '1,20,000', '120,000.00', '120,000 points', '₹1,20,000', '120k', '1.2 lakh', '1.2L', 'one lakh twenty thousand']) {
      expect(flagged(`Rahul owes you ${said}.`, owes), said).toEqual([said]);
    }
    expect(guardNumbers('Rahul owes you ₹1,20,000 in all.', allowedFigures(owes)).text).toBe(`Rahul owes you ${WITHHELD} in all.`);
  });

  it('digits with commas and decimals: "12,345.00" is 1234500 paisa, never the paisa\'s own digits', () => {
    const results = [takeOf(1_234_500)];
    expect(flagged('Rahul owes you 12,345.00, that is 12,345 points.', results)).toEqual([]);
    expect(flagged('Rahul owes you 1,234,500.', results)).toEqual(['1,234,500']);
    expect(flagged('Rahul owes you 12,345.50.', results)).toEqual(['12,345.50']);
  });

  it('lakh: "about 1.2 lakh" for 1,19,870.00 points, not 1.3 lakh', () => {
    const results = [takeOf(11_987_000)];
    expect(flagged('Rahul owes you about 1.2 lakh.', results)).toEqual([]);
    expect(flagged('Rahul owes you about 1.3 lakh.', results)).toEqual(['1.3 lakh']);
  });

  it('crore: "about 2 crore" for 2,01,50,000.00 points; a count of 2 does not carry "2 crore"', () => {
    const exposure = { fixtures: [{ fixtureId: 'f1', fixtureName: 'India vs Australia', exposure: 2_015_000_000, exposureAtShare: 0 }], total: { exposure: 2_015_000_000, exposureAtShare: 0 } };
    expect(flagged('Your exposure is about 2 crore.', [exposure])).toEqual([]);
    expect(flagged('Your exposure is 20 Cr.', [exposure])).toEqual(['20 Cr']);
    const twoPlayers = { rows: [{ name: 'A', take: 100 }, { name: 'B', take: 100 }], matched: 2 };
    expect(flagged('2 players owe you 2 crore.', [twoPlayers])).toEqual(['2 crore']);
  });

  it('k: "50k" is 50,000.00 points', () => {
    const stake = { summary: { count: 1, stake: 5_000_000, openLiability: 0, settledResult: 0 } };
    expect(flagged('You took 50k today.', [stake])).toEqual([]);
    expect(flagged('You took 500k today.', [stake])).toEqual(['500k']);
  });

  it('number words: "two thousand" is 2,000 points, or a count of 2000', () => {
    const stake = { summary: { count: 1, stake: 200_000, openLiability: 0, settledResult: 0 } };
    expect(flagged('Two thousand points were staked.', [stake])).toEqual([]);
    expect(flagged('Three thousand points were staked.', [stake])).toEqual(['Three thousand points']);
    expect(flagged('Five thousand were staked.', [stake])).toEqual(['Five thousand']);
    expect(flagged('Two thousand bets were placed.', [{ summary: { count: 2000, stake: 0 } }])).toEqual([]);
  });

  it('a currency: "₹5,000" is 5,000.00 points, never a count', () => {
    expect(flagged('Rahul owes you ₹5,000.', [takeOf(500_000)])).toEqual([]);
    expect(flagged('Rahul owes you ₹5,00,000.', [takeOf(500_000)])).toEqual(['₹5,00,000']);
    expect(flagged('You have ₹5,000.', [{ summary: { count: 5000, stake: 0 } }])).toEqual(['₹5,000']);
  });

  it('a rounded wording stands for what rounds to it at the precision it shows', () => {
    // 1,98,700.00 points is 2 lakh to the lakh; 2,60,000.00 is not.
    expect(flagged('Rahul owes you about 2 lakh.', [takeOf(19_870_000)])).toEqual([]);
    expect(flagged('Rahul owes you about 2 lakh.', [takeOf(26_000_000)])).toEqual(['2 lakh']);
    // "dedh lakh" is 1.5 lakh to the half lakh; "sawa lakh" 1.25 lakh to the quarter.
    expect(flagged('Rahul owes you dedh lakh.', [takeOf(15_000_000)])).toEqual([]);
    expect(flagged('Rahul owes you sawa lakh.', [takeOf(15_000_000)])).toEqual(['sawa lakh']);
    // Written to the point, it is rounded to the point: 1,947.20 is 1,947 points, not 1,946.
    expect(flagged('Karan owes you 1,947 points.', [takeOf(194_720)])).toEqual([]);
    expect(flagged('Karan owes you 1,946 points.', [takeOf(194_720)])).toEqual(['1,946 points']);
  });

  it('a figure the answer computed from the rows is carried in any form too', () => {
    expect(flagged('The average stake is about 1,186 points.', [], ['1,186.48'])).toEqual([]);
    expect(flagged('The average stake is about 1.2k.', [], ['1,186.48'])).toEqual([]);
    expect(flagged('The average stake is about 2k.', [], ['1,186.48'])).toEqual(['2k']);
  });

  it('counts, days, times and percentages are checked as written, as before: a time or a percentage is never read as points', () => {
    const bets = {
      bets: [{ betId: 'b1', stake: 1_250, odds: 185, placedAt: '2026-11-20T13:00:00.000Z' }, { betId: 'b2', stake: 500, odds: 210, placedAt: '2026-11-20T13:15:00.000Z' }],
      summary: { count: 3, stake: 1_750, openLiability: 0, settledResult: 0 }, note: 'closes 18:30, 2.5% commission',
    };
    expect(flagged('3 bets on 20 Nov 2026 at 1.85 and 2.10; 2 shown; closes 18:30, 2.5% commission.', [bets], [])).toEqual([]);
    expect(flagged('4 bets on 21 Nov 2026 at 1.95.', [bets])).toEqual(['4', '21 Nov 2026', '1.95']);
    // A time or a percentage is not read as points: 12.5 and 5 points are carried (stakes of 1250 and 500 paisa), "12.5%" and ":05" are not.
    expect(flagged('Stakes of 12.5 and 5 points.', [bets])).toEqual([]);
    expect(guardNumbers('Closes 18:05, 12.5% commission.', allowedFigures([bets]))).toEqual({ text: `Closes 18:${WITHHELD}, ${WITHHELD}% commission.`, flagged: ['05', '12.5'] });
  });

  it('knows a field of paisa from a count by the tools\' schemas', () => {
    for (const money of ['take', 'creditLimit', 'available', 'stake', 'amount', 'newValue', 'exposure', 'pnl', 'liability']) expect(MONEY_FIELDS.has(money), money).toBe(true);
    // `value` is paisa in a market and a threshold in its column's unit elsewhere: read both ways.
    for (const plain of ['bets', 'count', 'odds', 'matched', 'childCount', 'commissionBps', 'value']) expect(MONEY_FIELDS.has(plain), plain).toBe(false);
  });
});
