/**
 * The intents' words, as data: lexicon/intents/*.json hold concept entries (a word or phrase → a
 * concept such as `settle:paid_verb`), and lexicon/intents/rules.json the few rules that need
 * concepts in an order ("bets … will … settle"). They are read by the one tokenizer and the one
 * phrase matcher (src/shared/parse/phrases.ts), with the rules' step syntax of planner/lexicon.ts;
 * an intent module asks of concepts, never of patterns.
 */
import { z } from 'zod';
import { type PhraseMatch, type PhraseTable, isWord, matchPhrases, phraseTable, tokenSpans } from '../../../../shared/parse/phrases.js';
import { type SpeechEntry, type SpeechRule, entrySchema, ruleSchema } from '../lexicon.js';
import betEntries from '../lexicon/intents/bets.json' with { type: 'json' };
import findEntries from '../lexicon/intents/find.json' with { type: 'json' };
import hedgeEntries from '../lexicon/intents/hedge.json' with { type: 'json' };
import limitEntries from '../lexicon/intents/limit.json' with { type: 'json' };
import muteEntries from '../lexicon/intents/mute.json' with { type: 'json' };
import readEntries from '../lexicon/intents/reads.json' with { type: 'json' };
import reportEntries from '../lexicon/intents/report.json' with { type: 'json' };
import settleEntries from '../lexicon/intents/settle.json' with { type: 'json' };
import ruleEntries from '../lexicon/intents/rules.json' with { type: 'json' };

/** Each lexicon file, checked once: a malformed line is a startup error, not a silent miss. */
export const INTENT_LEXICONS: Readonly<Record<string, readonly SpeechEntry[]>> = Object.freeze(Object.fromEntries(
  Object.entries({ bets: betEntries, find: findEntries, hedge: hedgeEntries, limit: limitEntries, mute: muteEntries, reads: readEntries, report: reportEntries, settle: settleEntries })
    .map(([file, entries]) => [file, Object.freeze(z.array(entrySchema).parse(entries))]),
));
export const INTENT_RULES: readonly SpeechRule[] = Object.freeze(z.array(ruleSchema).parse(ruleEntries));

const TABLES: ReadonlyMap<string, PhraseTable<string>> = (() => {
  const byConcept = new Map<string, Array<[string, string]>>();
  for (const e of Object.values(INTENT_LEXICONS).flat()) {
    const list = byConcept.get(e.concept) ?? [];
    list.push([e.phrase, e.concept]);
    byConcept.set(e.concept, list);
  }
  return new Map([...byConcept].map(([concept, list]) => [concept, phraseTable(list)]));
})();

const FIGURE = new Set('0123456789');

/** The concepts every rule may name besides the lexicons': any word, a word of letters only, a word with a digit, a question mark. */
const BUILT_IN: Readonly<Record<string, (t: string) => boolean>> = {
  any: isWord,
  word: (t) => isWord(t) && ![...t].some((c) => FIGURE.has(c)),
  number: (t) => isWord(t) && [...t].some((c) => FIGURE.has(c)),
  '?': (t) => t === '?',
};

interface Read { readonly spans: ReadonlyArray<{ token: string; start: number; end: number }>; readonly tokens: readonly string[]; readonly last: number; readonly found: Map<string, readonly PhraseMatch<string>[]> }

const MEMO = new Map<string, Read>();
/** Every intent asks of the same text many times a turn: its tokens and the concepts found are kept. */
function readOf(folded: string): Read {
  let read = MEMO.get(folded);
  if (!read) {
    if (MEMO.size > 2000) MEMO.clear();
    const spans = tokenSpans(folded);
    const tokens = spans.map((s) => s.token);
    let last = tokens.length;
    while (last > 0 && !isWord(tokens[last - 1])) last--;
    read = { spans, tokens, last, found: new Map() };
    MEMO.set(folded, read);
  }
  return read;
}

/** The text's tokens, as the one tokenizer reads them. */
export const tokensIn = (folded: string): readonly string[] => readOf(folded).tokens;

/** The text's tokens with where each stands. */
export const spansOf = (folded: string) => readOf(folded).spans;

/** A word that opens with a figure ("10k", "5"): an amount or a count, never a name. */
export const opensWithFigure = (t: string | undefined): boolean => isWord(t) && figuresAndRest(t).figures !== '';

/**
 * A token's leading figures and the letters typed on to them: "6pm" is 6 and "pm", "30mins" 30 and
 * "mins", "10" 10 and nothing. The tokenizer keeps letters and digits typed together as one word.
 */
export function figuresAndRest(token: string | undefined): { figures: string; rest: string } {
  const t = token ?? '';
  let i = 0;
  while (i < t.length && FIGURE.has(t[i]!)) i++;
  return { figures: t.slice(0, i), rest: t.slice(i) };
}

/** Whether a token is figures only ("10", "2026"). */
export const isFigures = (t: string | undefined): boolean => t !== undefined && t !== '' && figuresAndRest(t).rest === '';

/** Where a concept is said in the folded text: its phrases longest first, never overlapping. */
export function found(folded: string, concept: string): readonly PhraseMatch<string>[] {
  const read = readOf(folded);
  let at = read.found.get(concept);
  if (at) return at;
  const table = TABLES.get(concept);
  const fits = BUILT_IN[concept];
  if (table) at = matchPhrases(table, read.tokens);
  else if (fits) at = read.tokens.flatMap((t, i) => (fits(t) ? [{ values: [concept], from: i, to: i + 1 }] : []));
  else throw new Error(`No concept "${concept}" in the intents' lexicons.`);
  read.found.set(concept, at);
  return at;
}

/** Whether the folded text says the concept anywhere. */
export const said = (folded: string, concept: string): boolean => found(folded, concept).length > 0;

/** Whether whitespace stands between token i and the one before it ("6 pm", not "6pm" nor "18:30"). */
export function spacedBefore(folded: string, i: number): boolean {
  const spans = spansOf(folded);
  return i > 0 && i < spans.length && spans[i]!.start > spans[i - 1]!.end;
}

/** Whether token i was typed right on to the one before it ("18:30", "2.5"). */
export function gluedBefore(folded: string, i: number): boolean {
  const spans = spansOf(folded);
  return i > 0 && i < spans.length && spans[i]!.start === spans[i - 1]!.end;
}

/** Whether a word (a token, not a phrase) stands for the concept. */
export const means = (word: string | undefined, concept: string): boolean => word !== undefined && (TABLES.get(concept)?.phrases.has(word) ?? false);

interface Step { concept: string; gap: number; optional: boolean; repeat: boolean }
interface Sequence { start: boolean; end: boolean; steps: Step[] }

/** A rule's steps as planner/lexicon.ts reads them: "^", "$", "name?", "name*", "…", "…N". */
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
      if (!TABLES.has(concept) && !(concept in BUILT_IN)) throw new Error(`Rule ${rule} names the unknown concept "${concept}".`);
      if (Number.isNaN(gap)) throw new Error(`Rule ${rule} has a gap that is no number.`);
      seq.steps.push({ concept, gap, optional, repeat });
      gap = 0;
    }
  }
  return seq;
}

/** The first place the sequence is found in the text: the tokens [from, to) it covers. */
function find(folded: string, seq: Sequence): { from: number; to: number } | null {
  const read = readOf(folded);
  const go = (i: number, pos: number, gap: number, from: number | null): { from: number; to: number } | null => {
    if (i === seq.steps.length) return !seq.end || pos === read.last ? { from: from ?? pos, to: pos } : null;
    const step = seq.steps[i]!;
    const room = Math.max(gap, step.gap);
    for (const at of found(folded, step.concept)) {
      if (at.from < pos || at.from - pos > room) continue;
      const next = go(i + 1, at.to, 0, from ?? at.from) ?? (step.repeat ? go(i, at.to, 0, from ?? at.from) : null);
      if (next) return next;
    }
    return step.optional || step.repeat ? go(i + 1, pos, room, from) : null;
  };
  return go(0, 0, seq.start ? 0 : Infinity, null);
}

type Compiled = { all: Sequence[]; none: Sequence[] };
const compile = (r: SpeechRule): Compiled => ({ all: r.all.map((s) => sequenceOf(s, r.id)), none: (r.none ?? []).map((s) => sequenceOf(s, r.id)) });

const RULES: ReadonlyMap<string, readonly Compiled[]> = (() => {
  const rules = new Map<string, Compiled[]>();
  for (const r of INTENT_RULES) rules.set(r.id, [...(rules.get(r.id) ?? []), compile(r)]);
  return rules;
})();

const holdsOne = (folded: string, rule: Compiled) => rule.all.every((seq) => find(folded, seq) !== null) && !rule.none.some((seq) => find(folded, seq) !== null);

/** Where a rule of that id holds, the tokens its first sequence covers, or null: rules of one id are alternatives, in the data's order. */
export function ruleAt(folded: string, id: string): { from: number; to: number } | null {
  const rules = RULES.get(id);
  if (!rules) throw new Error(`No rule "${id}" in the intents' rules.`);
  for (const rule of rules) if (holdsOne(folded, rule)) return find(folded, rule.all[0]!);
  return null;
}

/** Whether a rule of that id holds. */
export const holds = (folded: string, id: string): boolean => ruleAt(folded, id) !== null;

/** Each rule's own match, for the corpus test: every rule's example must hold by that rule alone. */
export const ruleHolds = (folded: string, rule: SpeechRule): boolean => holdsOne(folded, compile(rule));
