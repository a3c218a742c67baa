import { describe, expect, it } from 'vitest';
import {
  MAX_COST_PER_DAY_MICRO_USD, cacheShare, formatMicroUsd, formatTokens, keySourceInWords, microUsdToDollarsText, parseDollars,
  parseTokensPerTurn, totalInputTokens, usageLine,
} from '../../src/renderer/src/lib/usage-format.js';

const ok = (value: number) => ({ ok: true, value });
const refused = { ok: false, reason: expect.any(String) as unknown };

describe('cost in dollars', () => {
  it('shows fractions of a cent to four decimals, a dollar and more to cents, grouped', () => {
    expect(formatMicroUsd(0)).toBe('$0.00');
    expect(formatMicroUsd(12_300)).toBe('$0.0123');
    expect(formatMicroUsd(150)).toBe('$0.0002'); // half up
    expect(formatMicroUsd(149)).toBe('$0.0001');
    expect(formatMicroUsd(999_900)).toBe('$0.9999');
    // Rounds up to a dollar: shown as one, in cents.
    expect(formatMicroUsd(999_950)).toBe('$1.00');
    expect(formatMicroUsd(1_000_000)).toBe('$1.00');
    expect(formatMicroUsd(12_345_000)).toBe('$12.35');
    expect(formatMicroUsd(MAX_COST_PER_DAY_MICRO_USD)).toBe('$1,000.00');
    expect(formatMicroUsd(Number.MAX_SAFE_INTEGER)).toBe('$9,007,199,254.74');
  });

  it('a paid call never reads as free; nonsense reads as a dash', () => {
    expect(formatMicroUsd(1)).toBe('<$0.0001');
    expect(formatMicroUsd(49)).toBe('<$0.0001');
    expect(formatMicroUsd(50)).toBe('$0.0001');
    expect(formatMicroUsd(-1)).toBe('—');
    expect(formatMicroUsd(1.5)).toBe('—');
    expect(formatMicroUsd(Number.NaN)).toBe('—');
  });

  it('gives an input its exact amount back, with at least two decimals', () => {
    expect(microUsdToDollarsText(0)).toBe('0.00');
    expect(microUsdToDollarsText(2_000_000)).toBe('2.00');
    expect(microUsdToDollarsText(1_500_000)).toBe('1.50');
    expect(microUsdToDollarsText(1_234_500)).toBe('1.2345');
    expect(microUsdToDollarsText(1)).toBe('0.000001');
    for (const micro of [0, 1, 10_000, 1_500_000, 2_000_000, 123_456_789, MAX_COST_PER_DAY_MICRO_USD]) {
      expect(parseDollars(microUsdToDollarsText(micro))).toEqual(ok(micro));
    }
  });
});

describe('dollars typed into the budget', () => {
  it('reads the text exactly, with no float in between', () => {
    expect(parseDollars('0')).toEqual(ok(0));
    expect(parseDollars('0.01')).toEqual(ok(10_000));
    expect(parseDollars('1.5')).toEqual(ok(1_500_000));
    expect(parseDollars('1.10')).toEqual(ok(1_100_000));
    // 0.1 + 0.2 is not 0.3 in floats; here every decimal is exact.
    expect(parseDollars('0.3')).toEqual(ok(300_000));
    expect(parseDollars('2.675')).toEqual(ok(2_675_000));
    expect(parseDollars('1.234')).toEqual(ok(1_234_000));
    expect(parseDollars('0.000001')).toEqual(ok(1));
    expect(parseDollars(' $2.50 ')).toEqual(ok(2_500_000));
    expect(parseDollars('.5')).toEqual(ok(500_000));
    expect(parseDollars('3.')).toEqual(ok(3_000_000));
    expect(parseDollars('007')).toEqual(ok(7_000_000));
    expect(parseDollars('1000')).toEqual(ok(MAX_COST_PER_DAY_MICRO_USD));
  });

  it('refuses what it would have to round or guess, with a reason', () => {
    for (const text of ['', '   ', 'abc', '-1', '-0.01', '+1', '1e3', '1,000', '1.2.3', '.', '$', '0x10', 'Infinity', 'NaN', '１']) {
      expect(parseDollars(text), text).toEqual(refused);
    }
    // A millionth is the unit: a seventh decimal would have to be rounded away.
    expect(parseDollars('1.0000001')).toEqual(refused);
    expect(parseDollars('0.0000005')).toEqual(refused);
    expect(parseDollars('1000.000001')).toEqual(refused);
    expect(parseDollars('99999999999999999999')).toEqual(refused);
    expect(parseDollars('-1')).toMatchObject({ reason: 'The amount cannot be negative.' });
    expect(parseDollars('1000.01')).toMatchObject({ reason: 'The most allowed is $1,000.00.' });
  });
});

describe('tokens per turn', () => {
  it('takes a whole number within the bounds, grouped or not', () => {
    expect(parseTokensPerTurn('60000')).toEqual(ok(60_000));
    expect(parseTokensPerTurn(' 60,000 ')).toEqual(ok(60_000));
    expect(parseTokensPerTurn('1000')).toEqual(ok(1_000));
    expect(parseTokensPerTurn('2000000')).toEqual(ok(2_000_000));
  });

  it('refuses fractions, signs, words and numbers out of bounds', () => {
    for (const text of ['', 'abc', '999', '2000001', '1500.5', '-5000', '1e4', '99999999999999999999999']) {
      expect(parseTokensPerTurn(text), text).toEqual(refused);
    }
    expect(parseTokensPerTurn('999')).toMatchObject({ reason: 'Use between 1,000 and 2,000,000 tokens.' });
  });
});

describe('usage', () => {
  const usage = { inputTokens: 120, outputTokens: 85, cacheWriteTokens: 20, cacheReadTokens: 1_100, costMicroUsd: 180, models: ['claude-haiku-5-5'], calls: 1 };

  it('counts every input token, cached or not, and the share read from cache', () => {
    expect(totalInputTokens(usage)).toBe(1_240);
    expect(cacheShare(usage)).toBe('89%');
    expect(cacheShare({ inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 })).toBe('—');
    expect(cacheShare({ inputTokens: 10, cacheWriteTokens: 0, cacheReadTokens: 0 })).toBe('0%');
    expect(cacheShare({ inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 10 })).toBe('100%');
    // Neither end is claimed when it is not so.
    expect(cacheShare({ inputTokens: 100_000, cacheWriteTokens: 0, cacheReadTokens: 1 })).toBe('<1%');
    expect(cacheShare({ inputTokens: 1, cacheWriteTokens: 0, cacheReadTokens: 100_000 })).toBe('>99%');
  });

  it('writes the line under a Claude answer', () => {
    expect(usageLine(usage)).toBe('claude-haiku-5-5 · 1,240 in · 85 out · 1,100 from cache · $0.0002');
    expect(usageLine({ ...usage, cacheReadTokens: 0, models: ['claude-haiku-5-5', 'claude-sonnet-5-5'], costMicroUsd: 12_300 }))
      .toBe('claude-haiku-5-5 + claude-sonnet-5-5 · 140 in · 85 out · $0.0123');
    expect(usageLine({ ...usage, models: [] })).toMatch(/^Claude · /);
    expect(formatTokens(1_234_567)).toBe('1,234,567');
    expect(formatTokens(-1)).toBe('—');
  });

  it('says where a key is kept', () => {
    expect(keySourceInWords('keychain')).toBe('the OS keychain');
    expect(keySourceInWords('safe-storage')).toBe('Electron safe storage');
    expect(keySourceInWords('environment')).toBe('the environment (ANTHROPIC_API_KEY)');
    expect(keySourceInWords('session')).toBe('this session only');
  });
});
