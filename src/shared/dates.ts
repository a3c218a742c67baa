/**
 * Calendar days in a user's timezone. Instants are stored in UTC; "today", "this week" and
 * "last month" are calendar days of the acting user's IANA timezone, and a day range is
 * inclusive of both ends. Weeks start on Monday.
 */
export type IsoDate = string; // YYYY-MM-DD

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The days the book can be asked about. Nothing in a betting book predates 2000 or lies past
 * 2100, and keeping every computed day far inside JavaScript's and PostgreSQL's date ranges
 * means "the day after" or "the week holding" a day is always representable.
 */
export const FIRST_DAY: IsoDate = '2000-01-01';
export const LAST_DAY: IsoDate = '2100-12-31';

/** A day outside the calendar the book uses: a client's mistake, reported as such, never a crash. */
export class DayOutOfRangeError extends RangeError {
  override name = 'DayOutOfRangeError';
}

export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  // Date.UTC maps years 0–99 to 1900–1999, so such a year never reads back as itself.
  return d.toISOString().slice(0, 10) === value;
}

/** A real calendar day from FIRST_DAY to LAST_DAY. */
export function isBookDay(value: string): boolean {
  return isIsoDate(value) && value >= FIRST_DAY && value <= LAST_DAY;
}

function assertBookDay(day: IsoDate): void {
  if (!isBookDay(day)) throw new DayOutOfRangeError(`${day} is not a calendar date from ${FIRST_DAY} to ${LAST_DAY}`);
}

const formatterCache = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatterCache.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatterCache.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    partsFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

function wallClock(instant: Date, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const parts: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return { y: parts.year!, mo: parts.month!, d: parts.day!, h: parts.hour!, mi: parts.minute!, s: parts.second! };
}

/** Offset of the zone from UTC at that instant, in milliseconds (IST → +19800000). */
function offsetMs(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The calendar day an instant falls on in the zone. */
export function localDate(instant: Date, timeZone: string): IsoDate {
  const w = wallClock(instant, timeZone);
  return `${w.y.toString().padStart(4, '0')}-${pad(w.mo)}-${pad(w.d)}`;
}

function pad(n: number): string {
  return n.toString().padStart(2, '0');
}

/** The UTC instant at which the local day begins (midnight wall-clock, or the first instant after a gap). */
export function startOfLocalDay(day: IsoDate, timeZone: string): Date {
  // The day after LAST_DAY is the end of a range that ends on LAST_DAY.
  if (day !== addDays(LAST_DAY, 1)) assertBookDay(day);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const naive = Date.UTC(y, m - 1, d);
  // Two passes settle the offset across a DST change at midnight.
  let guess = naive - offsetMs(new Date(naive), timeZone);
  guess = naive - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

export function addDays(day: IsoDate, days: number): IsoDate {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Monday = 0 … Sunday = 6. */
export function weekdayIndex(day: IsoDate): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

export function startOfWeek(day: IsoDate): IsoDate {
  return addDays(day, -weekdayIndex(day));
}

export function startOfMonth(day: IsoDate): IsoDate {
  return `${day.slice(0, 7)}-01`;
}

export function endOfMonth(day: IsoDate): IsoDate {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** Inclusive local days → half-open UTC interval [start, end). */
export function dayRangeToInstants(from: IsoDate, to: IsoDate, timeZone: string): { start: Date; end: Date } {
  assertBookDay(from);
  assertBookDay(to);
  if (from > to) throw new DayOutOfRangeError(`the range starts (${from}) after it ends (${to})`);
  return { start: startOfLocalDay(from, timeZone), end: startOfLocalDay(addDays(to, 1), timeZone) };
}

/** ISO week id (e.g. 2026-W46) → its Monday and Sunday. */
export function isoWeekRange(periodId: string): { from: IsoDate; to: IsoDate } {
  const m = /^(\d{4})-W(\d{2})$/.exec(periodId);
  if (!m) throw new DayOutOfRangeError(`not an ISO week: ${periodId}`);
  const year = Number(m[1]);
  const week = Number(m[2]);
  if (year < Number(FIRST_DAY.slice(0, 4)) || year > Number(LAST_DAY.slice(0, 4))) {
    throw new DayOutOfRangeError(`${periodId} is not a week from ${FIRST_DAY.slice(0, 4)} to ${LAST_DAY.slice(0, 4)}`);
  }
  // Week 1 is the week holding January 4th.
  const jan4 = `${year}-01-04`;
  const monday = addDays(startOfWeek(jan4), (week - 1) * 7);
  if (week < 1 || week > 53 || isoWeekId(monday) !== periodId) throw new DayOutOfRangeError(`not an ISO week: ${periodId}`);
  return { from: monday, to: addDays(monday, 6) };
}

export function isoWeekId(day: IsoDate): string {
  const thursday = addDays(startOfWeek(day), 3);
  const year = Number(thursday.slice(0, 4));
  const firstMonday = startOfWeek(`${year}-01-04`);
  const [y1, m1, d1] = firstMonday.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = thursday.split('-').map(Number) as [number, number, number];
  const days = (Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000;
  return `${year}-W${pad(Math.floor(days / 7) + 1)}`;
}
