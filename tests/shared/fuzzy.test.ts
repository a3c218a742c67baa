import { describe, expect, it } from 'vitest';
import { anchorWords, isTypoOf, nameMatches, soundKey, wordMatches } from '../../src/shared/fuzzy.js';
import { normalizeForSearch } from '../../src/shared/text.js';
import { loadCast } from '../../src/server/seed/cast.js';
import { FIRST_NAMES, LAST_NAMES } from '../../src/server/seed/names.js';

const cast = loadCast();

describe('typo-tolerant matching', () => {
  it.each([
    ['commission', 'commission', true], ['comission', 'commission', true], ['comisson', 'commission', true],
    ['exposre', 'exposure', true], ['setlement', 'settlement', true], ['expo', 'exposure', true],
    ['pnl', 'pnl', true], ['pml', 'pnl', false], ['cl', 'clear', false], ['fresh', 'farhan', false], ['few', 'farhan', false],
  ])('%s ~ %s: %s', (typed, known, expected) => {
    expect(wordMatches(typed, known)).toBe(expected);
  });

  it.each([
    ['Rahul Sharma', 'Rahul Sharma', true], ['rahul', 'Rahul Sharma', true], ['sharma rahul', 'Rahul Sharma', true],
    ['Rahul Shrama', 'Rahul Sharma', true], ['Zoe Nunez', 'Zoë Ñúñez', true], ['obrien', "Sam O'Brien", true],
    ['Rahul Verma', 'Rahul Sharma', false], ['Sneha Kapoor', 'Sneha Iyer', false], ['Rahul Sharma Verma', 'Rahul Sharma', false],
    ['', 'Rahul Sharma', false],
    // Beside a word typed in full: an initial, and a four-letter word short of one letter.
    ['Rahul V', 'Rahul Verma', true], ['Rahul V', 'Rahul Sharma', false], ['V', 'Rahul Verma', false],
    ['Sneha Iyr', 'Sneha Iyer', true], ['Iyr', 'Sneha Iyer', false], ['Sneha Iyx', 'Sneha Iyer', false],
    // A letter heard apart from its word: "O Brian" is O'Brien as speech-to-text writes it; not another surname.
    ['Sam O Brian', "Sam O'Brien", true], ['Sam O Brian', 'Sam Oberoi', false], ['Sam K Brian', "Sam O'Brien", false],
  ])('name %j ~ %j: %s', (typed, known, expected) => {
    expect(nameMatches(typed, known)).toBe(expected);
  });

  it('a word that is a name in its own right is meant as written, not as a typo of another', () => {
    expect(nameMatches('Neha Iyer', 'Sneha Iyer')).toBe(true);
    expect(nameMatches('Neha Iyer', 'Sneha Iyer', new Set(['neha', 'gupta', 'sneha', 'iyer']))).toBe(false);
    expect(nameMatches('Snehaa Iyer', 'Sneha Iyer', new Set(['neha', 'gupta', 'sneha', 'iyer']))).toBe(true);
  });

  it.each([
    ['tina', 'bina', false], ['mina', 'tina', false], ['kiran', 'miran', false], ['karan', 'karna', true], ['akran', 'karan', true],
    ['neha', 'sneha', true], ['anitaa', 'anita', true], ['karn', 'karan', true],
    // A letter added to a short name: a slip of the finger, or another name ("Nehal" is not "Neha").
    ['nehal', 'neha', false], ['sneha', 'neha', false], ['karann', 'karan', true], ['amitr', 'amit', true], ['iyers', 'iyer', true], ['rahulm', 'rahul', false], ['rahulk', 'rahul', true],
  ])('a short word with another first letter is another name: %s ~ %s: %s', (typed, known, expected) => {
    expect(isTypoOf(typed, known)).toBe(expected);
  });

  it.each([
    ['laxmi', 'lakshmi', true], ['dipak', 'deepak', true], ['puja', 'pooja', true], ['irfaan', 'irfan', true],
    ['mohamed', 'mohammed', true], ['mohd', 'mohammed', true], ['md', 'muhammad', true], ['mohd', 'mohan', false], ['wivek', 'vivek', true], ['bhat', 'bhatt', true], ['kanna', 'khanna', true],
    // Another romanisation, never another name: a letter that changes the name still counts.
    ['sarman', 'sharma', false], ['sanjana', 'sanjay', false], ['anil', 'anita', false], ['ravi', 'rahul', false],
  ])('%s sounds like %s: %s', (typed, known, expected) => {
    expect(wordMatches(typed, known)).toBe(expected);
  });

  it('a name typed without its vowels, or a short surname one letter off beside a full first name, is that name', () => {
    expect(nameMatches('krn mlhtra', 'Karan Malhotra')).toBe(true);
    expect(nameMatches('farhan aly', 'Farhan Ali')).toBe(true);
    // The consonants must be the name's own, in order, and the typed word shorter than the name.
    expect(nameMatches('mlhtra', 'Karan Mehta')).toBe(false);
    expect(nameMatches('farhan aly', 'Farhan Khan')).toBe(false);
    expect(nameMatches('ali', 'Aly Farhan')).toBe(false);
  });

  it('a name matches by ear only word for word, each typed word against a different word', () => {
    expect(nameMatches('laxmi', 'Lakshmi Menon')).toBe(true);
    expect(nameMatches('Laxmi Menon', 'Lakshmi Menon')).toBe(true);
    expect(nameMatches('laxmi laxmi', 'Lakshmi Menon')).toBe(false);
    expect(nameMatches('laxmi gupta', 'Lakshmi Menon')).toBe(false);
    expect(nameMatches('lax', 'Lakshmi Menon')).toBe(false);
  });
});

describe('anchor words: the vocabulary a name search narrows to before it tries whole names', () => {
  const names = [
    ...cast.accounts.map((a) => a.name), // Every third filler first name, each with a surname: enough shapes, in a second.
    ...FIRST_NAMES.filter((_, i) => i % 3 === 0).map((f, i) => `${f} ${LAST_NAMES[i % LAST_NAMES.length]}`),
    "Sam O'Brien", 'Zoë Ñúñez', 'Mohammed Iqbal', 'Farhan Ali', 'Aly Farhan',
  ];
  const vocabulary = [...new Set(names.flatMap((n) => normalizeForSearch(n).split(' ')))];
  const dropVowels = (w: string) => w.slice(0, 1) + w.slice(1).replace(/[aeiou]/g, '');
  const swapPair = (w: string) => (w.length < 4 ? w : w.slice(0, 1) + w.slice(2, 3) + w.slice(1, 2) + w.slice(3));
  const dropLetter = (w: string) => (w.length < 5 ? w : w.slice(0, 2) + w.slice(3));
  // The ways a name is typed that nameMatches forgives, word by word and across words.
  const typings = (name: string): string[] => {
    const words = normalizeForSearch(name).split(' ');
    const out = new Set<string>([words.join(' '), words.reverse().join(' ')]);
    words.reverse();
    for (const change of [dropVowels, swapPair, dropLetter, soundKey, (w: string) => w.slice(0, 3), (w: string) => w[0]!]) {
      for (let i = 0; i < words.length; i++) {
        out.add(words.map((w, j) => (j === i ? change(w) : w)).join(' '));
        out.add(change(words[i]!));
      }
    }
    out.add(words.map((w) => `${w[0]} ${w.slice(1)}`).join(' '));
    return [...out];
  };

  it('every name nameMatches accepts holds one of its typing\'s anchors', () => {
    let matched = 0;
    for (const name of names) {
      for (const typed of typings(name)) {
        const anchors = anchorWords(typed, vocabulary);
        for (const known of names) {
          if (!nameMatches(typed, known)) continue;
          matched++;
          expect(normalizeForSearch(known).split(' ').some((w) => anchors.has(w)), `${typed} → ${known}`).toBe(true);
        }
      }
    }
    // The corpus reaches the forgiving rules, not only names typed as written.
    expect(matched).toBeGreaterThan(names.length * 8);
  });

  it('narrows: another romanisation anchors on its one word, a name not there on none', () => {
    expect([...anchorWords('laxmi', ['lakshmi', 'menon', 'laxman', 'rahul'])]).toEqual(['lakshmi']);
    expect([...anchorWords('krn mlhtra', ['karan', 'malhotra', 'mehta'])]).toEqual(['malhotra']);
    expect([...anchorWords('vinod', vocabulary)]).toEqual([]);
    expect([...anchorWords('', vocabulary)]).toEqual([]);
  });
});
