import { describe, expect, it } from 'vitest';
import { findAmounts, numberWords, ordinalWords, parseAmount } from '../../src/shared/parse/amount.js';

const points = (text: string) => findAmounts(text).map((a) => [a.raw, a.paisa === null ? null : a.paisa / 100]);

describe('amounts as spoken and in Hinglish', () => {
  it.each([
    ['thirty five k', 35_000],
    ['forty k', 40_000],
    ['saat k', 7_000],
    ['pachas k', 50_000],
    ['teen cr', 30_000_000],
    ['bees hazar', 20_000],
    ['chaar hazaar', 4_000],
    ['nau sau', 900],
    ['ek sau', 100],
    ['two and a half lakh', 250_000],
    ['three and a half thousand', 3_500],
    ['sixty thousand', 60_000],
    ['dedh k', 1_500],
    // Dictated: a decimal said as "point", and "lakh" as speech-to-text hears it.
    ['one point five lakh', 150_000],
    ['two point two five lakh', 225_000],
    ['two lack', 200_000],
    // The London trade's slang.
    ['a monkey', 500],
    ['a pony', 25],
    ['two monkeys', 1_000],
  ])('%s → %d points', (text, expected) => {
    expect(parseAmount(text)?.paisa).toBe(expected * 100);
  });

  it('reads no amount rather than a wrong one when "point" is not a decimal it can read', () => {
    expect(points('one point five six seven lakh')).toEqual([]);
    expect(points('one point five')).toEqual([]);
    expect(points('there is no lack of bets')).toEqual([]);
  });

  it('finds both amounts of a corrected sentence, for the planner to choose', () => {
    expect(points('set it to twenty thousand no wait twenty five thousand')).toEqual([['twenty thousand', 20_000], ['twenty five thousand', 25_000]]);
    expect(points('make it 40k sorry forty five k')).toEqual([['40k', 40_000], ['forty five k', 45_000]]);
  });

  it('reads a Hindi number word only before a scale: "do", "das", "char" are words too', () => {
    expect(findAmounts('limit badha do')).toEqual([]);
    expect(findAmounts('do it for rahul')).toEqual([]);
    expect(findAmounts('ravi das bets')).toEqual([]);
    expect(findAmounts('char log')).toEqual([]);
    // a short scale only right after a number word
    expect(findAmounts('give me a k')).toEqual([]);
    expect(findAmounts('ok k thanks')).toEqual([]);
  });

  it('has ordinal words 1 to 31 and Hindi counts among the number words', () => {
    const ordinals = ordinalWords();
    expect(Object.values(ordinals).sort((a, b) => a - b)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(ordinals['twenty third']).toBe(23);
    expect(numberWords(true)).toMatchObject({ das: 10, bees: 20, pachaas: 50, chaar: 4, paanch: 5, chhe: 6 });
    // everyday words stay out of counts read anywhere
    expect(numberWords(false).do).toBeUndefined();
    expect(numberWords(false).das).toBeUndefined();
  });
});
