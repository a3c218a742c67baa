/**
 * The words of dates, as data: lexicon/dates.json holds concept entries (a word or phrase → a
 * concept, with its language and an example request that reads to a range). The message is cut
 * into words by one tokenizer, and each kind of concept is found with the one phrase matcher
 * (phrases.ts), longest first, so "aaj tak" is "till today" and never "today" then "tak".
 */
import { z } from 'zod';
import { type PhraseMatch, type PhraseTable, isDigits, matchPhrases, phraseTable } from './phrases.js';
import entries from './lexicon/dates.json' with { type: 'json' };

const REGIONS = ['hi', 'gu', 'mr'] as const;
const FIXED_CONCEPTS = [
  'day:0', 'day:-1', 'day:-2', 'till_now',
  'mod:this', 'mod:last', 'mod:past', 'mod:next',
  'unit:day', 'unit:week', 'unit:month', 'unit:year', 'unit:fortnight', 'unit:quarter', 'unit:weekend',
  'ago', 'todate:week', 'todate:month', 'todate:year', 'todate:quarter',
  'every:day', 'every:week', 'every:month', 'tarikh',
  'range_to', 'since', 'from', 'between', 'onwards',
  // Words of the sentence a date stands in: "kal aur aaj", "hafta kaisa raha", "a good week", "oct ka pnl".
  'and', 'how', 'went', 'judged', 'post:of', 'post:other',
] as const;
type Region = (typeof REGIONS)[number];
/**
 * `r:<this|last|week|month|year>:<region>`: a regional "this" or "last" makes a period only with a
 * unit of its own region's row (Marathi "ya" is this, Hindi "ya" is or).
 */
type RegionalConcept = `r:${'this' | 'last' | 'week' | 'month' | 'year'}:${Region}`;
export type DateConcept = (typeof FIXED_CONCEPTS)[number] | `month:${number}` | `weekday:${number}` | RegionalConcept;

const CONCEPTS: ReadonlySet<string> = new Set<string>([
  ...FIXED_CONCEPTS,
  ...Array.from({ length: 12 }, (_, i) => `month:${i + 1}`),
  ...Array.from({ length: 7 }, (_, i) => `weekday:${i + 1}`),
  ...REGIONS.flatMap((r) => ['this', 'last', 'week', 'month', 'year'].map((k) => `r:${k}:${r}`)),
]);

/** One token of a message: a run of letters, a run of digits, or one mark. */
export interface Token {
  w: string;
  start: number;
  end: number;
  /** Whitespace stands before it. */
  spaced: boolean;
}

const TOKEN = /[a-z]+|\d+|[^\sa-z\d]/g;

/** The lower-cased text's tokens. */
export function tokenize(lower: string): Token[] {
  const out: Token[] = [];
  for (const m of lower.matchAll(TOKEN)) {
    const start = m.index;
    out.push({ w: m[0], start, end: start + m[0].length, spaced: start > 0 && start > (out.at(-1)?.end ?? 0) });
  }
  return out;
}

const isCharIn = (c: string, lo: string, hi: string) => c >= lo && c <= hi;
export { isDigits };
export const isLetters = (w: string | undefined): w is string => !!w && [...w].every((c) => isCharIn(c, 'a', 'z'));
export const isAlnum = (w: string | undefined): boolean => !!w && (isCharIn(w[0]!, '0', '9') || isCharIn(w[0]!, 'a', 'z'));

const entrySchema = z.strictObject({
  phrase: z.string().min(1).max(40).refine((p) => tokenize(p).map((t) => t.w).join(' ') === p, 'a phrase is its words, one space between'),
  concept: z.string().refine((c) => CONCEPTS.has(c), 'an unknown concept').transform((c) => c as DateConcept),
  lang: z.enum(['en', 'hi', 'pa', 'gu', 'mr']),
  example: z.string().min(1).max(120),
});
export type DateEntry = z.infer<typeof entrySchema>;

/** Entries read and checked: a malformed one throws. */
export const readDateLexicon = (data: unknown): readonly DateEntry[] => Object.freeze(z.array(entrySchema).parse(data));

/** The entries, checked once: a malformed line is a startup error, not a silent miss. */
export const DATE_LEXICON: readonly DateEntry[] = readDateLexicon(entries);

/**
 * The kind of a concept: each kind is matched on its own, so that a phrase of one kind ("month to
 * date") never hides a word of another ("this month").
 */
const kindOf = (concept: DateConcept) => concept.split(':')[0]!;

const TABLES: ReadonlyMap<string, PhraseTable<DateEntry>> = (() => {
  const byKind = new Map<string, DateEntry[]>();
  for (const e of DATE_LEXICON) byKind.set(kindOf(e.concept), [...(byKind.get(kindOf(e.concept)) ?? []), e]);
  return new Map([...byKind].map(([k, list]) => [k, phraseTable(list.map((e) => [e.phrase, e] as const))]));
})();

/** The message's tokens and, per kind, the phrases found in them. */
export class Words {
  readonly toks: Token[];
  private readonly found = new Map<string, Map<number, PhraseMatch<DateEntry>>>();

  constructor(readonly text: string) {
    this.toks = tokenize(text);
  }

  w(i: number): string | undefined {
    return this.toks[i]?.w;
  }

  /** The phrase of `concept`'s kind starting at token i, when it stands for a concept `test` accepts. */
  at(i: number, test: DateConcept | ((c: DateConcept) => boolean)): { end: number; entry: DateEntry } | null {
    const kind = typeof test === 'string' ? kindOf(test) : null;
    const kinds = kind ? [kind] : [...TABLES.keys()];
    for (const k of kinds) {
      const m = this.matches(k).get(i);
      const entry = m?.values.find((e) => (typeof test === 'string' ? e.concept === test : test(e.concept)));
      if (m && entry) return { end: m.to, entry };
    }
    return null;
  }

  private matches(kind: string): Map<number, PhraseMatch<DateEntry>> {
    let m = this.found.get(kind);
    if (!m) {
      m = new Map(matchPhrases(TABLES.get(kind)!, this.toks.map((t) => t.w)).map((p) => [p.from, p]));
      this.found.set(kind, m);
    }
    return m;
  }

  /** The index of the first token at or after `pos`. */
  after(pos: number): number {
    const i = this.toks.findIndex((t) => t.start >= pos);
    return i < 0 ? this.toks.length : i;
  }

  /** The index of the last token ending at or before `pos` (−1 when none). */
  before(pos: number): number {
    let i = -1;
    this.toks.forEach((t, k) => { if (t.end <= pos) i = k; });
    return i;
  }
}
