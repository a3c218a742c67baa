/**
 * The one phrase matcher every lexicon uses: a table of phrases (each a run of folded words) to the
 * values they stand for, found in a message's words longest first and never overlapping. A new
 * wording is a new entry in a lexicon's data, never a pattern in code.
 */

export interface PhraseTable<T> {
  /** Phrase (its words joined by one space) → the values it stands for, in entry order. */
  readonly phrases: ReadonlyMap<string, readonly T[]>;
  /** Every word of every phrase. */
  readonly words: ReadonlySet<string>;
  /** The most words any phrase has. */
  readonly longest: number;
  /** The first word of every phrase: a place whose word opens none is passed over at once. */
  readonly firsts: ReadonlySet<string>;
}

/** A phrase found: its values and the words [from, to) it covers. */
export interface PhraseMatch<T> {
  values: readonly T[];
  from: number;
  to: number;
}

const TOKEN = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;
const WORD = /^[\p{L}\p{N}]+$/u;
const LETTERS = /^\p{L}+$/u;

/** The one tokenizer of folded text: runs of letters and digits, and each other mark alone ("o/s" → o, /, s), with where each stands [start, end). */
export function tokenSpans(text: string): Array<{ token: string; start: number; end: number }> {
  return [...text.matchAll(TOKEN)].map((m) => ({ token: m[0], start: m.index, end: m.index + m[0].length }));
}

/** The folded text's tokens, as `tokenSpans` reads them. */
export const tokensOf = (text: string): string[] => text.match(TOKEN) ?? [];

/** Whether a token is a word, not a mark. */
export const isWord = (t: string | undefined): t is string => t !== undefined && WORD.test(t);

/** Whether a token is letters only: a word, no number. */
export const isLetters = (t: string | undefined): t is string => t !== undefined && LETTERS.test(t);

/** Whether a token is a number written in digits alone ("10", not "10k"), of at most `most` of them. */
export const isDigits = (t: string | undefined, most = Infinity): t is string =>
  t !== undefined && t.length > 0 && t.length <= most && [...t].every((c) => c >= '0' && c <= '9');

/** Whether a token starts with a digit ("10k", "1st"): a number, or a word glued to one. */
export const startsWithDigit = (t: string): boolean => t.length > 0 && t[0]! >= '0' && t[0]! <= '9';

/** A phrase's words, however it was spaced. */
export const wordsOf = (phrase: string): string[] => phrase.split(' ').filter(Boolean);

/** The table of entries whose phrases are already folded; a value said twice for one phrase is kept once. */
export function phraseTable<T>(entries: Iterable<readonly [phrase: string, value: T]>): PhraseTable<T> {
  const phrases = new Map<string, T[]>();
  for (const [phrase, value] of entries) {
    const key = wordsOf(phrase).join(' ');
    if (key === '') throw new Error('A lexicon entry has no words.');
    const list = phrases.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    phrases.set(key, list);
  }
  const keys = [...phrases.keys()];
  return {
    phrases,
    words: new Set(keys.flatMap(wordsOf)),
    longest: Math.max(0, ...keys.map((k) => wordsOf(k).length)),
    firsts: new Set(keys.map((k) => wordsOf(k)[0]!)),
  };
}

/**
 * The table's phrases in `words`, longest first at each place and never overlapping: "more than" is
 * one comparison, not "more" and a stray "than". A `null` word (an amount, a mark) is never part of
 * a phrase. `fits`, when given, keeps only the values whose conditions hold where the phrase
 * stands; a phrase with none left is no match there, and a shorter one is tried.
 */
export function matchPhrases<T>(
  table: PhraseTable<T>,
  words: readonly (string | null)[],
  fits?: (value: T, from: number, to: number) => boolean,
): PhraseMatch<T>[] {
  const found: PhraseMatch<T>[] = [];
  for (let i = 0; i < words.length;) {
    const first = words[i];
    if (first === null || first === undefined || !table.firsts.has(first)) {
      i++;
      continue;
    }
    let hit: PhraseMatch<T> | null = null;
    for (let n = Math.min(table.longest, words.length - i); n >= 1 && !hit; n--) {
      const span = words.slice(i, i + n);
      if (span.some((w) => w === null)) continue;
      const all = table.phrases.get(span.join(' '));
      const values = all && fits ? all.filter((v) => fits(v, i, i + n)) : all;
      if (values && values.length > 0) hit = { values, from: i, to: i + n };
    }
    if (hit) {
      found.push(hit);
      i = hit.to;
    } else i++;
  }
  return found;
}
