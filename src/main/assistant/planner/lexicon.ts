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

/**
 * A phrase that may hold marks, as the one tokenizer reads them: "v / s", "worst - case", ",".
 * Each word and each mark is a token of its own, one space apart, so every mark is literal.
 */
export const tokenPhrase = z.string().min(1).max(60)
  .refine((p) => p === p.toLowerCase() && tokensOf(p).join(' ') === p, 'a phrase is folded words and marks, one space apart');

/** An entry of a lexicon whose concepts `concept` checks: a phrase, what it stands for, its language, an example request. */
export function conceptEntry<C extends z.ZodType>(concept: C, phrase: z.ZodType<string> = lexiconPhrase) {
  return z.strictObject({ phrase, concept, lang: lexiconLang, example: z.string().min(1).max(200) });
}

/** A list of plain words of one language: words that only need to be known, standing for nothing else. */
export const wordGroup = z.strictObject({ lang: lexiconLang, words: z.array(lexiconPhrase).min(1) });
export type WordGroup = z.infer<typeof wordGroup>;

export const entrySchema = conceptEntry(z.string().regex(CONCEPT));
/** An entry whose phrase may hold marks (`tokenPhrase`). */
export const tokenEntrySchema = conceptEntry(z.string().regex(CONCEPT), tokenPhrase);
export type SpeechEntry = z.infer<typeof entrySchema>;

/**
 * A rule's steps, in order: a concept (next to the step before), "name?" (may be left out),
 * "name*" (any number in a row), "…" (any words between), "…N" (at most N words between), "^" (the
 * message's first word), "$" (its last, marks after it aside). Built in: "word" (letters only),
 * "any" (any word), "number" (a word with a digit), "?" (a question mark). "@id" is the words of
 * one of the rules of that id (with "?" and "*" as for a concept): a group of steps said together,
 * or one of several ("the word take", "on my dashboard"). A rule so named has one sequence and no
 * `none`, and never names itself.
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

/** A message's words and marks in order ("kar do?" is "kar", "do", "?"), and the concepts found in them. */
export interface Said {
  readonly tokens: readonly string[];
  /** Where the words end: the marks after the last word ("…kar do?!") are no word. */
  readonly last: number;
  readonly found: Map<string, PhraseMatch<string>[]>;
}

/** The folded text's tokens: runs of letters and digits, and each other mark alone. */
export function saidOf(folded: string | readonly string[]): Said {
  const tokens = typeof folded === 'string' ? tokensOf(folded) : folded;
  let last = tokens.length;
  while (last > 0 && !isWord(tokens[last - 1])) last--;
  return { tokens, last, found: new Map() };
}

const DIGIT = /\p{N}/u;

/** The concepts every rule may name besides a lexicon's own: a word of letters, any word, a word with a digit, a question mark. */
const BUILT_IN: Readonly<Record<string, (t: string) => boolean>> = {
  word: isLetters,
  any: isWord,
  number: (t) => isWord(t) && DIGIT.test(t),
  '?': (t) => t === '?',
};

/** A step: a concept, or (`rule`) the id of the rules whose words it is. */
interface Step { concept: string; rule: boolean; gap: number; optional: boolean; repeat: boolean }
interface Sequence { start: boolean; end: boolean; steps: Step[] }
interface Compiled { all: Sequence[]; none: Sequence[] }

/** Where a rule holds, and what each step covered: a concept's phrase, a built-in's word, a named rule's own steps. */
export interface RuleMatch {
  readonly from: number;
  readonly to: number;
  readonly steps: readonly PhraseMatch<string>[];
}

/** Words a named rule covers from one place, and what its steps covered there. */
interface Span extends PhraseMatch<string> { steps: readonly PhraseMatch<string>[] }

/**
 * A lexicon of concept entries and the rules over them, read by the one tokenizer and matcher:
 * where a concept is said, whether a rule holds. Each lexicon keeps its own memo of the texts it
 * was asked about, so two lexicons may use the same concept name for different words.
 */
export interface ConceptLexicon {
  /** Where a concept is said: its phrases longest first, never overlapping. */
  occurrences(text: string | readonly string[] | Said, concept: string): readonly PhraseMatch<string>[];
  /** Whether the text says the concept anywhere. */
  says(text: string | readonly string[] | Said, concept: string): boolean;
  /** Whether one word (a token, not a phrase) stands for the concept. */
  means(word: string | undefined, concept: string): boolean;
  /** The concept's phrase table; a concept of no entry is an error. */
  table(concept: string): PhraseTable<string>;
  /** Where a rule of that id holds, the words its first sequence covers, or null: rules of one id are alternatives, in the data's order. */
  ruleAt(text: string | Said, id: string): { from: number; to: number } | null;
  /** As `ruleAt`, with what each step of that sequence covered, in order (the steps of a rule named "@id" in its place). */
  ruleMatch(text: string | Said, id: string): RuleMatch | null;
  /** Whether a rule of that id holds. */
  holds(text: string | Said, id: string): boolean;
  /** One rule's own match, for the corpus tests: every rule's example must hold by that rule alone. */
  ruleHolds(text: string, rule: SpeechRule): boolean;
}

/** The lexicon of these entries and rules; `name` says which in an error. A rule naming a concept of no entry is an error at load. */
export function conceptLexicon(name: string, entries: readonly SpeechEntry[], rules: readonly SpeechRule[] = []): ConceptLexicon {
  const tables: ReadonlyMap<string, PhraseTable<string>> = (() => {
    const byConcept = new Map<string, Array<[string, string]>>();
    for (const e of entries) {
      const list = byConcept.get(e.concept) ?? [];
      list.push([e.phrase, e.concept]);
      byConcept.set(e.concept, list);
    }
    return new Map([...byConcept].map(([concept, list]) => [concept, phraseTable(list)]));
  })();

  const ids = new Set(rules.map((r) => r.id));
  const sequenceOf = (steps: readonly string[], rule: string): Sequence => {
    const seq: Sequence = { start: false, end: false, steps: [] };
    let gap = 0;
    for (const s of steps) {
      if (s === '^') seq.start = true;
      else if (s === '$') seq.end = true;
      else if (s.startsWith('…')) gap = s === '…' ? Infinity : Number(s.slice(1));
      else {
        const repeat = s.endsWith('*');
        const optional = s.endsWith('?') && s !== '?';
        const named = repeat || optional ? s.slice(0, -1) : s;
        const isRule = named.startsWith('@');
        const concept = isRule ? named.slice(1) : named;
        if (isRule ? !ids.has(concept) : !tables.has(concept) && !(concept in BUILT_IN)) {
          throw new Error(`Rule ${rule} of the ${name} names the unknown ${isRule ? 'rule' : 'concept'} "${concept}".`);
        }
        if (Number.isNaN(gap)) throw new Error(`Rule ${rule} of the ${name} has a gap that is no number.`);
        seq.steps.push({ concept, rule: isRule, gap, optional, repeat });
        gap = 0;
      }
    }
    return seq;
  };
  const compile = (r: SpeechRule): Compiled => ({ all: r.all.map((s) => sequenceOf(s, r.id)), none: (r.none ?? []).map((s) => sequenceOf(s, r.id)) });
  const compiled = new Map<string, Compiled[]>();
  for (const r of rules) compiled.set(r.id, [...(compiled.get(r.id) ?? []), compile(r)]);
  // A rule named as a step is one sequence of words, and reaches itself through no chain of names.
  const namedIn = (id: string): string[] => compiled.get(id)!.flatMap((c) => c.all.flatMap((q) => q.steps.filter((st) => st.rule).map((st) => st.concept)));
  for (const id of new Set([...compiled.keys()].flatMap(namedIn))) {
    if (compiled.get(id)!.some((c) => c.all.length !== 1 || c.none.length > 0)) throw new Error(`Rule ${id} of the ${name} is named as a step, so it has one sequence and no "none".`);
    const seen = new Set<string>();
    const reach = [...namedIn(id)];
    while (reach.length > 0) {
      const next = reach.pop()!;
      if (next === id) throw new Error(`Rule ${id} of the ${name} names itself.`);
      if (seen.has(next)) continue;
      seen.add(next);
      reach.push(...namedIn(next));
    }
  }

  // The same text is asked about many times a turn (every speech act, every intent): its tokens and finds are kept.
  const memo = new Map<string, Said>();
  const said = (text: string | readonly string[] | Said): Said => {
    if (typeof text !== 'string') return 'found' in text ? text : saidOf(text);
    let s = memo.get(text);
    if (!s) {
      if (memo.size > 2000) memo.clear();
      s = saidOf(text);
      memo.set(text, s);
    }
    return s;
  };

  const table = (concept: string): PhraseTable<string> => {
    const t = tables.get(concept);
    if (!t) throw new Error(`No concept "${concept}" in the ${name}.`);
    return t;
  };

  const occurrences = (text: string | readonly string[] | Said, concept: string): readonly PhraseMatch<string>[] => {
    const s = said(text);
    let found = s.found.get(concept);
    if (found) return found;
    const fits = BUILT_IN[concept];
    found = tables.has(concept) || !fits ? matchPhrases(table(concept), s.tokens)
      : s.tokens.flatMap((t, i) => (fits(t) ? [{ values: [concept], from: i, to: i + 1 }] : []));
    s.found.set(concept, found);
    return found;
  };

  /**
   * Walks the sequence from `start` (anywhere after it, unless anchored there), trying each
   * step's phrases in order and backing off; `done` is told each way through, with what each step
   * covered, and stops the walk by returning true.
   */
  const walk = (s: Said, seq: Sequence, start: number, anchored: boolean, done: (from: number, to: number, steps: readonly PhraseMatch<string>[]) => boolean): boolean => {
    const steps: PhraseMatch<string>[] = [];
    const go = (i: number, pos: number, gap: number, from: number | null): boolean => {
      if (i === seq.steps.length) return (!seq.end || pos === s.last) && done(from ?? pos, pos, steps);
      const step = seq.steps[i]!;
      const room = Math.max(gap, step.gap);
      for (const at of step.rule ? spansFrom(s, step.concept, pos, room) : occurrences(s, step.concept)) {
        if (at.from < pos || at.from - pos > room) continue;
        const kept = steps.length;
        if ('steps' in at) steps.push(...(at as Span).steps);
        else steps.push(at);
        if (go(i + 1, at.to, 0, from ?? at.from) || (step.repeat && go(i, at.to, 0, from ?? at.from))) return true;
        steps.length = kept;
      }
      return (step.optional || step.repeat) && go(i + 1, pos, room, from);
    };
    return (!seq.start || start === 0) && go(0, start, seq.start || anchored ? 0 : Infinity, null);
  };
  const find = (s: Said, seq: Sequence, withSteps = false): RuleMatch | null => {
    let match: RuleMatch | null = null;
    walk(s, seq, 0, false, (from, to, steps) => {
      match = { from, to, steps: withSteps ? [...steps] : [] };
      return true;
    });
    return match;
  };

  // Where a named rule's words are from one place: every way through it, in the order tried, each once. Kept per text.
  const spans = new WeakMap<Said, Map<string, readonly Span[]>>();
  const spansAt = (s: Said, id: string, start: number): readonly Span[] => {
    let known = spans.get(s);
    if (!known) spans.set(s, known = new Map());
    const key = `${id} ${start}`;
    let list = known.get(key);
    if (list) return list;
    const found: Span[] = [];
    const ends = new Set<number>();
    for (const rule of compiled.get(id)!) {
      walk(s, rule.all[0]!, start, true, (from, to, steps) => {
        // An empty way through covers no words: as a step it would repeat for ever.
        if (to > from && !ends.has(to)) {
          ends.add(to);
          found.push({ values: [id], from, to, steps: [...steps] });
        }
        return false;
      });
    }
    known.set(key, list = found);
    return list;
  };
  /** A named rule's words from `pos` or up to `room` words after it. */
  const spansFrom = (s: Said, id: string, pos: number, room: number): readonly Span[] => {
    const last = Math.min(s.tokens.length - 1, pos + room);
    if (last === pos) return spansAt(s, id, pos);
    const all: Span[] = [];
    for (let start = pos; start <= last; start++) all.push(...spansAt(s, id, start));
    return all;
  };
  const holdsOne = (s: Said, rule: Compiled) => rule.all.every((seq) => find(s, seq) !== null) && !rule.none.some((seq) => find(s, seq) !== null);

  const matchOf = (text: string | Said, id: string, withSteps: boolean): RuleMatch | null => {
    const s = said(text);
    const alternatives = compiled.get(id);
    if (!alternatives) throw new Error(`No rule "${id}" in the ${name}.`);
    for (const rule of alternatives) if (holdsOne(s, rule)) return find(s, rule.all[0]!, withSteps);
    return null;
  };
  const ruleAt = (text: string | Said, id: string): { from: number; to: number } | null => {
    const match = matchOf(text, id, false);
    return match && { from: match.from, to: match.to };
  };

  return {
    occurrences,
    says: (text, concept) => occurrences(text, concept).length > 0,
    means: (word, concept) => word !== undefined && (tables.get(concept)?.phrases.has(word) ?? false),
    table,
    ruleAt,
    ruleMatch: (text, id) => matchOf(text, id, true),
    holds: (text, id) => ruleAt(text, id) !== null,
    ruleHolds: (text, rule) => holdsOne(saidOf(text), compile(rule)),
  };
}

/** How things are said: speech acts, refusals and their rules. */
const SPEECH = conceptLexicon('speech lexicon', [...SPEECH_LEXICON, ...REFUSAL_LEXICON], SPEECH_RULES);
export const { occurrences, says, ruleAt, holds, ruleHolds } = SPEECH;

