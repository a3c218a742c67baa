/**
 * How things are said, as data: lexicon/speech.json (asking, ordering, telling, thanks, forecasts)
 * and lexicon/refusals.json (orders no tool carries out) hold concept entries, a word or phrase →
 * a concept with its language and an example; lexicon/rules.json holds the few rules that need
 * concepts in an order ("transfer … from … to", "mark … as void"). Every entry is read by the one
 * tokenizer here and the one phrase matcher (src/shared/parse/phrases.ts): a new wording is a new
 * line of data, never a pattern in code.
 */
import { z } from 'zod';
import { type PhraseMatch, type PhraseTable, isLetters, isWord, matchPhrases, phraseTable, tokenSpans, tokensOf } from '../../../shared/parse/phrases.js';

export { isWord, tokenSpans };
import refusalEntries from './lexicon/refusals.json' with { type: 'json' };
import ruleEntries from './lexicon/rules.json' with { type: 'json' };
import speechEntries from './lexicon/speech.json' with { type: 'json' };

/** Folded words only, or "%": no pattern syntax can hide in an entry. */
const PHRASE = /^[\p{Ll}\p{N}%]+(?: [\p{Ll}\p{N}%]+)*$/u;
const CONCEPT = /^[a-z_]+(?::[a-z_]+)?$/;

/** A lexicon entry's phrase: folded words one space apart, so no pattern syntax can hide in one. */
export const lexiconPhrase = z.string().min(1).max(60).regex(PHRASE, 'a phrase is folded words, one space apart');

/** The languages agents type in, Roman script: English, Hindi, Marathi, Tamil, Telugu, Kannada, Gujarati, Punjabi, Bengali, Gulf Arabic. */
export const lexiconLang = z.enum(['en', 'hi', 'mr', 'ta', 'te', 'kn', 'gu', 'pa', 'bn', 'ar']);

/** An entry of a lexicon whose concepts `concept` checks: a phrase, what it stands for, its language, an example request. */
export function conceptEntry<C extends z.ZodType>(concept: C) {
  return z.strictObject({ phrase: lexiconPhrase, concept, lang: lexiconLang, example: z.string().min(1).max(200) });
}

/** A list of plain words of one language: words that only need to be known, standing for nothing else. */
export const wordGroup = z.strictObject({ lang: lexiconLang, words: z.array(lexiconPhrase).min(1) });
export type WordGroup = z.infer<typeof wordGroup>;

export const entrySchema = conceptEntry(z.string().regex(CONCEPT));
export type SpeechEntry = z.infer<typeof entrySchema>;

/**
 * A rule's steps, in order: a concept (next to the step before), "name?" (may be left out),
 * "name*" (any number in a row), "…" (any words between), "…N" (at most N words between), "^" (the
 * message's first word), "$" (its last, marks after it aside). Built in: "word" (letters only),
 * "any" (any word), "number" (a word with a digit), "?" (a question mark).
 */
const stepsSchema = z.array(z.string().min(1)).min(1);
export const ruleSchema = z.strictObject({
  id: z.string().regex(CONCEPT),
  example: z.string().min(1).max(200),
  /** Every sequence must be found... */
  all: z.array(stepsSchema).min(1),
  /** ...and none of these. */
  none: z.array(stepsSchema).optional(),
});
export type SpeechRule = z.infer<typeof ruleSchema>;

/** The entries and rules, checked once: a malformed line is a startup error, not a silent miss. */
export const SPEECH_LEXICON: readonly SpeechEntry[] = Object.freeze(z.array(entrySchema).parse(speechEntries));
export const REFUSAL_LEXICON: readonly SpeechEntry[] = Object.freeze(z.array(entrySchema).parse(refusalEntries));
export const SPEECH_RULES: readonly SpeechRule[] = Object.freeze(z.array(ruleSchema).parse(ruleEntries));

const BUILT_IN = new Set(['word', 'any', 'number', '?']);

const TABLES: ReadonlyMap<string, PhraseTable<string>> = (() => {
  const byConcept = new Map<string, Array<[string, string]>>();
  for (const e of [...SPEECH_LEXICON, ...REFUSAL_LEXICON]) {
    const list = byConcept.get(e.concept) ?? [];
    list.push([e.phrase, e.concept]);
    byConcept.set(e.concept, list);
  }
  return new Map([...byConcept].map(([concept, list]) => [concept, phraseTable(list)]));
})();

interface Step { concept: string; gap: number; optional: boolean; repeat: boolean }
interface Sequence { start: boolean; end: boolean; steps: Step[] }

function sequenceOf(steps: readonly string[], rule: string): Sequence {
  const seq: Sequence = { start: false, end: false, steps: [] };
  let gap = 0;
  for (const s of steps) {
    if (s === '^') seq.start = true;
    else if (s === '$') seq.end = true;
    else if (s.startsWith('…')) gap = s === '…' ? Infinity : Number(s.slice(1));
    else {
      const repeat = s.endsWith('*');
      const optional = s.endsWith('?') && s !== '?';
      const concept = repeat || optional ? s.slice(0, -1) : s;
      if (!TABLES.has(concept) && !BUILT_IN.has(concept)) throw new Error(`Rule ${rule} names the unknown concept "${concept}".`);
      if (Number.isNaN(gap)) throw new Error(`Rule ${rule} has a gap that is no number.`);
      seq.steps.push({ concept, gap, optional, repeat });
      gap = 0;
    }
  }
  return seq;
}

const RULES: ReadonlyMap<string, ReadonlyArray<{ all: Sequence[]; none: Sequence[] }>> = (() => {
  const rules = new Map<string, Array<{ all: Sequence[]; none: Sequence[] }>>();
  for (const r of SPEECH_RULES) {
    const list = rules.get(r.id) ?? [];
    list.push({ all: r.all.map((s) => sequenceOf(s, r.id)), none: (r.none ?? []).map((s) => sequenceOf(s, r.id)) });
    rules.set(r.id, list);
  }
  return rules;
})();

/** A message's words and marks in order ("kar do?" is "kar", "do", "?"), and the concepts found in them. */
export interface Said {
  readonly tokens: readonly string[];
  /** Where the words end: the marks after the last word ("…kar do?!") are no word. */
  readonly last: number;
  readonly found: Map<string, PhraseMatch<string>[]>;
}

const DIGIT = /\p{N}/u;

/** The folded text's tokens: runs of letters and digits, and each other mark alone. */
export function saidOf(folded: string | readonly string[]): Said {
  const tokens = typeof folded === 'string' ? tokensOf(folded) : folded;
  let last = tokens.length;
  while (last > 0 && !isWord(tokens[last - 1])) last--;
  return { tokens, last, found: new Map() };
}


const MEMO = new Map<string, Said>();
/** The same text is read many times a turn (every speech act asks): its tokens are kept. */
function said(text: string | Said): Said {
  if (typeof text !== 'string') return text;
  let s = MEMO.get(text);
  if (!s) {
    if (MEMO.size > 2000) MEMO.clear();
    s = saidOf(text);
    MEMO.set(text, s);
  }
  return s;
}

/** Where a concept is said: its phrases longest first, never overlapping. */
export function occurrences(text: string | Said, concept: string): readonly PhraseMatch<string>[] {
  const s = said(text);
  let found = s.found.get(concept);
  if (found) return found;
  const table = TABLES.get(concept);
  if (table) found = matchPhrases(table, s.tokens);
  else {
    const fits = concept === 'word' ? isLetters
      : concept === 'any' ? isWord
        : concept === 'number' ? (t: string) => isWord(t) && DIGIT.test(t)
          : concept === '?' ? (t: string) => t === '?' : null;
    if (!fits) throw new Error(`No concept "${concept}" in the lexicon.`);
    found = s.tokens.flatMap((t, i) => (fits(t) ? [{ values: [concept], from: i, to: i + 1 }] : []));
  }
  s.found.set(concept, found);
  return found;
}

/** Whether the text says the concept anywhere. */
export const says = (text: string | Said, concept: string): boolean => occurrences(text, concept).length > 0;

/** The first place the sequence is found: the words [from, to) it covers. */
function find(s: Said, seq: Sequence): { from: number; to: number } | null {
  const go = (i: number, pos: number, gap: number, from: number | null): { from: number; to: number } | null => {
    if (i === seq.steps.length) return !seq.end || pos === s.last ? { from: from ?? pos, to: pos } : null;
    const step = seq.steps[i]!;
    const room = Math.max(gap, step.gap);
    for (const at of occurrences(s, step.concept)) {
      if (at.from < pos || at.from - pos > room) continue;
      const next = go(i + 1, at.to, 0, from ?? at.from) ?? (step.repeat ? go(i, at.to, 0, from ?? at.from) : null);
      if (next) return next;
    }
    return step.optional || step.repeat ? go(i + 1, pos, room, from) : null;
  };
  return go(0, 0, seq.start ? 0 : Infinity, null);
}

/**
 * Where a rule of that id holds, the words its first sequence covers, or null: the rules of one id
 * are alternatives, tried in the data's order.
 */
export function ruleAt(text: string | Said, id: string): { from: number; to: number } | null {
  const s = said(text);
  const rules = RULES.get(id);
  if (!rules) throw new Error(`No rule "${id}" in the lexicon.`);
  for (const rule of rules) {
    const spans = rule.all.map((seq) => find(s, seq));
    if (spans.every(Boolean) && !rule.none.some((seq) => find(s, seq))) return spans[0]!;
  }
  return null;
}

/** Whether a rule of that id holds. */
export const holds = (text: string | Said, id: string): boolean => ruleAt(text, id) !== null;

/** Each rule's own match, for the corpus test: every rule's example must hold by that rule alone. */
export function ruleHolds(text: string, rule: SpeechRule): boolean {
  const s = saidOf(text);
  const all = rule.all.map((steps) => sequenceOf(steps, rule.id));
  const none = (rule.none ?? []).map((steps) => sequenceOf(steps, rule.id));
  return all.every((seq) => find(s, seq) !== null) && !none.some((seq) => find(s, seq) !== null);
}

/** The ids of the rules whose id starts with the prefix ("refuse:"), in the data's order. */
export const ruleIds = (prefix: string): string[] => [...RULES.keys()].filter((id) => id.startsWith(prefix));
