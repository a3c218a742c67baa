import { describe, expect, it } from 'vitest';
import { IN_CONTEXT_LEXICON, fold, languagesOf, read } from '../../../../src/main/assistant/planner/grammar.js';
import { checkedSynonyms, readInContext } from '../../../../src/main/assistant/planner/synonyms.js';
import { phraseTable, tokensOf } from '../../../../src/shared/parse/phrases.js';
import type { IsoDate } from '../../../../src/shared/dates.js';

const TODAY = '2026-11-20' as IsoDate;

describe('lexicon/in-context.json', () => {
  it.each(IN_CONTEXT_LEXICON.map((e, i) => [e.phrase, e.means, e.example, i] as const))('"%s" → %s where its example has it: "%s"', (phrase, means, example, i) => {
    const e = IN_CONTEXT_LEXICON[i]!;
    const folded = fold(example);
    const langs = languagesOf(folded);
    if (e.messageIn) expect(langs.has(e.messageIn), `"${example}" is in ${e.messageIn}`).toBe(true);
    if (e.messageNotIn) expect(langs.has(e.messageNotIn)).toBe(false);
    expect(` ${tokensOf(folded).join(' ')} `).toContain(` ${phrase} `);
    // The entry alone decides its word in its example.
    const alone = readInContext(phraseTable([[e.phrase, e] as const]), folded, langs);
    expect(tokensOf(alone).join(' ')).toContain(tokensOf(means).join(' '));
  });

  it('decides a word by the words beside it, read once', () => {
    const table = phraseTable(IN_CONTEXT_LEXICON.filter((e) => !e.asTyped && !e.barePeriod).map((e) => [e.phrase, e] as const));
    const punjabi = languagesOf('anita te sneha da udhaar');
    expect(readInContext(table, 'anita te sneha da udhaar', punjabi)).toBe('anita aur sneha da udhaar');
    expect(readInContext(table, 'india te 10k lay', punjabi)).toBe('india pe 10k lay');
    // Hindi keeps its words: "kar di" did, "bata de" gives.
    expect(readInContext(table, 'settle kar di sneha', new Set())).toBe('settle kar di sneha');
    expect(readInContext(table, 'sneha di cmsn', new Set())).toBe('sneha ki cmsn');
    expect(readInContext(table, 'bata de paanch', new Set())).toBe('bata de paanch');
    // A decision is made on the words as typed: "te" after a date and before one is "to".
    expect(readInContext(table, '1 november te 10 november', new Set())).toBe('1 november to 10 november');
    expect(readInContext(table, 'ee week pnl', new Set())).toBe('this week pnl');
    expect(readInContext(table, 'te 50k kar', new Set())).toBe('isko 50k kar');
    expect(readInContext(table, 'te 50k kar', new Set(['pa']))).toBe('pe 50k kar');
    expect(read('ya aathvadyat cha pnl', TODAY).range).not.toBeNull();
    // A period said bare is the current one; "per week" is no date.
    expect(read('pnl wtd', TODAY).range).not.toBeNull();
    expect(read('comm month', TODAY).range).not.toBeNull();
    expect(read('limit per week', TODAY).range).toBeNull();
  });

  it('refuses a word class it does not know nowhere: kinds of words are "#number", "#letter", "#amount"', () => {
    expect(() => checkedSynonyms([{ phrase: 'te', means: 'to', lang: 'xx', example: 'te' }])).toThrow();
    expect(checkedSynonyms([{ phrase: 'te', means: 'to', lang: 'mr', example: '1 te 2', before: ['#number'], first: true }])[0]!.first).toBe(true);
  });
});
