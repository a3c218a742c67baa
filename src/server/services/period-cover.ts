/**
 * How a period is read from rollups kept per UTC day (and per UTC month where a rollup has them):
 * as signed pieces whose sums add up to exactly the period's. A period in the caller's timezone
 * seldom starts or ends at a UTC midnight, and the rows finer than a day can only be read raw: a
 * part of a day is read either as itself or as the whole day's rollup less the raw rows around it,
 * whichever reads less raw time (the end of "today" is the day less a future with nothing in it);
 * a run of whole days inside a month is either its days or the month less the days outside it.
 * Sums are additive, so subtracting is exact, and integer paisa stay integers.
 */

const DAY_MS = 86_400_000;

/** `times` is +1 or −1: the piece's rows count with that sign. Dates are `YYYY-MM-DD`, [first, after). */
export interface CoverRange { first: string; after: string; times: 1 | -1 }
export interface RawRange { from: Date; to: Date; times: 1 | -1 }
export interface Cover { months: CoverRange[]; days: CoverRange[]; raw: RawRange[] }

const floorDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const monthStart = (t: number) => { const d = new Date(t); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1); };
const nextMonth = (t: number) => { const d = new Date(t); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1); };

/** The signed pieces of [start, end); `months`: the rollup has UTC months too. */
export function coverPeriod(start: Date, end: Date, options: { months: boolean }): Cover {
  const s = start.getTime();
  const e = end.getTime();
  const cover: Cover = { months: [], days: [], raw: [] };
  if (!(e > s)) return cover;
  // Days as a sweep of boundary deltas, so a day added and taken away again cancels.
  const dayDeltas = new Map<number, number>();
  const addDays = (first: number, after: number, times: number) => {
    if (first >= after) return;
    dayDeltas.set(first, (dayDeltas.get(first) ?? 0) + times);
    dayDeltas.set(after, (dayDeltas.get(after) ?? 0) - times);
  };
  const partOfDay = (a: number, b: number) => {
    const day = floorDay(a);
    if (b - a <= (a - day) + (day + DAY_MS - b)) {
      cover.raw.push({ from: new Date(a), to: new Date(b), times: 1 });
      return;
    }
    addDays(day, day + DAY_MS, 1);
    if (a > day) cover.raw.push({ from: new Date(day), to: new Date(a), times: -1 });
    if (b < day + DAY_MS) cover.raw.push({ from: new Date(b), to: new Date(day + DAY_MS), times: -1 });
  };
  const wholeDays = (first: number, after: number) => {
    if (!options.months) return addDays(first, after, 1);
    let wholeMonths: { first: number; after: number } | null = null;
    const flushMonths = () => {
      if (wholeMonths) cover.months.push({ first: dateOf(wholeMonths.first), after: dateOf(wholeMonths.after), times: 1 });
      wholeMonths = null;
    };
    for (let m = monthStart(first); m < after; m = nextMonth(m)) {
      const mEnd = nextMonth(m);
      const from = Math.max(first, m);
      const to = Math.min(after, mEnd);
      const inside = to - from;
      if (inside === mEnd - m || mEnd - m - inside < inside) {
        // The whole month, less the days of it outside the run when it is not all inside.
        if (wholeMonths && wholeMonths.after === m) wholeMonths.after = mEnd;
        else { flushMonths(); wholeMonths = { first: m, after: mEnd }; }
        addDays(m, from, -1);
        addDays(to, mEnd, -1);
      } else {
        addDays(from, to, 1);
      }
    }
    flushMonths();
  };

  const firstWhole = Math.ceil(s / DAY_MS) * DAY_MS;
  const afterWhole = floorDay(e);
  if (firstWhole > afterWhole) {
    partOfDay(s, e);
  } else {
    if (s < firstWhole) partOfDay(s, firstWhole);
    if (afterWhole < e) partOfDay(afterWhole, e);
    wholeDays(firstWhole, afterWhole);
  }

  let net = 0;
  let open: number | null = null;
  for (const at of [...dayDeltas.keys()].sort((a, b) => a - b)) {
    if (open !== null && net !== 0) pushDays(cover, open, at, net);
    net += dayDeltas.get(at)!;
    open = at;
  }
  return cover;
}

function pushDays(cover: Cover, first: number, after: number, net: number): void {
  if (net !== 1 && net !== -1) throw new Error(`a day is counted ${net} times in a period's cover`);
  const last = cover.days[cover.days.length - 1];
  if (last && last.after === dateOf(first) && last.times === net) last.after = dateOf(after);
  else cover.days.push({ first: dateOf(first), after: dateOf(after), times: net });
}
