import { describe, expect, it } from 'vitest';
import { LEXICON, read } from '../../../../src/main/assistant/planner/grammar.js';

// A plan reads the same text several times; `read` keeps its latest readings (grammar.ts).
describe('read keeps its latest readings', () => {
  it('hands the same reading for the same text and day, frozen so no caller can change it', () => {
    const first = read('pnl of Rahul Sharma today', '2026-11-20');
    const again = read('pnl of Rahul Sharma today', '2026-11-20');
    expect(again).toBe(first);
    expect(first.names).toContainEqual({ text: 'rahul sharma', before: 'of' });
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.names[0])).toBe(true);
    expect(() => { (first.names as Array<{ text: string }>).push({ text: 'someone else' }); }).toThrow(TypeError);
    expect(() => { (first.tokens[0] as { word: string }).word = 'changed'; }).toThrow(TypeError);
    expect(read('pnl of Rahul Sharma today', '2026-11-20').names).toEqual(first.names);
    expect(read('pnl of Rahul Sharma today', '2026-11-20').tokens.map((t) => t.word)).not.toContain('changed');
  });

  it('reads the same words on another day afresh: "today" is that day', () => {
    expect(read('pnl today', '2026-11-20').range).toMatchObject({ from: '2026-11-20', to: '2026-11-20' });
    expect(read('pnl today', '2026-11-21').range).toMatchObject({ from: '2026-11-21', to: '2026-11-21' });
  });

  it('keeps readings apart by vocabulary: a word known to one is a name to the other', () => {
    const knowsRahul = new Set([...LEXICON, 'rahul']);
    const names = (known: ReadonlySet<string>) => read('bets of rahul sharma', '2026-11-20', known).names.map((n) => n.text);
    expect(names(LEXICON)).toContain('rahul sharma');
    expect(names(knowsRahul)).not.toContain('rahul sharma');
    expect(names(LEXICON)).toContain('rahul sharma');
  });

  it('lets the oldest go once it holds its fill, and reads it again the same', () => {
    const first = read('exposure on India vs Australia', '2026-11-20');
    for (let i = 0; i < 100; i++) read(`take of player number ${i}`, '2026-11-20');
    const later = read('exposure on India vs Australia', '2026-11-20');
    expect(later).not.toBe(first);
    expect(later).toEqual(first);
  });
});
