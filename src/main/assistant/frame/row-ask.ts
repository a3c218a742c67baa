/**
 * What a question asks of the rows it reads, read once from the message into a frozen frame:
 * a superlative ("who owes me the most"), a count ("how many players under Arjun"), a total, an
 * average, thresholds ("bets staked over 10k"), a top or bottom N, an order, a direction of take
 * and a role. The words come from the lexicon (lexicon/rows.json) through its one matcher; this
 * module only arranges what the matcher found. Tools then say which of it their rows can answer
 * (apply.ts), and the answer's first sentence states it (answer.ts).
 */
import type { TakeDirection } from '../../../shared/contracts/agent-api.js';
import type { IsoDate } from '../../../shared/dates.js';
import { findDateRange } from '../../../shared/parse/dates.js';
import { COLUMN_CONCEPTS, type ColumnConcept, GROUP_KEYS, type GroupKey } from '../../tools/rows.js';
import { SLANG, fold, wordsInContext } from '../planner/grammar.js';
import { type Concept, type ConceptMatch, type WordToken, matchConcepts, tokenize, typedCapitalised, wordsOf } from './lexicon.js';

export type Comparison = 'gt' | 'gte' | 'lt' | 'lte';

export interface RowFilter {
  /** The column the threshold is on; null: the question's own measure. */
  column: ColumnConcept | null;
  op: Comparison;
  /** Paisa for money columns, a plain number for counts and odds. */
  value: number;
  /** The words as typed ("over 10k"), for the card's caption. */
  said: string;
}

export interface RowAsk {
  /** The column asked about, if the words name one ("commission", "owes", "loser"). */
  measure: ColumnConcept | null;
  /** A superlative, or a top/bottom N: the rows in this order. */
  extreme: 'max' | 'min' | null;
  /** How many rows the answer names: 1 for a superlative, N for "top 5", null for all. */
  limit: number | null;
  aggregate: 'count' | 'sum' | 'avg' | null;
  filters: readonly RowFilter[];
  /** "who owes me", "who do I owe": the take's direction. */
  direction: TakeDirection | null;
  /** "players", "sub-agents": the kind of account counted or listed. */
  role: 'player' | 'agent' | null;
  /** "under Arjun", "Arjun ke neeche": the sub-agent whose accounts are meant, as typed. */
  underAgent: string | null;
  /** "per match", "day wise": the rows' figures asked group by group. */
  groupBy: GroupKey | null;
  /**
   * "which match had the most bets", "who placed the most bets": the group a superlative picks one
   * of, where the rows hold it; "which match had the biggest bet" ranks the rows themselves.
   */
  pick: GroupKey | null;
  /** "this week vs last week": the same read for each of two periods, the first as said first. */
  periods: readonly [Period, Period] | null;
  /** Something to answer from the rows: without it the frame leaves a plan as it is. */
  asks: boolean;
}

/** Whole days, both ends included. */
export interface Period {
  from: IsoDate;
  to: IsoDate;
}

/** A message that asks nothing of the rows. */
export const NO_ASK: RowAsk = Object.freeze({
  measure: null, extreme: null, limit: null, aggregate: null, filters: Object.freeze([]), direction: null, role: null, underAgent: null,
  groupBy: null, pick: null, periods: null, asks: false,
});

const COLUMN_OF = new Map<Concept, ColumnConcept>(COLUMN_CONCEPTS.map((c) => [`col:${c}` as Concept, c]));
/** Words that name a column and the end of it they point to: the biggest loser lost the most. */
interface Polar { column: ColumnConcept; extreme: 'max' | 'min'; direction?: TakeDirection }
const POLAR: Partial<Record<Concept, Polar>> = {
  loser: { column: 'pnl', extreme: 'min' },
  winner: { column: 'pnl', extreme: 'max' },
  debtor: { column: 'take', extreme: 'max', direction: 'owes_you' },
  creditor: { column: 'take', extreme: 'min', direction: 'you_owe' },
  // "kitne log square hain": accounts whose take is nil, neither side owing.
  square: { column: 'take', extreme: 'max', direction: 'square' },
};
const COMPARE: Partial<Record<Concept, { op: Comparison; amount: 'follows' | 'precedes' }>> = {
  gt: { op: 'gt', amount: 'follows' }, gte: { op: 'gte', amount: 'follows' }, lt: { op: 'lt', amount: 'follows' }, lte: { op: 'lte', amount: 'follows' },
  gt_after: { op: 'gt', amount: 'precedes' }, gte_after: { op: 'gte', amount: 'precedes' }, lt_after: { op: 'lt', amount: 'precedes' }, lte_after: { op: 'lte', amount: 'precedes' },
};
/** A top-N list when the words ask for more than one row but give no number. */
export const DEFAULT_TOP = 5;
/** The most rows a "top N" names in words. */
export const MAX_TOP = 20;

/**
 * The rows part of the frame for a message. `names`: the runs of words the planner reads as
 * names, so "under Arjun" can say whom it means; never a number or a word of the lexicon.
 * `today`: the day periods are read against; without it no two periods are compared.
 */
export function readRowAsk(text: string, names: ReadonlyArray<{ text: string }> = [], today: IsoDate | null = null): RowAsk {
  // A word of a name typed with a capital ("show Max's bets") is the name, never an operator.
  const nameWords = new Set(names.flatMap((n) => wordsOf(n.text)));
  const typed = tokenize(text);
  const { tokens, matches } = inPlainWords(typed.map((t) => (nameWords.has(t.word) && typedCapitalised(text, t) ? { ...t, word: NAME_WORD } : t)));
  const has = (c: Concept) => matches.some((m) => m.concepts.includes(c));
  const at = (i: number) => matches.find((m) => m.from === i);
  const after = (m: ConceptMatch) => tokens[m.to];
  const before = (m: ConceptMatch) => (m.from > 0 ? tokens[m.from - 1] : undefined);

  // The column asked about: a word with a direction of its own first ("loser"), else the first named.
  // Hindi's "dena" is the user's to give ("mujhe dena hai", "kisko dena hai") unless the question asks
  // who gives and names no one given to: "sabse zyada kaun dena hai mujhe" is who owes the user the most.
  const givenToUser = has('giver_asked') && !has('receiver_named');
  const polarOf = (m: ConceptMatch): Polar | undefined => (givenToUser && m.concepts.includes('give_hi') ? POLAR.debtor
    : m.concepts.map((c) => POLAR[c]).find((p) => p !== undefined));
  const polar = matches.map(polarOf).find((p) => p !== undefined) ?? null;
  // A question about bets with no column named is about their stakes ("bets over 5k"); about settlements, their amounts ("the largest settlement").
  const measure = polar?.column ?? matches.flatMap((m) => m.concepts.map((c) => COLUMN_OF.get(c)).filter((c) => c !== undefined))[0]
    ?? (has('noun:bet') ? 'stake' : has('noun:settlement') ? 'amount' : null);

  // Thresholds: a comparison and the amount beside it. "over 2.5 goals" is a market's line.
  const filters: RowFilter[] = [];
  const usedAsFilter = new Set<ConceptMatch>();
  // A range: "between 5k and 20k" is at least the one and at most the other, both ends in; never the
  // days of a date ("between 12 and 15 nov").
  const dated = today === null ? null : findDateRange(text, today);
  const inDate = (t: WordToken) => dated !== null && text.toLowerCase().indexOf(dated.raw) <= t.start && t.end <= text.toLowerCase().indexOf(dated.raw) + dated.raw.length;
  for (const m of matches) {
    const follows = m.concepts.includes('between');
    if (!follows && !m.concepts.includes('between_after')) continue;
    const first = follows ? m.to : m.from - 3;
    const [low, join, high] = [tokens[first], at(first + 1), tokens[first + 2]];
    if (low?.paisa === undefined || high?.paisa === undefined || !join?.concepts.includes('range_and') || inDate(low) || inDate(high)) continue;
    const near = columnNear(matches, polarOf, follows ? m.from : first);
    const column = near?.column ?? measure;
    const span = follows ? [tokens[m.from]!, high] : [low, tokens[m.to - 1]!];
    const said = text.slice(span[0]!.start, span[1]!.end);
    const [lo, hi] = [valueFor(column, low), valueFor(column, high)].sort((a, b) => a - b) as [number, number];
    filters.push({ column, op: 'gte', value: lo, said }, { column, op: 'lte', value: hi, said });
  }
  for (const m of matches) {
    for (const concept of m.concepts) {
      const compare = COMPARE[concept];
      if (!compare) continue;
      const amount = compare.amount === 'follows' ? after(m) : before(m);
      if (amount?.paisa === undefined) continue;
      const next = at(compare.amount === 'follows' ? m.to + 1 : m.to);
      if (next?.concepts.includes('line')) continue;
      // "total runs over 300.5" says the line before it.
      if (compare.amount === 'follows' && matches.some((l) => l.to === m.from && l.concepts.includes('line'))) continue;
      const near = columnNear(matches, polarOf, compare.amount === 'follows' ? m.from : m.from - 1);
      const span = compare.amount === 'follows' ? [tokens[m.from]!, amount] : [amount, tokens[m.to - 1]!];
      const column = near?.column ?? measure;
      const value = valueFor(column, amount);
      // "lost more than 15k" is a result under −15k; "I owe more than 5k" a take under −5k.
      const turned = near?.negative === true;
      filters.push({ column, op: turned ? FLIP[compare.op] : compare.op, value: turned ? -value : value, said: text.slice(span[0]!.start, span[1]!.end) });
      usedAsFilter.add(m);
      break;
    }
  }


  // A superlative, or a ranking with a number: "top 5", "5 biggest debtors", "bottom 3".
  const rank = matches.find((m) => m.concepts.includes('rank_top') || m.concepts.includes('rank_bottom'));
  const rankCount = rank ? countBeside(tokens, rank) : null;
  const superlative = matches.find((m) => !usedAsFilter.has(m) && (m.concepts.includes('max') || m.concepts.includes('min')));
  const superCount = superlative ? countBeside(tokens, superlative) : null;
  let extreme: RowAsk['extreme'] = null;
  let limit: number | null = null;
  if (rank && rankCount !== null) {
    extreme = rank.concepts.includes('rank_bottom') && !rank.concepts.includes('rank_top') ? 'min' : 'max';
    limit = rankCount;
  } else if (superlative) {
    extreme = superlative.concepts.includes('max') ? 'max' : 'min';
    limit = superCount ?? countedRows(tokens, matches) ?? 1;
  } else if (polar) {
    // "3 biggest debtors" has its superlative; "debtors" alone is a filter by direction, not a ranking.
    extreme = null;
  }
  // "the biggest loser" lost the most: the polar word turns the superlative.
  if (polar && extreme) extreme = extreme === 'max' ? polar.extreme : opposite(polar.extreme);
  if (limit !== null) limit = Math.min(Math.max(limit, 1), MAX_TOP);

  // "the biggest bet" ranks rows; "the most bets", "fewest settlements" (a superlative of quantity) counts them.
  const rowSuperlative = superlative !== undefined
    && matches.some((m) => m.from === superlative.to && m.concepts.some((c) => c.startsWith('noun:') || c.startsWith('role:')));
  // Accounts are counted per sub-agent by no rows' group yet: "the most players" stays the tree's ranking.
  const countsRows = rowSuperlative && superlative.concepts.includes('many')
    && matches.some((m) => m.from === superlative.to && m.concepts.some((c) => c.startsWith('noun:')));
  const aggregate = has('count') || countsRows ? 'count' : has('avg') ? 'avg' : has('sum') && extreme === null ? 'sum' : null;
  // "net kitna lena hai": the signed total of both sides, not only of those who owe.
  const direction = has('net') ? null : polar?.direction ?? null;
  const role = has('role:agent') ? 'agent' : has('role:player') ? 'player' : null;
  const underAgent = underWhom(text, typed, matches, names);
  const order = has('desc') ? 'max' : has('asc') ? 'min' : null;
  if (extreme === null && order !== null) extreme = order;

  const groupBy = GROUP_KEYS.find((g) => has(`group:${g}`)) ?? null;
  // Only a count picks a group: "who's loading up" beside "the 10 biggest open bets" still ranks the bets.
  const pick = countsRows ? GROUP_KEYS.find((g) => has(`pick:${g}`)) ?? null : null;
  const periods = today === null ? null : periodsIn(text, typed, matches, today);

  // "who is under Arjun" alone asks for the tree, not for anything of its rows; "Arjun's players' PnL"
  // asks for a figure of the accounts under him.
  const asks = extreme !== null || aggregate !== null || filters.length > 0 || (direction !== null && role !== null) || groupBy !== null
    || (underAgent !== null && measure !== null);
  if (!asks && periods === null) return NO_ASK;
  return Object.freeze({ measure, extreme, limit, aggregate, filters: Object.freeze(filters), direction, role, underAgent, groupBy, pick, periods, asks });
}

/**
 * The thresholds a message's words set on rows ("a CL above 20k", "between 5k and 20k"), with no
 * names and no clock: what the planner asks of a message's amounts while it plans (is one a new
 * value, or which rows?). Asked many times a plan, so the last messages' answers are kept.
 */
export function thresholdsIn(text: string): readonly RowFilter[] {
  let filters = THRESHOLDS.get(text);
  if (!filters) {
    if (THRESHOLDS.size >= 500) THRESHOLDS.clear();
    filters = readRowAsk(text).filters;
    THRESHOLDS.set(text, filters);
  }
  return filters;
}
const THRESHOLDS = new Map<string, readonly RowFilter[]>();

/**
 * The tokens with each word no concept of the frame reads put as the planner's slang reads it
 * ("ows" owes, "abve" above, "sauthi vadhu" sabse zyada): one lexicon of slang and slips for both
 * readers. A word the frame knows stays as typed, and so does one whose slang is more than a word.
 */
function inPlainWords(typed: readonly WordToken[]): { tokens: readonly WordToken[]; matches: ConceptMatch[] } {
  const first = matchConcepts(typed);
  const read = new Set(first.flatMap((m) => Array.from({ length: m.to - m.from }, (_, k) => m.from + k)));
  // A word that means another beside its neighbours ("the top for players" is four) means it here too.
  const inContext = wordsInContext(typed.map((t) => t.word));
  let changed = false;
  const tokens = typed.map((t, i) => {
    const plain = read.has(i) ? undefined : inContext.get(i) ?? SLANG[t.word];
    if (plain === undefined || wordsOf(plain).length !== 1) return t;
    changed = true;
    const n = Number(plain);
    return { ...t, word: plain, ...(Number.isInteger(n) && String(n) === plain && { whole: n }) };
  });
  // Only a word put in plain words is read again.
  return changed ? { tokens, matches: matchConcepts(tokens) } : { tokens: typed, matches: first };
}

/**
 * The two periods a message compares, in the order said: each side of a joiner ("this week vs
 * last week", "is hafte ke muqable pichle hafte"), or, for a joiner said after both ("is hafte ka
 * pnl pichle hafte se compare karo"), the period just before it and the one before that. Null
 * unless both are periods and they differ.
 */
export function comparedPeriods(text: string, today: IsoDate): readonly [Period, Period] | null {
  const { tokens, matches } = inPlainWords(tokenize(text));
  return periodsIn(text, tokens, matches, today);
}

function periodsIn(text: string, tokens: readonly WordToken[], matches: readonly ConceptMatch[], today: IsoDate): readonly [Period, Period] | null {
  // The date reader reads a run of the message's own words as typed; a run it cannot read as typed
  // is read again with its words in plain words ("last wk" is last week), as the planner reads them.
  const periodOf = (from: number, to: number): Period | null => {
    if (from >= to) return null;
    const found = findDateRange(fold(text.slice(tokens[from]!.start, tokens[to - 1]!.end)), today)
      ?? findDateRange(plainRun(text, tokens, from, to), today);
    return found && { from: found.from, to: found.to };
  };
  const firstPeriodFrom = (from: number): Period | null => {
    for (let to = from + 1; to <= tokens.length; to++) {
      const period = periodOf(from, to);
      if (period) return period;
    }
    return null;
  };
  const comparing = matches.find((m) => m.concepts.includes('compare'));
  for (const m of matches) {
    let pair: [Period | null, Period | null] = [null, null];
    // "oct vs nov comm": when the words after the joiner are no period as a whole, the shortest run
    // of them from it that is one (a month's short name is a month only where nothing follows it).
    if (m.concepts.includes('versus')) pair = [periodOf(0, m.from), periodOf(m.to, tokens.length) ?? firstPeriodFrom(m.to)];
    else if (m.concepts.includes('versus_compared') && comparing && comparing.to <= m.from) {
      // "compare this month's commission with last month's"; never the "to" or "and" of one range
      // ("compare pnl from 1 nov to 10 nov"), which the date reader reads across the joiner as one.
      const first = periodOf(comparing.to, m.from);
      const second = periodOf(m.to, tokens.length);
      const across = periodOf(comparing.to, tokens.length);
      const oneRange = across !== null && [first, second].every((p) => p === null || p.from !== across.from || p.to !== across.to);
      if (!oneRange) pair = [first, second];
    }
    else if (m.concepts.includes('versus_after')) {
      // The shortest run of words before the joiner that is a period is the second one.
      for (let k = m.from - 1; k > 0; k--) {
        const second = periodOf(k, m.from);
        if (second) { pair = [periodOf(0, k), second]; break; }
      }
    }
    const [first, second] = pair;
    if (first && second && (first.from !== second.from || first.to !== second.to)) return Object.freeze([first, second] as const);
  }
  return null;
}

/**
 * The typed text of tokens [from, to) folded, each word put in plain words (`inPlainWords`) written
 * as its plain word, the marks and spaces between the words as typed.
 */
function plainRun(text: string, tokens: readonly WordToken[], from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    if (i > from) out += fold(text.slice(tokens[i - 1]!.end, t.start));
    const typed = fold(text.slice(t.start, t.end)).trim();
    out += t.paisa === undefined && t.word !== typed ? t.word : typed;
  }
  return out;
}

/** What a name's word is to the matcher: nothing of the lexicon. */
const NAME_WORD = '\u0000name';

const opposite = (e: 'max' | 'min') => (e === 'max' ? 'min' : 'max');

/** Money columns take the amount in paisa; counts and odds take the number as typed. */
function valueFor(column: ColumnConcept | null, token: WordToken): number {
  if (column === 'bets') return token.whole ?? Math.trunc(token.paisa! / 100);
  // Odds are kept ×100 (DOMAIN.md): "odds over 3" is 300, as paisa would be.
  return token.paisa!;
}

const FLIP: Record<Comparison, Comparison> = { gt: 'lt', gte: 'lte', lt: 'gt', lte: 'gte' };

/**
 * The column a comparison is about: the nearest column word before it, else the first after it;
 * `negative` when that word counts the column's negative side (a loss, what the user owes).
 */
function columnNear(matches: readonly ConceptMatch[], polarOf: (m: ConceptMatch) => Polar | undefined, index: number): { column: ColumnConcept; negative: boolean } | null {
  const columns = matches.flatMap((m) => {
    const polar = polarOf(m);
    if (polar) return [{ column: polar.column, negative: polar.extreme === 'min', at: m.from }];
    return m.concepts.flatMap((c) => {
      const column = COLUMN_OF.get(c);
      return column ? [{ column, negative: false, at: m.from }] : [];
    });
  });
  return columns.filter((c) => c.at <= index).at(-1) ?? columns.find((c) => c.at > index) ?? null;
}

/** "top 5", "5 biggest", "top five": the whole number right after or right before a rank word. */
function countBeside(tokens: readonly WordToken[], m: ConceptMatch): number | null {
  const next = tokens[m.to];
  if (next?.whole !== undefined) return next.whole;
  const previous = m.from > 0 ? tokens[m.from - 1] : undefined;
  return previous?.whole ?? null;
}

/** "which three players won the most": the whole number said right before the rows' own noun, far from the superlative. */
function countedRows(tokens: readonly WordToken[], matches: readonly ConceptMatch[]): number | null {
  const noun = matches.find((m) => m.from > 0 && tokens[m.from - 1]!.whole !== undefined && m.concepts.some((c) => c.startsWith('role:') || c.startsWith('noun:')));
  return noun ? tokens[noun.from - 1]!.whole! : null;
}

/** The sub-agent a question is about: the name right after "under", or right before "ke neeche". */
function underWhom(text: string, tokens: readonly WordToken[], matches: readonly ConceptMatch[], names: ReadonlyArray<{ text: string }>): string | null {
  for (const m of matches) {
    const follows = m.concepts.includes('under');
    const precedes = m.concepts.includes('under_after');
    if (!follows && !precedes) continue;
    const beside = follows ? tokens[m.to] : m.from > 0 ? tokens[m.from - 1] : undefined;
    if (!beside || beside.paisa !== undefined) continue;
    const name = names.find((n) => {
      const words = wordsOf(n.text);
      return follows ? words[0] === beside.word : words.at(-1) === beside.word;
    });
    if (name) return name.text;
  }
  // "Arjun's players", "arjun ke players", "the players of Arjun": a possessive of the accounts' word.
  for (const m of matches) {
    if (!m.concepts.includes('role:player')) continue;
    const link = m.from > 0 ? matches.find((l) => l.to === m.from && l.concepts.includes('whose_after')) : undefined;
    const owner = link ? tokens[link.from - 1] : m.from > 0 && possessive(text, tokens[m.from - 1]!) ? tokens[m.from - 1] : undefined;
    if (owner && owner.paisa === undefined) {
      const name = names.find((n) => wordsOf(n.text).at(-1) === owner.word);
      if (name) return name.text;
    }
    const of = matches.find((l) => l.from === m.to && l.concepts.includes('of_whom'));
    const next = of ? tokens[of.to] : undefined;
    if (next && next.paisa === undefined) {
      const name = names.find((n) => wordsOf(n.text)[0] === next.word);
      if (name) return name.text;
    }
  }
  return null;
}

/** Whether a word was typed with a possessive ending ("Arjun's"), which folding drops. */
function possessive(text: string, token: WordToken): boolean {
  const typed = text.slice(token.start, token.end).toLowerCase();
  return typed.endsWith("'s") || typed.endsWith('’s');
}
