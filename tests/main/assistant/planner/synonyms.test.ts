import { describe, expect, it } from 'vitest';
import { read } from '../../../../src/main/assistant/planner/grammar.js';
import { SYNONYM_LEXICON, checkedSynonyms, foldSynonyms } from '../../../../src/main/assistant/planner/synonyms.js';
import type { IsoDate } from '../../../../src/shared/dates.js';

const TODAY = '2026-11-20' as IsoDate;
const wordsOf = (text: string): string[] => text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}.]/gu) ?? [];
const has = (hay: readonly string[], needle: readonly string[]): boolean =>
  hay.some((_w, i) => needle.length > 0 && needle.every((w, k) => hay[i + k] === w));
const folded = (text: string): string => read(text, TODAY).folded.replace(/\s+/g, ' ').trim();
const synonyms = (text: string): string => foldSynonyms(` ${text} `).replace(/\s+/g, ' ').trim();

describe('the synonyms lexicon (lexicon/synonyms.json)', () => {
  it("reads every entry's example with what the entry means", () => {
    const unread = SYNONYM_LEXICON.filter((e) => {
      const got = wordsOf(read(e.example, TODAY).folded);
      const means = wordsOf(e.means);
      const phrase = wordsOf(e.phrase);
      // Said with its meaning, and the phrase itself gone (unless the meaning repeats it).
      return (means.length > 0 && !has(got, means)) || (!has(means, phrase) && has(got, phrase));
    }).map((e) => `${e.phrase} → ${e.means}: ${e.example}`);
    expect(unread).toEqual([]);
  }, 120_000);

  it('holds words and marks only, never a pattern', () => {
    const SYNTAX = /[\\|()[\]{}*+?^$.]/;
    const patterns = SYNONYM_LEXICON.flatMap((e) => [e.phrase, e.means, ...[e.before, e.notBefore, e.after, e.notAfter,
      e.withAnyBefore, e.withAnyAfter, e.withoutAnyBefore, e.withoutAnyAfter].flatMap((list) => list ?? [])])
      .filter((text) => SYNTAX.test(text));
    expect(patterns).toEqual([]);
    for (const e of SYNONYM_LEXICON) expect(e.phrase.split(' ').every((w) => /^[\p{Ll}\p{N}]+$/u.test(w) || ['/', '&', '-'].includes(w))).toBe(true);
  });

  it('names each entry once, with its example containing its phrase', () => {
    const keys = SYNONYM_LEXICON.map((e) => `${e.phrase}\u0000${e.means}\u0000${JSON.stringify({ ...e, example: '', lang: '' })}`);
    expect(new Set(keys).size).toBe(keys.length);
    const apart = SYNONYM_LEXICON.filter((e) => !has(wordsOf(e.example.toLowerCase()), wordsOf(e.phrase))).map((e) => e.phrase);
    expect(apart).toEqual([]);
  });

  it('refuses a malformed entry at load', () => {
    const good = { phrase: 'sub agents', means: 'subagents', lang: 'en', example: 'show my sub agents' };
    expect(checkedSynonyms([good])).toHaveLength(1);
    expect(() => checkedSynonyms([{ ...good, lang: 'fr' }])).toThrow();
    expect(() => checkedSynonyms([{ ...good, surplus: true }])).toThrow();
    expect(() => checkedSynonyms([{ ...good, phrase: 'sub\\s*agents' }])).toThrow(/folded words/);
    expect(() => checkedSynonyms([{ ...good, phrase: 'Sub Agents' }])).toThrow(/folded words/);
  });

  describe('a phrase that means something only in some company', () => {
    it('reads money stuck on a named match as exposure, else as what is owed', () => {
      expect(synonyms('ind aus match pe kitna atka hai')).toBe('ind aus match pe kitna exposure hai');
      expect(synonyms('kitna atka hai ind aus match pe')).toBe('kitna exposure hai ind aus match pe');
      expect(synonyms('kitna paisa atka hai karan pe')).toBe('kitna paisa outstanding hai karan pe');
    });

    it('reads a word by the words right after it', () => {
      expect(synonyms('india ki 10k lagai kar do')).toBe('india ki 10k back kar do');
      expect(synonyms('india ki lagai dikhao')).toBe('india ki bets dikhao');
      expect(synonyms('karan ki sabse badi 3 bets')).toBe('karan ki biggest 3 bets');
      expect(synonyms('meri cut kitni hai')).toBe('meri commission kitni hai');
      expect(synonyms('meri cut kar do')).toBe('meri cut kar do');
    });

    it('reads a word by what the message says elsewhere', () => {
      expect(synonyms('what is the damage on the india game')).toBe('what is the exposure on the india game');
      expect(synonyms('what is the damage so far today')).toBe('what is the loss so far today');
      expect(synonyms('saare clients ki list')).toBe('downline');
      expect(synonyms('rahul naam ke saare clients ki list')).toBe('rahul naam ke saare clients ki list');
    });
  });

  it('takes the longest phrase where two begin at one word', () => {
    expect(synonyms('profit and loss for karan')).toBe('pnl for karan');
    expect(synonyms('o/s of karan')).toBe('outstanding of karan');
    expect(synonyms('min. stake of neha')).toBe('minstake of neha');
  });

  it('carries a name or a count that is no phrase into what it means', () => {
    expect(synonyms('no the other rahul yaar, verma wala')).toBe('no rahul verma');
    expect(synonyms('compare karan with sneha')).toBe('karan and sneha');
    expect(synonyms('top5 mkts')).toBe('top 5 mkts');
    expect(folded('how much more can Pooja bet')).toBe('pooja headroom');
  });
});
