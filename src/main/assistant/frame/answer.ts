/**
 * The first sentence of an answer about rows: the exact figure the question asked for, computed
 * over the complete result in integer paisa ("Sneha Iyer owes you the most: 12,345.00 points.",
 * "Arjun Mehta has 15 players.", "1 bet on 20 Nov 2026 with stake over 10,000.00 points: Rahul
 * Sharma, 10,800.00."). A count comes from the backend's count of every matched row; a total or
 * an average from the backend's totals or from every row when the result is whole; otherwise the
 * sentence says how far it could read. The card below shows the rows; `caption` states the filter
 * and order it was read with.
 */
import { z } from 'zod';
import { localDate } from '../../../shared/dates.js';
import { formatDay } from '../../../shared/format.js';
import { mulDivRound } from '../../../shared/money.js';
import { COLUMN_CONCEPTS, type ColumnConcept, GROUP_KEYS, type RowsDeclaration } from '../../tools/rows.js';
import { money, name } from '../../../shared/sentences.js';
import { type AppliedAsk, type AppliedComparison, numberAt, rowsOf } from './apply.js';
import type { Comparison, Period } from './row-ask.js';
import answers from './lexicon/answers.json' with { type: 'json' };

export interface RowAnswer {
  /** The answer's first sentence (or two). */
  text: string;
  /** The caption for the card: the filter and order its rows were read with. */
  caption: string;
  /** Figures computed here (an average, a sum over rows), as the sentence writes them: their provenance for the number guard. */
  figures: string[];
  /** The one account or match the answer names ("who owes me the most"): whom "him" or "that match" means next. */
  named?: { kind: 'player' | 'fixture'; id: string; name: string };
}

interface Scope {
  /** The sub-agent's name, once the gate resolved it. */
  agentName: string | null;
  /** The period the rows are of, when they have one. */
  period: { from: string; to: string } | null;
  /** The user's timezone: the day a bet was placed in, for rows grouped by day. */
  timezone?: string;
}

type Row = Record<string, unknown>;

/** How many rows a list in a sentence names before "and N more". */
const NAMED_IN_LIST = 5;

const ends = z.strictObject({ max: z.string().min(1), min: z.string().min(1) });
const columns = z.enum(COLUMN_CONCEPTS);
/** The sentences' words, as data (lexicon/answers.json), checked once at start-up. */
const WORDS = z.strictObject({
  labels: z.record(columns, z.string().min(1)),
  comparisons: z.strictObject({ gt: z.string(), gte: z.string(), lt: z.string(), lte: z.string() }),
  superlatives: z.record(z.union([columns, z.literal('default')]), ends.optional()),
  signed: z.record(columns, z.strictObject({ positive: z.string(), negative: z.string(), zero: z.string() }).optional()),
  /** A column's negative side in words, for a threshold below zero ("a loss"). */
  negative: z.record(columns, z.string().min(1).optional()),
  /** Several rows level at the top (or the bottom): each named, with the figure they share. */
  level: ends,
  /** A group in words (singular, plural), and the sentences of a grouped answer. */
  groups: z.strictObject({
    ...Object.fromEntries(GROUP_KEYS.map((g) => [g, z.tuple([z.string().min(1), z.string().min(1)])])) as Record<(typeof GROUP_KEYS)[number], z.ZodTuple<[z.ZodString, z.ZodString]>>,
    sentence: z.string().min(1), cannot: z.string().min(1), incomplete: z.string().min(1),
    /** The group a superlative asked for, named first: by the rows counted, or by the column's total. */
    picked: z.strictObject({ count: ends, total: ends }),
  }),
  /** Two periods side by side, and the difference in words by its sign. */
  compare: z.strictObject({
    sentence: z.string().min(1), higher: z.string().min(1), lower: z.string().min(1), more: z.string().min(1), fewer: z.string().min(1), same: z.string().min(1),
  }),
}).parse(answers);
const DEFAULT_TOP = WORDS.superlatives.default!;
const LABEL = WORDS.labels;
const OPS = WORDS.comparisons;

export function answerRows(a: AppliedAsk, output: unknown, rows: RowsDeclaration, scope: Scope): RowAnswer {
  const plain = new Set(rows.plain ?? []);
  const field = rows.columns[a.column]!;
  const valueOf = (r: Row) => (typeof r[field] === 'number' ? (r[field] as number) : 0);
  let list = rowsOf(output, rows);
  // A whole result (no backend operators) is filtered here; a backend's rows come filtered.
  if (!rows.backend) list = list.filter((r) => a.filters.every((f) => holds(r[f.field], f.op, f.value)));
  const matched = rows.backend ? numberAt(output, rows.backend.matched) ?? list.length : list.length;
  const whole = matched <= list.length;
  if (a.extreme !== null && (!a.ordered || !rows.backend) && whole) {
    list = [...list].sort((x, y) => (a.extreme === 'max' ? valueOf(y) - valueOf(x) : valueOf(x) - valueOf(y)));
  }
  const ordered = a.extreme !== null && (a.ordered || whole);

  const noun = nounOf(a, rows, matched);
  const when = scope.period ? ` ${periodWords(scope.period)}` : '';
  const filterWords = a.filters.map((f) => thresholdWords(f, plain)).join(' and ');
  const withFilters = filterWords ? ` with ${filterWords}` : '';
  const under = a.underAgent !== null ? ` under ${name(scope.agentName ?? a.underAgent)}` : '';
  const owing = a.direction === 'owes_you' ? ' that owe you' : a.direction === 'you_owe' ? ' that you owe' : a.direction === 'square' ? ' that are square' : '';
  const caption = captionOf(a, rows, filterWords, ordered);
  const figures: string[] = [];
  const cant = `${a.unsupported.length > 0 ? ` I can't filter ${rows.noun[1]} by ${a.unsupported.join(' or ')}; this is without it.` : ''}${
    a.cannotGroup !== null ? ` ${fill(WORDS.groups.cannot, { rows: rows.noun[1], group: WORDS.groups[a.cannotGroup][0] })}` : ''}`;
  const say = (text: string) => ({ text: `${text}${cant}`, caption, figures });

  if (a.groupBy !== null) {
    const said = { when, under: `${under}${owing}`, filters: withFilters, group: WORDS.groups[a.groupBy.by][0] };
    const added = a.groupBy.backend ? backendGroups(a, output, rows) : null;
    if (!added && !whole) return say(fill(WORDS.groups.incomplete, { ...said, read: String(list.length), rows: count(matched, noun) }));
    const groups = ranked(a, added ?? groupsOf(a, list, scope.timezone ?? 'UTC', valueOf));
    if (groups.length === 0) return say(`No ${nounOf(a, rows, 0)}${under}${owing}${when}${withFilters}.`);
    const counted = a.aggregate === 'count';
    const shown = groups.slice(0, NAMED_IN_LIST).map((g) => {
      figures.push(String(g.rows));
      if (counted) return `${g.name} ${count(g.rows, nounOf(a, rows, g.rows))}`;
      figures.push(bare(a.column, g.total, plain));
      const sum = WORDS.signed[a.column] ? valueWords(a.column, g.total, plain) : `${LABEL[a.column]} ${figure(a.column, g.total, plain)}`;
      return `${g.name} ${count(g.rows, nounOf(a, rows, g.rows))}, ${sum}`;
    });
    const more = groups.length - shown.length;
    if (more > 0) figures.push(String(more));
    const [one, many] = WORDS.groups[a.groupBy.by];
    const text = fill(WORDS.groups.sentence, {
      ...said, rows: capital(nounOf(a, rows, 2)), count: count(groups.length, groups.length === 1 ? one : many),
      list: `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
    });
    // "which match had the most bets": the group asked for first, every group tied with it named.
    const top = groups[0]!;
    const measure = (g: Group) => (counted ? g.rows : g.total);
    const picked = a.extreme === null ? '' : `${fill(WORDS.groups.picked[counted ? 'count' : 'total'][a.extreme], {
      ...said, who: joinNames(groups.filter((g) => measure(g) === measure(top)).map((g) => g.name)), rows: nounOf(a, rows, 2), label: LABEL[a.column],
      value: counted ? count(top.rows, nounOf(a, rows, top.rows)) : valueWords(a.column, top.total, plain),
    })} `;
    return { ...say(`${picked}${text}`), caption: groupCaption(a, rows, groups, caption) };
  }
  if (a.aggregate === 'count') {
    if (a.underAgent !== null && a.filters.length === 0 && a.direction === null) return say(`${name(scope.agentName ?? a.underAgent)} has ${count(matched, noun)}${when}.`);
    const head = `${count(matched, noun)}${under}${owing}${when}${withFilters}`;
    return say(matched === 0 ? `${capital(head)}.` : `${capital(head)}${listed(list, matched, rows, a.column, plain, figures)}.`);
  }
  if (a.aggregate === 'sum' || a.aggregate === 'avg') {
    const total = totalOf(a, output, rows, list, whole, valueOf);
    if (total === null) return say(`I can only read the first ${list.length} of ${count(matched, noun)}${under}${owing}${when}${withFilters}, so I can't give the ${a.aggregate === 'sum' ? 'total' : 'average'} exactly.`);
    const subject = `${LABEL[a.column]} of ${count(matched, noun)}${under}${owing}${when}${withFilters}`;
    if (a.aggregate === 'sum') {
      const shown = figure(a.column, total, plain);
      figures.push(bare(a.column, total, plain));
      return say(`The total ${subject} is ${shown}.`);
    }
    if (matched === 0) return say(`There are no ${noun}${under}${owing}${when}${withFilters} to average.`);
    const average = mulDivRound(total, 1, matched);
    const shown = figure(a.column, average, plain);
    figures.push(bare(a.column, average, plain), bare(a.column, total, plain));
    return say(`The average ${subject} is ${shown}.`);
  }
  if (list.length === 0) return say(`No ${noun}${under}${owing}${when}${withFilters}.`);
  if (a.extreme !== null && !ordered) {
    return say(`I can't rank ${rows.noun[1]} by ${LABEL[a.column]} here; ${count(matched, noun)}${under}${owing}${when}${withFilters}${listed(list, matched, rows, a.column, plain, figures)}.`);
  }
  if (a.extreme !== null && (a.limit ?? 1) === 1) {
    const best = valueOf(list[0]!);
    const tied = list.filter((r) => valueOf(r) === best);
    const who = joinNames(tied.map((r) => name(String(r[rows.name] ?? ''))));
    const template = tied.length > 1 ? WORDS.level[a.extreme] : WORDS.superlatives[a.column]?.[a.extreme] ?? DEFAULT_TOP[a.extreme];
    const answer = say(fill(template, { who, value: valueWords(a.column, best, plain), amount: figure(a.column, best, plain), label: LABEL[a.column], when, under, filters: withFilters }));
    const top = list[0]!;
    if (tied.length > 1 || typeof top[rows.id] !== 'string') return answer;
    return { ...answer, named: { kind: rows.row === 'fixture' ? 'fixture' : 'player', id: String(top[rows.id]), name: String(top[rows.name] ?? '') } };
  }
  if (a.extreme !== null) {
    const n = Math.min(a.limit ?? NAMED_IN_LIST, list.length);
    const side = a.extreme === 'max' ? 'Top' : 'Bottom';
    const shown = list.slice(0, n).map((r) => `${name(String(r[rows.name] ?? ''))} (${valueWords(a.column, valueOf(r), plain)})`);
    return say(`${side} ${n} by ${LABEL[a.column]}${under}${owing}${when}${withFilters}: ${shown.join(', ')}.`);
  }
  return say(`${capital(`${count(matched, noun)}${under}${owing}${when}${withFilters}`)}${listed(list, matched, rows, a.column, plain, figures)}.`);
}

interface Group {
  name: string;
  rows: number;
  /** The column's sum over the group's rows, in paisa (or the plain count). */
  total: number;
}

/** The groups as the backend added them up over every matched row, or null when the result has none. */
function backendGroups(a: AppliedAsk, output: unknown, rows: RowsDeclaration): Group[] | null {
  const grouped = rows.backend?.grouped;
  const list = (output as Record<string, unknown> | null)?.[grouped?.list ?? ''];
  if (!grouped || !Array.isArray(list)) return null;
  const field = grouped.columns[a.column];
  return (list as Row[]).map((g) => ({
    name: a.groupBy!.by === 'day' ? formatDay(String(g.key)) : name(String(g.name)),
    rows: typeof g.count === 'number' ? g.count : 0,
    total: field !== undefined && typeof g[field] === 'number' ? (g[field] as number) : 0,
  }));
}

/** The largest group first (by rows for a count, else by the column's total; the smallest first when asked), ties by name. */
function ranked(a: AppliedAsk, groups: Group[]): Group[] {
  const measure = (g: Group) => (a.aggregate === 'count' ? g.rows : g.total);
  const sign = a.extreme === 'min' ? 1 : -1;
  return [...groups].sort((x, y) => sign * (measure(x) - measure(y)) || x.name.localeCompare(y.name));
}

/** A complete result's rows added up group by group; days read in the user's timezone. */
function groupsOf(a: AppliedAsk, list: Row[], timezone: string, valueOf: (r: Row) => number): Group[] {
  const { by, field } = a.groupBy!;
  const groups = new Map<string, Group>();
  for (const r of list) {
    const raw = r[field.key];
    if (raw === null || raw === undefined) continue;
    const key = by === 'day' ? localDate(new Date(String(raw)), timezone) : String(raw);
    const named = by === 'day' ? formatDay(key) : name(String(field.name ? r[field.name] ?? key : key));
    const group = groups.get(key) ?? { name: named, rows: 0, total: 0 };
    group.rows += 1;
    group.total += valueOf(r);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The card's caption for grouped rows: what they are grouped by, and each group's figure, as long as a caption holds. */
function groupCaption(a: AppliedAsk, rows: RowsDeclaration, groups: readonly Group[], before: string): string {
  const plain = new Set(rows.plain ?? []);
  const head = `${capital(rows.noun[1])} grouped by ${WORDS.groups[a.groupBy!.by][0]}${before ? ` (${before})` : ''}: `;
  let caption = head;
  for (const [i, g] of groups.entries()) {
    const part = `${i > 0 ? '; ' : ''}${g.name} ${g.rows}${a.aggregate === 'count' ? '' : ` · ${bare(a.column, g.total, plain)}`}`;
    if (caption.length + part.length > CAPTION_MAX - 12) return `${caption}; ${groups.length - i} more`;
    caption += part;
  }
  return caption;
}

/** A card caption's limit (cards' `caption` in the contracts). */
const CAPTION_MAX = 300;

/**
 * Two periods side by side ("pnl this week vs last week"): each period's figure as the backend
 * counted or totalled it over every matched row, and the difference with its sign in words. Null
 * when a period's read failed or holds no such figure.
 */
export function answerComparison(c: AppliedComparison, results: ReadonlyArray<{ tool: string; args: Record<string, unknown>; data: unknown }>, rows: RowsDeclaration): RowAnswer | null {
  const backend = rows.backend;
  if (!backend) return null;
  const path = c.column === null ? backend.matched : backend.totals?.[c.column];
  if (path === undefined) return null;
  const figureOf = (p: Period) => {
    const result = results.find((r) => r.tool === c.tool && r.args.from === p.from && r.args.to === p.to && r.data !== null);
    return result ? numberAt(result.data, path) : null;
  };
  const [first, second] = c.periods.map(figureOf);
  if (first === null || second === null || first === undefined || second === undefined) return null;
  const plain = new Set(rows.plain ?? []);
  const difference = first - second;
  const counted = c.column === null;
  const shown = (value: number) => (counted ? String(value) : c.column !== null && WORDS.signed[c.column] ? valueWords(c.column, value, plain) : figure(c.column!, value, plain));
  const amount = counted ? String(Math.abs(difference)) : figure(c.column!, Math.abs(difference), plain);
  const words = difference === 0 ? WORDS.compare.same : fill(difference > 0 ? (counted ? WORDS.compare.more : WORDS.compare.higher) : counted ? WORDS.compare.fewer : WORDS.compare.lower, { amount });
  const text = fill(WORDS.compare.sentence, {
    subject: capital(counted ? rows.noun[1] : LABEL[c.column!]), first: periodWords(c.periods[0]), second: periodWords(c.periods[1]),
    a: shown(first), b: shown(second), difference: words,
  });
  return { text, caption: '', figures: [counted ? String(Math.abs(difference)) : bare(c.column!, Math.abs(difference), plain)] };
}

/** The total of the column over every matched row: the backend's total, or the rows' own sum when the result is whole. */
function totalOf(a: AppliedAsk, output: unknown, rows: RowsDeclaration, list: Row[], whole: boolean, valueOf: (r: Row) => number): number | null {
  if (whole) return list.reduce((sum, r) => sum + valueOf(r), 0);
  const path = rows.backend?.totals?.[a.column];
  return path ? numberAt(output, path) : null;
}

/** A threshold in words; one below zero on a column with sides says the side: "a loss over 15,000.00 points", not "result under 15,000.00". */
function thresholdWords(f: AppliedAsk['filters'][number], plain: ReadonlySet<ColumnConcept>): string {
  const side = WORDS.negative[f.column];
  if (f.value < 0 && side) return `${side} ${OPS[TURNED[f.op]]} ${figure(f.column, f.value, plain)}`;
  return `${LABEL[f.column]} ${OPS[f.op]} ${figure(f.column, f.value, plain)}`;
}

const TURNED: Record<Comparison, Comparison> = { gt: 'lt', gte: 'lte', lt: 'gt', lte: 'gte' };

function holds(value: unknown, op: Comparison, against: number): boolean {
  if (typeof value !== 'number') return false;
  switch (op) {
    case 'gt': return value > against;
    case 'gte': return value >= against;
    case 'lt': return value < against;
    case 'lte': return value <= against;
  }
}

function nounOf(a: AppliedAsk, rows: RowsDeclaration, n: number): string {
  const [one, many] = a.role === 'agent' ? ['sub-agent', 'sub-agents'] : a.role === 'player' ? ['player', 'players'] : rows.noun;
  return n === 1 ? one : many;
}

const count = (n: number, noun: string) => `${n} ${noun}`;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** A sentence of answers.json with its {slots} filled in one pass: a value (a name) is never read for slots itself. */
function fill(template: string, values: Record<string, string>): string {
  return template.split('{').map((part, i) => {
    if (i === 0) return part;
    const close = part.indexOf('}');
    return close < 0 ? `{${part}` : `${values[part.slice(0, close)] ?? ''}${part.slice(close + 1)}`;
  }).join('');
}

function periodWords(p: { from: string; to: string }): string {
  return p.from === p.to ? `on ${formatDay(p.from)}` : `from ${formatDay(p.from)} to ${formatDay(p.to)}`;
}

function joinNames(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A figure as the sentence writes it: points for money, the number for counts, odds as decimal odds. */
function figure(column: ColumnConcept, value: number, plain: ReadonlySet<ColumnConcept>): string {
  const shown = bare(column, value, plain);
  return column === 'odds' || plain.has(column) ? shown : `${shown} points`;
}

/** A figure without its unit, as the number guard reads figures out of a sentence. */
function bare(column: ColumnConcept, value: number, plain: ReadonlySet<ColumnConcept>): string {
  if (column === 'odds') return `${Math.trunc(value / 100)}.${String(Math.abs(value % 100)).padStart(2, '0')}`;
  return plain.has(column) ? String(value) : money(value);
}

/** A row's figure with its direction, where the column has one: "owes you 1,200.00 points", "lost 300.00 points". */
function valueWords(column: ColumnConcept, value: number, plain: ReadonlySet<ColumnConcept>): string {
  const shown = figure(column, value, plain);
  const signed = WORDS.signed[column];
  if (!signed) return shown;
  return fill(value > 0 ? signed.positive : value < 0 ? signed.negative : signed.zero, { value: shown });
}

/** ": A (v), B (v), and 3 more" for a short list of rows; how many more is a figure computed, added to `figures`. */
function listed(list: Row[], matched: number, rows: RowsDeclaration, column: ColumnConcept, plain: ReadonlySet<ColumnConcept>, figures: string[]): string {
  if (list.length === 0) return '';
  const field = rows.columns[column]!;
  const shown = list.slice(0, NAMED_IN_LIST).map((r) => `${name(String(r[rows.name] ?? ''))} (${valueWords(column, typeof r[field] === 'number' ? (r[field] as number) : 0, plain)})`);
  const more = matched - shown.length;
  if (more > 0) figures.push(String(more));
  return `: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

function captionOf(a: AppliedAsk, rows: RowsDeclaration, filterWords: string, ordered: boolean): string {
  const parts: string[] = [];
  if (filterWords) parts.push(filterWords);
  if (a.direction === 'owes_you') parts.push('owing you');
  if (a.direction === 'you_owe') parts.push('you owe them');
  if (a.direction === 'square') parts.push('square');
  if (a.role) parts.push(a.role === 'agent' ? 'sub-agents only' : 'players only');
  if (ordered) parts.push(`${a.extreme === 'max' ? 'highest' : 'lowest'} ${LABEL[a.column]} first`);
  return parts.length > 0 ? `${capital(rows.noun[1])}: ${parts.join('; ')}` : '';
}
