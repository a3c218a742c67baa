/**
 * The rule planner's reading of a message: the trade's synonyms folded to one word each, the
 * words the planner understands, and what is left over — the names of players and fixtures,
 * which only the search tools can tell apart. docs/intent-map.md lists all of it.
 */
import { AMOUNT_WORDS, type FoundAmount, findAmounts, numberWords } from '../../../shared/parse/amount.js';
import { distance } from 'fastest-levenshtein';
import { isTypoOf } from '../../../shared/fuzzy.js';
import { type FoundRange, findDateRange } from '../../../shared/parse/dates.js';
import type { IsoDate } from '../../../shared/dates.js';
import { COMMON_WORD_SLIPS, EVERYDAY, NAME_LIKE, PLAIN_WORDS, PUNJABI_WORDS, REGIONAL_WORDS, SLANG, STOPWORDS, TEAM_NAMES, WORLD } from './plain-words.js';
import { holds } from './lexicon.js';
import { type SynonymEntry, checkedSynonyms, foldSynonyms, inContextWords, readInContext } from './synonyms.js';
import inContextEntries from './lexicon/in-context.json' with { type: 'json' };
import { type PhraseTable, isLetters, isWord, phraseTable, startsWithDigit, tokenSpans, tokensOf } from '../../../shared/parse/phrases.js';

export { EVERYDAY, SLANG, WORLD };

/** A word of grammar, chat or pronoun: never the slip or the correction of a name. */
export const isGrammarWord = (w: string) => STOPWORDS.has(w) || EVERYDAY.has(w) || PRONOUNS.has(w);

/**
 * The shape of an everyday English word the list above does not hold ("interesting", "remaining",
 * "immediately"): abstract nouns, adjectives and adverbs by their endings, six letters or more.
 * Names rarely end so; one that does is still a name when the user marks it (a capital, "'s", "ka")
 * or puts it after a preposition ("balance for kipling").
 */
const EVERYDAY_ENDINGS = ['ness', 'ment', 'ments', 'tion', 'tions', 'sion', 'sions', 'able', 'ible', 'ful', 'less', 'ous', 'ing', 'ings', 'ally', 'ely', 'ically', 'wise'];
const hasEverydayShape = (w: string) => w.length >= 6 && isLetters(w) && EVERYDAY_ENDINGS.some((end) => w.endsWith(end));

/** A row count said in words ("the ten busiest markets", "top five"); "one" is no ranking. */
const COUNT_WORDS = Object.fromEntries(Object.entries(numberWords(false)).filter(([, n]) => n >= 2));
const COUNT_WORD = `(?:${Object.keys(COUNT_WORDS).join('|')})`;
const ANY_COUNT_WORDS: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(numberWords(true)).filter(([w, n]) => n >= 2 && isLetters(w)));
const HINDI_COUNT_WORD = `(?:${Object.keys(ANY_COUNT_WORDS).join('|')})`;

/**
 * "karanka take", "nehaki bets": a name typed onto Hindi's "of". Only a word no dictionary has,
 * whose stem is a name's length; a name that ends so ("radhika") keeps its start, which the
 * name search matches as a prefix.
 */
function unglue(folded: string): string {
  const spans = tokenSpans(folded);
  return rewritten(folded, spans, (word, k) => {
    const stem = word.slice(0, -2);
    const of = word.slice(-2);
    if (word.length < 6 || !isLetters(word) || !GLUED_OF.has(of) || GLUED_OF.has(stem.slice(-2)) || OWNED_NEXT.has(spans[k + 1]?.token ?? '')) return null;
    const plain = PLAIN_WORDS.has(word) || LEXICON.has(word) || SLANG[word] !== undefined || EVERYDAY.has(word) || STOPWORDS.has(word) || PLAIN_WORDS.has(stem) || LEXICON.has(stem);
    return plain ? null : `${stem} ${of}`;
  });
}
/** Hindi's "of" as it is typed onto a name, and the words after which the glued form is a word of its own ("karanka ke"). */
const GLUED_OF: ReadonlySet<string> = new Set(['ka', 'ki', 'ke', 'ko']);
const OWNED_NEXT: ReadonlySet<string> = new Set(['ka', 'ki', 'ke', 'ko', 'ne', 'se', 'pe', 'nu', 'da', 'di', 'de']);

/** Whether words are two teams and nothing else: "madrid barca", "new zealand india". */
function isTeamPair(text: string): boolean {
  const words = text.split(' ');
  let units = 0;
  for (let i = 0; i < words.length; units++) {
    if (i + 1 < words.length && TEAM_NAMES.has(`${words[i]} ${words[i + 1]}`)) i += 2;
    else if (TEAM_NAMES.has(words[i]!)) i += 1;
    else return false;
  }
  return units === 2;
}

/** Words of money stuck or riding. */
const STUCK: ReadonlySet<string> = new Set(['stuck', 'atka', 'atke', 'atki', 'phansa', 'phase', 'phasa', 'fasa', 'fasaa', 'fansa', 'riding']);

/** Sports the exchange lists: a sport named is a match of it ("the tennis"), never a player's name. */
export const SPORTS: ReadonlySet<string> = new Set(['cricket', 'tennis', 'football', 'soccer']);

/**
 * Words the planner reads that belong to no one tool (fixtures, markets, the assistant's own); each
 * tool's planning adds its own vocabulary (src/main/tools). None of them is ever part of a name.
 */
export const LEXICON: ReadonlySet<string> = new Set([
  'market', 'markets', 'matches', 'fixtures', 'events', 'games', 'fixture', 'match', 'game', 'event',
  'vs', 'v', 'versus', 'against',
  'matchodds', 'overunder', 'goals', 'runs', 'total', 'odds',
  'capabilities', 'help',
  'yesterday',
]);

export const PRONOUNS = new Set(['him', 'his', 'her', 'hers', 'he', 'she', 'them', 'their', 'they', 'uska', 'uske', 'uski', 'usko', 'iska', 'iske', 'iski', 'isko', 'unka', 'unke', 'unki', 'unko', 'usne', 'isne', 'unhone', 'inhone', 'usey', 'isey']);

export interface Token {
  word: string;
  index: number;
}

export interface Reading {
  /** The message folded: lower case, accents off, synonyms canonical, punctuation spaced. */
  folded: string;
  /** Read only: a reading is kept and handed to every later read of the same text. */
  words: ReadonlySet<string>;
  tokens: Token[];
  range: FoundRange | null;
  /** Amounts that are not part of a date, a count ("top 5") or a duration ("last 7 days"). */
  amounts: FoundAmount[];
  /** "top 5", "last 10 bets": a requested row count. */
  count: number | null;
  /** Fixture named by its teams ("India vs Australia", "MI v CSK", "the India match"). */
  fixture: string | null;
  /** A market named in the text ("match odds", "over/under 2.5 goals"). */
  market: string | null;
  /** Runs of words the planner does not know, in order: names. */
  names: Array<{ text: string; before: string | null }>;
  pronounPlayer: boolean;
  pronounFixture: boolean;
}

/** "I'd", "we'll", "they're": the pronoun's contraction is a word of its own, not one word that could be a name ("id"). */
const CONTRACTED: Readonly<Record<string, string>> = { d: 'would', ll: 'will', m: 'am', ve: 'have', re: 'are' };
const CONTRACTS: ReadonlySet<string> = new Set(['i', 'you', 'we', 'they', 'he', 'she', 'it', 'that', 'there', 'who', 'what']);
/** "don't", "can't", "won't": the verb and "not". */
const NOT_VERB: Readonly<Record<string, string>> = { ca: 'can', wo: 'will' };
const APOSTROPHES: ReadonlySet<string> = new Set(["'", '’', '`']);
const MARKS = /\p{M}+/gu;

/** Lower case without accents; apostrophes and possessive 's dropped ("Sam O'Brien's" → "sam obrien"). */
export function fold(text: string): string {
  const lower = text.normalize('NFKD').replace(MARKS, '').toLowerCase();
  const spans = tokenSpans(lower);
  let out = '';
  let at = 0;
  for (let k = 0; k < spans.length; k++) {
    const mark = spans[k]!;
    if (!APOSTROPHES.has(mark.token)) continue;
    const prev = spans[k - 1]?.end === mark.start && isWord(spans[k - 1]!.token) ? spans[k - 1]! : null;
    const next = spans[k + 1]?.start === mark.end && isWord(spans[k + 1]!.token) ? spans[k + 1]! : null;
    const tail = next?.token;
    if (prev && tail !== undefined && CONTRACTS.has(prev.token) && CONTRACTED[tail] !== undefined) {
      out += `${lower.slice(at, prev.end)} ${CONTRACTED[tail]}`;
      at = next!.end;
      k++;
    } else if (prev && tail === 't' && prev.token.length >= 2 && prev.token.endsWith('n') && isLetters(prev.token)) {
      const verb = prev.token.slice(0, -1);
      out += `${lower.slice(at, prev.start)}${NOT_VERB[verb] ?? verb} not`;
      at = next!.end;
      k++;
    } else if (tail === 's') {
      out += lower.slice(at, mark.start);
      at = next!.end;
      k++;
    } else {
      out += lower.slice(at, mark.start);
      at = mark.end;
    }
  }
  return out + lower.slice(at);
}

/** Words of dates, so "octobr" and "yestarday" are read as dates. */
const DATE_WORDS = ['january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'yesterday', 'today', 'week', 'weeks', 'month', 'months', 'fortnight'];

const DO_VERB_TAIL: ReadonlySet<string> = new Set(['dena', 'dene', 'deni', 'lena', 'lene', 'leni']);

/**
 * Slang to its domain word, and a misspelt domain word ("comission", "exposre", "setlement") to
 * the word, when exactly one known word is that close. Words typed with a capital are left alone:
 * they are names.
 */
function correctWords(folded: string, original: string, known: ReadonlySet<string>): string {
  const capitalised = new Set((original.match(/\p{Lu}[\p{L}'’]*/gu) ?? []).map(fold));
  const spans = tokenSpans(folded);
  const ownedAt = (k: number, particles: ReadonlySet<string>) => particles.has(spans[k + 1]?.token ?? '');
  const { targets, memo } = correctionsFor(known);
  const correct = (word: string, k: number): string => {
    // "kar dena chahiye" (should do it): "dena" after "kar" is the verb's, not money given or owed.
    if (DO_VERB_TAIL.has(word) && spans[k - 1]?.token === 'kar') return word;
    const slang = SLANG[word];
    if (slang) return slang;
    // "fullyy", "mostt", "abhii", "takee": a last letter held down is the word without it.
    const held = word.length >= 2 && word.at(-1) === word.at(-2) ? word.slice(0, -1) : null;
    if (held && !isPlainOrKnown(word, known) && isPlainOrKnown(held, known)) return SLANG[held] ?? held;
    // "openbets", "thismnth", "pnltoday": two words of the desk typed as one.
    const apart = capitalised.has(word) ? null : runTogether(word, known);
    if (apart) return apart;
    // A word of the dictionary is that word, not a slip of a domain word ("boss" is no "loss").
    if (word.length < 4 || known.has(word) || STOPWORDS.has(word) || EVERYDAY.has(word) || PRONOUNS.has(word) || AMOUNT_WORDS.has(word) || PLAIN_WORDS.has(word) || capitalised.has(word)) return word;
    let corrected = memo.get(word);
    if (corrected === undefined) {
      corrected = correctWord(word, targets);
      if (memo.size < 10_000) memo.set(word, corrected);
    }
    // A short word that something belongs to ("karn ka limit") is likely a name, and a short name is
    // as near to some grammar or domain word ("kaun", "earn") as to its own spelling: it is corrected
    // only when letters were dropped from the word ("limt ka matlab").
    if (word.length <= 5 && ownedAt(k, OWNED_BY) && !(corrected.length > word.length && within(word, corrected))) return word;
    // "could you posibly show…", "plese": a common word slipped, unless something belongs to it ("sumit ka").
    if (corrected === word && !ownedAt(k, OWNED_BY_ANY)) return COMMON_WORD_SLIPS.get(word) ?? word;
    // A short word one letter off a grammar word ("karn" and "kaun") is as likely a name spelt short:
    // it is that word only when letters were dropped from it ("krna" is karna) or swapped ("kitan").
    if (word.length <= 5 && corrected !== word && (isGrammarWord(corrected) || REGIONAL_WORDS.has(corrected)) && !within(word, corrected)
      && [...word].sort().join('') !== [...corrected].sort().join('')) return word;
    return corrected;
  };
  return rewritten(folded, spans, (t, k) => (isLetters(t) && t.length >= 1 ? correct(t, k) : null));
}

/** The words after which a word is owned ("karn ka limit"); any length of owner also takes Gujarati's nu/na/ni/no. */
const OWNED_BY: ReadonlySet<string> = new Set(['ka', 'ke', 'ki', 'ko', 'ne', 'se', 'pe', 'wala', 'wale', 'wali']);
const OWNED_BY_ANY: ReadonlySet<string> = new Set([...OWNED_BY, 'nu', 'na', 'ni', 'no']);

/** The text with each token the decision names written as that, the rest as typed: one pass over the tokens. */
function rewritten(text: string, spans: ReadonlyArray<{ token: string; start: number; end: number }>, decide: (token: string, k: number) => string | null): string {
  let out = '';
  let at = 0;
  spans.forEach((t, k) => {
    const word = decide(t.token, k);
    if (word === null || word === t.token) return;
    out += text.slice(at, t.start) + word;
    at = t.end;
  });
  return out + text.slice(at);
}

/** "karan karan bal bal": a word typed twice in a row is said once. */
function saidOnce(text: string): string {
  const spans = tokenSpans(text);
  let out = '';
  let at = 0;
  for (let k = 1; k < spans.length; k++) {
    const [prev, t] = [spans[k - 1]!, spans[k]!];
    if (t.token.length >= 2 && isLetters(t.token) && prev.token === t.token && isSpaceBetween(text, prev.end, t.start)) {
      out += text.slice(at, prev.end);
      at = t.end;
    }
  }
  return out + text.slice(at);
}

/** Capitals spelt out one by one, as speech-to-text writes them ("M I versus C S K"): one word. */
function joinSpelledCapitals(typed: string): string {
  const spans = tokenSpans(typed);
  const isCapital = (t: string | undefined) => t !== undefined && t.length === 1 && t >= 'A' && t <= 'Z';
  const joined = new Set<number>();
  for (let k = 1; k < spans.length; k++) if (isCapital(spans[k - 1]!.token) && isCapital(spans[k]!.token)) joined.add(k);
  let out = '';
  let at = 0;
  for (const k of joined) {
    out += typed.slice(at, spans[k - 1]!.end);
    at = spans[k]!.start;
  }
  return out + typed.slice(at);
}

const isSpaceBetween = (text: string, from: number, to: number) => to > from && text.slice(from, to).trim() === '';

/** Words a run-together pair may be made of besides the desk's own: periods and their pointers. */
const RUN_TOGETHER_PARTS: ReadonlySet<string> = new Set(['this', 'last', 'next', 'my', 'all', 'top', 'week', 'month', 'today', 'yesterday', 'day', 'days', 'total', 'aaj', 'kal']);
const runTogetherPart = (part: string, known: ReadonlySet<string>): string | null => {
  const word = SLANG[part] ?? part;
  return known.has(word) || RUN_TOGETHER_PARTS.has(word) ? word : null;
};
/**
 * A word that is no word but two of the desk's words run together ("openbets" is "open bets"):
 * only words of the desk and periods count as halves, never plain words, so a name ("farhan",
 * "far" and "han") is never cut in two.
 */
function runTogether(word: string, known: ReadonlySet<string>): string | null {
  if (word.length < 6 || isPlainOrKnown(word, known)) return null;
  for (let at = 3; at <= word.length - 3; at++) {
    const head = runTogetherPart(word.slice(0, at), known);
    const tail = head && runTogetherPart(word.slice(at), known);
    if (head && tail) return `${head} ${tail}`;
  }
  return null;
}

const isPlainOrKnown = (word: string, known: ReadonlySet<string>) => known.has(word) || STOPWORDS.has(word) || EVERYDAY.has(word) || PRONOUNS.has(word) || PLAIN_WORDS.has(word) || SLANG[word] !== undefined;

/**
 * The words a typo may be corrected to, per set of known words, and the corrections made so far:
 * a correction is a pure function of the word and the set, so it is worked out once.
 */
const CORRECTIONS = new WeakMap<ReadonlySet<string>, { targets: readonly string[]; memo: Map<string, string> }>();
function correctionsFor(known: ReadonlySet<string>): { targets: readonly string[]; memo: Map<string, string> } {
  let entry = CORRECTIONS.get(known);
  if (!entry) {
    // Short date words are left out: "marc" or "juli" is more likely a name than a month.
    const targets = [...[...known].filter((w) => w.length >= 4), ...DATE_WORDS.filter((w) => w.length >= 6)].filter(isLetters);
    entry = { targets, memo: new Map() };
    CORRECTIONS.set(known, entry);
  }
  return entry;
}

/** One lower-case word the planner does not know: the word it is a slip of, or itself. */
function correctWord(word: string, targets: readonly string[]): string {
  // A grammar word with two letters swapped ("dose", "thsi") is that word: a swap is the commonest
  // slip, and one that happens to spell a name is rare. Any other distance to a grammar word is a name.
  const swapped = SWAP_TARGETS.get(swapKey(word));
  if (swapped) {
    const grammar = swapped.find((t) => isTypoOf(word, t));
    if (grammar) return grammar;
  }
  // The closest known word; of equally close ones, one the typed letters are all in (a letter
  // dropped: "limt" is limit, not lift), then the shortest ("commission", not "commissions").
  const near = targets.filter((t) => isTypoOf(word, t) || isLongTypoOf(word, t))
    .sort((a, b) => distance(word, a) - distance(word, b) || Number(!within(word, a)) - Number(!within(word, b)) || a.length - b.length);
  if (near[0]) return near[0];
  // Typed without its vowels ("cmsn", "stlmnt", "hstry"): the one known word with those consonants.
  const bare = consonantsOf(word);
  if (bare !== null) {
    const bySkeleton = targets.filter((t) => t.length >= 4 && skeletonOf(t) === bare);
    if (bySkeleton.length === 1) return bySkeleton[0]!;
  }
  // Spelt as said ("commishun", "settelmint"): the written ending, if that makes a known word.
  const ending = SAID_ENDINGS.find(([said]) => word.endsWith(said));
  const spelt = ending ? word.slice(0, -ending[0].length) + ending[1] : word;
  if (spelt !== word) {
    const said = targets.find((t) => t === spelt || isTypoOf(spelt, t));
    if (said) return said;
  }
  // Else a long everyday or grammar word with one slip ("overal", "seperately") is that word, not a name.
  return word.length >= 6 ? LONG_PLAIN_WORDS.find((t) => Math.abs(t.length - word.length) <= 1 && distance(word, t) === 1) ?? word : word;
}

/** Endings spelt as said, and as written: "commishun", "settelmint". */
const SAID_ENDINGS: ReadonlyArray<readonly [string, string]> = [['shun', 'ssion'], ['shan', 'ssion'], ['mint', 'ment']];

/** A word's first letter and its other consonants, doubled letters once: "settlement" → "stlmnt". */
const skeletonOf = (word: string) => (word[0]! + word.slice(1).replace(/[aeiou]/g, '')).replace(/(.)\1+/g, '$1');
/** The skeleton of a word typed without vowels (a vowel may open it: "expsr"), or null for one that has them. */
const consonantsOf = (word: string) => (word.length >= 4 && !/[aeiou]/.test(word.slice(1)) ? skeletonOf(word) : null);

/**
 * A long misspelt word ("ballence", eight letters) may be two edits from a shorter domain word
 * ("balance", seven): the typed length decides how many slips are forgiven, as in the classifier.
 * Only for domain words of six letters or more, where two edits still leave most of the word.
 */
function isLongTypoOf(word: string, target: string): boolean {
  if (word.length < 8 || target.length < 6 || Math.abs(word.length - target.length) > 2) return false;
  const d = distance(word, target);
  // Two letters swapped and one more slip ("comisison"): the swap counts as one, as typists make it.
  return d <= 2 || (d === 3 && adjacentSwaps(word).some((w) => distance(w, target) <= 1));
}

function adjacentSwaps(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < word.length; i++) if (word[i] !== word[i + 1]) out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  return out;
}

/** Whether `typed` is `word` with letters left out: every typed letter in order. */
function within(typed: string, word: string): boolean {
  let at = 0;
  for (const c of word) if (c === typed[at]) at++;
  return at === typed.length;
}

/** Grammar and everyday words of six letters or more: one slip away from one, a word is that word. */
const LONG_PLAIN_WORDS: readonly string[] = [...new Set([...STOPWORDS, ...EVERYDAY])].filter((w) => w.length >= 6 && isLetters(w));

/** Letters sorted: two words with the same key may be one swap apart. */
const swapKey = (word: string) => [...word].sort().join('');
const SWAP_TARGETS: ReadonlyMap<string, readonly string[]> = (() => {
  const byKey = new Map<string, string[]>();
  for (const w of STOPWORDS) {
    if (w.length < 4 || !isLetters(w)) continue;
    byKey.set(swapKey(w), [...(byKey.get(swapKey(w)) ?? []), w]);
  }
  return byKey;
})();


/**
 * Words that mean another only beside certain words (lexicon/in-context.json): Punjabi words that
 * are also Hindi words, read as Punjabi only where Hindi could not have them ("sneha di cmsn" is
 * of, "kar di" did); "ee vaaram", "ya aathvadyat" (this week); Marathi's "te" between two dates (to).
 */
export const IN_CONTEXT_LEXICON: readonly SynonymEntry[] = checkedSynonyms(inContextEntries);
/** Decided on the words as typed, before slang and slips are read ("15 nov tk" is till, "ka tak" a take). */
const AS_TYPED: PhraseTable<SynonymEntry> = phraseTable(IN_CONTEXT_LEXICON.filter((e) => e.asTyped).map((e) => [e.phrase, e] as const));
const IN_CONTEXT: PhraseTable<SynonymEntry> = phraseTable(IN_CONTEXT_LEXICON.filter((e) => !e.asTyped && !e.barePeriod).map((e) => [e.phrase, e] as const));
/** Read when nothing else gives a date: a period said bare, the ledger's way ("pl wk", "comm month", "p&l mtd"), is the current one. */
const BARE_PERIODS: PhraseTable<SynonymEntry> = phraseTable(IN_CONTEXT_LEXICON.filter((e) => e.barePeriod).map((e) => [e.phrase, e] as const));

/** The words of a message that mean another beside the words around them, one word each, by index: what the question frame reads them as. */
export const wordsInContext = (words: readonly string[]): ReadonlyMap<number, string> => inContextWords(IN_CONTEXT, words, languagesOf(words.join(' ')));

/** The languages a message is in by words only that language has: a message with none of them keeps its Hindi "te", "hun", "ton", "je". */
export function languagesOf(folded: string): ReadonlySet<string> {
  const words = tokensOf(folded);
  const punjabi = words.some((w) => PUNJABI_WORDS.has(w)) || (words[0] === 'hun' && words.slice(1).every((w) => w === '?'));
  return new Set(punjabi ? ['pa'] : []);
}

/** Months, weekdays, amount units and ordinal endings: never part of a team's name. */
const CALENDAR_AND_UNITS: ReadonlySet<string> = new Set(['jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'lakh', 'lakhs', 'lac', 'crore', 'crores', 'cr', 'k', 'm', 'mn', 'million', 'billion', 'bn', 'trillion', 'tn', 'thousand', 'st', 'nd', 'rd', 'th']);
/** "kiwis wale match", "india ka match": Hindi's, Marathi's and Gujarati's "of" between a team and its match. */
const OF_WORDS: ReadonlySet<string> = new Set(['wale', 'wala', 'wali', 'vale', 'vala', 'ka', 'ke', 'ki', 'da', 'di', 'de', 'cha', 'chi', 'che', 'nu', 'no', 'ni']);
/**
 * Words after which an English word that is also a name is the word, unless the user marks it: an
 * article makes it a thing ("the chase"), a subject pronoun a verb ("I hope you are well").
 */
const BEFORE_A_WORD: ReadonlySet<string> = new Set(['the', 'a', 'an', 'i', 'we', 'they']);
/** "imran vivek dono": the names before it are one person each. */
const EACH_OF_THEM: ReadonlySet<string> = new Set(['dono', 'donon', 'both', 'teeno', 'teenon', 'all']);

/** Postpositions of the languages agents mix in, said right after a team: "IND v AUS var", "MI vs CSK la". */
const TEAM_PARTICLES: ReadonlySet<string> = new Set(['la', 'lo', 'le', 'ku', 'oda', 'var', 'madhe', 'madhye', 'mein', 'me', 'pe', 'par', 'ch', 'ma', 'ke', 'ka', 'ki', 'che', 'cha', 'chi', 'nu', 'ni', 'no', 'na', 'da', 'di', 'de', 'unna', 'ulla', 'te', 'e', 'er']);

/**
 * The message read: its folded words, dates, amounts, count, fixture, market and the runs of
 * words that are names. A plan reads the same text several times (the whole message, each
 * clause, the clauses again after a split, the earlier turn's message), and a reading depends on
 * nothing but its arguments, so the latest readings are kept: about a quarter of a plan's reads
 * were repeats (`bench/assistant.ts`). What is kept is frozen, so no caller can change what
 * another is handed.
 */
export function read(typed: string, today: IsoDate, known: ReadonlySet<string> = LEXICON): Reading {
  let kept = READINGS.get(known);
  if (!kept) READINGS.set(known, kept = new Map());
  const key = `${today}\u0000${typed}`;
  const hit = kept.get(key);
  if (hit) {
    // Most recently used last: the oldest is the first to go.
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const reading = deepFreeze(readAfresh(typed, today, known));
  kept.set(key, reading);
  if (kept.size > READINGS_KEPT) kept.delete(kept.keys().next().value!);
  return reading;
}

/** Readings kept per vocabulary (`known`), most recently used last. */
const READINGS = new WeakMap<ReadonlySet<string>, Map<string, Reading>>();
const READINGS_KEPT = 64;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // A Set cannot be frozen in place; `Reading.words` is typed read only instead.
    if (!(value instanceof Set)) for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function readAfresh(typed: string, today: IsoDate, known: ReadonlySet<string>): Reading {
  // Capitals spelt out one by one, as speech-to-text writes them ("M I versus C S K"): one word.
  const text = joinSpelledCapitals(typed);
  const langs = languagesOf(fold(text));
  const typedWords = readInContext(AS_TYPED, unglue(fold(text)), langs);
  const corrected = readInContext(IN_CONTEXT, saidOnce(correctWords(typedWords, text, known)), langs);
  let folded = foldSynonyms(` ${corrected} `);
  const range = findDateRange(corrected, today) ?? findDateRange(readInContext(BARE_PERIODS, corrected, langs), today);
  // After "top", "pehle", Hindi counts are counts too ("top das", "pehle paanch bets"); elsewhere
  // only words that are nothing else ("ravi das bets" is Ravi Das's).
  const countMatch = new RegExp(String.raw`\b(?:top|pehle|pahle)\s+(${HINDI_COUNT_WORD})\b(?!\s*(?:days?|weeks?|months?|din|hafte|mahine))`).exec(folded)
    ?? new RegExp(String.raw`\b(?:top|first|last|latest|biggest|largest|best|worst|recent)\s+(\d{1,3}|${COUNT_WORD})\b(?!\s*(?:days?|weeks?|months?|din|dino|dinon|divas|hafte|hafton|mahine|mahino)\b)`).exec(folded)
    ?? new RegExp(String.raw`\b(\d{1,3}|${COUNT_WORD})\s+(?:(?:most\s+)?(?:recent|latest|busiest|biggest|largest|top|best|worst)\s+|sabse\s+\S+\s+)?(?:(?:open|settled|unsettled|void|voided|pending|won|lost|winning|losing)\s+)?(?:markets?|matches|fixtures|games|events|bets|settlements|payments|players)\b`).exec(folded)
    // "sabse badi stake wali 5": Hindi names the count after what is ranked.
    ?? new RegExp(String.raw`\b(?:biggest|highest|smallest|sabse\s+\S+)\s+(?:\S+\s+)?(?:wali|wale|vali|vale)\s+(\d{1,3})\s*(?:dikhao|dikha|batao|bata|do|de|bas|only|pls|please)?\s*$`).exec(folded);
  // "aaj ka sabse bada bet konsa hai", "what was the biggest bet today": one bet, the first of the ranking.
  const single = countMatch ? null : /\b(?:sabse\s+(?:bada|badi|bade|uncha|unchi|zyada)|(?:the\s+)?(?:single\s+)?(?:biggest|largest|highest|heaviest))\s+(?:single\s+)?(?:bet|stake|daav|sauda)\b(?!\s+(?:bets|wale|wali|wala|se|ke|ki))/.exec(folded);
  const count = countMatch ? COUNT_WORDS[countMatch[1]!] ?? ANY_COUNT_WORDS[countMatch[1]!] ?? Number(countMatch[1]) : single ? 1 : null;

  const amounts = findAmounts(text).filter((a) => {
    if (range && overlaps(text.toLowerCase(), range.raw, a)) return false;
    const after = text.slice(a.end).trimStart().toLowerCase();
    if (/^(?:(?:most\s+)?(?:recent|latest|busiest|biggest|largest|top|best|worst)\s+)?(?:days?|weeks?|months?|years?|markets?|bets?|players?|rows?|matches|fixtures|games|events|settlements|payments)\b/.test(after)) return false;
    const before = text.slice(0, a.start).trimEnd().toLowerCase();
    if (/\b(?:top|first|last|latest|biggest|largest|recent)$/.test(before)) return false;
    // An over/under line ("over/under 2.5 goals", "300.5") is a market's name, not money.
    if (/(?:over|under|o\/u|\/|\b(?:total\s+)?(?:runs|goals|points|line))$/.test(before)) return false;
    return true;
  });

  // Dates and amounts are read; blank them so their words are not taken for names.
  let scrubbed = folded;
  if (range) scrubbed = scrubbed.replace(fold(range.raw), ' ');
  const { tokens, afterComma } = wordsOfNames(scrubbed);
  const named = namedDespiteEveryday(text);
  const cued = cuedWords(tokensOf(folded));
  const isKnownTeamWord = (w: string) => known.has(w) || TEAM_PARTICLES.has(w) || ((EVERYDAY.has(w) || WORLD.has(w) || (hasEverydayShape(w) && !cued.has(w))) && !named.has(w)) || STOPWORDS.has(w) || PRONOUNS.has(w) || AMOUNT_WORDS.has(w) || startsWithDigit(w) || w.length === 1 && w !== 'v'
    || CALENDAR_AND_UNITS.has(w);
  // A plain word (plain-words.ts) is a name only when marked as one; the sides of "A vs B" and the
  // words before "match" are teams, read without it ("arsenal vs chelsea").
  const isKnown = (w: string) => isKnownTeamWord(w) || (PLAIN_WORDS.has(w) && !named.has(w) && !cued.has(w) && !SPORTS.has(w));

  const used = new Set<number>();
  let fixture: string | null = null;
  // "A vs B": the unknown words touching the joiner on each side are the teams.
  const joiner = tokens.findIndex((t) => ['vs', 'v', 'versus', 'against'].includes(t.word));
  if (joiner > 0 && joiner < tokens.length - 1) {
    const left: Token[] = [];
    // A comma ends a side: "lay 5k on Alcaraz, Djokovic v Alcaraz" is Djokovic v Alcaraz.
    for (let i = joiner - 1; i >= 0 && !isKnownTeamWord(tokens[i]!.word); i--) {
      left.unshift(tokens[i]!);
      if (afterComma.has(i)) break;
    }
    const right: Token[] = [];
    for (let i = joiner + 1; i < tokens.length && !isKnownTeamWord(tokens[i]!.word) && !(i > joiner + 1 && afterComma.has(i)); i++) right.push(tokens[i]!);
    if (left.length > 0 && right.length > 0) {
      fixture = `${left.map((t) => t.word).join(' ')} vs ${right.map((t) => t.word).join(' ')}`;
      for (const t of [...left, tokens[joiner]!, ...right]) used.add(t.index);
    }
  }
  // "the India match", "India game": unknown words right before match/game/fixture.
  if (!fixture) {
    const noun = tokens.findIndex((t) => ['match', 'game', 'fixture', 'matches', 'games'].includes(t.word));
    if (noun > 0) {
      const team: Token[] = [];
      // "kiwis wale match", "india ka match": Hindi's "of" stands between the team and the match.
      const start = noun - 1 - (noun >= 2 && OF_WORDS.has(tokens[noun - 1]!.word) ? 1 : 0);
      // "forget the single match", "the final match": a plain word no team has, unmarked, is no side of a match.
      const plainOnly = (w: string) => PLAIN_WORDS.has(w) && !TEAM_NAMES.has(w) && !named.has(w);
      for (let i = start; i >= 0 && !isKnownTeamWord(tokens[i]!.word) && !plainOnly(tokens[i]!.word); i--) {
        team.unshift(tokens[i]!);
        if (afterComma.has(i)) break;
      }
      if (team.length > 0) {
        fixture = team.map((t) => t.word).join(' ');
        for (const t of team) used.add(t.index);
      }
    }
  }

  // "IND AUS pe kitna phasa hai", "pak sl": two teams side by side, as the trade writes a match.
  if (!fixture) {
    const unit = (i: number): number => (i + 1 < tokens.length && TEAM_NAMES.has(`${tokens[i]!.word} ${tokens[i + 1]!.word}`) ? 2 : TEAM_NAMES.has(tokens[i]?.word ?? '') ? 1 : 0);
    for (let i = 0; i < tokens.length && !fixture; i++) {
      const first = used.has(i) ? 0 : unit(i);
      // "lay 10k india, ind aus": a comma between them ends the pair.
      const second = first > 0 && !used.has(i + first) && !afterComma.has(i + first) ? unit(i + first) : 0;
      if (first === 0 || second === 0) continue;
      const side = (at: number, n: number) => tokens.slice(at, at + n).map((t) => t.word).join(' ');
      fixture = `${side(i, first)} vs ${side(i + first, second)}`;
      for (let k = i; k < i + first + second; k++) used.add(k);
    }
  }
  // Money stuck on a match is riding on it: the exposure, not money owed ("ind aus pe kitna phasa hai").
  if (fixture && tokensOf(corrected).some((w) => STUCK.has(w))) {
    folded = tokenSpans(folded).reduceRight((text, t) => (t.token === 'outstanding' ? `${text.slice(0, t.start)}exposure${text.slice(t.end)}` : text), folded);
    for (const t of tokens) if (t.word === 'outstanding') t.word = 'exposure';
  }

  const marketMatch = /\b(matchodds|overunder\s*[\d.]*\s*(?:goals|runs)?|over\s+[\d.]+\s+goals|under\s+[\d.]+\s+goals|total\s+runs(?:\s+(?:overunder|over|under))?(?:\s+[\d.]+)?|goals(?=\s+market))\b/.exec(folded);
  const market = marketMatch ? marketMatch[1]!.replace('matchodds', 'match odds').replace('overunder', 'over/under').trim() : null;

  const names: Reading['names'] = [];
  const refused = new Set<number>();
  let run: Token[] = [];
  let lastNameEnd = -1;
  const flush = (next: number) => {
    // "rahul sharman, sharma wala nahi", "Rahul Sharman not the Sharma one": a name turned down
    // tells the one meant apart from it; it names no one to look up.
    const after = tokens.slice(run.at(-1) ? run.at(-1)!.index + 1 : 0, (run.at(-1)?.index ?? 0) + 3).map((t) => t.word);
    const before = tokens.slice(Math.max(0, (run[0]?.index ?? 0) - 2), run[0]?.index ?? 0).map((t) => t.word);
    const saidNotThe = before.at(-1) === 'not' || (before.at(-1) === 'the' && before.at(-2) === 'not');
    const turnedDown = NO.has(after[0] ?? '') || (WALA.has(after[0] ?? '') && NO.has(after[1] ?? '')) || (saidNotThe && THE_ONE.has(after[0] ?? ''));
    if (run.length > 0 && turnedDown && names.length > 0) run = [];
    if (run.length > 0) {
      const prev = tokens[run[0]!.index - 1];
      // "not karan, neha", "Neha not Karan", "anita nahi, lakshmi ka": a name said with "not" is
      // turned down once another is named (a comma ends what "not" applies to).
      // Hindi's "nahi" follows the name it turns down: in "Sneha nahi Neha" it is Sneha's, not Neha's.
      const saidNot = before.at(-1) === 'not' || ((before.at(-1) === 'nahi' || before.at(-1) === 'nahin') && lastNameEnd !== run[0]!.index - 2);
      if ((saidNot && !afterComma.has(run[0]!.index)) || turnedDown) refused.add(names.length);
      lastNameEnd = run.at(-1)!.index;
      // "imran vivek dono ki cl": first names listed and then "both", one person a word.
      if (run.length >= 2 && run.length <= 4 && EACH_OF_THEM.has(after[0] ?? '') && !run.some((t) => TEAM_NAMES.has(t.word))) {
        run.forEach((t, i) => names.push({ text: t.word, before: i === 0 ? (afterComma.has(t.index) && prev ? ',' : prev?.word ?? null) : 'and' }));
        run = [];
        return next;
      }
      names.push({ text: run.map((t) => t.word).join(' '), before: afterComma.has(run[0]!.index) && prev ? ',' : prev?.word ?? null });
    }
    run = [];
    return next;
  };
  // A capital letter alone right after a name is its initial ("Rahul V", "Neha G"); a small one is
  // Hinglish shorthand ("karan k bets") or the "v" of a fixture.
  // "I" is the pronoun ("Mr. O'Brien? I believe…"), never an initial.
  const initials = new Set(tokenSpans(text)
    .filter((t) => t.token.length === 1 && isLetters(t.token) && t.token !== t.token.toLowerCase() && !OWNER_MARKS.has(text[t.start - 1] ?? ''))
    .map((t) => t.token.toLowerCase()).filter((c) => c !== 'i'));
  // "set Rahul's xyz limit": a possessive closes the name it ends; the words after it are what is
  // the owner's, never more of the name.
  const owners = ownerOccurrences(text);
  const seen = new Map<string, number>();
  // "before the chase", "pay the bill", "I hope": an English word that is also a name, unmarked, is the word after an article or a subject.
  const articled = (t: Token) => t.index > 0 && BEFORE_A_WORD.has(tokens[t.index - 1]!.word) && NAME_LIKE.has(t.word) && !named.has(t.word);
  for (const t of tokens) {
    if (afterComma.has(t.index)) flush(0);
    if (!used.has(t.index) && run.length > 0 && t.word.length === 1 && initials.has(t.word)) run.push(t);
    else if (used.has(t.index) || isKnown(t.word) || articled(t)) flush(0);
    else run.push(t);
    const nth = seen.get(t.word) ?? 0;
    seen.set(t.word, nth + 1);
    if (run.at(-1) === t && owners.get(t.word)?.has(nth)) flush(0);
  }
  flush(0);
  // "open bets on eng nz and madrid barca": a name made of two teams is a match, cued as one.
  for (const n of names) if (n.before !== 'on' && n.before !== 'in' && isTeamPair(n.text)) n.before = 'on';
  if (refused.size > 0 && refused.size < names.length) {
    for (const at of [...refused].sort((a, b) => b - a)) names.splice(at, 1);
  }

  const words = new Set(tokens.map((t) => t.word));
  return {
    folded: folded.replace(/\s+/g, ' ').trim(),
    words, tokens, range, amounts, count, fixture, market, names,
    pronounPlayer: [...PRONOUNS].some((p) => words.has(p)) || holds(folded, 'points_at_person'),
    pronounFixture: holds(folded, 'points_at_match'),
  };
}

const isSpace = (c: string) => c.trim() === '';
const endsInLetter = (w: string | undefined) => isLetters(w?.at(-1));
const startsWithLetter = (w: string | undefined) => isLetters(w?.[0]);

/**
 * The words a name may be made of, in order, and where a list breaks them apart: "deepak & irfan" is
 * "deepak and irfan" (a "p & l" was folded to pnl before this); a comma between words ends a name
 * ("Karan, Neha aur Sneha" is three players, not "karan neha"); so does a line break (a pasted list,
 * "• Anita\n• Sneha", is a player a line). Other marks are no words.
 */
function wordsOfNames(text: string): { tokens: Token[]; afterComma: Set<number> } {
  const spans = tokenSpans(text);
  const tokens: Token[] = [];
  const afterComma = new Set<number>();
  let lastWord = -1;
  for (let k = 0; k < spans.length; k++) {
    const { token, start, end } = spans[k]!;
    if (isWord(token)) {
      const prev = spans[lastWord];
      if (prev && endsInLetter(prev.token) && startsWithLetter(token)) {
        const gap = text.slice(prev.end, start);
        const firstBreak = [...gap].find((c) => c === '\n' || !isSpace(c));
        if (firstBreak === '\n') afterComma.add(tokens.length);
      }
      tokens.push({ word: token, index: tokens.length });
      lastWord = k;
    } else if ((token === '&' || token === '+') && isSpace(text[start - 1] ?? '') && isSpace(text[end] ?? '') && start > 0 && end < text.length) {
      tokens.push({ word: 'and', index: tokens.length });
      lastWord = k;
    } else if (token === ',' && isWord(spans[k - 1]?.token) && endsInLetter(spans[k - 1]!.token) && startsWithLetter(spans[k + 1]?.token) && isWord(spans[k + 1]!.token)) {
      afterComma.add(tokens.length);
    }
  }
  return { tokens, afterComma };
}

/** Which occurrences of each word (folded, counted from 0) the text marks as an owner with "'s": "Rahul's", "O'Brien's". */
function ownerOccurrences(text: string): Map<string, Set<number>> {
  const spans = tokenSpans(text);
  const seen = new Map<string, number>();
  const owners = new Map<string, Set<number>>();
  const joined = (k: number) => OWNER_MARKS.has(spans[k]?.token ?? '') && spans[k]!.start === spans[k - 1]!.end && isWord(spans[k + 1]?.token) && spans[k + 1]!.start === spans[k]!.end;
  for (let k = 0; k < spans.length; k++) {
    if (!isWord(spans[k]!.token)) continue;
    // A word and the parts an apostrophe joins to it: "o'brien's" is one word, owned.
    let end = k;
    while (joined(end + 1)) end += 2;
    const owned = end > k && spans[end]!.token.toLowerCase() === 's';
    const word = fold(text.slice(spans[k]!.start, owned ? spans[end - 1]!.start : spans[end]!.end));
    const nth = seen.get(word) ?? 0;
    seen.set(word, nth + 1);
    if (owned) owners.set(word, (owners.get(word) ?? new Set()).add(nth));
    k = end;
  }
  return owners;
}

const OWNER_MARKS: ReadonlySet<string> = new Set(["'", '’']);
const PREPOSITIONS: ReadonlySet<string> = new Set(['for', 'of', 'with', 'from', 'by', 'to', 'about', 'on']);
const NO: ReadonlySet<string> = new Set(['nahi', 'nahin', 'nai', 'nhi']);
const WALA: ReadonlySet<string> = new Set(['wala', 'wali', 'wale', 'vala', 'vali', 'vale']);
/** "Rahul Sharman, not the Sharma one": what follows the name turned down. */
const THE_ONE: ReadonlySet<string> = new Set(['one', 'wala', 'guy']);

/**
 * The words right after a preposition ("balance for kipling"): a word only shaped like an everyday
 * one is still a name there. "to" before a verb and its object is no cue ("sorry to bother you").
 */
function cuedWords(words: readonly string[]): Set<string> {
  const cued = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i + 1];
    if (!PREPOSITIONS.has(words[i]!) || !isLetters(word)) continue;
    const object = isLetters(words[i + 2]) ? words[i + 2] : undefined;
    if (!(words[i] === 'to' && object !== undefined && OBJECT_AFTER_VERB.has(object) && PLAIN_WORDS.has(word))) cued.add(word);
    i += object === undefined ? 1 : 2;
  }
  return cued;
}

/** What follows a verb, never a name: "to bother you", "to see the …". */
const OBJECT_AFTER_VERB: ReadonlySet<string> = new Set(['you', 'u', 'me', 'him', 'her', 'it', 'them', 'us', 'the', 'a', 'an', 'my', 'your', 'this', 'that', 'these', 'those', 'his', 'their', 'our', 'up', 'out', 'in', 'back', 'off', 'all']);

/** "everyone's results", "anybody's bets": the whole book, never a person called Everyone; "bank se", "gpay pe": how money came. */
const EVERYONE: ReadonlySet<string> = new Set(['everyone', 'everybody', 'anyone', 'anybody', 'someone', 'somebody', 'nobody', 'all', 'each', 'every', 'sab', 'sabka', 'sabki', 'sabke',
  'bank', 'gpay', 'upi', 'paytm', 'phonepe', 'neft', 'imps', 'rtgs', 'online', 'cash', 'cheque', 'hawala']);

/**
 * Everyday words the user marks as a name: typed with a capital inside a sentence ("balance of
 * Major"), a capitalised word before another capitalised one ("Happy Singh ka udhaar"), or any word
 * owned by what follows it ("Major's bets", "major ka udhaar").
 */
function namedDespiteEveryday(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\p{Lu}[\p{L}'’]*/gu)) {
    const before = text.slice(0, m.index).trimEnd();
    const startsSentence = before === '' || /[.!?:]$/.test(before);
    const next = /^\s+(\p{Lu}[\p{L}]*)/u.exec(text.slice(m.index + m[0].length));
    const word = fold(m[0]);
    if (EVERYONE.has(word)) continue;
    // All capitals is how acronyms are typed ("who won the IPL"), not how a name is marked.
    if (m[0].length > 1 && m[0] === m[0].toUpperCase()) continue;
    if (!startsSentence || (next && !EVERYDAY.has(fold(next[1]!)) && !STOPWORDS.has(fold(next[1]!)))) out.add(word);
  }
  // A Hindi or Marathi grammar word before "ka" owns nothing ("lene dene ka hisab").
  for (const m of text.matchAll(/(\p{L}+)(?:['’]s\b|\s+(?:ka|ke|ki|ko|se|ne|pe)\b)/gu)) if (!REGIONAL_WORDS.has(fold(m[1]!)) && !EVERYONE.has(fold(m[1]!))) out.add(fold(m[1]!));
  return out;
}

function overlaps(lower: string, raw: string, amount: FoundAmount): boolean {
  const at = lower.indexOf(raw.toLowerCase());
  return at >= 0 && amount.start < at + raw.length && amount.end > at;
}

export const hasAny = (reading: Reading, ...words: string[]) => words.some((w) => reading.words.has(w));
