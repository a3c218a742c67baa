import { describe, expect, it } from 'vitest';
import { isTypoOf, nameMatches, wordMatches } from '../../src/shared/fuzzy.js';

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
