/**
 * The number guard (AGENT.md, Guards): every figure in an answer's text must be carried by a tool
 * result of the same turn, or be a figure the answer computed from them. A figure that is not is
 * withheld from the text and reported; the cards, built from the results themselves, stay the
 * authority.
 *
 * A figure is read in any form the trade writes one, by the one amount reader
 * (shared/parse/amount.ts): digits ("12,345.00", "1,00,000"), a scale ("1.2 lakh", "2 crore",
 * "50k", "2.5Cr", "1L"), words ("two thousand", "dedh lakh"), a currency or points ("₹5,000",
 * "500 pts"). Money is checked as money: the answer states points, a result holds paisa, so
 * "1,200.00" is carried by 120000 paisa and "120,000" or "1.2 lakh" is not (paisa shown as points,
 * 100× too big). Days, times and percentages are checked as the figures the results write.
 */
import { id } from '../../../shared/contracts/agent-api.js';
import { isIsoDate } from '../../../shared/dates.js';
import { FORMATTED_DAY, formatDate, formatDay, formatPoints } from '../../../shared/format.js';
import { type FoundAmount, findAmounts } from '../../../shared/parse/amount.js';
import { MONEY_FIELDS } from '../../tools/money-fields.js';

/**
 * A written day ("20 Nov 2026") or an ISO day is one figure, checked whole, not as three numbers;
 * a comma is part of a figure only between digits ("18:45, then" ends at the 5).
 */
const FIGURE = new RegExp(`${FORMATTED_DAY.source}|\\d{4}-\\d{2}-\\d{2}|-?\\d(?:,?\\d)*(?:\\.\\d+)?`, 'g');
const DAY = new RegExp(`^(?:${FORMATTED_DAY.source}|\\d{4}-\\d{2}-\\d{2})$`);
/** A figure without its minus sign: a balance of -500 may be written 500 ("owes you 500"). */
const unsigned = (figure: string): string => (figure.startsWith('-') ? figure.slice(1) : figure);
/** An instant as the API writes one ("2026-11-20T18:30:00Z"), whose day the user reads in their own time zone. */
const isInstant = (value: string): boolean => value[10] === 'T' && isIsoDate(value.slice(0, 10));
/** An id as the API writes one: its digit runs are no amounts. */
const isId = (text: string): boolean => id.safeParse(text).success;
export const WITHHELD = '[figure withheld]';

export interface GuardResult {
  text: string;
  flagged: string[];
}

/** What a turn's results carry, as the guard asks it. */
export interface Figures {
  /** Whether the figure is carried as written: a count, a day, a figure the app wrote ("1,200.00", "2.50", "20 Nov 2026"). */
  written(figure: string): boolean;
  /**
   * Whether an amount stated to within `step` paisa is carried as money, or (`count`) as a plain
   * number read the same way, paisa / 100 of them ("2 thousand bets": 200000).
   */
  amount(paisa: number, step: number, as: 'money' | 'count'): boolean;
}

/**
 * A rounded wording stands for every value that rounds to it at the precision it shows: "2 lakh"
 * shows whole lakhs, so it states any value within half a lakh of 2 lakh (1,98,700.00 points is
 * "about 2 lakh"); "1.2 lakh" shows tenths of a lakh; "12,345.00" shows paisa, so it states
 * exactly that. This is the carried value rounded to the wording's last place, stated as a
 * distance so that a wording between places ("dedh lakh", 1.5 lakh said in halves) reads the same way.
 */
const within = (carried: number, stated: number, step: number): boolean => Math.abs(carried - stated) * 2 <= step;

class CarriedFigures implements Figures {
  readonly figures = new Set<string>();
  /** Money the results carry, in paisa, as magnitudes. */
  readonly money = new Set<number>();
  /** The plain numbers (counts, odds, anything not a field of paisa) as paisa of that many points, as magnitudes. */
  readonly counts = new Set<number>();

  written(figure: string): boolean {
    return this.figures.has(figure) || this.figures.has(unsigned(figure));
  }

  amount(paisa: number, step: number, as: 'money' | 'count'): boolean {
    const carried = as === 'money' ? this.money : this.counts;
    if (step <= 1) return carried.has(paisa);
    for (const value of carried) if (within(value, paisa, step)) return true;
    return false;
  }

  /** The texts already read: a result repeats its names on every row. */
  private readonly texts = new Set<string>();

  /**
   * A figure of text (a name, a refusal, a figure the answer computed): carried as written, and
   * each amount in it both ways. False when the text was read before.
   */
  addText(text: string): boolean {
    if (this.texts.has(text)) return false;
    this.texts.add(text);
    for (const m of text.matchAll(FIGURE)) {
      // An ISO day is allowed as the app writes it too; formatDay leaves any other figure as it is.
      this.figures.add(m[0]).add(unsigned(m[0])).add(formatDay(m[0]));
    }
    // An id or an instant is no text anyone reads an amount in.
    if (isId(text) || isInstant(text)) return true;
    for (const a of amountsOf(text)) {
      if (a.paisa === null) continue;
      this.money.add(a.paisa);
      this.counts.add(a.paisa);
    }
    return true;
  }
}

/** The amounts of a text that are not part of a day ("20 Nov 2026" holds no amount 20). */
function amountsOf(text: string): FoundAmount[] {
  const days = [...text.matchAll(FIGURE)].filter((m) => DAY.test(m[0])).map((m) => ({ start: m.index, end: m.index + m[0].length }));
  return findAmounts(text).filter((a) => !days.some((d) => a.start < d.end && a.end > d.start));
}

/**
 * The figures a turn's results allow: `results` (tool data and arguments) and `extra` (figures
 * the answer computed from them, as it writes them). A number in a field of paisa (MONEY_FIELDS)
 * is money, written as points. Any other number is allowed as written, in the forms the app
 * writes it (odds 185 as "1.85"), and as paisa too: a field the schemas do not mark may hold
 * either (a threshold is in its column's unit). Days as the app writes them as well, an instant
 * as its day in `timeZone` (the user's).
 */
export function allowedFigures(results: unknown[], extra: string[] = [], timeZone = 'UTC'): Figures {
  const carried = new CarriedFigures();
  for (const figure of extra) carried.addText(figure);
  const number = (value: number, field: string | null): void => {
    if (!Number.isFinite(value)) return;
    const abs = Math.abs(value);
    const money = field !== null && MONEY_FIELDS.has(field);
    if (Number.isSafeInteger(value)) {
      carried.figures.add(formatPoints(value)).add(formatPoints(abs)).add(formatPoints(abs).replaceAll(',', ''));
      carried.money.add(abs);
    }
    // Paisa are never written as they are: the answer states points.
    if (money) return;
    carried.figures.add(String(value)).add(String(abs)).add(abs.toLocaleString('en-US'));
    if (Number.isSafeInteger(abs * 100)) carried.counts.add(abs * 100);
  };
  const visit = (value: unknown, field: string | null): void => {
    if (typeof value === 'number') number(value, field);
    else if (typeof value === 'string') {
      if (carried.addText(value) && isInstant(value)) carried.figures.add(formatDate(value, timeZone));
    } else if (Array.isArray(value)) {
      // How many rows came back is a fact of the result too ("12 players").
      number(value.length, null);
      for (const item of value) visit(item, field);
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) visit(inner, key);
    }
  };
  for (const result of results) visit(result, null);
  return carried;
}

/** Whether a bare figure stands as part of a time or a percentage ("18:30", "12.5%"): it is checked only as written. */
function timeOrPercent(text: string, start: number, end: number): boolean {
  return text[start - 1] === ':' || text[end] === ':' || /^\s*(?:%|percent\b|per cent\b|pc\b)/i.test(text.slice(end, end + 9));
}

export function guardNumbers(text: string, allowed: Figures): GuardResult {
  /** Each figure of the text, where it stands, and whether it is carried. */
  const checks: Array<{ start: number; end: number; figure: string; carried: boolean }> = [];
  const amounts = amountsOf(text);
  const bare = new Map<number, FoundAmount>();
  for (const a of amounts) {
    if (a.written === 'digits' && !a.money) {
      bare.set(a.start, a);
      continue;
    }
    // "zero" said in words is no figure of a result ("zero bets", "zero in"), as it was never read as one.
    if (a.paisa === 0 && a.written === 'words') continue;
    // A scale, words, a currency or points: the amount is checked whole ("2 lakh" is not carried by a 2).
    // A currency or points says money; otherwise it may be a count as well ("two thousand bets").
    const carried = a.paisa !== null && (allowed.amount(a.paisa, a.step, 'money') || (!a.money && allowed.amount(a.paisa, a.step, 'count')));
    checks.push({ start: a.start, end: a.end, figure: a.raw, carried });
  }
  const inAmount = (start: number, end: number) => checks.some((c) => start < c.end && end > c.start);
  for (const m of text.matchAll(FIGURE)) {
    const figure = m[0];
    const start = m.index;
    const end = start + figure.length;
    if (inAmount(start, end)) continue;
    if (allowed.written(figure)) {
      checks.push({ start, end, figure, carried: true });
      continue;
    }
    // Digits alone are also points: "1,200" or "1,200.00" states 120000 paisa, to the paisa its last place shows.
    const a = bare.get(start);
    const carried = a !== undefined && a.paisa !== null && unsigned(a.raw) === unsigned(figure) && !timeOrPercent(text, start, end)
      && allowed.amount(a.paisa, a.step, 'money');
    checks.push({ start, end, figure, carried });
  }
  const flagged: string[] = [];
  let out = '';
  let at = 0;
  for (const c of checks.sort((x, y) => x.start - y.start)) {
    if (c.carried) continue;
    flagged.push(c.figure);
    out += text.slice(at, c.start) + WITHHELD;
    at = c.end;
  }
  return { text: out + text.slice(at), flagged };
}
