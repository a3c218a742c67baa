/**
 * How closely a typed word or name matches a known one. The assistant uses a name only when it
 * matches well: a typo of each word, or the start of it, never a different surname.
 */
import { distance } from 'fastest-levenshtein';
import { normalizeForSearch } from './text.js';

/** Typos forgiven in a word of this length: none in short words (too many near-misses), one, then two. */
export function editsAllowed(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

/** A typed word is this word, the start of it (3 letters or more), a typo of it, another romanisation of it, or its written short form. */
export function wordMatches(typed: string, known: string): boolean {
  return (typed.length >= 3 && known.startsWith(typed)) || isTypoOf(typed, known) || soundsAlike(typed, known) || SHORT_FORMS[typed]?.test(known) === true
    || typedWithoutVowels(typed, known);
}

/** A word's first letter and its consonants, a letter doubled once: what is left when vowels are dropped. */
const consonantSkeleton = (word: string) => (word[0]! + word.slice(1).replace(/[aeiouy]/g, '')).replace(/(.)\1+/g, '$1');

/**
 * "krn mlhtra" for Karan Malhotra: chat's way of typing a name with its vowels left out (one may
 * stay, at the end). Three consonants at least, and never longer than the name it stands for.
 */
function typedWithoutVowels(typed: string, known: string): boolean {
  const vowels = typed.slice(1).replace(/[^aeiou]/g, '').length;
  const skeleton = consonantSkeleton(typed);
  return vowels <= 1 && skeleton.length >= 3 && typed.length < known.length && skeleton === consonantSkeleton(known);
}

/** Names written short by custom, not by a typo: "Mohd" and "Md" for Mohammed (in any romanisation). */
const SHORT_FORMS: Readonly<Record<string, RegExp>> = {
  mohd: /^m[ou]h?[ae]m+[ae]d$/, md: /^m[ou]h?[ae]m+[ae]d$/, mohamad: /^m[ou]h?[ae]m+[ae]d$/,
};

/**
 * Indian names have no one Roman spelling: "Laxmi" and "Lakshmi", "Dipak" and "Deepak", "Puja"
 * and "Pooja" are the same name to the agent who types them, but too many letters apart for a
 * typo. Their sound keys are equal: the spellings that differ only by romanisation collapse
 * (ksh/x, aspirated consonants, long vowels written double, w/v, ph/f, doubled letters).
 */
export function soundKey(word: string): string {
  return word
    .replace(/ksh|ks/g, 'x')
    .replace(/ph/g, 'f')
    .replace(/([kgcjtdbs])h/g, '$1')
    .replace(/w/g, 'v')
    .replace(/z/g, 'j')
    .replace(/q/g, 'k')
    .replace(/ck/g, 'k')
    .replace(/ee/g, 'i')
    .replace(/oo/g, 'u')
    .replace(/(.)\1+/g, '$1')
    .replace(/y$/, 'i');
}

/** Two spellings of one name (four letters or more, so short words do not collide by accident). */
export function soundsAlike(typed: string, known: string): boolean {
  return typed.length >= 4 && known.length >= 4 && typed !== known && soundKey(typed) === soundKey(known);
}

/**
 * The word itself or a typo of it: a few letters wrong, missing, extra, or two swapped. A short
 * word with another first letter in its place is another name ("Tina" is not "Bina", "Mina" not
 * "Tina"): typos fall inside a word.
 */
export function isTypoOf(typed: string, known: string): boolean {
  if (typed === known) return true;
  const allowed = editsAllowed(Math.min(typed.length, known.length));
  if (allowed === 0 || Math.abs(typed.length - known.length) > allowed) return false;
  if (typed.length === known.length && typed.length < 6 && typed[0] !== known[0]) return swapsOneLetterPair(typed, known);
  // "Nehal" is a name of its own, not "Neha" mistyped: a letter added to a short name is a typo only
  // when a finger could have slipped there (a letter doubled, or a key beside its neighbour's).
  if (typed.length === known.length + 1 && known.length <= 5) return slippedInsertion(typed, known);
  return distance(typed, known) <= allowed || swapsOneLetterPair(typed, known);
}

/** Keys beside each key on a QWERTY keyboard. */
const NEIGHBOURS: Readonly<Record<string, string>> = {
  q: 'wa', w: 'qeas', e: 'wrsd', r: 'etdf', t: 'ryfg', y: 'tugh', u: 'yihj', i: 'uojk', o: 'ipkl', p: 'ol',
  a: 'qwsz', s: 'awedxz', d: 'serfcx', f: 'drtgvc', g: 'ftyhbv', h: 'gyujnb', j: 'huikmn', k: 'jiolm', l: 'kop',
  z: 'asx', x: 'zsdc', c: 'xdfv', v: 'cfgb', b: 'vghn', n: 'bhjm', m: 'njk',
};

/**
 * `typed` is `known` with one letter more, struck by a slip: the same key twice or a key beside a
 * neighbour's; or an "s" on the end, the possessive typed without its apostrophe ("iyers limit").
 */
function slippedInsertion(typed: string, known: string): boolean {
  if (typed === `${known}s`) return true;
  for (let i = 0; i < typed.length; i++) {
    if (typed.slice(0, i) + typed.slice(i + 1) !== known) continue;
    const extra = typed[i]!;
    const beside = [typed[i - 1], typed[i + 1]].filter((c): c is string => c !== undefined);
    if (beside.some((c) => c === extra || (NEIGHBOURS[c] ?? '').includes(extra))) return true;
  }
  return false;
}

/** "shrama" for "sharma": two neighbouring letters swapped, the commonest typo, counted as one. */
function swapsOneLetterPair(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff: number[] = [];
  for (let i = 0; i < a.length && diff.length <= 2; i++) if (a[i] !== b[i]) diff.push(i);
  return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
}

/**
 * A typed name matches a known one when every typed word matches a different word of it, in any
 * order ("sharma rahul"); "Rahul Sharma" does not match "Rahul Verma". `realWords`: words that are
 * names in their own right (of the other people found); one of them typed is meant as written, so
 * "Neha Iyer" is not a typo of "Sneha Iyer" when a Neha exists.
 */
export function nameMatches(typed: string, known: string, realWords: ReadonlySet<string> = new Set()): boolean {
  return sayings(typed).some((said) => wordsMatch(said, known, realWords));
}

/** The typed name, and the same with a letter said apart glued back to its word ("Sam O Brian": O'Brien heard, not typed). */
function sayings(typed: string): string[] {
  const said = normalizeForSearch(typed);
  const glued = said.replace(/(?<=^|\s)(\p{L})\s+(?=\p{L}{3,})/gu, '$1');
  return glued === said ? [said] : [said, glued];
}

function wordsMatch(typed: string, known: string, realWords: ReadonlySet<string>): boolean {
  const words = typed.split(' ').filter(Boolean);
  const pool = normalizeForSearch(known).split(' ').filter(Boolean);
  if (words.length === 0 || words.length > pool.length) return false;
  const used = new Set<number>();
  for (const word of longestFirst(words)) {
    const matches = typedWordMatcher(word, words, realWords);
    const at = pool.findIndex((w, i) => !used.has(i) && matches(w));
    if (at < 0) return false;
    used.add(at);
  }
  return true;
}

/** Longest typed words first, so a short prefix does not take the word a full one needs. */
const longestFirst = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length);

/** What a word of a known name must be for `word`, one of the typed `words`, to stand for it. */
function typedWordMatcher(word: string, words: readonly string[], realWords: ReadonlySet<string>): (known: string) => boolean {
  // Beside other words typed in full, an initial ("Rahul V") stands for a word it starts, and a
  // short word may have lost one letter of a four-letter one ("Sneha Iyr").
  // "Farhan Aly": a three-letter word beside a full one may be a three-letter word with one letter wrong (not its first).
  const beside = (w: string) => words.length > 1 && (word.length === 1 ? w.startsWith(word)
    : word.length === 3 && ((w.length === 4 && distance(word, w) === 1) || (w.length === 3 && w[0] === word[0] && distance(word, w) === 1)));
  return word.length < 3 || (word.length === 3 && !realWords.has(word)) ? (w: string) => beside(w) || wordMatches(word, w)
    : realWords.has(word) ? (w: string) => w === word || (word.length >= 3 && w.startsWith(word)) : (w: string) => wordMatches(word, w);
}

/**
 * The words of `vocabulary` (the words of known names) one of which every name `nameMatches`
 * accepts for `typed` holds: those that the typed name's longest word (the first placed) can
 * stand for. A name without one is never a match, so only the names holding one need be tried.
 */
export function anchorWords(typed: string, vocabulary: Iterable<string>): Set<string> {
  const matchers: Array<(known: string) => boolean> = [];
  for (const said of sayings(typed)) {
    const words = said.split(' ').filter(Boolean);
    const [longest] = longestFirst(words);
    if (longest !== undefined) matchers.push(typedWordMatcher(longest, words, new Set()));
  }
  const anchors = new Set<string>();
  for (const w of vocabulary) if (matchers.some((m) => m(w))) anchors.add(w);
  return anchors;
}

