import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AMOUNT_WORDS, amountRefusal, findAmounts, parseAmount } from '../../src/shared/parse/amount.js';

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

describe('amounts in words, Indian scales and signs', () => {
  it.each([
    ['5L', 50_000_000],
    ['5 L', 50_000_000],
    ['2.5Cr', 2_500_000_000],
    ['2 CR', 2_000_000_000],
    ['1,00,00,000', 1_000_000_000], // one crore, Indian grouping
    ['5 hazar', 500_000],
    ['5 hazaar', 500_000],
    ['5 hajar', 500_000],
    ['1.5 lakh', 15_000_000],
    ['fifty thousand', 5_000_000],
    ['twenty five thousand', 2_500_000],
    ['five hundred', 50_000],
    ['two lakh', 20_000_000],
    ['a lakh', 10_000_000],
    ['one and a half lakh', 15_000_000],
    ['two lakh and fifty thousand', 25_000_000],
    ['one crore twenty lakh', 1_200_000_000],
    ['ek lakh', 10_000_000],
    ['do lakh', 20_000_000],
    ['paanch hazaar', 500_000],
    ['das hazaar', 1_000_000],
    ['dedh lakh', 15_000_000],
    ['dhai lakh', 25_000_000],
    ['sawa lakh', 12_500_000],
    ['sava lakh', 12_500_000],
    ['2 peti', 20_000_000],
    ['ek khokha', 1_000_000_000],
    ['sawa do lakh', 22_500_000],
    ['saadhe teen lakh', 35_000_000],
    ['paune do lakh', 17_500_000],
    ['2 lakh 50 hazaar', 25_000_000],
    ['1 cr 20 lakh', 1_200_000_000],
  ])('%s → %d paisa', (text, expected) => {
    const a = parseAmount(text);
    expect(a?.paisa).toBe(expected);
    expect(a?.negative).toBe(false);
    expect(amountRefusal(a!)).toBeNull();
  });

  it.each([
    ['-50k', 5_000_000],
    ['−50k', 5_000_000],
    ['minus 50k', 5_000_000],
    ['₹-500', 50_000],
    ['-₹500', 50_000],
    ['minus two lakh', 20_000_000],
  ])('keeps the sign of %s and refuses it with the reason', (text, magnitude) => {
    const a = parseAmount(text);
    expect(a).toMatchObject({ paisa: magnitude, negative: true, problem: null });
    expect(amountRefusal(a!)).toMatch(/can't be negative: -[\d,]+\.\d\d/);
  });

  it('finds a negative amount in a sentence, and zero, for the caller to refuse', () => {
    const [neg] = findAmounts('set CL for Rahul to -50k');
    expect(neg).toMatchObject({ raw: '-50k', paisa: 5_000_000, negative: true });
    expect(amountRefusal(neg!)).toBe('A limit or amount can\'t be negative: -50,000.00 (you wrote "-50k"). What amount did you mean?');
    const [zero] = findAmounts('set min stake to 0');
    expect(zero).toMatchObject({ paisa: 0, negative: false });
    expect(amountRefusal(zero!)).toMatch(/more than zero/);
    expect(amountRefusal(parseAmount('0.001')!)).toMatch(/paisa/);
    expect(amountRefusal(parseAmount('100000 trillion')!)).toMatch(/too large/);
  });

  it('says how precisely each amount was written, how, and whether a currency or points marked it as money', () => {
    const read = (text: string) => findAmounts(text).map((a) => [a.raw, a.paisa, a.step, a.written, a.money]);
    expect(read('12,345.00 and 5,000')).toEqual([['12,345.00', 1_234_500, 1, 'digits', false], ['5,000', 500_000, 100, 'digits', false]]);
    expect(read('about 2 lakh, 1.2 lakh, 50k, 2.5Cr')).toEqual([
      ['2 lakh', 20_000_000, 10_000_000, 'scaled', false], ['1.2 lakh', 12_000_000, 1_000_000, 'scaled', false],
      ['50k', 5_000_000, 100_000, 'scaled', false], ['2.5Cr', 2_500_000_000, 100_000_000, 'scaled', false],
    ]);
    expect(read('two thousand five hundred')).toEqual([['two thousand five hundred', 250_000, 10_000, 'words', false]]);
    expect(read('two hundred fifty')).toEqual([['two hundred fifty', 25_000, 100, 'words', false]]);
    // Said in halves, quarters or tenths of the scale: that part of it.
    expect(read('dedh lakh')).toEqual([['dedh lakh', 15_000_000, 5_000_000, 'words', false]]);
    expect(read('sawa lakh')).toEqual([['sawa lakh', 12_500_000, 2_500_000, 'words', false]]);
    expect(read('one point five lakh')).toEqual([['one point five lakh', 15_000_000, 1_000_000, 'words', false]]);
    expect(read('2 lakh 50 hazaar')).toEqual([['2 lakh 50 hazaar', 25_000_000, 100_000, 'scaled', false]]);
    expect(read('₹5,000 and 500 pts')).toEqual([['₹5,000', 500_000, 100, 'digits', true], ['500 pts', 50_000, 100, 'digits', true]]);
  });

  it('does not take a dash between numbers, words or display units for amounts or signs', () => {
    expect(findAmounts('10k - 20k').map((a) => [a.raw, a.negative])).toEqual([['10k', false], ['20k', false]]);
    expect(findAmounts('5-8 oct').map((a) => a.negative)).toEqual([false, false]);
    expect(findAmounts('what do I owe')).toEqual([]);
    expect(findAmounts('show pnl in lakhs')).toEqual([]);
    expect(findAmounts('one player')).toEqual([]);
    expect(findAmounts('set CL for Rahul to 50k and min stake to 5k').map((a) => a.raw)).toEqual(['50k', '5k']);
    expect(findAmounts('dedh lakh and -50k').map((a) => [a.raw, a.paisa, a.negative])).toEqual([['dedh lakh', 15_000_000, false], ['-50k', 5_000_000, true]]);
    expect(findAmounts('rs two lakh pts').map((a) => a.raw)).toEqual(['rs two lakh pts']);
  });

  it('lists the words amounts are written with, for the planner not to take them for names', () => {
    for (const w of ['paanch', 'hazaar', 'dedh', 'sawa', 'lakh', 'crore', 'fifty', 'thousand']) expect(AMOUNT_WORDS.has(w), w).toBe(true);
    expect(AMOUNT_WORDS.has('rahul')).toBe(false);
  });

  it('round-trips k, lakh and crore exactly, signs included (property)', () => {
    const scales = [['k', 1_000n], ['K', 1_000n], ['lakh', 100_000n], ['L', 100_000n], ['cr', 10_000_000n], ['Cr', 10_000_000n], ['hazaar', 1_000n]] as const;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }), fc.constantFrom(...scales), fc.boolean(), fc.boolean(),
      (whole, hundredths, [word, scale], space, negative) => {
        const number = hundredths === 0 ? `${whole}` : `${whole}.${hundredths.toString().padStart(2, '0')}`;
        const text = `${negative ? '-' : ''}${number}${space ? ' ' : ''}${word}`;
        const a = parseAmount(text);
        // paisa = (whole + hundredths/100) × scale × 100, in integers.
        const expected = (BigInt(whole) * 100n + BigInt(hundredths)) * scale;
        if (expected > BigInt(Number.MAX_SAFE_INTEGER)) return;
        expect(a, text).toMatchObject({ paisa: Number(expected), negative, raw: text });
        expect(amountRefusal(a!) === null, text).toBe(!negative && expected > 0n);
      },
    ), { numRuns: 500 });
  });

  it('reads Indian digit grouping of any size exactly (property)', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1000n, max: 10n ** 13n }), (n) => {
      const digits = n.toString();
      const grouped = `${digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',')},${digits.slice(-3)}`;
      expect(parseAmount(grouped)?.paisa, grouped).toBe(Number(n * 100n));
    }), { numRuns: 300 });
  });
});
