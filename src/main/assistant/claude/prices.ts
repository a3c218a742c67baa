/**
 * What Claude costs, from one table: each model's published prices (platform.claude.com, "Model
 * pricing") in USD per million tokens — input, output, 5-minute cache writes (the only kind the
 * app writes) and cache reads, each as listed, since the ratios differ between models. Costs are
 * computed in integers — prices in micro-dollars per million tokens, so a token's cost is exact
 * in pico-dollars — and a call's cost is rounded up to the micro-dollar, so a budget is never
 * under-counted.
 */
import type { TokenUsage } from '../../../shared/contracts/model-settings.js';

interface Price {
  /** Micro-dollars per million tokens (= USD per token × 10^12 / 10^6). */
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

interface ModelPrice extends Price {
  /** A dearer price for every token of a call whose prompt (input, cache writes and reads) is over `tokens`. */
  longPrompt?: { tokens: number } & Price;
}

const usdPerMillion = (input: number, output: number, cacheWrite: number, cacheRead: number): Price => ({
  input: Math.round(input * 1_000_000), output: Math.round(output * 1_000_000),
  cacheWrite: Math.round(cacheWrite * 1_000_000), cacheRead: Math.round(cacheRead * 1_000_000),
});

export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-haiku-5-5': { ...usdPerMillion(0.10, 0.50, 0.125, 0.01), longPrompt: { tokens: 100_000, ...usdPerMillion(0.50, 2.50, 0.625, 0.05) } },
  'claude-sonnet-5-5': usdPerMillion(2, 10, 2.50, 0.10),
  'claude-opus-5-5': usdPerMillion(4, 20, 5, 0.20),
};

/** A model the table does not know (one `models.list` offered) is charged as the dearest known one. */
const DEAREST = Object.values(PRICES).reduce((a, b) => (b.input > a.input ? b : a));

export function priceOf(model: string): { price: ModelPrice; known: boolean } {
  const price = PRICES[model];
  return price ? { price, known: true } : { price: DEAREST, known: false };
}

export interface CallTokens {
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
}

/** One call's cost in micro-dollars, rounded up. */
export function costMicroUsd(model: string, t: CallTokens): number {
  const { price: listed } = priceOf(model);
  const prompt = t.inputTokens + t.cacheWriteTokens + t.cacheReadTokens;
  const price = listed.longPrompt && prompt > listed.longPrompt.tokens ? listed.longPrompt : listed;
  // Pico-dollars: tokens × micro-dollars per million.
  const pico = t.inputTokens * price.input + t.outputTokens * price.output + t.cacheWriteTokens * price.cacheWrite + t.cacheReadTokens * price.cacheRead;
  return Math.ceil(pico / 1_000_000);
}

export const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, costMicroUsd: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    costMicroUsd: a.costMicroUsd + b.costMicroUsd,
  };
}

/** The share of the prompt that was read from the cache (0 when nothing was sent). */
export function cacheReadShare(u: Pick<TokenUsage, 'inputTokens' | 'cacheWriteTokens' | 'cacheReadTokens'>): number {
  const prompt = u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens;
  return prompt === 0 ? 0 : u.cacheReadTokens / prompt;
}
