import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DATE_LEXICON, readDateLexicon } from '../../src/shared/parse/date-words.js';
import { findDateRange } from '../../src/shared/parse/dates.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const line = z.union([
  z.strictObject({ phrase: z.string(), today: day, concept: z.string().optional(), from: day, to: day, raw: z.string() }),
  z.strictObject({ phrase: z.string(), today: day, concept: z.string().optional(), none: z.literal(true) }),
]);
const corpus = readFileSync(new URL('./date-corpus.jsonl', import.meta.url), 'utf8')
  .split('\n').filter((l) => l.trim() !== '').map((l) => line.parse(JSON.parse(l)));

describe('the date corpus', () => {
  it.each(corpus.map((c) => [`${c.phrase} @${c.today}`, c] as const))('%s', (_name, c) => {
    const r = findDateRange(c.phrase, c.today);
    if ('none' in c) expect(r).toBeNull();
    else expect(r).toEqual({ from: c.from, to: c.to, raw: c.raw });
  });

  it('covers every concept of the lexicon', () => {
    const covered = new Set(corpus.map((c) => c.concept));
    expect([...new Set(DATE_LEXICON.map((e) => e.concept))].filter((c) => !covered.has(c))).toEqual([]);
  });
});

describe('the date lexicon', () => {
  // Words of the sentence around a date ("oct ka pnl", "hafta kaisa raha") decide whether a date is
  // read without being part of it; "agla" ("next") keeps "agla hafta kaisa raha" from being this week.
  const AROUND = new Set(['how', 'went', 'post:of', 'post:other', 'mod:next']);
  it.each(DATE_LEXICON.map((e) => [`${e.phrase} (${e.concept})`, e] as const))('%s: its example reads to a range', (_name, e) => {
    const r = findDateRange(e.example, '2026-11-20');
    expect(r).not.toBeNull();
    if (!AROUND.has(e.concept) || e.phrase === 'next') expect(r!.raw).toContain(e.phrase);
  });

  it('never reads a week to come as this one', () => {
    expect(findDateRange('agla hafta kaisa raha', '2026-11-20')).toBeNull();
  });

  it('says each phrase and concept once', () => {
    const keys = DATE_LEXICON.map((e) => `${e.phrase} → ${e.concept}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('refuses an entry that is a pattern, not words, or names no concept', () => {
    const entry = { phrase: 'yesterday', concept: 'day:-1', lang: 'en', example: 'pnl yesterday' };
    expect(() => readDateLexicon([entry])).not.toThrow();
    expect(() => readDateLexicon([{ ...entry, phrase: 'yest(er)?day' }])).toThrow();
    expect(() => readDateLexicon([{ ...entry, phrase: 'last  week' }])).toThrow();
    expect(() => readDateLexicon([{ ...entry, concept: 'day:-9' }])).toThrow();
    expect(() => readDateLexicon([{ ...entry, lang: 'xx' }])).toThrow();
    expect(() => readDateLexicon([{ ...entry, example: undefined }])).toThrow();
  });
});
