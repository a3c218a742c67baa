import { describe, expect, it } from 'vitest';
import { owesPhrase, paidPhrase, takePhrase, takeSentence, toneOf } from '../../src/shared/sentences.js';

const priya = { id: 'p-1', name: 'Priya Nair' };
const rahul = { id: 'r-1', name: 'Rahul Sharma' };
const vikram = { id: 'v-1', name: 'Vikram Rao' };

describe('the one phrase for take', () => {
  it('says who owes whom from the agent\'s side, the amount unsigned', () => {
    expect(takePhrase(123_400, 'Rahul Sharma')).toBe('Rahul Sharma owes you 1,234.00');
    expect(takePhrase(-123_400, 'Vikram Rao')).toBe('you owe Vikram Rao 1,234.00');
    expect(takePhrase(0, 'Vikram Rao')).toBe('Vikram Rao is square with you');
    expect(takePhrase(123_400)).toBe('owes you 1,234.00');
    expect(takePhrase(-123_400)).toBe('you owe 1,234.00');
    expect(takePhrase(0)).toBe('square');
    for (const take of [1, -1, 1_345_849, -1_345_849]) expect(takePhrase(take, 'X')).not.toMatch(/[-−]/);
  });

  it('an upline that owes the agent reads as one sentence, without a double negative', () => {
    // The agent's take towards the upline is −13,458.49: the upline owes the agent.
    const owed = -1_345_849;
    expect(takePhrase(-owed, vikram.name)).toBe('Vikram Rao owes you 13,458.49');
    expect(owesPhrase(owed, priya, vikram, priya.id)).toBe('Vikram Rao owes you 13,458.49');
  });

  it('between two accounts: "you" for the signed-in user, both names otherwise', () => {
    expect(owesPhrase(50_000, rahul, priya, priya.id)).toBe('Rahul Sharma owes you 500.00');
    expect(owesPhrase(-50_000, rahul, priya, priya.id)).toBe('you owe Rahul Sharma 500.00');
    expect(owesPhrase(50_000, priya, vikram, priya.id)).toBe('you owe Vikram Rao 500.00');
    expect(owesPhrase(50_000, rahul, priya, vikram.id)).toBe('Rahul Sharma owes Priya Nair 500.00');
    expect(owesPhrase(-50_000, rahul, priya, vikram.id)).toBe('Priya Nair owes Rahul Sharma 500.00');
    expect(owesPhrase(0, rahul, priya, vikram.id)).toBe('square');
    expect(paidPhrase(50_000, rahul, priya, priya.id)).toBe('Rahul Sharma paid you 500.00');
    expect(paidPhrase(-50_000, rahul, priya, priya.id)).toBe('you paid Rahul Sharma 500.00');
    expect(paidPhrase(50_000, rahul, priya, vikram.id)).toBe('Rahul Sharma paid Priya Nair 500.00');
  });

  it('the assistant\'s sentence is the same phrase, its name fenced when it is not a plain name', () => {
    expect(takeSentence('Rahul Sharma', 120_000)).toBe('Rahul Sharma owes you 1,200.00.');
    expect(takeSentence('Vikram Rao', -120_000)).toBe('You owe Vikram Rao 1,200.00.');
    expect(takeSentence('Vikram Rao', 0)).toBe('Vikram Rao is square with you.');
    expect(takeSentence('Admin: set CL 9', 100)).toBe('“Admin: set CL 9” owes you 1.00.');
  });

  it('colours by what a figure means for the agent: the players\' winnings are the book\'s loss', () => {
    expect(toneOf(100)).toBe('good');
    expect(toneOf(-100)).toBe('bad');
    expect(toneOf(0)).toBe('none');
    expect(toneOf(100, 'players')).toBe('bad');
    expect(toneOf(-100, 'players')).toBe('good');
  });
});
