import { describe, expect, it } from 'vitest';
import { findAmounts, parseAmount } from '../../src/shared/parse/amount.js';

const paisa = (text: string) => parseAmount(text)?.paisa;

describe('amounts in points → paisa', () => {
  it.each([
    ['50k', 5_000_000],
    ['50K', 5_000_000],
    ['50,000', 5_000_000],
    ['1,00,000', 10_000_000], // Indian grouping
    ['5 lakh', 50_000_000],
    ['5 lakhs', 50_000_000],
    ['1 lac', 10_000_000],
    ['2.5cr', 2_500_000_000],
    ['2.5 crore', 2_500_000_000],
    ['1.2m', 120_000_000],
    ['₹50,000', 5_000_000],
    ['rs. 500', 50_000],
    ['500 pts', 50_000],
    ['1,200.50', 120_050],
    ['0.05', 5],
    ['1 trillion', 100_000_000_000_000],
  ])('%s → %d paisa', (text, expected) => {
    expect(paisa(text)).toBe(expected);
  });

  it('refuses fractions of a paisa and amounts too large to hold exactly', () => {
    expect(parseAmount('0.001')).toMatchObject({ paisa: null, problem: 'fraction_of_paisa' });
    expect(parseAmount('1.234567k')).toMatchObject({ paisa: null, problem: 'fraction_of_paisa' });
    expect(parseAmount('100000 trillion')).toMatchObject({ paisa: null, problem: 'too_large' });
  });

  it('finds amounts inside a sentence, with their place', () => {
    const found = findAmounts('set CL for Rahul Sharma to 50,000 and min stake to 5k');
    expect(found.map((f) => [f.raw, f.paisa])).toEqual([['50,000', 5_000_000], ['5k', 500_000]]);
    const [first] = findAmounts('settle 5,000 with Suresh');
    expect('settle 5,000 with Suresh'.slice(first!.start, first!.end)).toBe('5,000');
  });

  it('does not read words or ids as multipliers or amounts', () => {
    expect(findAmounts('top 5 markets').map((f) => f.paisa)).toEqual([500]);
    expect(findAmounts('limit for Karan')).toEqual([]);
    expect(findAmounts('ab12cd')).toEqual([]);
    expect(parseAmount('50 kilos')).toBeNull();
  });
});
