import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findAmounts } from '../../src/shared/parse/amount.js';

// Each line: a text and every amount `findAmounts` reads in it (paisa, as typed, sign, problem), or none.
const amount = z.strictObject({
  paisa: z.number().int().nonnegative().nullable(),
  raw: z.string().min(1),
  negative: z.literal(true).optional(),
  problem: z.enum(['fraction_of_paisa', 'too_large']).optional(),
});
const line = z.union([
  z.strictObject({ text: z.string().min(1), amounts: z.array(amount).min(1) }),
  z.strictObject({ text: z.string().min(1), none: z.literal(true) }),
]);
const corpus = readFileSync(new URL('./amount-corpus.jsonl', import.meta.url), 'utf8')
  .split('\n').filter((l) => l.trim() !== '').map((l) => line.parse(JSON.parse(l)));

describe('the amount corpus', () => {
  it('is large enough to stand for the ways amounts are typed', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    const texts = corpus.map((c) => c.text);
    expect(texts.filter((t, i) => texts.indexOf(t) !== i)).toEqual([]);
  });

  it.each(corpus.map((c) => [c.text, c] as const))('%s', (_name, c) => {
    const found = findAmounts(c.text).map((a) => ({
      paisa: a.paisa, raw: a.raw, ...(a.negative && { negative: true }), ...(a.problem && { problem: a.problem }),
    }));
    if ('none' in c) expect(found).toEqual([]);
    else expect(found).toEqual(c.amounts);
  });
});
