import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDateRange } from '../../src/shared/parse/dates.js';

const TODAY = '2026-11-20'; // a Friday; this week began Monday 2026-11-16
const read = (text: string, today = TODAY) => {
  const r = findDateRange(text, today);
  if (r) expect(text.toLowerCase(), text).toContain(r.raw);
  return r ? [r.from, r.to, r.raw] : null;
};

describe('ordinal days said in words read as the digit ordinals do', () => {
  it.each([
    ['what did I make on the twelfth', ['2026-11-12', '2026-11-12', 'on the twelfth']],
    // still to come this month: last month's, as "on the 25th"
    ['commission on the twenty fifth', ['2026-10-25', '2026-10-25', 'on the twenty fifth']],
    ['bets from the second to the sixth', ['2026-11-02', '2026-11-06', 'from the second to the sixth']],
    ['pnl between the eighth and the eleventh', ['2026-11-08', '2026-11-11', 'between the eighth and the eleventh']],
    ['ninth to thirteenth', ['2026-11-09', '2026-11-13', 'ninth to thirteenth']],
    ['everything since the third', ['2026-11-03', '2026-11-20', 'since the third']],
    ['from the seventeenth onwards', ['2026-11-17', '2026-11-20', 'from the seventeenth onwards']],
    ['the twenty-second to the twenty-eighth', ['2026-10-22', '2026-10-28', 'the twenty-second to the twenty-eighth']],
    ['on the thirtieth', ['2026-10-30', '2026-10-30', 'on the thirtieth']],
    ['on the thirty-first', ['2026-10-31', '2026-10-31', 'on the thirty-first']],
    ['since the first of this month', ['2026-11-01', '2026-11-20', 'since the first of this month']],
    ['on the sixth of last month', ['2026-10-06', '2026-10-06', 'on the sixth of last month']],
    ['the nineteenth of september', ['2026-09-19', '2026-09-19', 'nineteenth of september']],
    ['from the fifth to the twelfth of october', ['2026-10-05', '2026-10-12', 'from the fifth to the twelfth of october']],
    ['from 2 nov till the eighth', ['2026-11-02', '2026-11-08', 'from 2 nov till the eighth']],
  ])('%s', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it('gives the same days as the digits for every ordinal and every pattern (property)', () => {
    const words = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh',
      'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth',
      'twenty first', 'twenty-second', 'twenty third', 'twenty-fourth', 'twenty fifth', 'twenty sixth', 'twenty-seventh',
      'twenty eighth', 'twenty ninth', 'thirtieth', 'thirty first'];
    const suffix = (n: number) => (n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th');
    const patterns = [(d: string) => `pnl on the ${d}`, (d: string) => `since the ${d}`, (d: string) => `from the ${d} onwards`,
      (d: string) => `the ${d} of last month`, (d: string) => `the ${d} of october`, (d: string, e: string) => `from the ${d} to the ${e}`,
      (d: string, e: string) => `between the ${d} and the ${e}`];
    fc.assert(fc.property(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 1, max: 31 }), fc.constantFrom(...patterns),
      fc.constantFrom('2026-11-20', '2026-03-05', '2027-01-31'), (a, b, pattern, today) => {
        const inWords = findDateRange(pattern(words[a - 1]!, words[b - 1]!), today);
        const inDigits = findDateRange(pattern(`${a}${suffix(a)}`, `${b}${suffix(b)}`), today);
        expect(inWords && [inWords.from, inWords.to]).toEqual(inDigits && [inDigits.from, inDigits.to]);
      }), { numRuns: 300 });
  });

  it('leaves ordinals of things alone', () => {
    for (const text of ['runs in the first over', 'pnl from the first match', 'the second innings', 'hold on a second to check',
      'who came first to bet', 'the third market', 'since the first deposit', 'on the thirty second']) {
      expect(read(text), text).toBeNull();
    }
  });
});

describe('period words typed in a hurry', () => {
  it.each([
    ['pnl for lsat week', ['2026-11-09', '2026-11-15', 'lsat week']],
    ['last wek ka pnl', ['2026-11-09', '2026-11-15', 'last wek']],
    ['comission this moth', ['2026-11-01', '2026-11-20', 'this moth']],
    ['bets yestrday', ['2026-11-19', '2026-11-19', 'yestrday']],
    ['pnl todya', ['2026-11-20', '2026-11-20', 'todya']],
    ['pnl previos month', ['2026-10-01', '2026-10-31', 'previos month']],
    ['last yaer', ['2025-01-01', '2025-12-31', 'last yaer']],
    ['past 2 weekss', ['2026-11-07', '2026-11-20', 'past 2 weekss']],
    ['tihs week so far', ['2026-11-16', '2026-11-20', 'tihs week so far']],
  ])('%s', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it('never respells an English word that means something else there', () => {
    for (const text of ['his week was fine', 'a lost month', 'shut your mouth', 'weak market', 'the toady', 'toda aur batao', 'thin month']) {
      expect(read(text), text).toBeNull();
    }
  });
});

describe('period words of Indian languages in Roman script', () => {
  it.each([
    // Gujarati
    ['aa mahine nu pnl', ['2026-11-01', '2026-11-20', 'aa mahine']],
    ['gaye mahine no hisab', ['2026-10-01', '2026-10-31', 'gaye mahine']],
    ['aaje ketla bets', ['2026-11-20', '2026-11-20', 'aaje']],
    ['kale nu commission', ['2026-11-19', '2026-11-19', 'kale']],
    ['aa athvadiye', ['2026-11-16', '2026-11-20', 'aa athvadiye']],
    ['gaya athvadiyu', ['2026-11-09', '2026-11-15', 'gaya athvadiyu']],
    // Marathi
    ['kaal che bets', ['2026-11-19', '2026-11-19', 'kaal']],
    ['ya mahinyat kiti zhala', ['2026-11-01', '2026-11-20', 'ya mahinyat']],
    ['maglya mahinyat', ['2026-10-01', '2026-10-31', 'maglya mahinyat']],
    ['magchya aathvadyat', ['2026-11-09', '2026-11-15', 'magchya aathvadyat']],
    ['ya aathvadyat', ['2026-11-16', '2026-11-20', 'ya aathvadyat']],
    // Punjabi
    ['ajj da pnl', ['2026-11-20', '2026-11-20', 'ajj']],
    ['pichle hafte da hisaab', ['2026-11-09', '2026-11-15', 'pichle hafte']],
    // running to today, as "till date"
    ['aaj tak ka comm', ['2026-11-01', '2026-11-20', 'aaj tak']],
    ['is mahine aaj tak', ['2026-11-01', '2026-11-20', 'is mahine aaj tak']],
    ['1 nov se aaj tak', ['2026-11-01', '2026-11-20', '1 nov se aaj tak']],
    ['parson ki bets', ['2026-11-18', '2026-11-18', 'parson']],
    ['kaal ani aaj', ['2026-11-19', '2026-11-20', 'kaal ani aaj']],
  ])('%s', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it('reads a row\'s "this" only with its own units: Hindi "ya" is "or"', () => {
    expect(read('week ya month')).toBeNull();
    expect(read('pnl ya month')).toBeNull();
    expect(read('din ya mahina, jo bhi')).toBeNull();
    expect(read('koi parva nahi')).toBeNull();
  });
});
