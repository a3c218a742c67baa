/**
 * The trade's phrases folded to one canonical word before anything else reads the text ("sub
 * agents" is subagents, "o/s" outstanding, "who's in the red" who outstanding), so every trigger of
 * the planner is written once. The phrases are data, lexicon/synonyms.json: a word or phrase, what
 * it means, its language and an example request, and where a phrase means that only in some
 * company, the plain words that company is (`withAnyAfter`, `before`, ...). The one phrase matcher
 * reads them, longest first; a new wording is a new entry, never a pattern in code.
 */
import { z } from 'zod';
import { AMOUNT_WORDS } from '../../../shared/parse/amount.js';
import { lexiconLang } from './lexicon.js';
import { type PhraseTable, isLetters, isWord, matchPhrases, startsWithDigit, phraseTable, tokenSpans, tokensOf, wordsOf } from '../../../shared/parse/phrases.js';
import entries from './lexicon/synonyms.json' with { type: 'json' };

/**
 * Words a phrase may stand beside: folded words, or a kind of word — "#number" (a word that starts
 * with a digit: "10th", "10k"; before a phrase, one that ends with one too: "nov15"), "#letter" (a
 * word whose letter touches the phrase), "#digits" (a number and nothing else: "15"), "#amount" (a
 * number word: "paanch", "lakh").
 */
const phrases = z.array(z.string().min(1).max(60)).min(1);

const entrySchema = z.strictObject({
  /** The words as the planner has folded them, one space apart; a mark ("/", "&", "-") is a word of its own. */
  phrase: z.string().min(1).max(80),
  /** What the phrase is read as; empty when it only drops out ("for betting" says why, asks nothing). */
  means: z.string().max(60),
  lang: lexiconLang,
  example: z.string().min(1).max(200),
  /** Only as the message's first word ("je india jitt gaya": Punjabi's "if"). */
  first: z.literal(true).optional(),
  /** Only as its last word, marks after it aside ("pnl ta dao": Bengali's "give"). */
  last: z.literal(true).optional(),
  /** Only in a message of this language, by its other words ("sneha te anita": Punjabi's "and"). */
  messageIn: lexiconLang.optional(),
  /** Never in a message of this language. */
  messageNotIn: lexiconLang.optional(),
  /** Decided on the words as typed, before slang and slips are read: "tk" after a date is "tak" (till), not the slang for take. */
  asTyped: z.literal(true).optional(),
  /** Read only when the text names no date otherwise: a period said bare, the ledger's way ("pl wk", "comm month"), is the current one. */
  barePeriod: z.literal(true).optional(),
  /** Only right before one of these ("lagai kar do" backs a side; "lagai" alone is the bets). */
  before: phrases.optional(),
  /** How many words on the `before`, `after` or `notAfter` words may stand ("sabse badi 3 bets"): 1 when not said. */
  within: z.number().int().min(1).max(3).optional(),
  /** Never right before one of these ("my cut" is the commission, "cut kar do" an order). */
  notBefore: phrases.optional(),
  /** Only right after one of these ("against her account" after "record it" is part of the order). */
  after: phrases.optional(),
  /** Never right after one of these ("naam ki players ki list" is no downline). */
  notAfter: phrases.optional(),
  /** Only with one of these somewhere earlier in the message ("market mein kitna pada hai"). */
  withAnyBefore: phrases.optional(),
  /** Only with one of these somewhere later in the message ("kitna atka hai ind aus match pe"). */
  withAnyAfter: phrases.optional(),
  /** Never with one of these earlier in the message ("neha ka comm kitna bana" asks the commission). */
  withoutAnyBefore: phrases.optional(),
  /** Never with one of these later in the message. */
  withoutAnyAfter: phrases.optional(),
});
export type SynonymEntry = z.infer<typeof entrySchema>;

/** Entries checked: a phrase is its folded words and marks, never a pattern; a malformed line throws. */
export function checkedSynonyms(data: unknown): readonly SynonymEntry[] {
  const list = z.array(entrySchema).parse(data);
  for (const e of list) {
    const folded = tokensOf(e.phrase).filter((t) => t !== '.').join(' ');
    if (folded !== e.phrase || e.phrase !== e.phrase.toLowerCase()) throw new Error(`A synonym's phrase is not its folded words: "${e.phrase}".`);
  }
  return Object.freeze(list);
}

/** The entries, checked once: a malformed line is a startup error, not a silent miss. */
export const SYNONYM_LEXICON: readonly SynonymEntry[] = checkedSynonyms(entries);

const TABLE: PhraseTable<SynonymEntry> = phraseTable(SYNONYM_LEXICON.map((e) => [e.phrase, e] as const));

/** Whether a word is the item, a word or a kind of word, on that side of the phrase (its first letter touches a phrase before it). */
function isItem(word: string | undefined, item: string, side: 'after' | 'before'): boolean {
  if (word === undefined) return false;
  if (item === '#amount') return AMOUNT_WORDS.has(word) && isLetters(word) && word.length >= 2;
  if (item === '#number') return side === 'after' ? startsWithDigit(word) : startsWithDigit(word) || startsWithDigit(word.slice(-1));
  if (item === '#digits') return word.length > 0 && [...word].every((c) => startsWithDigit(c));
  if (item === '#letter') return isWord(word) && isLetters(side === 'after' ? word[0] : word.at(-1));
  return word === item;
}
const startsAt = (words: readonly string[], at: number, phrase: string): boolean =>
  phrase.split(' ').every((w, k) => isItem(words[at + k], w, 'after'));
const endsAt = (words: readonly string[], at: number, phrase: string): boolean => {
  const ws = phrase.split(' ');
  return at - ws.length >= 0 && ws.every((w, k) => isItem(words[at - ws.length + k], w, 'before'));
};
const CLOSING_MARKS: ReadonlySet<string> = new Set(['?', '.', '!']);
/** Whether one of `list` stands wholly inside words [from, to). */
const anyWithin = (words: readonly string[], from: number, to: number, list: readonly string[]): boolean =>
  list.some((p) => {
    const n = p.split(' ').length;
    for (let i = from; i + n <= to; i++) if (startsAt(words, i, p)) return true;
    return false;
  });

function fits(e: SynonymEntry, words: readonly string[], from: number, to: number, langs: ReadonlySet<string> = NO_LANGS): boolean {
  if (e.first && from !== 0) return false;
  if (e.last && !words.slice(to).every((w) => CLOSING_MARKS.has(w))) return false;
  if (e.messageIn && !langs.has(e.messageIn)) return false;
  if (e.messageNotIn && langs.has(e.messageNotIn)) return false;
  if (e.before) {
    const reach = e.within ?? 1;
    let found = false;
    for (let k = 0; k < reach && !found; k++) found = e.before.some((p) => startsAt(words, to + k, p));
    if (!found) return false;
  }
  if (e.notBefore?.some((p) => startsAt(words, to, p))) return false;
  if (e.after && ![...Array(e.within ?? 1).keys()].some((k) => e.after!.some((p) => endsAt(words, from - k, p)))) return false;
  if (e.notAfter?.some((p) => [...Array(e.within ?? 1).keys()].some((k) => endsAt(words, from - k, p)))) return false;
  if (e.withAnyBefore && !anyWithin(words, 0, from, e.withAnyBefore)) return false;
  if (e.withAnyAfter && !anyWithin(words, to, words.length, e.withAnyAfter)) return false;
  if (e.withoutAnyBefore && anyWithin(words, 0, from, e.withoutAnyBefore)) return false;
  if (e.withoutAnyAfter && anyWithin(words, to, words.length, e.withoutAnyAfter)) return false;
  return true;
}

const NO_LANGS: ReadonlySet<string> = new Set();

/**
 * A word that means another only beside certain words, as lexicon/in-context.json has it ("ee
 * vaaram" is this week, "sneha di cmsn" her commission, "1 November te 10 November" a range): each
 * word of the text decided once, on the words around it as typed, never on what an earlier
 * decision wrote. `langs` are the languages the message is in by its other words.
 */
export function readInContext(table: PhraseTable<SynonymEntry>, text: string, langs: ReadonlySet<string>): string {
  const spans = tokenSpans(text);
  const words = spans.map((s) => s.token);
  let out = '';
  let at = 0;
  for (const m of matchPhrases(table, words, (e, from, to) => fits(e, words, from, to, langs))) {
    out += `${text.slice(at, spans[m.from]!.start)}${m.values[0]!.means}`;
    at = spans[m.to - 1]!.end;
  }
  return out + text.slice(at);
}

/** The one-word meanings `readInContext` would give, by the index of the word in `words` ("top for players": 1 → "4"). */
export function inContextWords(table: PhraseTable<SynonymEntry>, words: readonly string[], langs: ReadonlySet<string>): ReadonlyMap<number, string> {
  const out = new Map<number, string>();
  for (const m of matchPhrases(table, words, (e, from, to) => fits(e, words, from, to, langs))) {
    if (m.to - m.from === 1 && wordsOf(m.values[0]!.means).length === 1) out.set(m.from, m.values[0]!.means);
  }
  return out;
}

/**
 * "max kitna udhaar utha sakta hai", "kitna aur khel sakta hai": how far a player may go, the credit
 * limit. The word between is any word and is dropped, so this is no phrase; it is read before the
 * lexicon, whose "khel sakta" alone is the room left.
 */
const HOW_FAR: readonly [RegExp, string] = [/\b(?:max(?:imum)?\s+)?(kitna|kitni)\s+(?:\p{L}+\s+)?(?:utha|uthaa|khel)\s+(?:sakta|sakti|sakte|skta|skte)\b/gu, ' $1 creditlimit '];

/**
 * What cannot be a phrase: a name or a count carried from where it was typed into what the phrase
 * means ("the other rahul yaar, verma wala" is rahul verma, "compare karan with sneha" karan and
 * sneha, "top5" top 5). Each reads after the lexicon, in this order: two of them read what an
 * earlier one wrote ("exposure on india" and what follows it).
 */
const CARRIED: ReadonlyArray<readonly [RegExp, string | ((...groups: string[]) => string)]> = [
  // "no the other rahul yaar, verma wala": the one of that first name with this surname.
  [/\b(?:the\s+other|other|dusra|doosra|dusre|doosre|wo|woh)\s+(\p{L}+)(?:\s+(?:yaar|yar|bhai|na|ji))?[\s,]+(\p{L}+)\s+(?:wala|wali|wale|vala|vali|vale)\b/gu, ' $1 $2 '],
  // "top5 mkts": a count typed onto its word.
  [/\btop(\d{1,3})\b/g, ' top $1 '],
  // "what's left on sneha's line": the room left on her credit.
  [/\b(?:left|remaining|available|bacha|baaki)\s+(?:on|in)\s+(\p{L}+)\s+(?:line|credit)\b/gu, ' $1 creditlimit '],
  // "the most Karan can win on any single bet": the per-click win, the player's name kept.
  [/\b(?:the\s+)?(?:most|max(?:imum)?)\s+(\p{L}+\s+)?(?:can\s+|could\s+)?win\s+(?:on|per|in|from)\s+(?:a\s+|any\s+|one\s+|each\s+|every\s+)?(?:single\s+)?bet\b/gu, ' $1 perclickwin '],
  // "how bad is it for me if australia wins": what rides on that side, the exposure on its match.
  [/\b(?:if|agar)\s+((?!(?:i|we|you|he|she|they|it|that|this|main|hum|mai)\b)\p{L}+(?:\s+\p{L}+)?)\s+(?:wins?|won|jeet(?:a|e|ega|egi|enge|ta|te|ti)?)\b/gu, ' exposure on $1 '],
  // "agar india jeet gaya to kitna dena padega": what the win would cost is that exposure, nothing owed.
  [/\b(exposure\s+on\s+\p{L}+(?:\s+\p{L}+)?)\s+(?:(?:gaya|gayi|gaye|jaye|jaaye|jata|jati|jaata)\s+)?(?:(?:to|toh|then)\s+)?(?:mujhe\s+|mera\s+|i\s+)?kitna\s+(?:payable|outstanding|loss|lose|jayega|jaega)(?:\s+(?:padega|padegi|hoga|hogi|jayega))?\b/gu, ' $1 kitna '],
  // "how are we getting on", "how did Karan get on": how it went, the result.
  [/\bhow\b(.{0,40}?)\b(?:getting|get|got|gotten)\s+on\b/g, ' how $1 pnl '],
  // "don't let Karan win more than 20k on a single bet": his per-click win set.
  [/\b(?:do\s+not|dont|never)\s+let\s+(\p{L}+)\s+win\s+more\s+than\s+(\S+)\s+(?:on|per|in)\s+(?:a\s+|any\s+|one\s+|each\s+|every\s+)?(?:single\s+)?bet\b/gu, ' set $1 perclickwin to $2 '],
  // "how much room does Sneha have left to bet": the room is what is left under her limit (the
  // words between, her name among them, stay; "to bet" is the room's, not a request for bets).
  [/\b(?:room|space|margin)\b((?:\s+\S+){0,5}?)\s+(?:(?:left|remaining|bacha|bachi|baki)(?:\s+(?:to|for)\s+(?:bet|betting|bets|play|playing))?|(?:to|for)\s+(?:bet|betting|bets|play|playing))\b/g, ' headroom$1 '],
  // "how much more can Pooja bet", "can Irfan still place bets?": the room left under the limit, not the bets placed.
  [/\b(?:(?:how\s+much\s+)?more\s+can\s+(\p{L}+)\s+(?:still\s+)?(?:bet|play|punt|wager|lagaa?|khel)|(can|could)\s+(\p{L}+)\s+(?:still\s+)?(?:place|put|make|play)\s+(?:more\s+|any\s+(?:more\s+)?)?bets?)\b/gu,
    (_m, more?: string, can?: string, who?: string) => (more !== undefined ? ` ${more} headroom ` : ` ${can} ${who} headroom `)],
  // "compare karan with sneha": the same question for each of them, a list like "karan and sneha".
  [/\b(?:compare|comparing|comparison\s+of)\s+(\p{L}+(?:\s+\p{L}+)?)\s+(?:with|to|against|and|aur|se)\s+/gu, ' $1 and '],
];

/** The text with the lexicon's phrases read as what they mean, then the carried names and counts. */
export function foldSynonyms(typed: string): string {
  const text = typed.replace(...HOW_FAR);
  // A full stop is no word: "min. stake" is the minimum stake as "min stake" is.
  const spans = tokenSpans(text).filter((t) => t.token !== '.').map((t) => ({ word: t.token, start: t.start, end: t.end }));
  const words = spans.map((s) => s.word);
  let out = '';
  let at = 0;
  for (const m of matchPhrases(TABLE, words, (e, from, to) => fits(e, words, from, to))) {
    out += `${text.slice(at, spans[m.from]!.start)} ${m.values[0]!.means} `;
    at = spans[m.to - 1]!.end;
  }
  out += text.slice(at);
  for (const [pattern, by] of CARRIED) out = typeof by === 'string' ? out.replace(pattern, by) : out.replace(pattern, by as (...a: string[]) => string);
  return out;
}
