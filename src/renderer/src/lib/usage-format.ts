/**
 * The Claude planner's figures in words: its cost (integer micro-dollars, src/shared/contracts/
 * model-settings.ts), its tokens, and the budgets the Settings page reads from text. Money goes
 * through BigInt and strings, never a float, so "1.10" is 1,100,000 micro-dollars exactly.
 * Relative imports end in .js, and lib/format.ts is not imported: the node-side typecheck
 * reads this module too (its unit test), and that one's imports have no extensions.
 */
import type { KeySource, TokenUsage, TurnUsage } from '../../../shared/contracts/model-settings.js';
import { MICRO_PER_USD, divRound, formatMicroUsd, grouped } from '../../../shared/usd.js';

export { MICRO_PER_USD, formatMicroUsd };

/** The contract's bounds (modelSettingsPatch): checked here so a wrong value is explained, not sent. */
export const MAX_COST_PER_DAY_MICRO_USD = 1_000_000_000;
export const TOKENS_PER_TURN = { min: 1_000, max: 2_000_000 } as const;

const MICRO = BigInt(MICRO_PER_USD);

/** 1240 → "1,240": a whole count, grouped as lib/format.ts's formatCount does. */
export function formatTokens(n: number): string {
  return Number.isSafeInteger(n) && n >= 0 ? grouped(BigInt(n)) : '—';
}

/** The exact amount in dollars for an input's value: 2,000,000 → "2.00", 1,234,500 → "1.2345". */
export function microUsdToDollarsText(micro: number): string {
  if (!Number.isSafeInteger(micro) || micro < 0) return '';
  const m = BigInt(micro);
  const fraction = (m % MICRO).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${(m / MICRO).toString()}.${fraction}`;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const DOLLARS = /^(\d*)(?:\.(\d*))?$/;

/**
 * "1.5" → 1,500,000 micro-dollars, parsed as text so no float can drift. Up to six decimals (a
 * micro-dollar is the unit: a seventh would have to be rounded away, so it is refused instead);
 * a leading "$" and spaces around are allowed; signs, exponents, grouping commas are not.
 */
export function parseDollars(text: string, max = MAX_COST_PER_DAY_MICRO_USD): Parsed<number> {
  const raw = text.trim().replace(/^\$\s*/, '');
  if (raw === '') return { ok: false, reason: 'Enter an amount in dollars, like 2.50.' };
  if (raw.startsWith('-')) return { ok: false, reason: 'The amount cannot be negative.' };
  const match = DOLLARS.exec(raw);
  if (!match || (match[1] === '' && !match[2])) return { ok: false, reason: 'Enter an amount in dollars, like 2.50 (digits and one decimal point).' };
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (fraction.length > 6) return { ok: false, reason: 'Use at most six decimals (a millionth of a dollar).' };
  const micro = BigInt(whole || '0') * MICRO + BigInt(fraction.padEnd(6, '0'));
  if (micro > BigInt(max)) return { ok: false, reason: `The most allowed is ${formatMicroUsd(max)}.` };
  return { ok: true, value: Number(micro) };
}

/** "60000" or "60,000" → 60000, within the contract's bounds. */
export function parseTokensPerTurn(text: string): Parsed<number> {
  const raw = text.trim().replace(/[,_\s]/g, '');
  if (raw === '') return { ok: false, reason: 'Enter a number of tokens.' };
  if (!/^\d+$/.test(raw)) return { ok: false, reason: 'Enter a whole number of tokens, like 60000.' };
  const n = BigInt(raw);
  if (n < BigInt(TOKENS_PER_TURN.min) || n > BigInt(TOKENS_PER_TURN.max)) {
    return { ok: false, reason: `Use between ${formatTokens(TOKENS_PER_TURN.min)} and ${formatTokens(TOKENS_PER_TURN.max)} tokens.` };
  }
  return { ok: true, value: Number(n) };
}

/**
 * Every input token a call was billed for. As in Anthropic's API, `inputTokens` counts only
 * what was neither written to nor read from the prompt cache, so the three add up.
 */
export function totalInputTokens(u: Pick<TokenUsage, 'inputTokens' | 'cacheWriteTokens' | 'cacheReadTokens'>): number {
  return u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens;
}

/** The share of input read from the cache, as a whole percent ("92%"), or "—" with no input yet. */
export function cacheShare(u: Pick<TokenUsage, 'inputTokens' | 'cacheWriteTokens' | 'cacheReadTokens'>): string {
  const total = totalInputTokens(u);
  if (total === 0) return '—';
  const percent = Number(divRound(BigInt(u.cacheReadTokens) * 100n, BigInt(total)));
  // Some but not all from cache never rounds to the two ends, which would claim none or all.
  const shown = u.cacheReadTokens > 0 && percent === 0 ? '<1' : u.cacheReadTokens < total && percent === 100 ? '>99' : String(percent);
  return `${shown}%`;
}

/** Under a Claude answer: "claude-haiku-5-5 · 1,240 in · 85 out · 1,100 from cache · $0.0002". */
export function usageLine(u: TurnUsage): string {
  const parts = [
    u.models.length > 0 ? u.models.join(' + ') : 'Claude',
    `${formatTokens(totalInputTokens(u))} in`,
    `${formatTokens(u.outputTokens)} out`,
  ];
  if (u.cacheReadTokens > 0) parts.push(`${formatTokens(u.cacheReadTokens)} from cache`);
  parts.push(formatMicroUsd(u.costMicroUsd));
  return parts.join(' · ');
}

const WHERE: Record<KeySource, string> = {
  keychain: 'the OS keychain',
  'safe-storage': 'Electron safe storage',
  environment: 'the environment (ANTHROPIC_API_KEY)',
  session: 'this session only',
};

/** Where a key is (or would be) kept, in words. */
export function keySourceInWords(source: KeySource): string {
  return WHERE[source];
}
