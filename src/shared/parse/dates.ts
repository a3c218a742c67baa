/**
 * Date phrases of a question → an inclusive range of calendar days, relative to `today` in the
 * user's own timezone (the caller computes `today` with `localDate`). DOMAIN.md: weeks start on
 * Monday; "this week" / "this month" run to today; "last N days" is today and the N − 1 before.
 */
import { type IsoDate, addDays, endOfMonth, isIsoDate, startOfMonth, startOfWeek, weekdayIndex } from '../dates.js';

export interface FoundRange {
  from: IsoDate;
  to: IsoDate;
  raw: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
// A month word must end there: "5 markets" is not the 5th of March.
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b`;
// Alone, without "in"/"for", only a full month name counts, and never "may" (a verb too).
const FULL_MONTH = String.raw`(january|february|march|april|june|july|august|september|october|november|december)\b`;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const WEEKDAY = String.raw`(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)`;
// A single day: 2026-11-20 | 20/11/2026 | 20/11 | 20 nov [2026] | nov 20[,] [2026] (day-first, as in India)
const DAY = String.raw`(\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|\d{1,2}(?:st|nd|rd|th)?\s+${MONTH}(?:,?\s+\d{4})?|${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4})?)`;

const monthIndex = (word: string) => MONTHS.indexOf(word.slice(0, 3).toLowerCase());
const pad = (n: number) => n.toString().padStart(2, '0');

/** A month named without a year is the latest one not after today's month. */
function yearFor(month: number, today: IsoDate): number {
  const year = Number(today.slice(0, 4));
  return month + 1 > Number(today.slice(5, 7)) ? year - 1 : year;
}

function parseDay(text: string, today: IsoDate): IsoDate | null {
  const t = text.trim().replace(/(\d)(st|nd|rd|th)\b/, '$1').replace(',', '');
  let m: RegExpExecArray | null;
  let y: number; let mo: number; let d: number;
  if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t))) [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  else if ((m = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?$/.exec(t))) {
    [d, mo] = [Number(m[1]), Number(m[2]) - 1];
    y = m[3] ? (m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3])) : yearFor(mo, today);
  } else if ((m = new RegExp(`^(\\d{1,2})\\s+${MONTH}(?:\\s+(\\d{4}))?$`).exec(t))) {
    [d, mo] = [Number(m[1]), monthIndex(m[2]!)];
    y = m[3] ? Number(m[3]) : yearFor(mo, today);
  } else if ((m = new RegExp(`^${MONTH}\\s+(\\d{1,2})(?:\\s+(\\d{4}))?$`).exec(t))) {
    [mo, d] = [monthIndex(m[1]!), Number(m[2])];
    y = m[3] ? Number(m[3]) : yearFor(mo, today);
  } else return null;
  const iso = `${y.toString().padStart(4, '0')}-${pad(mo + 1)}-${pad(d)}`;
  return isIsoDate(iso) ? iso : null;
}

type Rule = [RegExp, (m: RegExpExecArray, today: IsoDate) => { from: IsoDate; to: IsoDate } | null];

const RULES: Rule[] = [
  [new RegExp(String.raw`\b(?:from|between)\s+${DAY}\s+(?:to|till|until|and|-)\s+${DAY}`, 'i'), (m, today) => {
    // Each DAY group carries two inner month groups, so the second day is the fourth group.
    const from = parseDay(m[1]!, today);
    const to = parseDay(m[4]!, today);
    return from && to ? { from, to } : null;
  }],
  [new RegExp(String.raw`\b(\d{1,2})\s*(?:-|to)\s*(\d{1,2})\s+${MONTH}(?:\s+(\d{4}))?\b`, 'i'), (m, today) => {
    const mo = monthIndex(m[3]!);
    const y = m[4] ? Number(m[4]) : yearFor(mo, today);
    const from = `${y}-${pad(mo + 1)}-${pad(Number(m[1]))}`;
    const to = `${y}-${pad(mo + 1)}-${pad(Number(m[2]))}`;
    return isIsoDate(from) && isIsoDate(to) ? { from, to } : null;
  }],
  [/\bday before yesterday\b/i, (_m, t) => ({ from: addDays(t, -2), to: addDays(t, -2) })],
  [/\byesterday\b/i, (_m, t) => ({ from: addDays(t, -1), to: addDays(t, -1) })],
  [/\b(?:today|tonight|so far today)\b/i, (_m, t) => ({ from: t, to: t })],
  [/\b(?:last|past|previous)\s+(\d{1,3})\s+days?\b/i, (m, t) => ({ from: addDays(t, -(Math.max(1, Number(m[1])) - 1)), to: t })],
  [/\b(?:last|past|previous)\s+(\d{1,2})\s+weeks?\b/i, (m, t) => ({ from: addDays(t, -(7 * Number(m[1])) + 1), to: t })],
  [/\b(?:this|current)\s+week\b|\bwtd\b|\bweek to date\b/i, (_m, t) => ({ from: startOfWeek(t), to: t })],
  [/\b(?:last|previous|prev)\s+week\b/i, (_m, t) => ({ from: addDays(startOfWeek(t), -7), to: addDays(startOfWeek(t), -1) })],
  [/\b(?:this|current)\s+month\b|\bmtd\b|\bmonth to date\b/i, (_m, t) => ({ from: startOfMonth(t), to: t })],
  [/\b(?:last|previous|prev)\s+month\b/i, (_m, t) => {
    const lastMonthEnd = addDays(startOfMonth(t), -1);
    return { from: startOfMonth(lastMonthEnd), to: lastMonthEnd };
  }],
  [/\b(?:this|current)\s+year\b|\bytd\b/i, (_m, t) => ({ from: `${t.slice(0, 4)}-01-01`, to: t })],
  [/\b(?:last|previous)\s+year\b/i, (_m, t) => {
    const y = Number(t.slice(0, 4)) - 1;
    return { from: `${y}-01-01`, to: `${y}-12-31` };
  }],
  [new RegExp(String.raw`\bsince\s+(?:last\s+)?${WEEKDAY}\b`, 'i'), (m, t) => {
    const wanted = WEEKDAYS.findIndex((w) => w.startsWith(m[1]!.toLowerCase().slice(0, 3)));
    const back = (weekdayIndex(t) - wanted + 7) % 7;
    return { from: addDays(t, -back), to: t };
  }],
  [new RegExp(String.raw`\bsince\s+${DAY}`, 'i'), (m, t) => {
    const from = parseDay(m[1]!, t);
    return from ? { from, to: t } : null;
  }],
  [new RegExp(String.raw`\b(?:on|for)?\s*${DAY}`, 'i'), (m, t) => {
    const day = parseDay(m[1]!, t);
    return day ? { from: day, to: day } : null;
  }],
  [new RegExp(String.raw`\b(?:(?:in|for|during|of)\s+${MONTH}|${FULL_MONTH})(?:\s+(\d{4}))?`, 'i'), (m, t) => {
    const mo = monthIndex((m[1] ?? m[2])!);
    const y = m[3] ? Number(m[3]) : yearFor(mo, t);
    const from = `${y}-${pad(mo + 1)}-01`;
    const end = endOfMonth(from);
    return { from, to: end < t ? end : t };
  }],
];

/** The date phrase of the text (the most specific rule that matches), or null when there is none or it is impossible. */
export function findDateRange(text: string, today: IsoDate): FoundRange | null {
  const lower = text.toLowerCase();
  for (const [pattern, resolve] of RULES) {
    const m = pattern.exec(lower);
    if (!m) continue;
    // The most specific phrase that matched decides: an impossible day ("31 Feb") or a reversed
    // range is refused, not read again as something vaguer ("Feb").
    const range = resolve(m, today);
    return range && range.from <= range.to ? { ...range, raw: m[0].trim() } : null;
  }
  return null;
}
