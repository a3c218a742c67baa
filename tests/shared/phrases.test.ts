import { describe, expect, it } from 'vitest';
import { matchPhrases, phraseTable } from '../../src/shared/parse/phrases.js';

describe('the one phrase matcher', () => {
  const table = phraseTable<string>([['more', 'more'], ['more than', 'gt'], ['more  than', 'gt'], ['owe', 'take'], ['owe', 'debt']]);

  it('takes the longest phrase at each place and never overlaps', () => {
    expect(matchPhrases(table, 'who owes more than rahul'.split(' '))).toEqual([{ values: ['gt'], from: 2, to: 4 }]);
    expect(matchPhrases(table, ['i', 'owe', 'more'])).toEqual([
      { values: ['take', 'debt'], from: 1, to: 2 },
      { values: ['more'], from: 2, to: 3 },
    ]);
  });

  it('never matches across a word that cannot be part of a phrase', () => {
    expect(matchPhrases(table, ['more', null, 'than'])).toEqual([{ values: ['more'], from: 0, to: 1 }]);
  });

  it('knows its words and refuses an entry with none', () => {
    expect([...table.words].sort()).toEqual(['more', 'owe', 'than']);
    expect(table.longest).toBe(2);
    expect(() => phraseTable([['  ', 'x']])).toThrow(/no words/);
  });
});
