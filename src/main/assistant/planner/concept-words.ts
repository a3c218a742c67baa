/**
 * The planner's own words as data: lexicon/clauses.json (how a message's requests are joined, cut
 * and corrected), lexicon/follow-ups.json (how a message leans on the last answer) and
 * lexicon/slots.json (how a slot's value is said). Each is a concept lexicon read by the one
 * tokenizer and the one phrase matcher (src/shared/parse/phrases.ts); code asks where a concept is
 * said in a message's tokens and decides on tokens, never on a pattern over the text.
 */
import { z } from 'zod';
import { type PhraseMatch, type PhraseTable, isDigits, isLetters, matchPhrases, tokensOf } from '../../../shared/parse/phrases.js';
import { type SpeechEntry, conceptLexicon, entrySchema, saidOf, says } from './lexicon.js';
import clauseEntries from './lexicon/clauses.json' with { type: 'json' };
import followUpEntries from './lexicon/follow-ups.json' with { type: 'json' };
import slotEntries from './lexicon/slots.json' with { type: 'json' };

/** Every entry, checked once at load: a malformed line is a startup error, not a silent miss. */
export const CLAUSE_WORDS: readonly SpeechEntry[] = Object.freeze(z.array(entrySchema).parse(clauseEntries));
export const FOLLOW_UP_WORDS: readonly SpeechEntry[] = Object.freeze(z.array(entrySchema).parse(followUpEntries));
export const SLOT_WORDS: readonly SpeechEntry[] = Object.freeze(z.array(entrySchema).parse(slotEntries));

const WORDS = conceptLexicon("planner's lexicons", [...CLAUSE_WORDS, ...FOLLOW_UP_WORDS, ...SLOT_WORDS]);
const tableOf = (concept: string): PhraseTable<string> => WORDS.table(concept);

const MEMO = new Map<string, readonly string[]>();
/** A folded text is asked about many times a turn: its tokens are read once. */
export function tokensIn(text: string | readonly string[]): readonly string[] {
  if (typeof text !== 'string') return text;
  let tokens = MEMO.get(text);
  if (!tokens) {
    if (MEMO.size > 2000) MEMO.clear();
    tokens = Object.freeze(tokensOf(text));
    MEMO.set(text, tokens);
  }
  return tokens;
}

/** Where the concept is said in the tokens: its phrases longest first, never overlapping. */
export const whereSaid = (text: string | readonly string[], concept: string): PhraseMatch<string>[] => matchPhrases(tableOf(concept), tokensIn(text));

/** Whether the concept is said anywhere in the text. */
export const said = (text: string | readonly string[], concept: string): boolean => whereSaid(text, concept).length > 0;

/** The token after the concept's longest phrase said right at `from`, or -1 when none starts there. */
export function saidAt(tokens: readonly string[], from: number, concept: string): number {
  const hit = matchPhrases(tableOf(concept), tokens.slice(from))[0];
  return hit?.from === 0 ? from + hit.to : -1;
}

/** The token after every phrase of the concept said one after another from `from` ("and now what about"). */
export function pastAll(tokens: readonly string[], from: number, concept: string): number {
  let at = from;
  for (let next = saidAt(tokens, at, concept); next > at; next = saidAt(tokens, at, concept)) at = next;
  return at;
}

/** The token after the concept said at `from`, or `from` itself when it is not: an optional step. */
export function pastOptional(tokens: readonly string[], from: number, concept: string): number {
  const next = saidAt(tokens, from, concept);
  return next >= 0 ? next : from;
}

/** The token after the marks of `marks` that follow `from` ("?!", "."). */
export function pastMarks(tokens: readonly string[], from: number, marks: ReadonlySet<string>): number {
  let at = from;
  while (at < tokens.length && marks.has(tokens[at]!)) at++;
  return at;
}

export { isDigits, isLetters };

/** Where the tokens end when the marks of `marks` after the last word ("…kar do!!", "yesterday?") are left off. */
export function wordsEnd(tokens: readonly string[], marks: ReadonlySet<string>): number {
  let end = tokens.length;
  while (end > 0 && marks.has(tokens[end - 1]!)) end--;
  return end;
}

/** Whether a token is a number glued to one of the units ("5k", "2cr", "10pct"). */
export const endsInUnit = (token: string, units: readonly string[]): boolean =>
  units.some((u) => token.length > u.length && token.endsWith(u) && isDigits(token[token.length - u.length - 1]));

/** Whether a token is a word with a digit in it ("40k", "5"). */
export const hasDigit = (token: string | undefined): boolean => token !== undefined && says(saidOf([token]), 'number');
