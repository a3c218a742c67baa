/**
 * The words of what a question asks of rows, as data: lexicon/rows.json holds concept entries
 * (a word or phrase → a concept, with its language and an example request). One tokenizer and one
 * matcher read every entry; a new wording is a new line in the data, never a pattern in code.
 */
import { z } from 'zod';
import { findAmounts, numberWords } from '../../../shared/parse/amount.js';
import { type PhraseTable, matchPhrases, phraseTable, wordsOf } from '../../../shared/parse/phrases.js';
import { COLUMN_CONCEPTS, GROUP_KEYS } from '../../tools/rows.js';
import { fold } from '../planner/grammar.js';
import entries from './lexicon/rows.json' with { type: 'json' };

export { wordsOf };


export const CONCEPTS = [
  'max', 'min', 'gt', 'gte', 'lt', 'lte', 'gt_after', 'gte_after', 'lt_after', 'lte_after',
  /** "between 5k and 20k" (the amounts follow), "5k aur 20k ke beech" (they precede); "and", "aur", "to" join them. */
  'between', 'between_after', 'range_and',
  'count', 'sum', 'avg', 'desc', 'asc', 'order', 'rank_top', 'rank_bottom',
  ...COLUMN_CONCEPTS.map((c) => `col:${c}` as const),
  'loser', 'winner', 'debtor', 'creditor', 'square', 'net', 'role:player', 'role:agent', 'role:account', 'under', 'under_after',
  /** "players of Arjun" (the sub-agent follows), "Arjun ke players" (the sub-agent before): whose accounts. */
  'of_whom', 'whose_after',
  /**
   * Hindi's "dena" (to give), which runs either way: "giver_asked" ("kaun", "kisne") asks who gives,
   * "receiver_named" ("kisko", "Vikram ko") says who is given to.
   */
  'give_hi', 'giver_asked', 'receiver_named',
  'noun:bet', 'noun:match', 'noun:settlement', 'line',
  /** A word of how questions are asked ("jinka", "kaun"): it means nothing here, but it is never a name. */
  'filler',
  /** The name of a limit ("min stake", "max win"): its "min" and "max" are no superlative. */
  'limit_name',
  /** "per match", "day wise", "har agent": the rows' figures asked group by group. */
  ...GROUP_KEYS.map((g) => `group:${g}` as const),
  /** "which match", "kis din": the group a superlative picks one of; the rows are grouped only when one is asked for. */
  ...GROUP_KEYS.map((g) => `pick:${g}` as const),
  /** "most", "fewest": a superlative of quantity, which counts the rows when their noun follows ("the most bets"). */
  'many',
  /** "vs", "ke muqable" between two periods; "se compare" after the second. */
  'versus', 'versus_after',
  /** "compare … with …": "with", "and", "to" join two periods only after a word of comparing. */
  'compare', 'versus_compared',
] as const;
export type Concept = (typeof CONCEPTS)[number];

const entrySchema = z.strictObject({
  phrase: z.string().min(1).max(60),
  concept: z.enum(CONCEPTS),
  lang: z.enum(['en', 'hi', 'mr']),
  example: z.string().min(1).max(200),
});
export type LexiconEntry = z.infer<typeof entrySchema>;

/** The entries, checked once: a malformed line is a startup error, not a silent miss. */
export const ROW_LEXICON: readonly LexiconEntry[] = Object.freeze(z.array(entrySchema).parse(entries));

/** A word of the message, or an amount ("10k", "1.5 lakh") read as one token. */
export interface WordToken {
  /** The word folded as the planner folds it ("Sneha's" → "sneha"); an amount's raw text folded. */
  word: string;
  /** Where it stands in the typed text: [start, end). */
  start: number;
  end: number;
  /** The amount in paisa, when the token is one. */
  paisa?: number;
  /** A whole number as typed ("5"): a row count when a rank word stands before it. */
  whole?: number;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}&'’.-]*/gu;

/** The typed text's words, each amount one token. */
export function tokenize(text: string): WordToken[] {
  const amounts = findAmounts(text).filter((a) => a.paisa !== null && !a.negative);
  const tokens: WordToken[] = [];
  for (const a of amounts) {
    const digits = a.raw.trim();
    tokens.push({
      word: fold(digits), start: a.start, end: a.end, paisa: a.paisa!,
      ...(isSmallWhole(digits) && { whole: Number(digits) }),
    });
  }
  for (const m of text.matchAll(WORD)) {
    const start = m.index;
    const end = start + withoutTrailingMarks(m[0]).length;
    if (amounts.some((a) => start < a.end && end > a.start)) continue;
    const word = fold(text.slice(start, end)).trim();
    const count = COUNT_WORDS[word];
    if (word !== '') tokens.push({ word, start, end, ...(count !== undefined && { whole: count }) });
  }
  return tokens.sort((a, b) => a.start - b.start);
}

/** A row count said in words ("top five", "which three players"); "one" is no count of rows. */
const COUNT_WORDS: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(numberWords(false)).filter(([, n]) => n >= 2 && n <= 100));

/** "5", "10", "250": a number typed as a row count could be, not "10k" or "5.5". */
function isSmallWhole(typed: string): boolean {
  const n = Number(typed);
  return typed.length <= 4 && Number.isInteger(n) && String(n) === typed;
}

/** "done." and "Rahul's-" end at their last letter or digit. */
function withoutTrailingMarks(word: string): string {
  let end = word.length;
  while (end > 0 && ".'’-".includes(word[end - 1]!)) end--;
  return word.slice(0, end);
}

/** Whether the token was typed with a capital: the planner's own sign of a name. */
export function typedCapitalised(text: string, token: WordToken): boolean {
  const first = text.charAt(token.start);
  return first !== first.toLowerCase();
}

/** A phrase of the lexicon found in the message: its concepts and the tokens [from, to) it covers. */
export interface ConceptMatch {
  concepts: readonly Concept[];
  from: number;
  to: number;
}

const TABLE: PhraseTable<Concept> = phraseTable(ROW_LEXICON.map((e) => [fold(e.phrase), e.concept] as const));
/** Every word of the lexicon's phrases: words of the question, never taken for a name. */
export const ROW_WORDS: ReadonlySet<string> = TABLE.words;

/** The lexicon's phrases in the tokens (amounts are never part of a phrase). */
export function matchConcepts(tokens: readonly WordToken[]): ConceptMatch[] {
  return matchPhrases(TABLE, tokens.map((t) => (t.paisa === undefined ? t.word : null)))
    .map((m) => ({ concepts: m.values, from: m.from, to: m.to }));
}
