/**
 * The intents' words, as data: lexicon/intents/*.json hold concept entries (a word or phrase → a
 * concept such as `settle:paid_verb`), and lexicon/intents/rules.json the few rules that need
 * concepts in an order ("bets … will … settle"). They are read by the one tokenizer and the one
 * phrase matcher (src/shared/parse/phrases.ts), with the rules' step syntax of planner/lexicon.ts;
 * an intent module asks of concepts, never of patterns.
 */
import { z } from 'zod';
import { type PhraseMatch, isDigits, isWord, tokenSpans } from '../../../../shared/parse/phrases.js';

export { isDigits };
import { type SpeechEntry, type SpeechRule, conceptLexicon, entrySchema, ruleSchema } from '../lexicon.js';
import betEntries from '../lexicon/intents/bets.json' with { type: 'json' };
import findEntries from '../lexicon/intents/find.json' with { type: 'json' };
import hedgeEntries from '../lexicon/intents/hedge.json' with { type: 'json' };
import limitEntries from '../lexicon/intents/limit.json' with { type: 'json' };
import muteEntries from '../lexicon/intents/mute.json' with { type: 'json' };
import readEntries from '../lexicon/intents/reads.json' with { type: 'json' };
import reportEntries from '../lexicon/intents/report.json' with { type: 'json' };
import settleEntries from '../lexicon/intents/settle.json' with { type: 'json' };
import statementEntries from '../lexicon/intents/statement.json' with { type: 'json' };
import ruleEntries from '../lexicon/intents/rules.json' with { type: 'json' };

/** Each lexicon file, checked once: a malformed line is a startup error, not a silent miss. */
export const INTENT_LEXICONS: Readonly<Record<string, readonly SpeechEntry[]>> = Object.freeze(Object.fromEntries(
  Object.entries({ bets: betEntries, find: findEntries, hedge: hedgeEntries, limit: limitEntries, mute: muteEntries, reads: readEntries, report: reportEntries, settle: settleEntries, statement: statementEntries })
    .map(([file, entries]) => [file, Object.freeze(z.array(entrySchema).parse(entries))]),
));
export const INTENT_RULES: readonly SpeechRule[] = Object.freeze(z.array(ruleSchema).parse(ruleEntries));

const LEXICON = conceptLexicon("intents' lexicons", Object.values(INTENT_LEXICONS).flat(), INTENT_RULES);

const FIGURE = new Set('0123456789');

interface Read { readonly spans: ReadonlyArray<{ token: string; start: number; end: number }>; readonly tokens: readonly string[] }

const MEMO = new Map<string, Read>();
/** Every intent asks of the same text many times a turn: its tokens and where each stands are kept. */
function readOf(folded: string): Read {
  let read = MEMO.get(folded);
  if (!read) {
    if (MEMO.size > 2000) MEMO.clear();
    const spans = tokenSpans(folded);
    read = { spans, tokens: spans.map((s) => s.token) };
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

/** Where a concept is said in the folded text: its phrases longest first, never overlapping. */
export const found = (folded: string, concept: string): readonly PhraseMatch<string>[] => LEXICON.occurrences(folded, concept);

/** Whether the folded text says the concept anywhere. */
export const said = (folded: string, concept: string): boolean => LEXICON.says(folded, concept);

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
export const means = (word: string | undefined, concept: string): boolean => LEXICON.means(word, concept);

/** Where a rule of that id holds, the tokens its first sequence covers, or null: rules of one id are alternatives, in the data's order. */
export const ruleAt = (folded: string, id: string): { from: number; to: number } | null => LEXICON.ruleAt(folded, id);

/** Whether a rule of that id holds. */
export const holds = (folded: string, id: string): boolean => LEXICON.holds(folded, id);

/** Each rule's own match, for the corpus test: every rule's example must hold by that rule alone. */
export const ruleHolds = (folded: string, rule: SpeechRule): boolean => LEXICON.ruleHolds(folded, rule);
