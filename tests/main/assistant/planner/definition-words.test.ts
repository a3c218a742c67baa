import { describe, expect, it } from 'vitest';
import { GLOSSARY } from '../../../../src/main/assistant/glossary.js';
import { DEFINITION_RULES, DEFINITION_WORDS, definitionAsked, definitionRuleHolds, definitionSays } from '../../../../src/main/assistant/planner/definition.js';
import { read } from '../../../../src/main/assistant/planner/grammar.js';
import { conceptLexicon, tokenEntrySchema } from '../../../../src/main/assistant/planner/lexicon.js';

/** A message as the planner hands it on: folded, its synonyms and slang read. */
const folded = (text: string) => read(text, '2026-11-20').folded;

describe('the definition frames, as data', () => {
  it.each(DEFINITION_WORDS.map((e) => [e.phrase, e.concept, e.example] as const))('"%s" → %s is said in its example, a question about a word: "%s"', (_phrase, concept, example) => {
    expect(definitionSays(folded(example), concept), `"${example}" says ${concept}`).toBe(true);
    expect(definitionAsked(folded(example)), example).not.toBeNull();
  });

  it.each(DEFINITION_RULES.map((r) => [r.id, r.example, r] as const))('rule %s holds for its example "%s"', (_id, example, rule) => {
    expect(definitionRuleHolds(folded(example), rule)).toBe(true);
  });

  it('reads every word of the glossary as its term', () => {
    for (const [term, entry] of Object.entries(GLOSSARY)) {
      for (const word of entry.words) expect(definitionAsked(`what does ${word} mean`), word).toBe(term);
    }
  });

  it('refuses a pattern for a phrase: a mark is a token of its own, one space from the next', () => {
    expect(tokenEntrySchema.parse({ phrase: 'v / s', concept: 'versus', lang: 'en', example: 'back v/s lay' }).phrase).toBe('v / s');
    for (const phrase of ['bets?', 'v/s', 'a|b', '(bet)', 'Take', 'take  it']) {
      expect(() => tokenEntrySchema.parse({ phrase, concept: 'term', lang: 'en', example: 'what is take' }), phrase).toThrow();
    }
  });
});

describe('a rule named as a step ("@id")', () => {
  const entries = ['on my', 'dashboard', 'take', 'what', 'is', 'please'].map((phrase, i) => ({
    phrase, concept: ['at', 'place', 'term', 'what', 'is', 'filler'][i]!, lang: 'en' as const, example: phrase,
  }));
  const lexicon = conceptLexicon('test lexicon', entries, [
    { id: 'place', example: 'on my dashboard', all: [['at', 'word?', 'place']] },
    { id: 'after', example: 'please', all: [['filler']] },
    { id: 'after', example: 'on my dashboard', all: [['@place']] },
    { id: 'asked', example: 'what is take on my dashboard', all: [['^', 'what', 'is', 'term', '@after*', '$']] },
  ]);

  it('covers the words of one of its rules, any number in a row, and reports each step', () => {
    expect(lexicon.holds('what is take on my agent dashboard please', 'asked')).toBe(true);
    expect(lexicon.holds('what is take please on my dashboard', 'asked')).toBe(true);
    expect(lexicon.holds('what is take on my agent', 'asked')).toBe(false);
    expect(lexicon.holds('what is take karan', 'asked')).toBe(false);
    const match = lexicon.ruleMatch('what is take on my agent dashboard', 'asked');
    expect(match?.steps.map((s) => [s.values[0], s.from, s.to])).toEqual([['what', 0, 1], ['is', 1, 2], ['term', 2, 3], ['at', 3, 5], ['word', 5, 6], ['place', 6, 7]]);
  });

  it('is refused at load when unknown, when it names itself, or when it is more than one sequence', () => {
    expect(() => conceptLexicon('test lexicon', entries, [{ id: 'a', example: 'x', all: [['@nothing']] }])).toThrow(/unknown rule/);
    expect(() => conceptLexicon('test lexicon', entries, [
      { id: 'a', example: 'x', all: [['what', '@b?']] }, { id: 'b', example: 'x', all: [['is', '@a?']] },
    ])).toThrow(/names itself/);
    expect(() => conceptLexicon('test lexicon', entries, [
      { id: 'a', example: 'x', all: [['what', '@b']] }, { id: 'b', example: 'x', all: [['is'], ['term']] },
    ])).toThrow(/one sequence/);
  });
});
