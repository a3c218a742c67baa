import { describe, expect, it } from 'vitest';
import { SPEECH_LEXICON, SPEECH_RULES, entrySchema, occurrences, ruleHolds, ruleSchema, saidOf } from '../../../../src/main/assistant/planner/lexicon.js';
import { fold } from '../../../../src/main/assistant/planner/grammar.js';
import { ORDER_MARKER, speechAct, supposes } from '../../../../src/main/assistant/planner/speech-act.js';

const PATTERN_SYNTAX = /[\\^$.*+?()[\]{}|]/;
const ORDER_VERBS = new Set(['settle', 'set', 'raise', 'mute']);
const act = (text: string) => speechAct(fold(text), ORDER_VERBS);

describe('the speech lexicon (lexicon/speech.json)', () => {
  it.each(SPEECH_LEXICON.map((e) => [e.phrase, e.concept, e.example] as const))('"%s" → %s is said in its example', (phrase, concept, example) => {
    expect(PATTERN_SYNTAX.test(phrase)).toBe(false);
    expect(fold(phrase)).toBe(phrase);
    expect(occurrences(saidOf(fold(example)), concept).length, `"${example}" says ${concept}`).toBeGreaterThan(0);
  });

  it.each(SPEECH_RULES.filter((r) => !r.id.startsWith('refuse:') && !r.id.startsWith('unsupported:')).map((r) => [r.id, r.example, r] as const))('rule %s holds for its example "%s"', (_id, example, rule) => {
    expect(ruleHolds(fold(example), rule)).toBe(true);
  });
});

describe('a malformed lexicon line', () => {
  it('is refused when read: a pattern, an unknown language, a missing example', () => {
    expect(() => entrySchema.parse({ phrase: 'kar\\s*do', concept: 'order_marker', lang: 'hi', example: 'kar do' })).toThrow();
    expect(() => entrySchema.parse({ phrase: 'kar|karo', concept: 'order_marker', lang: 'hi', example: 'kar do' })).toThrow();
    expect(() => entrySchema.parse({ phrase: 'kar do', concept: 'order_marker', lang: 'xx', example: 'kar do' })).toThrow();
    expect(() => entrySchema.parse({ phrase: 'kar do', concept: 'order_marker', lang: 'hi' })).toThrow();
    expect(() => ruleSchema.parse({ id: 'order', example: 'kar do', all: [] })).toThrow();
    expect(entrySchema.parse({ phrase: 'kar do', concept: 'order_marker', lang: 'hi', example: 'limit 50k kar do' }).phrase).toBe('kar do');
  });
});

describe('what a message does: asks, orders or tells', () => {
  it.each([
    ['has Rahul paid?', 'question'],
    ['did Vikram settle?', 'question'],
    ["is Amit's CL 50k?", 'question'],
    ['Rahul ne paise diye kya', 'question'],
    ['limit kitni hai', 'question'],
    ['karan ka kitna settle karna baki hai', 'question'],
    ['should I settle Deepak?', 'question'],
    ['kya mujhe CL badha dena chahiye', 'question'],
    ['if I settle Anita today how much would I get', 'question'],
    ['settle karan 5k', 'command'],
    ['ok bhai please settle karan', 'command'],
    ['can you settle Karan?', 'command'],
    ['min stake 500 kar doge kya plz', 'command'],
    ['karan ka kitna bhi ho, settle kar do', 'command'],
    ['is hafte ka pnl dikhao', 'command'],
    ['Rahul ne paise diye', 'statement'],
    ['Sneha paid 15k cash', 'statement'],
    ['karan will pay 15k tomorrow', 'statement'],
    ['deepak kal 10k dega', 'statement'],
    ['Karan bol raha hai limit badha do 20k', 'statement'],
    ['Neha wants her CL at 50k', 'statement'],
    ['maybe I settle Suresh tomorrow', 'statement'],
  ])('"%s" is a %s', (text, expected) => {
    expect(act(text)).toBe(expected);
  });

  it('reads courtesy said as a condition as no supposition', () => {
    expect(supposes(fold("if it's not too much trouble, bump Karan's limit to 50k"))).toBe(false);
    expect(supposes(fold('agar karan ko settle karu to kitna bachega'))).toBe(true);
    expect(act("if you don't mind, settle Sneha")).toBe('command');
  });

  it('finds the order markers the tools lean on', () => {
    expect(ORDER_MARKER.test(fold('limit 50k kar do'))).toBe(true);
    expect(ORDER_MARKER.test(fold('limit 50k kar'))).toBe(true);
    expect(ORDER_MARKER.test(fold('limit kitni hai'))).toBe(false);
  });
});
