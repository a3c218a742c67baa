/**
 * Date phrases of a question → an inclusive range of calendar days, relative to `today` in the
 * user's own timezone (the caller computes `today` with `localDate`). DOMAIN.md: weeks start on
 * Monday; "this week" / "this month" run to today; "last N days" is today and the N − 1 before.
 *
 * Calendar days ("14 Nov", "Nov 14th", "20/11", "2026-10-28", "friday", "5-8 Oct") are recognised
 * by chrono-node; the periods of the trade ("last week", "past 3 weeks", "last fortnight",
 * "till date", Hinglish "pichle hafte") and the joining of two days into a range are domain rules
 * here, because chrono reads every one of them as a single instant ("last week" → 7 days ago),
 * and a range read as one day is a wrong answer that looks right.
 *
 * The words of dates are data (lexicon/dates.json, read by date-words.ts): a rule here asks for
 * concepts ("a past modifier, a count, a unit of days") and numbers at a token, never for a
 * spelling, so a new wording is a new entry. tests/shared/date-corpus.jsonl holds what each
 * concept reads to.
 *
 * Choices the domain leaves open, made here:
 * - a weekday alone ("on friday") is the latest one not after today; "last friday" the latest
 *   before today; "friday last week" the Friday of last week; "this friday" this week's Friday;
 * - an ordinal without a month ("since the 4th", "2nd to 9th") is in this month unless that day is
 *   after today, then last month's; in a range the start may fall in the month before the end;
 * - a day or a month without a year is the latest one not after today; in a range the end is
 *   placed so and the start is put before it;
 * - "last/past fortnight" is today and the 13 days before; "this fortnight" is last week's Monday
 *   to today; "last N months" is this month and the N − 1 before, to today;
 * - "till date" / "to date" / "so far" alone is this month to today; after a period
 *   ("this year till date", "since 1 Nov so far") it only says the period runs to today;
 * - Hinglish words are read as a question about the past: "kal" is yesterday, "parso" the day
 *   before; a regional "this" or "last" (Hindi, Gujarati, Marathi) makes a period only with a
 *   unit of its own language: Marathi "ya" (this) is Hindi "or", so "ya mahinyat" is this month
 *   but "week ya month" is no period;
 * - an ordinal in words ("on the fourteenth", "from the tenth to the twenty-first") is read as the
 *   same ordinal in digits;
 * - a period word one slip from its spelling ("last weak", "yesterdy") is that word where no
 *   English word is meant (PERIOD_SPELLING).
 */
import { Chrono, en, type ParsedComponents, type Parser } from 'chrono-node';
import { type IsoDate, addDays, endOfMonth, isIsoDate, startOfMonth, startOfWeek, weekdayIndex } from '../dates.js';
import { numberWords, ordinalWords } from './amount.js';
import { type DateConcept, DATE_LEXICON, Words, isAlnum, isDigits, isLetters, tokenize } from './date-words.js';
import { matchPhrases, phraseTable } from './phrases.js';

export interface FoundRange {
  from: IsoDate;
  to: IsoDate;
  /** The phrase as it stands in the text, lower-cased: callers blank it out. */
  raw: string;
}

type Span = { from: IsoDate; to: IsoDate };

const conceptNumber = (c: DateConcept) => Number(c.slice(c.indexOf(':') + 1));
/** Month words → 0-based month. */
const MONTH_OF: ReadonlyMap<string, number> = new Map(DATE_LEXICON.filter((e) => e.concept.startsWith('month:'))
  .map((e) => [e.phrase, conceptNumber(e.concept) - 1]));
/** Alone, without "in"/"for", only a month's full name counts, and never "may" (a verb too). */
const FULL_MONTHS: ReadonlySet<string> = new Set([...MONTH_OF].filter(([w, m]) => m !== 4
  && [...MONTH_OF].every(([o, n]) => n !== m || o.length <= w.length)).map(([w]) => w));
/** Weekday words → Monday = 0 … Sunday = 6. */
const WEEKDAY_OF: ReadonlyMap<string, number> = new Map(DATE_LEXICON.filter((e) => e.concept.startsWith('weekday:'))
  .map((e) => [e.phrase, conceptNumber(e.concept) - 1]));
const FULL_WEEKDAYS: readonly string[] = Array.from({ length: 7 }, (_, d) => [...WEEKDAY_OF].filter(([, n]) => n === d)
  .reduce((a, [w]) => (w.length > a.length ? w : a), ''));
/** "sun", "sat", "wed" alone are words and names too ("Sun Pharma", Hindi "sat" = 7). */
const SHORT_WEEKDAYS: ReadonlySet<string> = new Set([...WEEKDAY_OF.keys()].filter((w) => w.length === 3));
const ORD_SUFFIX: ReadonlySet<string> = new Set(['st', 'nd', 'rd', 'th']);

// Words of the sentence around a date, not of dates: where a date is expected, or what a number
// after a day word counts.
const PRONOUNS: ReadonlySet<string> = new Set(['i', 'you', 'he', 'she', 'we', 'they', 'it', 'who', 'which', 'that']);
const AMOUNT_AFTER = new Set(['hazar', 'hazaar', 'hajar', 'hajaar', 'lakh', 'lakhs', 'lac', 'lacs', 'crore', 'crores', 'thousand', 'hundred', 'sau']);
/** What starts a word of an amount: "k", "lakh", "cr", "thousand", "hazaar". */
const SHORT_AMOUNT_AFTER = ['k', 'l', 'cr', 'thousand', 'hazar', 'hazaar'];
/** Before a day said bare ("on sat", "since the 4th", "2nd to …"). */
const DAY_LEAD = new Set(['on', 'since', 'from', 'between', 'after', 'before', 'till', 'until', 'to', 'and', '-', '–']);
const DASHES = new Set(['-', '–']);
const JOINS = new Set(['to', 'till', 'until', 'and']);
/** After a word ordinal that is a day's: "since the first", "on the fourteenth for rahul". */
const AFTER_WORD_ORDINAL = new Set(['of', 'to', 'till', 'until', 'upto', 'through', 'thru', 'and', 'onward', 'onwards', 'se', 'tak',
  'ko', 'ka', 'ki', 'ke', 'for', 'please', 'pls', 'plz', 'me', 'mein', 'how', 'what', '?', '.', '!', ',', ';', ':', ')', '-', '–', '—']);
/** "for the week before", "in the week of 10 Nov": the period is placed by what follows. */
const PLACED_AFTER = ['before', 'after', 'prior', 'earlier', 'of', 'ending', 'starting', 'from', 'that', 'when'];

/** A count of days, weeks or months in words ("last two days", "pichle teen hafte"). */
const COUNT_WORDS = numberWords(true);
// Ordinals in words ("fourteenth", "twenty-first", "twenty first") as phrases of the one matcher.
const ORDINAL_WORDS = ordinalWords();
const ORDINALS = phraseTable(Object.entries(ORDINAL_WORDS).flatMap(([w, n]) => {
  const parts = w.split(' ');
  return parts.length === 1 ? [[w, n] as const] : [[w, n] as const, [parts.join(' - '), n] as const, [parts.join(''), n] as const];
}));

const pad = (n: number) => n.toString().padStart(2, '0');
const iso = (y: number, mo: number, d: number) => `${y.toString().padStart(4, '0')}-${pad(mo + 1)}-${pad(d)}`;

/** A month named without a year is the latest one not after today's month. */
function yearFor(month: number, today: IsoDate): number {
  const year = Number(today.slice(0, 4));
  return month + 1 > Number(today.slice(5, 7)) ? year - 1 : year;
}

/** A token is a whole word: nothing of a word touches its end. */
const wordEnds = (W: Words, i: number) => !(W.toks[i + 1] && !W.toks[i + 1]!.spaced && isAlnum(W.w(i + 1)));
/** Token i is one of `set`, as a whole word when it is a word. */
const isIn = (W: Words, i: number, set: ReadonlySet<string>) => set.has(W.w(i) ?? '') && (!isAlnum(W.w(i)) || wordEnds(W, i));
/** A dash joined to a word on its left ("5-8"), as a word boundary before it requires. */
const dashAfterWord = (W: Words, i: number) => DASHES.has(W.w(i) ?? '') && i > 0 && !W.toks[i]!.spaced && isAlnum(W.w(i - 1));
/** The token at i is where "onwards" / "on wards" stands; the index past it. */
function onwardsAt(W: Words, i: number): number {
  const m = W.at(i, 'onwards');
  return m ? m.end : -1;
}
/** A phrase of "till today" at i: the index past it. */
function tillNowAt(W: Words, i: number): number {
  const m = W.at(i, 'till_now');
  return m && wordEnds(W, m.end - 1) ? m.end : -1;
}
/** A number of 1 to `digits` digits, or a count in words, at i. */
function countAt(W: Words, i: number, digits: number): number | null {
  const w = W.w(i);
  if (isDigits(w)) return w.length <= digits && wordEnds(W, i) ? Number(w) : null;
  return w !== undefined && COUNT_WORDS[w] !== undefined ? COUNT_WORDS[w] : null;
}
/** A day number of one or two digits at i, a word on its own, with its ordinal's ending: the index past it. */
function dayNumberAt(W: Words, i: number, suffix: 'optional' | 'required'): { day: number; end: number } | null {
  const w = W.w(i);
  if (!isDigits(w) || w.length > 2) return null;
  if (i > 0 && !W.toks[i]!.spaced && isAlnum(W.w(i - 1))) return null;
  const hasSuffix = ORD_SUFFIX.has(W.w(i + 1) ?? '') && !W.toks[i + 1]!.spaced;
  if (suffix === 'required' && !hasSuffix) return null;
  const end = hasSuffix ? i + 2 : i + 1;
  return wordEnds(W, end - 1) ? { day: Number(w), end } : null;
}

// ---------------------------------------------------------------------------------------------
// Day-looking text, checked before anything else so that an impossible day ("31 Feb", "30/2")
// is refused instead of being read as something vaguer ("Feb") or skipped.

/** The day the tokens from i say in one of the day forms, and where it ends; null when none starts there. */
function dayLike(W: Words, i: number, today: IsoDate): { end: number; valid: boolean } | null {
  const t = W.toks;
  const w = (k: number) => W.w(k);
  const joined = (k: number) => t[k] !== undefined && !t[k]!.spaced;
  const spacedAt = (k: number) => t[k] !== undefined && t[k]!.spaced;
  // Nothing of a number, a slash, a dot or a dash touches its start; no digit or slash its end.
  if (i > 0 && joined(i) && (isDigits(w(i - 1)) || ['/', '.', '-'].includes(w(i - 1)!))) return null;
  const endsClean = (e: number) => !(joined(e) && (isDigits(w(e)) || w(e) === '/' || (w(e) === '.' && joined(e + 1) && isDigits(w(e + 1)))));
  const yearAt = (k: number): { year: number; end: number } | null => {
    let y = k;
    if (w(y) === ',' && joined(y)) y++;
    return spacedAt(y) && isDigits(w(y)) && w(y)!.length === 4 && endsClean(y + 1) ? { year: Number(w(y)), end: y + 1 } : null;
  };
  const check = (y: number | null, mo: number, d: number, today2: IsoDate, yearSaid: boolean) => {
    const year = y ?? yearFor(mo, today2);
    // With no year given, 29 Feb is possible in some year; the year chosen decides below.
    return isIsoDate(iso(year, mo, d)) || (d === 29 && mo === 1 && !yearSaid);
  };
  const a = w(i);
  if (isDigits(a)) {
    if (a.length === 4 && w(i + 1) === '-' && joined(i + 1) && isDigits(w(i + 2)) && w(i + 2)!.length === 2 && joined(i + 2)
      && w(i + 3) === '-' && joined(i + 3) && isDigits(w(i + 4)) && w(i + 4)!.length === 2 && joined(i + 4) && endsClean(i + 5)) {
      return { end: i + 5, valid: check(Number(a), Number(w(i + 2)) - 1, Number(w(i + 4)), today, true) };
    }
    if (a.length > 2) return null;
    if (w(i + 1) === '/' && joined(i + 1) && isDigits(w(i + 2)) && w(i + 2)!.length <= 2 && joined(i + 2)) {
      const [d, mo] = [Number(a), Number(w(i + 2)) - 1];
      if (w(i + 3) === '/' && joined(i + 3) && isDigits(w(i + 4)) && joined(i + 4)) {
        const ys = w(i + 4)!;
        if (ys.length < 2 || ys.length > 4 || !endsClean(i + 5)) return null;
        return { end: i + 5, valid: check(ys.length === 2 ? 2000 + Number(ys) : Number(ys), mo, d, today, true) };
      }
      return endsClean(i + 3) ? { end: i + 3, valid: check(null, mo, d, today, false) } : null;
    }
    const n = dayNumberAt(W, i, 'optional');
    if (!n) return null;
    let k = n.end;
    if (!spacedAt(k)) return null;
    if (w(k) === 'of' && spacedAt(k + 1)) k++;
    const mo = MONTH_OF.get(w(k) ?? '');
    if (mo === undefined || !wordEnds(W, k)) return null;
    const year = yearAt(k + 1);
    if (year) return { end: year.end, valid: check(year.year, mo, n.day, today, true) };
    return endsClean(k + 1) ? { end: k + 1, valid: check(null, mo, n.day, today, false) } : null;
  }
  const mo = MONTH_OF.get(a ?? '');
  if (mo === undefined || !wordEnds(W, i) || !spacedAt(i + 1)) return null;
  const n = dayNumberAt(W, i + 1, 'optional');
  if (!n) return null;
  const year = yearAt(n.end);
  if (year) return { end: year.end, valid: check(year.year, mo, n.day, today, true) };
  return endsClean(n.end) ? { end: n.end, valid: check(null, mo, n.day, today, false) } : null;
}

function impossibleDay(W: Words, today: IsoDate): boolean {
  for (let i = 0; i < W.toks.length; i++) {
    const d = dayLike(W, i, today);
    if (!d) continue;
    if (!d.valid) return true;
    i = d.end - 1;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Calendar days, by chrono.

/**
 * chrono's casual British (day-first) English, less every parser that reads a time, a duration
 * or a relative instant: "from 1 Nov" must not become "1 o'clock", "for 3 days" is not a date,
 * and the periods are the domain's. Parsers are told apart by what they read, not by their class
 * names, which the renderer's minifier rewrites.
 */
function dayRecognizer(): Chrono {
  const ref = new Date(Date.UTC(2026, 0, 14, 12));
  const reads = (parser: Parser, probe: string) => new Chrono({ parsers: [parser], refiners: [] }).parse(probe, ref).length > 0;
  const probes = ['at 5', 'from 1 to 5', '5pm', '17:30', 'for 3 days', 'within 3 days', '3 days ago', 'in 3 days',
    '3 days later', 'last week', 'next month', 'this year', 'today', 'yesterday', 'now', 'tonight', 'this morning',
    'end of this month', 'october', 'in october', 'october 2025', 'noon', 'this 3 days', 'next 3 days', 'past 3 days', '3 days from now'];
  // The British reading skips "Dec 28" as if 28 were a year ('28); the American one of a month
  // name before its day has no such doubt, and day-first slashes stay British.
  const monthThenDay = en.configuration.createCasualConfiguration(false).parsers
    .filter((parser) => reads(parser, 'dec 28') && probes.every((probe) => !reads(parser, probe)));
  const config = en.configuration.createCasualConfiguration(true);
  config.parsers = config.parsers
    .filter((parser) => !reads(parser, 'oct 5') && probes.every((probe) => !reads(parser, probe)))
    .concat(monthThenDay);
  return new Chrono(config);
}

let recognizer: Chrono | null = null;

/** A day as said: the parts given, and which of them were. */
interface Said {
  day: number;
  month: number | null; // 0-based; null for an ordinal alone ("the 4th")
  year: number | null;
}

interface Mention {
  start: number;
  end: number;
  /** A calendar day or a weekday; a range when chrono read one ("5-8 Oct", "Oct 5 to Oct 8"). */
  from: Said | Weekday;
  to: Said | Weekday | null;
}

interface Weekday {
  weekday: number; // chrono's: Sunday = 0
  text: string;
}

function said(c: ParsedComponents): Said | null {
  if (!c.isCertain('day') || !c.isCertain('month')) return null;
  return { day: c.get('day')!, month: c.get('month')! - 1, year: c.isCertain('year') ? c.get('year')! : null };
}

// An ordinal with no month is a date only where a date is expected: "since the 4th", "on the
// 4th", "2nd to 9th", "the 4th onwards", "the 4th of last month" — never "the 5th bet". Said in
// words ("on the fourteenth", "from the tenth to the twenty-first") it reads the same.

/** A day's word stands before `pos`: "on", "since", "to", a dash joined to the word before it … */
function leadsDay(W: Words, pos: number): boolean {
  const j = W.before(pos);
  if (j < 0) return false;
  return DASHES.has(W.w(j)!) ? dashAfterWord(W, j) : DAY_LEAD.has(W.w(j)!);
}

/** A run of days goes on from token i: "onwards", "to", "till", "-", "and", Hindi "se". */
function trailsDay(W: Words, i: number): boolean {
  const w = W.w(i) ?? '';
  return onwardsAt(W, i) >= 0 || DASHES.has(w) || (['to', 'till', 'until', 'and', 'se'].includes(w) && wordEnds(W, i));
}

/** A word ordinal opens a run of days at i: "onwards", "se", or "to" and a day or a month. */
function opensRun(W: Words, i: number): boolean {
  const w = W.w(i) ?? '';
  if (onwardsAt(W, i) >= 0 || (w === 'se' && wordEnds(W, i))) return true;
  if (!JOINS.has(w) && !DASHES.has(w)) return false;
  let k = i + 1;
  if (W.w(k) === 'the' && W.toks[k + 1]?.spaced) k++;
  return isDigits(W.w(k)) || ordinalWordsAt(W).has(k) || (MONTH_OF.has(W.w(k) ?? '') && wordEnds(W, k));
}

const ordinalCache = new WeakMap<Words, Map<number, { day: number; end: number }>>();
function ordinalWordsAt(W: Words): Map<number, { day: number; end: number }> {
  let m = ordinalCache.get(W);
  if (!m) {
    m = new Map(matchPhrases(ORDINALS, W.toks.map((t) => t.w)).map((p) => [p.from, { day: p.values[0]!, end: p.to }]));
    ordinalCache.set(W, m);
  }
  return m;
}

/** An ordinal from token i ("the 4th", "fourteenth", "the 3rd of last month"). */
function ordinalAt(W: Words, i: number): { end: number; day: number; word: boolean; month: string | null } | null {
  const t = W.toks;
  if (i > 0 && !t[i]!.spaced && (isAlnum(W.w(i - 1)) || W.w(i - 1) === '/' || W.w(i - 1) === '.')) return null;
  // The units of "twenty-first" are no day of their own.
  const before = W.text.slice(0, t[i]!.start);
  if (['twenty', 'thirty'].some((tens) => [' ', '-', '\t'].some((sep) => before.endsWith(tens + sep)))) return null;
  let k = i;
  if (W.w(i) === 'the' && t[i + 1]?.spaced) k = i + 1;
  const digits = dayNumberAt(W, k, 'required');
  const word = digits ? null : ordinalWordsAt(W).get(k);
  if (!digits && !(word && wordEnds(W, word.end - 1))) return null;
  const end = digits ? digits.end : word!.end;
  const day = digits ? digits.day : word!.day;
  if (W.w(end) === 'of' && t[end]!.spaced && ['this', 'last', 'the'].includes(W.w(end + 1) ?? '') && t[end + 1]!.spaced
    && W.w(end + 2) === 'month' && t[end + 2]!.spaced && wordEnds(W, end + 2)) {
    return { end: end + 3, day, word: !digits, month: W.w(end + 1)! };
  }
  return { end, day, word: !digits, month: null };
}

function mentions(W: Words): Mention[] {
  recognizer ??= dayRecognizer();
  const lower = W.text;
  const found: Mention[] = [];
  // Noon UTC of a fixed day: chrono's guesses of what was not said are replaced below by the
  // domain's, so only what the text says is taken from it.
  for (const r of recognizer.parse(lower, new Date(Date.UTC(2026, 0, 14, 12)))) {
    let end = r.index + r.text.length;
    const first = W.after(r.index);
    const before = W.before(r.index);
    // "I may 25 …" is a verb.
    if (W.w(first) === 'may' && W.toks[first]!.spaced && PRONOUNS.has(W.w(before) ?? '')) continue;
    const from = said(r.start);
    if (from) {
      const to = r.end ? said(r.end) : null;
      if (r.end && !to) continue;
      // A bare two-digit number after a month word is a count, not a year: "5 oct 20 bets".
      const rt = tokenize(r.text);
      const last = rt.at(-1);
      if (from.year !== null && rt.length >= 2 && last?.spaced && isDigits(last.w) && last.w.length === 2) {
        let k = rt.length - 2;
        if (rt[k]!.w === ',') k--;
        const word = rt[k];
        if (word && (isLetters(word.w) || word.w === '.')) {
          end = r.index + word.end;
          from.year = null;
          if (to) to.year = null;
        }
      }
      found.push({ start: r.index, end, from, to });
    } else if (r.start.isCertain('weekday') && !r.start.isCertain('day')) {
      const weekday = (c: ParsedComponents) => ({ weekday: c.get('weekday')!, text: r.text });
      if (r.end && !r.end.isCertain('weekday')) continue;
      // A short weekday counts only where a day is expected.
      const next = W.after(end);
      const joinsOn = JOINS.has(W.w(next) ?? '') ? wordEnds(W, next) : DASHES.has(W.w(next) ?? '') && W.toks[next + 1] !== undefined && !W.toks[next + 1]!.spaced && isAlnum(W.w(next + 1));
      if (SHORT_WEEKDAYS.has(r.text) && !leadsDay(W, r.index) && !joinsOn) continue;
      if ((r.text === 'sat' || r.text === 'sun') && isIn(W, next, AMOUNT_AFTER)) continue;
      found.push({ start: r.index, end, from: weekday(r.start), to: r.end ? weekday(r.end) : null });
    }
  }
  for (let i = 0; i < W.toks.length; i++) {
    const o = ordinalAt(W, i);
    if (!o) continue;
    const start = W.toks[i]!.start;
    const end = W.toks[o.end - 1]!.end;
    i = o.end - 1;
    if (found.some((f) => start < f.end && end > f.start)) continue;
    const lead = leadsDay(W, start);
    if (!o.month && !lead && !trailsDay(W, o.end)) continue;
    const afterWord = o.end >= W.toks.length || isIn(W, o.end, AFTER_WORD_ORDINAL) || onwardsAt(W, o.end) >= 0;
    if (o.word && !o.month && !opensRun(W, o.end) && !(lead && afterWord)) continue;
    const day: Said = { day: o.day, month: null, year: null };
    // "of last month" is carried as a month one before the ordinal's own, resolved in `place`.
    found.push({ start, end, from: o.month === 'last' ? { ...day, month: -1 } : day, to: null });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** A said day placed on the calendar: the latest not after `notAfter` where parts are missing. */
function place(s: Said, notAfter: IsoDate): IsoDate | null {
  if (s.month === null || s.month === -1) {
    // An ordinal alone: this month's if not after the bound, else the month before's.
    let monthStart = startOfMonth(notAfter);
    if (s.month === -1 || s.day > Number(notAfter.slice(8, 10))) monthStart = startOfMonth(addDays(monthStart, -1));
    const day = `${monthStart.slice(0, 8)}${pad(s.day)}`;
    return isIsoDate(day) ? day : null;
  }
  const year = s.year ?? yearFor(s.month, notAfter);
  const day = iso(year, s.month, s.day);
  return isIsoDate(day) ? day : null;
}

/** Two said days as a range: missing parts of the start come from the end, which is placed first. */
function placeRange(a: Said, b: Said, today: IsoDate): Span | null {
  const to = place(b.month === null && a.month !== null && a.month !== -1 ? { ...b, month: a.month, year: a.year } : b, today);
  if (!to) return null;
  const toYear = Number(to.slice(0, 4));
  const toMonth = Number(to.slice(5, 7)) - 1;
  let from: IsoDate | null;
  if (a.month === null) {
    // "2nd to 9th", "25th to 5th": the start in the end's month, or the month before if later.
    const sameMonth = iso(toYear, toMonth, a.day);
    from = a.day <= Number(to.slice(8, 10)) ? sameMonth : place({ ...a, month: null }, addDays(startOfMonth(to), -1));
    if (!isIsoDate(sameMonth) && a.day <= Number(to.slice(8, 10))) from = null;
  } else if (a.year !== null || a.month === -1) {
    from = place(a, today);
  } else {
    from = iso(a.month > toMonth ? toYear - 1 : toYear, a.month, a.day);
    if (!isIsoDate(from)) from = null;
  }
  return from ? { from, to } : null;
}

/** Monday = 0 … Sunday = 6, from chrono's Sunday = 0. */
const mondayFirst = (chronoWeekday: number) => (chronoWeekday + 6) % 7;

/** "of last week", "last week" after a weekday: the index past it, or −1. */
function ofLastWeekAt(W: Words, i: number): number {
  const k = W.w(i) === 'of' ? i + 1 : i;
  return W.w(k) === 'last' && W.w(k + 1) === 'week' && wordEnds(W, k + 1) ? k + 2 : -1;
}

function placeWeekday(w: Weekday, today: IsoDate, W: Words | null, end: number): { day: IsoDate; extra: number } {
  const wanted = mondayFirst(w.weekday);
  const said = tokenize(w.text).map((t) => t.w);
  const after = W ? ofLastWeekAt(W, W.after(end)) : -1;
  if (after >= 0 || said.some((s, k) => s === 'last' && said[k + 1]?.startsWith('week'))) {
    return { day: addDays(startOfWeek(today), wanted - 7), extra: after >= 0 ? W!.toks[after - 1]!.end - end : 0 };
  }
  if (said.includes('this')) return { day: addDays(startOfWeek(today), wanted), extra: 0 };
  if (said.includes('next')) return { day: addDays(startOfWeek(today), wanted + 7), extra: 0 };
  const back = (weekdayIndex(today) - wanted + 7) % 7;
  // "last friday" on a Friday is a week ago; "friday" or "on friday" on a Friday is today.
  const words = new Words(w.text.toLowerCase());
  const strictlyBefore = words.toks.some((_t, k) => words.at(k, (c) => c === 'mod:last' || c === 'mod:past') !== null);
  return { day: addDays(today, -(back === 0 && strictlyBefore ? 7 : back)), extra: 0 };
}

/**
 * Between two days of a range: "to", "till", "-", "and" (after "between"), "through", Hindi "se"
 * ("1 nov se 10 nov tak"), and "the" after it. True when nothing else stands there.
 */
function joinsDays(W: Words, from: number, to: number): boolean {
  let i = W.after(from);
  const stop = W.after(to);
  const m = W.at(i, 'range_to');
  if (m) i = m.end;
  else if (W.w(i) === 'and') i++;
  else return false;
  if (W.w(i) === 'the' && W.toks[i]!.spaced && i < stop) i++;
  return i === stop;
}

/** "from", "between" (then "the") just before `pos`: where it starts. */
function fromLead(W: Words, pos: number, words: readonly string[], the: boolean): number | null {
  let j = W.before(pos);
  if (j < 0 || W.toks[j]!.end === pos) return null;
  if (the && W.w(j) === 'the' && j > 0 && W.toks[j]!.spaced) j--;
  if (!words.includes(W.w(j)!) || W.toks[j]!.end === W.toks[j + 1]!.start) return null;
  return W.toks[j]!.start;
}

/** "onwards", "till date", "se", "se aaj tak" after a day: the index past it, or −1. */
function openAfter(W: Words, i: number): number {
  const on = onwardsAt(W, i);
  if (on >= 0) return wordEnds(W, on - 1) ? on : -1;
  const till = tillNowAt(W, i);
  if (till >= 0) return till;
  if (W.w(i) === 'se' && wordEnds(W, i)) {
    const after = W.toks[i + 1]?.spaced ? tillNowAt(W, i + 1) : -1;
    return after >= 0 ? after : i + 1;
  }
  return -1;
}

/** "to yesterday", "till yesterday" after a day: the index past it, or −1. */
function toYesterdayAt(W: Words, i: number): number {
  const j = W.at(i, 'range_to');
  if (!j || !['to', 'till', 'until', 'upto', 'up to', '-'].includes(j.entry.phrase)) return -1;
  return W.w(j.end) === 'yesterday' && W.toks[j.end]!.spaced && wordEnds(W, j.end) ? j.end + 1 : -1;
}

/** "monday to wednesday": the latest such run not after today. */
function weekdayRange(a: Weekday, b: Weekday, today: IsoDate): Span {
  const to = placeWeekday(b, today, null, 0).day;
  const back = (weekdayIndex(to) - mondayFirst(a.weekday) + 7) % 7;
  return { from: addDays(to, -back), to };
}

function spanOf(m: Mention, today: IsoDate): Span | null {
  if ('weekday' in m.from) return m.to && 'weekday' in m.to ? weekdayRange(m.from, m.to, today) : null;
  if (m.to) return 'weekday' in m.to ? null : placeRange(m.from, m.to, today);
  const day = place(m.from, today);
  return day ? { from: day, to: day } : null;
}

const tokEnd = (W: Words, exclusive: number) => W.toks[exclusive - 1]!.end;

/** A range of two days, or a day running on to today: the most specific reading of day mentions. */
function fromMentions(W: Words, found: Mention[], today: IsoDate): (Span & { start: number; end: number }) | 'refused' | null {
  for (let i = 0; i < found.length; i++) {
    const m = found[i]!;
    const next = found[i + 1];
    const start = fromLead(W, m.start, ['from', 'between'], true) ?? m.start;
    if (m.to) {
      const span = spanOf(m, today);
      return span ? { ...span, start, end: m.end } : 'refused';
    }
    if (next && !next.to && joinsDays(W, m.end, next.start)
      && (W.w(W.after(m.end)) !== 'and' || fromLead(W, m.start, ['between'], false) !== null)) {
      if ('weekday' in m.from || 'weekday' in next.from) {
        if ('weekday' in m.from && 'weekday' in next.from) return { ...weekdayRange(m.from, next.from, today), start, end: next.end };
        return 'refused';
      }
      const span = placeRange(m.from, next.from, today);
      return span ? { ...span, start, end: next.end } : 'refused';
    }
  }
  // "between 5 and 8 oct", "1 se 10 nov": a bare number before a day with a month.
  for (const m of found) {
    if ('weekday' in m.from || m.to || m.from.month === null || m.from.month === -1) continue;
    const join = W.before(m.start);
    if (join < 0 || !(['to', 'till', 'until', 'se', 'and'].includes(W.w(join)!) || DASHES.has(W.w(join)!))) continue;
    let k = join - 1;
    if (ORD_SUFFIX.has(W.w(k) ?? '') && !W.toks[k]!.spaced) k--;
    const w = W.w(k);
    if (!isDigits(w) || w.length > 2 || (k > 0 && !W.toks[k]!.spaced && isAlnum(W.w(k - 1)))) continue;
    const lead = k > 0 && W.toks[k]!.spaced && ['between', 'from'].includes(W.w(k - 1)!) ? k - 1 : k;
    if (W.w(join) === 'and' && lead === k) continue;
    const span = placeRange({ day: Number(w), month: m.from.month, year: m.from.year }, m.from, today);
    return span ? { ...span, start: W.toks[lead]!.start, end: m.end } : 'refused';
  }
  // "from 1 nov till 10": a day with a month, then a bare day number.
  for (const m of found) {
    if ('weekday' in m.from || m.to || m.from.month === null) continue;
    const j = W.after(m.end);
    if (!(['to', 'till', 'until'].includes(W.w(j) ?? '') || DASHES.has(W.w(j) ?? ''))) continue;
    const n = dayNumberAt(W, j + 1, 'optional');
    if (!n) continue;
    // "till 10k", "to 10 lakh", "- 10.5": an amount, not a day.
    const after = W.w(n.end) ?? '';
    if ((isLetters(after) && SHORT_AMOUNT_AFTER.some((a) => after.startsWith(a)))
      || ((after === '.' || after === ',') && isDigits(W.w(n.end + 1)) && !W.toks[n.end + 1]!.spaced)) continue;
    const span = placeRange(m.from, { day: n.day, month: null, year: null }, today);
    const start = fromLead(W, m.start, ['from', 'between'], false) ?? m.start;
    return span ? { ...span, start, end: tokEnd(W, n.end) } : 'refused';
  }
  // "since 1 nov", "from the 4th onwards", "since friday", "14 nov till date".
  for (const m of found) {
    const before = fromLead(W, m.start, ['since', 'from', 'after'], true);
    const after = openAfter(W, W.after(m.end));
    const toYesterday = toYesterdayAt(W, W.after(m.end));
    if (before === null && after < 0 && toYesterday < 0) continue;
    const day = 'weekday' in m.from ? placeWeekday(m.from, today, null, 0).day : spanOf(m, today)?.from;
    if (!day) return 'refused';
    const start = before ?? m.start;
    if (toYesterday >= 0) return { from: day, to: addDays(today, -1), start, end: tokEnd(W, toYesterday) };
    return { from: day, to: today, start, end: after >= 0 ? tokEnd(W, after) : m.end };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Periods, by the domain's rules: each reads the concepts found from one token on.

/** A period read from the tokens [start, end). */
type Read = { start: number; end: number; span: Span | null };
type Rule = (W: Words, i: number, today: IsoDate) => Read | null;

const lastMonthOf = (t: IsoDate, back = 1): Span => {
  let start = startOfMonth(t);
  for (let i = 0; i < back; i++) start = startOfMonth(addDays(start, -1));
  return { from: start, to: endOfMonth(start) };
};
const weekOf = (t: IsoDate, back: number): Span => ({ from: addDays(startOfWeek(t), -7 * back), to: addDays(startOfWeek(t), -7 * back + 6) });
const lastDays = (t: IsoDate, n: number): Span => ({ from: addDays(t, -(Math.max(1, n) - 1)), to: t });
const running = (unit: 'week' | 'month' | 'year', t: IsoDate): Span =>
  ({ from: unit === 'week' ? startOfWeek(t) : unit === 'month' ? startOfMonth(t) : `${t.slice(0, 4)}-01-01`, to: t });

const spaced = (W: Words, i: number) => W.toks[i]?.spaced === true;
/** The concept at i, a whole word, preceded by whitespace unless it opens the phrase. */
/** Nothing of a word touches the start of token i. */
const wordStarts = (W: Words, i: number) => i === 0 || spaced(W, i) || !isAlnum(W.w(i - 1)) || !isAlnum(W.w(i));
const conceptAt = (W: Words, i: number, c: DateConcept | ((c: DateConcept) => boolean), first = false) => {
  const m = W.at(i, c);
  return m && (first ? wordStarts(W, i) : spaced(W, i)) && wordEnds(W, m.end - 1) ? m : null;
};
const word = (W: Words, i: number, ...words: string[]) => words.includes(W.w(i) ?? '') && spaced(W, i) && wordEnds(W, i);
const firstWord = (W: Words, i: number, ...words: string[]) => words.includes(W.w(i) ?? '') && wordStarts(W, i) && wordEnds(W, i);

/** "last", "past", "previous", "prev" or Hindi "pichle" at i, opening a phrase. */
const pastModifier = (W: Words, i: number) => conceptAt(W, i, (c) => c === 'mod:last' || c === 'mod:past' || c === 'r:last:hi', true);
const unitAt = (W: Words, i: number, ...units: string[]) => conceptAt(W, i, (c) => units.some((u) => c === `unit:${u}`));

/** "pichle hafte", "aa mahine", "maglya aathvadyat": a regional "this" or "last" with a unit of its own row. */
function regional(W: Words, i: number, which: 'this' | 'last', unit: 'week' | 'month' | 'year'): number {
  const mod = conceptAt(W, i, (c) => c.startsWith(`r:${which}:`), true);
  if (!mod) return -1;
  for (const r of ['hi', 'gu', 'mr'] as const) {
    if (!conceptAt(W, i, `r:${which}:${r}`, true)) continue;
    // Marathi "ya" after a period word is Hindi "or" ("week ya mahina").
    if (r === 'mr' && which === 'this' && i > 0 && spaced(W, i)
      && (W.at(i - 1, (c) => c.startsWith('unit:') || c.startsWith('r:week') || c.startsWith('r:month') || c.startsWith('r:year') || c === 'day:0' || c === 'day:-1'))) continue;
    const u = conceptAt(W, mod.end, `r:${unit}:${r}`);
    if (u) return u.end;
  }
  return -1;
}

/** "hafta kaisa raha", "month kaisa gaya": a week or month said bare before "how did it go" is the running one. */
function bareHowWent(W: Words, i: number, unit: 'week' | 'month'): number {
  const units = unit === 'week' ? ['hafta', 'hafte', 'week'] : ['mahina', 'mahine', 'month'];
  if (!firstWord(W, i, ...units)) return -1;
  // A modifier or a count before it places it elsewhere than the running one ("pichla hafta", "do hafte").
  if (i > 0 && spaced(W, i) && (countAt(W, i - 1, 9) !== null
    || W.at(i - 1, (c) => c === 'mod:last' || c === 'mod:next' || c === 'r:last:hi'))) return -1;
  return conceptAt(W, i + 1, 'how') && conceptAt(W, i + 2, 'went') ? i + 1 : -1;
}

/** "for the week", "the month so far", "a good week", "how was my week": the running period, when no word places it elsewhere. */
function thePeriod(W: Words, i: number, unit: 'week' | 'month'): number {
  const w = W.w(i);
  if (['for', 'in', 'over', 'during'].includes(w ?? '') && word(W, i + 1, 'the') && word(W, i + 2, unit)) {
    const next = W.w(i + 3);
    const placed = spaced(W, i + 3) && next !== undefined && (PLACED_AFTER.some((p) => next.startsWith(p)) || isDigits(next));
    if (!placed) return i + 3;
  }
  if (w === 'the' && word(W, i + 1, unit) && word(W, i + 2, 'so') && word(W, i + 3, 'far')) return i + 4;
  const a = w === 'a' || w === 'an' ? 1 : 0;
  if (conceptAt(W, i + a, 'judged', a === 0) && word(W, i + a + 1, unit)) {
    if (a === 1) return i + 3;
    if (word(W, i + 2, 'for') && (word(W, i + 3, 'me') || word(W, i + 3, 'us'))) return i + 2;
  }
  if ((w === 'my' || w === 'our') && word(W, i + 1, unit)) {
    const rest = W.toks.slice(i + 2);
    if (word(W, i + 2, 'go', 'went', 'been') || (word(W, i + 2, 'so') && word(W, i + 3, 'far'))
      || rest.length === 0 || (rest.length === 1 && rest[0]!.w === '?')) return i + 2;
  }
  return -1;
}

const days = (n: number, t: IsoDate): Span => ({ from: addDays(t, -n), to: addDays(t, -n) });

/**
 * "the last day of the month", "first day of last week": that one day of the period named. Read
 * before the days a message mentions, which would take "day of the month" for a day of its own.
 */
const dayOfPeriod: Rule = (W, i, t) => {
  const k = firstWord(W, i, 'the') ? i + 1 : i;
  if (!(k === i ? firstWord(W, k, 'first', 'last') : word(W, k, 'first', 'last')) || !word(W, k + 1, 'day') || !word(W, k + 2, 'of')
    || !word(W, k + 3, 'the', 'this', 'last', 'previous') || !word(W, k + 4, 'week', 'month', 'year')) return null;
  const unit = W.w(k + 4) as 'week' | 'month' | 'year';
  const back = ['last', 'previous'].includes(W.w(k + 3)!) ? 1 : 0;
  const from = unit === 'week' ? weekOf(t, back).from : unit === 'month' ? lastMonthOf(t, back).from : `${Number(t.slice(0, 4)) - back}-01-01` as IsoDate;
  const to = unit === 'week' ? addDays(from, 6) : unit === 'month' ? endOfMonth(from) : `${from.slice(0, 4)}-12-31` as IsoDate;
  const day = W.w(k) === 'first' ? from : to;
  return { start: i, end: k + 5, span: { from: day, to: day } };
};

const PERIODS: Rule[] = [
  // "3 days ago", "teen din pehle", "a week ago": that one day.
  (W, i, t) => {
    const w = W.w(i);
    const n = w === 'a' || w === 'an' ? 1 : countAt(W, i, 3);
    if (n === null || (i > 0 && !spaced(W, i) && isAlnum(W.w(i - 1)))) return null;
    const u = unitAt(W, i + 1, 'day', 'week');
    const ago = u && conceptAt(W, u.end, 'ago');
    return ago ? { start: i, end: ago.end, span: days(n * (u.entry.concept === 'unit:week' ? 7 : 1), t) } : null;
  },
  // "ek hafte ka comm", "3 din ki bets", "do mahine ka pnl": the last N days, weeks or months.
  (W, i, t) => {
    const n = countAt(W, i, 3);
    if (n === null || (i > 0 && !spaced(W, i) && isAlnum(W.w(i - 1)))) return null;
    const u = conceptAt(W, i + 1, (c) => c === 'unit:day' || c === 'unit:week' || c === 'unit:month');
    if (!u || u.entry.lang !== 'hi' || !conceptAt(W, u.end, 'post:of')) return null;
    // Months as "last N months" counts them: this one and the N − 1 before it.
    const span = u.entry.concept === 'unit:day' ? lastDays(t, n) : u.entry.concept === 'unit:week' ? lastDays(t, 7 * n) : { from: lastMonthOf(t, Math.max(1, n) - 1).from, to: t };
    return { start: i, end: u.end + 1, span };
  },
  // "since the start of the month", "from the beginning of the week": the period that is running.
  (W, i, t) => {
    if (!firstWord(W, i, 'since', 'from') || !word(W, i + 1, 'the') || !word(W, i + 2, 'start', 'beginning') || !word(W, i + 3, 'of')
      || !word(W, i + 4, 'the', 'this') || !word(W, i + 5, 'week', 'month', 'year')) return null;
    return { start: i, end: i + 6, span: running(W.w(i + 5) as 'week' | 'month' | 'year', t) };
  },
  // "weekly recap", "monthly pnl", "daily summary": the week, month or day that is running.
  (W, i, t) => (conceptAt(W, i, 'every:week', true) ? { start: i, end: i + 1, span: running('week', t) } : null),
  (W, i, t) => (conceptAt(W, i, 'every:month', true) ? { start: i, end: i + 1, span: running('month', t) } : null),
  // Not a limit's name: "daily win limit", "daily winnings", "daily max".
  (W, i, t) => (conceptAt(W, i, 'every:day', true) && !(spaced(W, i + 1) && ['win', 'limit', 'max'].some((w) => W.w(i + 1)?.startsWith(w)))
    ? { start: i, end: i + 1, span: { from: t, to: t } } : null),
  // "4 se 10 tarikh tak", "15 tarikh ko": days of the month by number, Hindi's way of saying dates
  // without a month (this month's when not after today, else the month before's, as "the 4th").
  (W, i, t) => {
    const a = dayNumberAt(W, i, 'optional');
    if (!a || a.end !== i + 1 || !(['se', 'to'].includes(W.w(i + 1) ?? '') || DASHES.has(W.w(i + 1) ?? ''))) return null;
    const b = dayNumberAt(W, i + 2, 'optional');
    if (!b || b.end !== i + 3 || !conceptAt(W, i + 3, 'tarikh', true)) return null;
    const end = word(W, i + 4, 'tak') ? i + 5 : i + 4;
    return { start: i, end, span: placeRange({ day: a.day, month: null, year: null }, { day: b.day, month: null, year: null }, t) };
  },
  (W, i, t) => {
    const a = dayNumberAt(W, i, 'optional');
    if (!a || a.end !== i + 1 || !conceptAt(W, i + 1, 'tarikh', true)) return null;
    const day = place({ day: a.day, month: null, year: null }, t);
    return { start: i, end: i + 2, span: day ? { from: day, to: day } : null };
  },
  // "friday last week", "last week's friday", "pichle hafte ka friday": that day of last week.
  (W, i, t) => {
    const weekdayAt = (k: number, first: boolean) => {
      const w = W.w(k) ?? '';
      return WEEKDAY_OF.has(w) && !['weds', 'thur'].includes(w) && (first || spaced(W, k)) && wordEnds(W, k) ? WEEKDAY_OF.get(w)! : null;
    };
    const that = (d: number, end: number) => ({ start: i, end, span: days(-(d - 7), startOfWeek(t)) });
    const d0 = weekdayAt(i, true);
    if (d0 !== null) {
      const k = word(W, i + 1, 'of') ? i + 2 : i + 1;
      if (word(W, k, 'last') && spaced(W, k + 1) && ['week', 'weeks'].includes(W.w(k + 1)!)) return that(d0, k + 2);
    }
    if (firstWord(W, i, 'last') && spaced(W, i + 1) && W.w(i + 1) === 'week') {
      let k = i + 2;
      if (W.w(k) === '\'' && !spaced(W, k)) k++;
      if (W.w(k) === 's' && !spaced(W, k)) k++;
      const d = weekdayAt(k, false);
      if (d !== null) return that(d, k + 1);
    }
    if (conceptAt(W, i, 'r:last:hi', true) && word(W, i + 1, 'hafte') && conceptAt(W, i + 2, 'post:of')) {
      const d = weekdayAt(i + 3, false);
      if (d !== null) return that(d, i + 4);
    }
    return null;
  },
  // "yesterday and today", "kal aur aaj": both days, never just the first one named.
  (W, i, t) => {
    const one = (k: number, c: DateConcept, first: boolean) => {
      const m = conceptAt(W, k, c, first);
      return m && m.end === k + 1 && m.entry.phrase !== 'tonight' ? m : null;
    };
    for (const [a, b] of [['day:-1', 'day:0'], ['day:0', 'day:-1']] as const) {
      if (one(i, a, true) && conceptAt(W, i + 1, 'and') && one(i + 2, b, false)) {
        return { start: i, end: i + 3, span: { from: addDays(t, -1), to: t } };
      }
    }
    return null;
  },
  (W, i, t) => { const m = conceptAt(W, i, 'day:-2', true); return m ? { start: i, end: m.end, span: days(2, t) } : null; },
  (W, i, t) => { const m = conceptAt(W, i, 'day:-1', true); return m ? { start: i, end: m.end, span: days(1, t) } : null; },
  // "since this morning", "this evening": parts of today. "aaj tak" is "till date", read last.
  (W, i, t) => {
    const m = conceptAt(W, i, 'day:0', true);
    const tillNow = W.at(i, 'till_now');
    return m && !(tillNow && tillNow.entry.lang !== 'en' && wordEnds(W, tillNow.end - 1)) ? { start: i, end: m.end, span: days(0, t) } : null;
  },
  // "last 7 days", "past 3 weeks", "pichle 2 mahine", "last 2 fortnights".
  (W, i, t) => lastN(W, i, 'day', 4, (n) => lastDays(t, n)),
  (W, i, t) => lastN(W, i, 'week', 3, (n) => lastDays(t, 7 * n)),
  (W, i, t) => lastN(W, i, 'fortnight', 3, (n) => lastDays(t, 14 * n)),
  (W, i, t) => lastN(W, i, 'month', 2, (n) => ({ from: lastMonthOf(t, Math.max(1, n) - 1).from, to: t })),
  (W, i, t) => {
    if (!conceptAt(W, i, (c) => c === 'mod:last' || c === 'mod:past', true)) return null;
    if (unitAt(W, i + 1, 'fortnight')) return { start: i, end: i + 2, span: lastDays(t, 14) };
    return (word(W, i + 1, 'two', '2') && word(W, i + 2, 'weeks')) ? { start: i, end: i + 3, span: lastDays(t, 14) } : null;
  },
  (W, i, t) => (conceptAt(W, i, 'mod:this', true) && word(W, i + 1, 'fortnight') ? { start: i, end: i + 2, span: { from: addDays(startOfWeek(t), -7), to: t } } : null),
  // Calendar quarters: "Q4" (this year's, or last year's when it has not begun), "this quarter",
  // "QTD", "last quarter"; a quarter still running ends today.
  (W, i, t) => {
    let q: number | null = null;
    let which: 'this' | 'last' | null = null;
    let y: number | null = null;
    let end = -1;
    const mod = conceptAt(W, i, (c) => c === 'mod:this' || c === 'mod:last', true);
    if (mod && word(W, i + 1, 'quarter')) [which, end] = [mod.entry.concept === 'mod:last' ? 'last' : 'this', i + 2];
    else if (W.w(i) === 'q' && !spaced(W, i + 1) && ['1', '2', '3', '4'].includes(W.w(i + 1) ?? '') && !(i > 0 && !spaced(W, i) && isAlnum(W.w(i - 1)))) {
      const yw = W.w(i + 2);
      if (isDigits(yw) && yw.length === 4 && yw.startsWith('20') && wordEnds(W, i + 2)) [q, y, end] = [Number(W.w(i + 1)) - 1, Number(yw), i + 3];
      else if (wordEnds(W, i + 1)) [q, end] = [Number(W.w(i + 1)) - 1, i + 2];
    } else {
      const m = conceptAt(W, i, 'todate:quarter', true);
      if (m) [which, end] = ['this', m.end];
    }
    if (end < 0) return null;
    const year = Number(t.slice(0, 4));
    const current = Math.floor((Number(t.slice(5, 7)) - 1) / 3);
    const startOf = (yy: number, qq: number) => `${yy}-${String(qq * 3 + 1).padStart(2, '0')}-01` as IsoDate;
    let yy = y ?? year;
    let qq = q ?? current;
    if (which === 'last') { qq = current - 1; if (qq < 0) { qq = 3; yy -= 1; } }
    if (y === null && startOf(yy, qq) > t) yy -= 1;
    const from = startOf(yy, qq);
    if (from > t) return { start: i, end, span: null };
    const last = endOfMonth(`${yy}-${String(qq * 3 + 3).padStart(2, '0')}-01` as IsoDate);
    return { start: i, end, span: { from, to: last < t ? last : t } };
  },
  // "over the weekend", "last weekend": Saturday and Sunday — this week's once it has begun, else the last.
  (W, i, t) => {
    const mod = ['this', 'the', 'last', 'past', 'previous', 'pichle'].includes(W.w(i) ?? '') && wordEnds(W, i) && word(W, i + 1, 'weekend');
    if (!mod && !firstWord(W, i, 'weekend')) return null;
    const saturday = addDays(startOfWeek(t), 5);
    const current = t >= saturday && !(mod && ['last', 'past', 'previous', 'pichle'].includes(W.w(i)!));
    return { start: i, end: mod ? i + 2 : i + 1, span: current ? { from: saturday, to: t } : { from: addDays(startOfWeek(t), -2), to: addDays(startOfWeek(t), -1) } };
  },
  // "over the past week": the last seven days ("last week" is the calendar week before this one).
  (W, i, t) => {
    const k = firstWord(W, i, 'the') && word(W, i + 1, 'past') ? i + 1 : i;
    return (k > i || firstWord(W, i, 'past')) && word(W, k + 1, 'week') ? { start: i, end: k + 2, span: lastDays(t, 7) } : null;
  },
  (W, i, t) => beforeLast(W, i, 'week', () => weekOf(t, 2)),
  (W, i, t) => beforeLast(W, i, 'month', () => lastMonthOf(t, 2)),
  // "for the week", "the week so far", "and for the month?": with nothing else to place it, the
  // week or month that is running (never "the week before", "the week of 10 Nov").
  (W, i, t) => thisPeriod(W, i, 'week', t),
  (W, i, t) => lastPeriod(W, i, 'week', () => weekOf(t, 1)),
  (W, i, t) => thisPeriod(W, i, 'month', t),
  (W, i, t) => lastPeriod(W, i, 'month', () => lastMonthOf(t)),
  (W, i, t) => thisPeriod(W, i, 'year', t),
  (W, i, t) => lastPeriod(W, i, 'year', () => {
    const y = Number(t.slice(0, 4)) - 1;
    return { from: `${y}-01-01`, to: `${y}-12-31` };
  }),
];

/** "last 7 days", "pichle teen hafte": a past modifier, a count, a unit. */
function lastN(W: Words, i: number, unit: 'day' | 'week' | 'fortnight' | 'month', digits: number, span: (n: number) => Span): Read | null {
  const mod = pastModifier(W, i);
  if (!mod || !spaced(W, i + 1)) return null;
  const n = countAt(W, i + 1, digits);
  if (n === null) return null;
  const u = unitAt(W, i + 2, unit);
  // A modifier counts the units of its own language; Hinglish counts English weeks and months too.
  const ownLanguage = u && (u.entry.lang === mod.entry.lang || (mod.entry.lang === 'hi' && (u.entry.phrase === 'week' || u.entry.phrase === 'month')));
  return u && ownLanguage ? { start: i, end: u.end, span: span(n) } : null;
}

/** "the week before last", "month before last month". */
function beforeLast(W: Words, i: number, unit: 'week' | 'month', span: () => Span): Read | null {
  const k = firstWord(W, i, 'the') && word(W, i + 1, unit) ? i + 1 : i;
  if (!(k > i || firstWord(W, i, unit)) || !word(W, k + 1, 'before') || !word(W, k + 2, 'last')) return null;
  return { start: i, end: word(W, k + 3, unit) ? k + 4 : k + 3, span: span() };
}

function thisPeriod(W: Words, i: number, unit: 'week' | 'month' | 'year', t: IsoDate): Read | null {
  const read = (end: number) => ({ start: i, end, span: running(unit, t) });
  // "this weeks pnl": the possessive typed without its apostrophe is the period, not weeks.
  if (conceptAt(W, i, 'mod:this', true) && word(W, i + 1, unit, `${unit}s`)) return read(i + 2);
  const r = regional(W, i, 'this', unit);
  if (r >= 0) return read(r);
  if (unit !== 'year') {
    const bare = bareHowWent(W, i, unit);
    if (bare >= 0) return read(bare);
  }
  const todate = conceptAt(W, i, `todate:${unit}`, true);
  if (todate) return read(todate.end);
  if (unit !== 'year') {
    const the = thePeriod(W, i, unit);
    if (the >= 0) return read(the);
  }
  return null;
}

function lastPeriod(W: Words, i: number, unit: 'week' | 'month' | 'year', span: () => Span): Read | null {
  if (conceptAt(W, i, 'mod:last', true) && word(W, i + 1, unit, `${unit}s`)) return { start: i, end: i + 2, span: span() };
  const r = regional(W, i, 'last', unit);
  return r >= 0 ? { start: i, end: r, span: span() } : null;
}

// A short month word ("oct") is a month where a month is expected: after "in", "for", "since";
// before a year; before a Hindi postposition ("oct ka pnl", "sept ki bets", "nov mein"); or last
// in the message ("pnl oct"; not "may", which ends sentences as a verb).
function monthAt(W: Words, i: number, today: IsoDate): Read | null {
  const monthWord = (k: number, first: boolean) => {
    const mo = MONTH_OF.get(W.w(k) ?? '');
    return mo !== undefined && (first || spaced(W, k)) && wordEnds(W, k) ? mo : null;
  };
  const yearAt = (k: number) => {
    const y = W.w(k) === ',' && !spaced(W, k) ? k + 1 : k;
    const w = W.w(y);
    return spaced(W, y) && isDigits(w) && w.length === 4 && (w.startsWith('19') || w.startsWith('20')) && wordEnds(W, y) ? y + 1 : -1;
  };
  let mo: number | null;
  let end = -1;
  let open: 'since' | 'from' | null = null;
  if (firstWord(W, i, 'since', 'from') && (mo = monthWord(i + 1, false)) !== null) [open, end] = [W.w(i) as 'since' | 'from', i + 2];
  else if (firstWord(W, i, 'in', 'for', 'during', 'of') && (mo = monthWord(i + 1, false)) !== null) end = i + 2;
  else if ((mo = monthWord(i, true)) !== null) {
    const atEnd = W.toks.slice(i + 1).every((t) => ['?', '.', '!'].includes(t.w));
    if (FULL_MONTHS.has(W.w(i)!) || yearAt(i + 1) >= 0 || conceptAt(W, i + 1, (c) => c.startsWith('post:')) || (atEnd && W.w(i) !== 'may')) end = i + 1;
  }
  if (mo === null || end < 0) return null;
  const y = yearAt(end);
  if (y >= 0) end = y;
  const year = y >= 0 ? Number(W.w(y - 1)) : yearFor(mo, today);
  const from = `${year}-${pad(mo + 1)}-01`;
  // "since October", "from October onwards" run to today; "bets from October" are October's.
  if (open === 'since' || (open === 'from' && openAfter(W, end) >= 0)) return { start: i, end, span: { from, to: today } };
  const last = endOfMonth(from);
  return { start: i, end, span: { from, to: last < today ? last : today } };
}

/** "the first week of november", "last week of october": days 1–7, 8–14 … or the month's last seven. */
function weekOfMonth(W: Words, i: number, today: IsoDate): Read | null {
  const k = firstWord(W, i, 'the') ? i + 1 : i;
  const nthWords = ['first', '1st', 'second', '2nd', 'third', '3rd', 'fourth', '4th'];
  let nth: number;
  let e: number;
  const w = W.w(k) ?? '';
  if ((k === i || spaced(W, k)) && (w === 'last' || w === 'final' || nthWords.includes(w)) && wordEnds(W, k)) [nth, e] = [nthWords.indexOf(w), k + 1];
  else if ((k === i || spaced(W, k)) && isDigits(w) && ['1', '2', '3', '4'].includes(w) && ['st', 'nd', 'rd', 'th'].includes(W.w(k + 1) ?? '') && !spaced(W, k + 1)) {
    const ordinal = `${w}${W.w(k + 1)}`;
    if (!nthWords.includes(ordinal) || !wordEnds(W, k + 1)) return null;
    [nth, e] = [nthWords.indexOf(ordinal), k + 2];
  } else return null;
  if (!word(W, e, 'week') || !word(W, e + 1, 'of')) return null;
  let from: IsoDate;
  let end: number;
  const mo = MONTH_OF.get(W.w(e + 2) ?? '');
  if (word(W, e + 2, 'this', 'last', 'previous') && word(W, e + 3, 'month')) {
    from = W.w(e + 2) === 'this' ? startOfMonth(today) : lastMonthOf(today).from;
    end = e + 4;
  } else if (mo !== undefined && spaced(W, e + 2) && wordEnds(W, e + 2)) {
    from = `${yearFor(mo, today)}-${pad(mo + 1)}-01`;
    end = e + 3;
  } else return null;
  const last = endOfMonth(from);
  const start = nth < 0 ? addDays(last, -6) : addDays(from, 7 * Math.floor(nth / 2));
  const span = nth < 0 ? { from: start, to: last } : { from: start, to: addDays(start, 6) };
  return { start: i, end, span };
}

type Found = Span & { start: number; stop: number };

/** A period that ran to today takes "till date" / "so far" after it into its phrase. */
function withTail(W: Words, start: number, end: number, span: Span, today: IsoDate): Found | null {
  if (span.from > span.to) return null;
  let stop = end;
  if (span.to === today) {
    const tail = tillNowAt(W, W.after(end));
    if (tail >= 0) stop = tokEnd(W, tail);
  }
  return { from: span.from, to: span.to, start, stop };
}

const readAt = (W: Words, read: Read, today: IsoDate) =>
  (read.span ? withTail(W, W.toks[read.start]!.start, tokEnd(W, read.end), read.span, today) : null);

// Period words typed in a hurry: "last weak", "this mnth", "yesterdy", "las week".

/**
 * Period words, each with the English words one slip away from it (a letter missed, added or
 * changed, or two swapped; found with an English word list): a word is corrected to the period
 * word it is one slip from only where it is no such English word or where nothing else is meant.
 * - `alone` words are corrected anywhere ("tody", "yesterdy"), save their neighbours ("toady", and
 *   Hinglish "toda");
 * - a `unit` only after a modifier, with a count between or not ("last weak", "past 3 mnths"):
 *   there "weak" and "mouth" can mean nothing else;
 * - a `modifier` only before a unit, and never as one of its neighbours ("las week", "lst month";
 *   not "his week", "lost month", "thin month").
 */
const PERIOD_SPELLING = {
  alone: { today: ['toady', 'toddy', 'toda'], yesterday: [], fortnight: [], weekend: [] },
  unit: { week: [], weeks: [], month: [], months: [], year: [], years: [], fortnight: [], weekend: [] },
  modifier: {
    last: ['east', 'fast', 'lasts', 'least', 'list', 'lost', 'past', 'vast', 'blast', 'cast', 'lest', 'lust', 'lash', 'lass', 'mast', 'bast', 'lats'],
    this: ['his', 'thin', 'thus', 'thins'],
    past: ['east', 'fast', 'last', 'part', 'pass', 'post', 'vast', 'cast', 'pant', 'paste', 'pat', 'mast', 'pact', 'pas', 'pasta', 'pasts', 'pasty', 'pats', 'pest', 'bast', 'psst'],
    previous: ['precious'],
    current: ['currant', 'currents'],
  },
} satisfies Record<string, Record<string, string[]>>;

/** True when `a` is one slip from `b`: one letter missed, added or changed, or two next to each other swapped. */
function oneSlip(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rest = (x: string, y: string) => x === y;
  if (a.length === b.length) {
    return rest(a.slice(i + 1), b.slice(i + 1)) || (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(a.slice(i + 2), b.slice(i + 2)));
  }
  return a.length > b.length ? rest(a.slice(i + 1), b.slice(i)) : rest(a.slice(i), b.slice(i + 1));
}

/** The period word of `table` that `word` is, or is one slip from and no neighbour of. */
function spelled(word: string, table: Record<string, string[]>, minLength: number): string | null {
  if (table[word]) return word;
  if (word.length < minLength) return null;
  for (const [target, neighbours] of Object.entries(table)) if (!neighbours.includes(word) && oneSlip(word, target)) return target;
  return null;
}

/** The text with period words respelt, and where each of its characters stands in the text as typed. */
function respell(lower: string): { text: string; at: number[] | null } {
  const all = tokenize(lower);
  const tokens = all.filter((t) => isAlnum(t.w));
  const words = tokens.map((t) => t.w);
  // The next word follows after whitespace alone.
  const adjacent = (i: number) => {
    const k = all.indexOf(tokens[i]!);
    return i + 1 < tokens.length && all[k + 1] === tokens[i + 1] && tokens[i + 1]!.spaced;
  };
  const isCount = (i: number) => isDigits(words[i]) || COUNT_WORDS[words[i]!] !== undefined;
  const { alone, unit, modifier } = PERIOD_SPELLING;
  const fixed = words.map((word, i) => {
    if (!isLetters(word)) return word;
    // The week's days cut short the way people write them ("bets Tues", "Thurs") read as the day,
    // save the three-letter forms that are words or names too ("sat", "sun", "wed").
    const weekday = WEEKDAY_OF.get(word);
    if (weekday !== undefined && word.length > 3) return FULL_WEEKDAYS[weekday]!;
    const exact = unit[word as keyof typeof unit] || modifier[word as keyof typeof modifier] || alone[word as keyof typeof alone];
    if (exact) return word;
    const asAlone = spelled(word, alone, 4);
    if (asAlone) return asAlone;
    // A unit after a modifier, a count between or not.
    let before = i - 1;
    if (before >= 0 && isCount(before) && adjacent(before)) before--;
    if (before >= 0 && adjacent(before) && spelled(words[before]!, modifier, 3)) {
      const asUnit = spelled(word, unit, 3);
      if (asUnit) return asUnit;
    }
    // A modifier before a unit.
    let after = i + 1;
    if (adjacent(i) && after < words.length && isCount(after) && adjacent(after)) after++;
    if (adjacent(after - 1) && after < words.length && spelled(words[after]!, unit, 3)) {
      const asModifier = spelled(word, modifier, 3);
      if (asModifier) return asModifier;
    }
    return word;
  });
  if (fixed.every((w, i) => w === words[i])) return { text: lower, at: null };
  let text = '';
  const at: number[] = [];
  let from = 0;
  tokens.forEach((t, i) => {
    for (let k = from; k < t.start; k++) { at.push(k); text += lower[k]; }
    // Each letter stands at its own place in the word as typed, the last at the typed word's last.
    const last = fixed[i]!.length - 1;
    for (let k = 0; k <= last; k++) at.push(t.start + (k === last ? words[i]!.length - 1 : Math.min(k, words[i]!.length - 1)));
    text += fixed[i];
    from = t.start + words[i]!.length;
  });
  for (let k = from; k < lower.length; k++) { at.push(k); text += lower[k]; }
  at.push(lower.length);
  return { text, at };
}

/** The date phrase of the text (the most specific reading), or null when there is none or it is impossible. */
/** Words that say what day today is: "today is", "it's", "aaj". */
const TODAY_IS = /\b(?:today\s+is|it\s+is|it's|its|aaj)\s+/g;

/**
 * "as today is the last day of the month, … in November": when the first period read is the day
 * the message says today is (or its "today"), the period said elsewhere is the one asked; null when
 * there is none. Positions are kept, the day told blanked.
 */
function afterTodayIs(lower: string, today: IsoDate, first: Found): Found | null {
  for (const m of lower.matchAll(TODAY_IS)) {
    const at = m.index + m[0].length;
    if (first.start < m.index || first.start > at) continue;
    const day = findIn(lower.slice(at), today);
    if (!day || lower.slice(at, at + day.start).trim() !== '') continue;
    const again = findIn(lower.slice(0, m.index) + ' '.repeat(at + day.stop - m.index) + lower.slice(at + day.stop), today);
    if (again) return again;
  }
  return null;
}

export function findDateRange(text: string, today: IsoDate): FoundRange | null {
  const typed = text.toLowerCase();
  const { text: lower, at } = respell(typed);
  const first = findIn(lower, today);
  if (!first) return null;
  const found = afterTodayIs(lower, today, first) ?? first;
  // The phrase as typed, for callers to blank out: a respelt word maps back to its own letters.
  const start = at ? at[found.start]! : found.start;
  const stop = at ? (found.stop >= at.length - 1 ? typed.length : at[found.stop - 1]! + 1) : found.stop;
  return { from: found.from, to: found.to, raw: typed.slice(start, stop).trim() };
}

/** The first place, left to right, where `read` finds something. */
function first(W: Words, read: (i: number) => Read | null): Read | null {
  for (let i = 0; i < W.toks.length; i++) {
    const r = read(i);
    if (r) return r;
  }
  return null;
}

/** "fortnight ending 15th", "week commencing 9 Nov": the words before the day, and the index past them. */
function beforeDay(W: Words, i: number, kind: 'ending' | 'of'): { days: number; end: number } | null {
  if (kind === 'ending') {
    let k: number;
    let n: number;
    if (firstWord(W, i, 'fortnight')) [k, n] = [i + 1, 14];
    else if (firstWord(W, i, 'two', '2') && word(W, i + 1, 'weeks')) [k, n] = [i + 2, 14];
    else if (firstWord(W, i, 'week')) [k, n] = [i + 1, 7];
    else return null;
    if (!word(W, k, 'end', 'ending', 'ended', 'ends')) return null;
    k++;
    if (word(W, k, 'on')) k++;
    return spaced(W, k) ? { days: n, end: k } : null;
  }
  let k: number;
  if (firstWord(W, i, 'the') && word(W, i + 1, 'week') && word(W, i + 2, 'of', 'commencing', 'starting', 'beginning')) k = i + 3;
  else if (firstWord(W, i, 'week') && word(W, i + 1, 'of', 'commencing', 'starting', 'beginning')) k = i + 2;
  else if (W.w(i) === 'w' && W.w(i + 1) === '/' && W.w(i + 2) === 'c' && wordEnds(W, i + 2) && !(i > 0 && !spaced(W, i) && isAlnum(W.w(i - 1)))) k = i + 3;
  else if (firstWord(W, i, 'wc')) k = i + 1;
  else return null;
  if (word(W, k, 'on')) k++;
  return spaced(W, k) ? { days: 7, end: k } : null;
}

function findIn(lower: string, today: IsoDate): Found | null {
  const W = new Words(lower);
  // The most specific phrase decides: an impossible day ("31 Feb") or a reversed range is
  // refused, not read again as something vaguer ("Feb").
  if (impossibleDay(W, today)) return null;

  // "the fortnight ending 15th", "week ended 8 nov": that many days up to the day named;
  // "w/c 9th", "week commencing 9 Nov", "the week of the 10th": the Monday-to-Sunday week with that day in it.
  for (const kind of ['ending', 'of'] as const) {
    let lead: { days: number; end: number; i: number } | null = null;
    for (let i = 0; i < W.toks.length && !lead; i++) {
      const b = beforeDay(W, i, kind);
      if (b) lead = { ...b, i };
    }
    if (!lead) continue;
    const from = W.toks[lead.i]!.start;
    const restAt = W.toks[lead.end]!.start;
    const rest = lower.slice(restAt);
    // A day said bare ("15th") reads as one once it is "on the 15th".
    const prefix = W.w(lead.end) === 'the' ? 'on ' : 'on the ';
    const day = findIn(prefix + rest, today);
    if (!day || day.from !== day.to) continue;
    const stop = restAt + Math.max(0, day.stop - prefix.length);
    if (kind === 'ending' && day.to <= today) return { from: addDays(day.to, 1 - lead.days), to: day.to, start: from, stop };
    if (kind === 'of' && startOfWeek(day.from) <= today) {
      const monday = startOfWeek(day.from);
      const sunday = addDays(monday, 6);
      return { from: monday, to: sunday < today ? sunday : today, start: from, stop };
    }
  }

  const nth = first(W, (i) => weekOfMonth(W, i, today));
  if (nth) {
    const span = nth.span!;
    return span.from <= today ? withTail(W, W.toks[nth.start]!.start, tokEnd(W, nth.end), { from: span.from, to: span.to < today ? span.to : today }, today) : null;
  }

  const dayOf = first(W, (i) => dayOfPeriod(W, i, today));
  if (dayOf) return readAt(W, dayOf, today);

  const found = mentions(W);
  const joined = fromMentions(W, found, today);
  if (joined === 'refused') return null;
  if (joined) return withTail(W, joined.start, joined.end, joined, today);

  // "on the 3rd of last month", "for the 3rd of this month": the lead word before the day.
  const lead = (pos: number, the: boolean) => fromLead(W, pos, ['on', 'for'], the) ?? pos;
  // "the 3rd of last month" says its month: it goes before "last month" is read as a period.
  const anchored = found.find((m) => !('weekday' in m.from) && W.w(W.before(m.end)) === 'month');
  if (anchored) {
    const span = spanOf(anchored, today);
    return span ? withTail(W, lead(anchored.start, false), anchored.end, span, today) : null;
  }

  for (const rule of PERIODS) {
    const read = first(W, (i) => rule(W, i, today));
    if (read) return readAt(W, read, today);
  }

  const single = found[0];
  if (single) {
    if ('weekday' in single.from) {
      const { day, extra } = placeWeekday(single.from, today, W, single.end);
      return withTail(W, lead(single.start, false), single.end + extra, { from: day, to: day }, today);
    }
    const span = spanOf(single, today);
    if (!span) return null;
    return withTail(W, lead(single.start, true), single.end, span, today);
  }

  const month = first(W, (i) => monthAt(W, i, today));
  if (month) return readAt(W, month, today);

  // Alone, a dash is "till" only joined to the word before it ("1st- today" is no period).
  const tillDate = first(W, (i) => {
    const e = tillNowAt(W, i);
    return e >= 0 && wordStarts(W, i) && (!DASHES.has(W.w(i)!) || dashAfterWord(W, i)) ? { start: i, end: e, span: null } : null;
  });
  if (tillDate) return { from: startOfMonth(today), to: today, start: W.toks[tillDate.start]!.start, stop: tokEnd(W, tillDate.end) };
  return null;
}
