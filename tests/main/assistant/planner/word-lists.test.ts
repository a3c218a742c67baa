import { describe, expect, it } from 'vitest';
import { fold, read } from '../../../../src/main/assistant/planner/grammar.js';
import { wordGroup } from '../../../../src/main/assistant/planner/lexicon.js';
import { EVERYDAY, PLAIN_WORDS, SLANG, SLANG_LEXICON, STOPWORDS, TEAM_NAMES, WORLD, slangEntry } from '../../../../src/main/assistant/planner/plain-words.js';
import { tokensOf, wordsOf } from '../../../../src/shared/parse/phrases.js';
import type { IsoDate } from '../../../../src/shared/dates.js';

const TODAY = '2026-11-20' as IsoDate;

describe('lexicon/slang.json', () => {
  it.each(SLANG_LEXICON.map((e) => [e.phrase, e.concept, e.example] as const))('"%s" → %s is said in its example and read as something else', (phrase, _concept, example) => {
    expect(tokensOf(fold(example)), example).toContain(phrase);
    // The word is read: what it stood for (or what the rest of the reading made of that) replaces it.
    expect(wordsOf(read(example, TODAY).folded), example).not.toContain(phrase);
  });

  it('reads a slang word as its concept', () => {
    expect(SLANG.udhaar).toBe('outstanding');
    expect(read('Karan ka hisaab', TODAY).words.has('balance')).toBe(true);
    expect(read('kitlu nafo thayu', TODAY).folded).toContain('profit');
    expect(read('show me the lastweek pnl', TODAY).folded).toContain('last week');
  });

  it('names each word once', () => {
    const phrases = SLANG_LEXICON.map((e) => e.phrase);
    expect(new Set(phrases).size).toBe(phrases.length);
  });

  it('refuses a pattern, an unknown language or a missing example', () => {
    expect(() => slangEntry.parse({ phrase: 'udh?aar', concept: 'outstanding', lang: 'hi', example: 'udhaar' })).toThrow();
    expect(() => slangEntry.parse({ phrase: 'udhaar', concept: 'outstanding', lang: 'xx', example: 'udhaar' })).toThrow();
    expect(() => slangEntry.parse({ phrase: 'udhaar', concept: 'outstanding', lang: 'hi' })).toThrow();
    expect(slangEntry.parse({ phrase: 'udhaar', concept: 'outstanding', lang: 'hi', example: 'Karan ka udhaar' }).concept).toBe('outstanding');
  });
});

describe('lexicon/words.json', () => {
  it('keeps folded words only', () => {
    expect(() => wordGroup.parse({ lang: 'en', words: ["i'm"] })).toThrow();
    expect(() => wordGroup.parse({ lang: 'en', words: ['Show'] })).toThrow();
    expect(() => wordGroup.parse({ lang: 'en', words: ['abhi-abhi'] })).toThrow();
    expect(wordGroup.parse({ lang: 'hi', words: ['abhi', 'tak'] }).words).toEqual(['abhi', 'tak']);
  });

  it('knows the plain words of each list, and none of them is read as a name', () => {
    expect(STOPWORDS.has('please') && STOPWORDS.has('kitna')).toBe(true);
    expect(EVERYDAY.has('important') && EVERYDAY.has('jaldi')).toBe(true);
    expect(WORLD.has('weather') && TEAM_NAMES.has('sri lanka')).toBe(true);
    expect(PLAIN_WORDS.has('kamavla') && PLAIN_WORDS.has('yalla')).toBe(true);
    // A name-like English word stays a name to search for.
    expect(PLAIN_WORDS.has('rose')).toBe(false);
    expect(read('show the important bets', TODAY).names).toEqual([]);
    expect(read('IND AUS pe kitna phasa hai', TODAY).fixture).toBe('ind vs aus');
  });
});
