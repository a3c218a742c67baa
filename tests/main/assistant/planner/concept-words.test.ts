import { describe, expect, it } from 'vitest';
import { CLAUSE_WORDS, FOLLOW_UP_WORDS, SLOT_WORDS, isDigits, pastAll, pastOptional, said, saidAt, tokensIn, whereSaid } from '../../../../src/main/assistant/planner/concept-words.js';
import { fold } from '../../../../src/main/assistant/planner/grammar.js';
import { BULK, PAID_IN_FULL, PLAYER_WORD, TOP_UP, UNPAID } from '../../../../src/main/assistant/planner/slots.js';

describe("the planner's own lexicons (clauses, follow-ups, slots)", () => {
  it.each([...CLAUSE_WORDS, ...FOLLOW_UP_WORDS, ...SLOT_WORDS].map((e) => [e.phrase, e.concept, e.example] as const))('"%s" → %s is said in its example', (_phrase, concept, example) => {
    expect(said(fold(example), concept), `"${example}" says ${concept}`).toBe(true);
  });

  it('finds a concept by its longest phrase, at a place or anywhere', () => {
    const tokens = tokensIn('and what about the week before?');
    expect(saidAt(tokens, 0, 'follow_up_opener')).toBe(3);
    expect(saidAt(tokens, 3, 'follow_up_opener')).toBe(-1);
    expect(whereSaid(tokens, 'earlier')).toEqual([{ values: ['earlier'], from: 4, to: 6 }]);
    expect(pastAll(tokensIn('aur ab sab ka total'), 0, 'whole_again_lead')).toBe(2);
    expect(pastOptional(tokens, 3, 'follow_up_opener')).toBe(3);
    expect(said('show me the bets', 'earlier')).toBe(false);
  });

  it('refuses a concept no lexicon has, rather than missing it silently', () => {
    expect(() => said('anything', 'no_such_concept')).toThrow(/no_such_concept/);
  });

  it('reads a number in digits alone', () => {
    expect(isDigits('10', 3)).toBe(true);
    expect(isDigits('1000', 3)).toBe(false);
    expect(isDigits('10k')).toBe(false);
    expect(isDigits(undefined)).toBe(false);
  });
});

describe('the slot words the intents ask as checks', () => {
  it('reads everyone at once, but not one balance whole', () => {
    expect(BULK.test('settle all')).toBe(true);
    expect(BULK.test('sabka cl 50k kar do')).toBe(true);
    expect(BULK.test('settle it all')).toBe(false);
    expect(BULK.test('clear all of it')).toBe(false);
    expect(BULK.test('all he owes')).toBe(false);
  });

  it('reads a payment not made, in full, a top-up and players', () => {
    expect(UNPAID.test('who still has not paid')).toBe(true);
    expect(UNPAID.test('who paid')).toBe(false);
    expect(PAID_IN_FULL.test('karan paid everything he owed')).toBe(true);
    expect(TOP_UP.test('top-up his limit with 10k')).toBe(true);
    expect(PLAYER_WORD.test('pnl report of my guys')).toBe(true);
    expect(PLAYER_WORD.test('pnl report')).toBe(false);
  });
});
