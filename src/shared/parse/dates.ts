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
 *   before; the words of Gujarati, Marathi and Punjabi are in one table (REGIONAL);
 * - an ordinal in words ("on the fourteenth", "from the tenth to the twenty-first") is read as the
 *   same ordinal in digits;
 * - a period word one slip from its spelling ("last weak", "yesterdy") is that word where no
 *   English word is meant (PERIOD_SPELLING).
 */
import { Chrono, en, type ParsedComponents, type Parser } from 'chrono-node';
import { type IsoDate, addDays, endOfMonth, isIsoDate, startOfMonth, startOfWeek, weekdayIndex } from '../dates.js';
import { numberWords, ordinalWords } from './amount.js';

export interface FoundRange {
  from: IsoDate;
  to: IsoDate;
  /** The phrase as it stands in the text, lower-cased: callers blank it out. */
  raw: string;
}

type Span = { from: IsoDate; to: IsoDate };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
// A month word must end there: "5 markets" is not the 5th of March.
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b`;
// Alone, without "in"/"for", only a full month name counts, and never "may" (a verb too).
const FULL_MONTH = String.raw`(january|february|march|april|june|july|august|september|october|november|december)\b`;
const WEEKDAY = String.raw`(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\b`;
const ORD = String.raw`(?:st|nd|rd|th)`;
// Day-looking text, checked before anything else so that an impossible day ("31 Feb", "30/2")
// is refused instead of being read as something vaguer ("Feb") or skipped.
const DAYLIKE = new RegExp(String.raw`(?<![\d/.-])(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|\d{1,2}${ORD}?\s+(?:of\s+)?${MONTH}(?:,?\s+\d{4})?|${MONTH}\s+\d{1,2}${ORD}?\b(?:,?\s+\d{4})?)(?![\d/]|\.\d)`, 'g');

/**
 * Period words of Indian languages as typed in Roman script, in one table. The words of days are
 * read as a question about the past: "kal" (Hindi, Punjabi) and "kale" (Gujarati) say yesterday or
 * tomorrow, and are yesterday. A row's "this" and "last" words make a period only with that row's
 * units: Marathi "ya" (this) is Hindi "or", so "ya mahinyat" is this month but "week ya month" is
 * no period.
 */
const REGIONAL = {
  today: ['aaj', 'ajj', 'aaje'], // Hindi and Marathi, Punjabi, Gujarati
  yesterday: ['kal', 'kall', 'kaal', 'kale'], // Hindi and Punjabi, Marathi, Gujarati
  // Not Marathi "parva": Hinglish "koi parva nahi" is "never mind".
  dayBeforeYesterday: ['parso', 'parsoon', 'parson'],
  /** Till today, said after a period or alone (as "till date"). */
  tillToday: ['aaj tak', 'ajj tak', 'aaje tak', 'ab tak', 'abhi tak', 'aaj sudhi', 'aaje sudhi', 'aaj paryant', 'aajparyant'],
  periods: [
    { // Hindi, Punjabi
      this: ['is', 'iss', 'ye', 'yeh', 'ais'],
      last: ['pichla', 'pichle', 'pichli', 'pichley', 'pichhla', 'pichhle', 'pichhli', 'pichhley'],
      week: ['hafte', 'hafta', 'week'], month: ['mahine', 'mahina', 'month'], year: ['saal', 'sal', 'year'],
    },
    { // Gujarati
      this: ['aa'],
      last: ['gaya', 'gaye', 'gayo', 'gai'],
      week: ['athvadiyu', 'athvadiye', 'athvadiya', 'aathvadiyu', 'aathvadiye', 'aathvadiya', 'week'],
      month: ['mahino', 'mahine', 'mahina', 'month'], year: ['varas', 'varse', 'year'],
    },
    { // Marathi; "ya" after a period word is Hindi "or" ("week ya mahina")
      this: ['ya', 'hya'], notAfter: ['week', 'weeks', 'hafta', 'hafte', 'din', 'day', 'days', 'month', 'months', 'saal', 'year', 'aaj', 'kal'],
      last: ['magchya', 'maagchya', 'maglya', 'magil'],
      week: ['aathvadyat', 'aathvadya', 'aathavdyat', 'aathavdya', 'athvadyat', 'athvadya', 'aathvada'],
      month: ['mahinyat', 'mahinyaat', 'mahinya', 'mahina'], year: ['varshi', 'varshat', 'varsh'],
    },
  ],
} as const;
const anyOf = (words: readonly string[]) => `(?:${[...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/ /g, String.raw`\s+`)).join('|')})`;
/** "pichle hafte", "aa mahine", "maglya aathvadyat": a regional "this" or "last" with a unit of its row. */
const regional = (which: 'this' | 'last', unit: 'week' | 'month' | 'year') => `(?:${REGIONAL.periods.map((row) => {
  const notAfter = 'notAfter' in row && which === 'this' ? String.raw`(?<!\b${anyOf(row.notAfter)}\s+)` : '';
  return `${notAfter}${anyOf(row[which])}\\s+${anyOf(row[unit])}`;
}).join('|')})`;
const HINDI_LAST = anyOf(REGIONAL.periods[0].last);
const R_TODAY = anyOf(REGIONAL.today);
const R_YESTERDAY = anyOf(REGIONAL.yesterday);

// "till date", "to date", "so far", "till now", "till today", "aaj tak": the period runs to today.
const TO_TODAY = String.raw`(?:(?:till|until|upto|up\s+to|to|-)\s+(?:date|now|today)|so\s+far|${anyOf(REGIONAL.tillToday)})`;

const monthIndex = (word: string) => MONTHS.indexOf(word.slice(0, 3).toLowerCase());
const pad = (n: number) => n.toString().padStart(2, '0');
const iso = (y: number, mo: number, d: number) => `${y.toString().padStart(4, '0')}-${pad(mo + 1)}-${pad(d)}`;

/** A month named without a year is the latest one not after today's month. */
function yearFor(month: number, today: IsoDate): number {
  const year = Number(today.slice(0, 4));
  return month + 1 > Number(today.slice(5, 7)) ? year - 1 : year;
}

function validDay(text: string, today: IsoDate): boolean {
  const t = text.trim().replace(/(\d)(st|nd|rd|th)\b/, '$1').replace(',', '').replace(/\s+of\s+/, ' ');
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
  } else return true;
  // With no year given, 29 Feb is possible in some year; the year chosen decides below.
  return isIsoDate(iso(y, mo, d)) || (d === 29 && mo === 1 && !/\d{4}|\/\d{2}$/.test(t));
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
const ORDINAL_WORDS = ordinalWords();
const ORD_WORD = `(?:${Object.keys(ORDINAL_WORDS).sort((a, b) => b.length - a.length).map((w) => w.replace(' ', String.raw`[\s-]?`)).join('|')})`;
const ORDINAL = new RegExp(String.raw`(?<![\w/.])(?<!(?:twenty|thirty)[\s-])(?:the\s+)?(?:(\d{1,2})${ORD}|(${ORD_WORD}))\b(?:\s+of\s+(this|last|the)\s+month\b)?`, 'g');
/**
 * A word ordinal is a noun's ("the first match", "a second to check", "first to bet") unless it
 * opens a run of days ("tenth to fifteenth", "the fourth onwards") or follows a date's word with
 * nothing of a noun after it ("since the first", "on the fourteenth for rahul").
 */
const ORDINAL_WORD_AFTER = /^\s*(?:$|[?.!,;:)\-–—]|(?:of|to|till|until|upto|through|thru|and|onwards?|on\s*wards|se|tak|ko|ka|ki|ke|for|please|pls|plz|me|mein|how|what)\b)/;
const ORDINAL_WORD_OPENS = new RegExp(String.raw`^\s*(?:onwards?\b|on\s*wards\b|se\b|(?:to|till|until|-|–|and)\s*(?:the\s+)?(?:\d{1,2}(?:${ORD})?|${ORD_WORD}|${MONTH}))`);
const ordinalDay = (digits: string | undefined, word: string | undefined) =>
  digits ? Number(digits) : ORDINAL_WORDS[word!.replace(/^(twenty|thirty)[\s-]?/, '$1 ')]!;
const ORDINAL_CONTEXT_BEFORE = /\b(?:on|since|from|between|after|before|till|until|to|and|-|–)\s*$/;
const ORDINAL_CONTEXT_AFTER = /^\s*(?:onwards?|on\s*wards|to\b|till\b|until\b|-|–|and\b|se\b)/;

function mentions(lower: string): Mention[] {
  recognizer ??= dayRecognizer();
  const found: Mention[] = [];
  // Noon UTC of a fixed day: chrono's guesses of what was not said are replaced below by the
  // domain's, so only what the text says is taken from it.
  for (const r of recognizer.parse(lower, new Date(Date.UTC(2026, 0, 14, 12)))) {
    let end = r.index + r.text.length;
    // "I may 25 …" is a verb.
    if (/^may\b/.test(r.text) && /\b(?:i|you|he|she|we|they|it|who|which|that)\s+$/.test(lower.slice(0, r.index))) continue;
    const from = said(r.start);
    if (from) {
      const to = r.end ? said(r.end) : null;
      if (r.end && !to) continue;
      // A bare two-digit number after a month word is a count, not a year: "5 oct 20 bets".
      const shortYear = /^(.*[a-z.])\s*,?\s+\d{2}$/.exec(r.text);
      if (shortYear && from.year !== null) {
        end = r.index + shortYear[1]!.length;
        from.year = null;
        if (to) to.year = null;
      }
      found.push({ start: r.index, end, from, to });
    } else if (r.start.isCertain('weekday') && !r.start.isCertain('day')) {
      const weekday = (c: ParsedComponents) => ({ weekday: c.get('weekday')!, text: r.text });
      if (r.end && !r.end.isCertain('weekday')) continue;
      // "sun", "sat", "wed" alone are words and names too ("Sun Pharma", Hindi "sat" = 7): a short
      // weekday counts only where a day is expected.
      if (/^(?:mon|tue|wed|thu|fri|sat|sun)$/.test(r.text)
        && !ORDINAL_CONTEXT_BEFORE.test(lower.slice(0, r.index))
        && !/^\s*(?:to|till|until|-|–|and)\b/.test(lower.slice(end))) continue;
      if (/^(?:sat|sun)$/.test(r.text) && /^\s*(?:hazaa?r|hajaa?r|lakhs?|lacs?|crores?|thousand|hundred|sau)\b/.test(lower.slice(end))) continue;
      found.push({ start: r.index, end, from: weekday(r.start), to: r.end ? weekday(r.end) : null });
    }
  }
  for (const m of lower.matchAll(ORDINAL)) {
    const start = m.index;
    const end = start + m[0].length;
    if (found.some((f) => start < f.end && end > f.start)) continue;
    const before = lower.slice(0, start);
    const after = lower.slice(end);
    if (!m[3] && !ORDINAL_CONTEXT_BEFORE.test(before) && !ORDINAL_CONTEXT_AFTER.test(after)) continue;
    if (m[2] && !m[3] && !ORDINAL_WORD_OPENS.test(after) && !(ORDINAL_CONTEXT_BEFORE.test(before) && ORDINAL_WORD_AFTER.test(after))) continue;
    const day: Said = { day: ordinalDay(m[1], m[2]), month: null, year: null };
    // "of last month" is carried as a month one before the ordinal's own, resolved in `place`.
    found.push({ start, end, from: m[3] === 'last' ? { ...day, month: -1 } : day, to: null });
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

function placeWeekday(w: Weekday, today: IsoDate, after: string): { day: IsoDate; extra: number } {
  const wanted = mondayFirst(w.weekday);
  const ofLastWeek = /^\s*(?:of\s+)?last\s+week\b/.exec(after);
  if (ofLastWeek || /\blast\s+week/.test(w.text)) {
    return { day: addDays(startOfWeek(today), wanted - 7), extra: ofLastWeek ? ofLastWeek[0].length : 0 };
  }
  if (/\bthis\b/.test(w.text)) return { day: addDays(startOfWeek(today), wanted), extra: 0 };
  if (/\bnext\b/.test(w.text)) return { day: addDays(startOfWeek(today), wanted + 7), extra: 0 };
  const back = (weekdayIndex(today) - wanted + 7) % 7;
  // "last friday" on a Friday is a week ago; "friday" or "on friday" on a Friday is today.
  const strictlyBefore = /\b(?:last|past|previous|prev)\b/.test(w.text);
  return { day: addDays(today, -(back === 0 && strictlyBefore ? 7 : back)), extra: 0 };
}

// Between two days of a range: "to", "till", "-", "and" (after "between"), "through".
// Hindi's "se" joins two days too: "1 nov se 10 nov tak".
const JOIN = /^\s*(?:to|till|until|upto|up\s+to|through|thru|se|-|–|—|and)(?:\s+the)?\s*$/;
const OPEN_BEFORE = /\b(?:since|from|after)\s+(?:the\s+)?$/;
const OPEN_AFTER = new RegExp(String.raw`^\s*(?:onwards?|on\s*wards|(?:se\s+)?${TO_TODAY}|se)\b`);

/** "monday to wednesday": the latest such run not after today. */
function weekdayRange(a: Weekday, b: Weekday, today: IsoDate): Span {
  const to = placeWeekday(b, today, '').day;
  const back = (weekdayIndex(to) - mondayFirst(a.weekday) + 7) % 7;
  return { from: addDays(to, -back), to };
}

function spanOf(m: Mention, today: IsoDate): Span | null {
  if ('weekday' in m.from) return m.to && 'weekday' in m.to ? weekdayRange(m.from, m.to, today) : null;
  if (m.to) return 'weekday' in m.to ? null : placeRange(m.from, m.to, today);
  const day = place(m.from, today);
  return day ? { from: day, to: day } : null;
}

/** A range of two days, or a day running on to today: the most specific reading of day mentions. */
function fromMentions(lower: string, found: Mention[], today: IsoDate): (Span & { start: number; end: number }) | 'refused' | null {
  for (let i = 0; i < found.length; i++) {
    const m = found[i]!;
    const next = found[i + 1];
    const between = next ? lower.slice(m.end, next.start) : '';
    const lead = /\b(?:from|between)\s+(?:the\s+)?$/.exec(lower.slice(0, m.start));
    const start = lead ? m.start - lead[0].length : m.start;
    if (m.to) {
      const span = spanOf(m, today);
      return span ? { ...span, start, end: m.end } : 'refused';
    }
    if (next && !next.to && JOIN.test(between) && (!/and/.test(between) || /between\s+$/.test(lower.slice(0, m.start)))) {
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
    // Hindi joins them with "se" ("1 se 10 nov tak").
    const bare = /\b(between\s+|from\s+)?(\d{1,2})(?:st|nd|rd|th)?\s*(?:to|till|until|se|-|–|and)\s*$/.exec(lower.slice(0, m.start));
    if (!bare || (/and\s*$/.test(bare[0]) && !bare[1])) continue;
    const span = placeRange({ day: Number(bare[2]), month: m.from.month, year: m.from.year }, m.from, today);
    return span ? { ...span, start: m.start - bare[0].length, end: m.end } : 'refused';
  }
  // "from 1 nov till 10": a day with a month, then a bare day number.
  for (const m of found) {
    if ('weekday' in m.from || m.to || m.from.month === null) continue;
    const bare = /^\s*(?:to|till|until|-|–)\s*(\d{1,2})(?:st|nd|rd|th)?\b(?!\s*(?:k|l|cr|lakhs?|lacs?|crores?|thousand|hazaa?r|[.,]\d))/.exec(lower.slice(m.end));
    if (!bare) continue;
    const lead = /\b(?:from|between)\s+$/.exec(lower.slice(0, m.start));
    const span = placeRange(m.from, { day: Number(bare[1]), month: null, year: null }, today);
    return span ? { ...span, start: m.start - (lead?.[0].length ?? 0), end: m.end + bare[0].length } : 'refused';
  }
  // "since 1 nov", "from the 4th onwards", "since friday", "14 nov till date".
  for (const m of found) {
    const before = OPEN_BEFORE.exec(lower.slice(0, m.start));
    const after = OPEN_AFTER.exec(lower.slice(m.end));
    if (!before && !after && !/^\s*(?:to|till|until|upto|up\s+to|-)\s+yesterday\b/.test(lower.slice(m.end))) continue;
    const day = 'weekday' in m.from ? placeWeekday(m.from, today, '').day : spanOf(m, today)?.from;
    if (!day) return 'refused';
    const start = before ? m.start - before[0].length : m.start;
    const toYesterday = /^\s*(?:to|till|until|upto|up\s+to|-)\s+yesterday\b/.exec(lower.slice(m.end));
    if (toYesterday) return { from: day, to: addDays(today, -1), start, end: m.end + toYesterday[0].length };
    return { from: day, to: today, start, end: m.end + (after?.[0].length ?? 0) };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Periods, by the domain's rules.

type Rule = [RegExp, (m: RegExpExecArray, today: IsoDate) => Span | null];

const lastMonthOf = (t: IsoDate, back = 1): Span => {
  let start = startOfMonth(t);
  for (let i = 0; i < back; i++) start = startOfMonth(addDays(start, -1));
  return { from: start, to: endOfMonth(start) };
};
const weekOf = (t: IsoDate, back: number): Span => ({ from: addDays(startOfWeek(t), -7 * back), to: addDays(startOfWeek(t), -7 * back + 6) });
const lastDays = (t: IsoDate, n: number): Span => ({ from: addDays(t, -(Math.max(1, n) - 1)), to: t });

/** "for the week", "the month so far", "a good week", "how was my week": the running period, when no word places it elsewhere. */
/** "hafta kaisa raha", "month kaisa gaya": a week or month said bare before "how did it go" is the running one. */
const BARE_HOW_WENT = (units: string) => String.raw`(?<!\b(?:pichla|pichle|pichhla|pichhle|last|previous|agla|agle|next|ek|do|teen|\d+)\s+)(?:${units})(?=\s+(?:kaisa|kaise|kesa|kaisi|kaesa)\s+(?:raha|rahi|rahe|gaya|gayi|gaye|tha|thi|chala|chali)\b)`;
const THE_PERIOD = (unit: string) => String.raw`(?:(?:for|in|over|during)\s+the\s+${unit}(?!\s+(?:before|after|prior|earlier|of|ending|starting|from|that|when|\d))|the\s+${unit}\s+so\s+far|(?:(?:a|an)\s+)?(?:good|bad|great|decent|rough|tough|poor|profitable|slow|winning|losing)\s+${unit}(?=\s+for\s+(?:me|us)\b)|(?:a|an)\s+(?:good|bad|great|decent|rough|tough|poor|profitable|slow|winning|losing)\s+${unit}|(?:my|our)\s+${unit}(?=\s+(?:go|went|been|so\s+far)\b|\s*\??\s*$))`;

/** A count of days, weeks or months in words ("last two days", "pichle teen hafte"). */
const COUNT_WORDS = numberWords(true);
const COUNT_WORD = `(?:${Object.keys(COUNT_WORDS).join('|')})`;
const countOf = (s: string | undefined) => COUNT_WORDS[s ?? ''] ?? Number(s);

const PERIODS: Rule[] = [
  // "3 days ago", "teen din pehle", "a week ago": that one day.
  [new RegExp(String.raw`\b(\d{1,3}|${COUNT_WORD}|a|an)\s+(days?|din|weeks?|hafte|hafta)\s+(?:ago|pehle|pahle|back)\b`), (m, t) => {
    const n = /^an?$/.test(m[1]!) ? 1 : countOf(m[1]);
    const day = addDays(t, -n * (/^(?:weeks?|hafte|hafta)$/.test(m[2]!) ? 7 : 1));
    return { from: day, to: day };
  }],
  // "ek hafte ka comm", "3 din ki bets", "do mahine ka pnl": the last N days, weeks or months.
  [new RegExp(String.raw`\b(\d{1,3}|${COUNT_WORD})\s+(din|hafte|hafta|hafton|mahine|mahina)\s+(?:ka|ki|ke)\b`), (m, t) => {
    const n = countOf(m[1]);
    // Months as "last N months" counts them: this one and the N − 1 before it.
    return /^din$/.test(m[2]!) ? lastDays(t, n) : /^haft/.test(m[2]!) ? lastDays(t, 7 * n) : { from: lastMonthOf(t, Math.max(1, n) - 1).from, to: t };
  }],
  // "since the start of the month", "from the beginning of the week": the period that is running.
  [/\b(?:since|from)\s+the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+(week|month|year)\b/, (m, t) => ({ from: m[1] === 'week' ? startOfWeek(t) : m[1] === 'month' ? startOfMonth(t) : `${t.slice(0, 4)}-01-01`, to: t })],
  // "weekly recap", "monthly pnl", "daily summary": the week, month or day that is running.
  [/\bweekly\b/, (_m, t) => ({ from: startOfWeek(t), to: t })],
  [/\bmonthly\b/, (_m, t) => ({ from: startOfMonth(t), to: t })],
  [/\bdaily\b(?!\s+(?:win|limit|max))/, (_m, t) => ({ from: t, to: t })],
  // "4 se 10 tarikh tak", "15 tarikh ko": days of the month by number, Hindi's way of saying dates
  // without a month (this month's when not after today, else the month before's, as "the 4th").
  [/\b(\d{1,2})\s*(?:se|to|-|–)\s*(\d{1,2})\s*(?:tarikh|tareekh|tarik|taarikh|tareek)\b(?:\s+tak)?/, (m, t) => placeRange({ day: Number(m[1]), month: null, year: null }, { day: Number(m[2]), month: null, year: null }, t)],
  [/\b(\d{1,2})\s*(?:tarikh|tareekh|tarik|taarikh|tareek)\b/, (m, t) => {
    const day = place({ day: Number(m[1]), month: null, year: null }, t);
    return day ? { from: day, to: day } : null;
  }],
  // "friday last week", "last week's friday", "pichle hafte ka friday": that day of last week.
  [new RegExp(String.raw`\b(?:${WEEKDAY}\s+(?:of\s+)?last\s+week|last\s+week(?:'?s)?\s+${WEEKDAY}|${HINDI_LAST}\s+hafte\s+(?:ka|ke|ki)\s+${WEEKDAY})`), (m, t) => {
    const word = (m[1] ?? m[2] ?? m[3])!;
    const wanted = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].indexOf(word.slice(0, 3));
    const day = addDays(startOfWeek(t), wanted - 7);
    return { from: day, to: day };
  }],
  // "yesterday and today", "kal aur aaj": both days, never just the first one named.
  [new RegExp(String.raw`\b(?:(?:yesterday|${R_YESTERDAY})\s+(?:and|&|aur|ane|ani|te|or|\+)\s+(?:today|${R_TODAY})|(?:today|${R_TODAY})\s+(?:and|&|aur|ane|ani|te|or|\+)\s+(?:yesterday|${R_YESTERDAY}))\b`), (_m, t) => ({ from: addDays(t, -1), to: t })],
  [new RegExp(String.raw`\b(?:day\s+before\s+yesterday|${anyOf(REGIONAL.dayBeforeYesterday)})\b`), (_m, t) => ({ from: addDays(t, -2), to: addDays(t, -2) })],
  [new RegExp(String.raw`\b(?:yesterday|${R_YESTERDAY})\b`), (_m, t) => ({ from: addDays(t, -1), to: addDays(t, -1) })],
  // "since this morning", "this evening": parts of today.
  // "aaj tak" is "till date", read last.
  [new RegExp(String.raw`\b(?:today|tonight|so far today|${R_TODAY}(?!\s+(?:tak|sudhi|paryant)\b)|this\s+(?:morning|afternoon|evening))\b`), (_m, t) => ({ from: t, to: t })],
  [new RegExp(String.raw`\b(?:(?:last|past|previous|prev)\s+(\d{1,4}|${COUNT_WORD})\s+days?|${HINDI_LAST}\s+(\d{1,4}|${COUNT_WORD})\s+din)\b`), (m, t) => lastDays(t, countOf(m[1] ?? m[2]))],
  [new RegExp(String.raw`\b(?:(?:last|past|previous|prev)\s+(\d{1,3}|${COUNT_WORD})\s+weeks?|${HINDI_LAST}\s+(\d{1,3}|${COUNT_WORD})\s+(?:hafte|hafton|week))\b`), (m, t) => lastDays(t, 7 * countOf(m[1] ?? m[2]))],
  [new RegExp(String.raw`\b(?:last|past|previous|prev)\s+(\d{1,3}|${COUNT_WORD})\s+fortnights?\b`), (m, t) => lastDays(t, 14 * countOf(m[1]))],
  [new RegExp(String.raw`\b(?:(?:last|past|previous|prev)\s+(\d{1,2}|${COUNT_WORD})\s+months?|${HINDI_LAST}\s+(\d{1,2}|${COUNT_WORD})\s+(?:mahine|mahino|month))\b`), (m, t) => {
    const n = Math.max(1, countOf(m[1] ?? m[2]));
    return { from: lastMonthOf(t, n - 1).from, to: t };
  }],
  [/\b(?:last|past|previous|prev)\s+(?:fortnight|two\s+weeks|2\s+weeks)\b/, (_m, t) => lastDays(t, 14)],
  [/\b(?:this|current)\s+fortnight\b/, (_m, t) => ({ from: addDays(startOfWeek(t), -7), to: t })],
  // Calendar quarters: "Q4" (this year's, or last year's when it has not begun), "this quarter",
  // "QTD", "last quarter"; a quarter still running ends today.
  [/\b(?:(this|current|last|previous|prev)\s+quarter|q([1-4])(?:\s*(20\d\d))?|quarter\s+to\s+date|qtd)\b/, (m, t) => {
    const year = Number(t.slice(0, 4));
    const current = Math.floor((Number(t.slice(5, 7)) - 1) / 3);
    const startOf = (y: number, q: number) => `${y}-${String(q * 3 + 1).padStart(2, '0')}-01` as IsoDate;
    let y = m[3] ? Number(m[3]) : year;
    let q = m[2] ? Number(m[2]) - 1 : current;
    if (m[1] && /last|previous|prev/.test(m[1])) { q = current - 1; if (q < 0) { q = 3; y -= 1; } }
    if (!m[3] && startOf(y, q) > t) y -= 1;
    const from = startOf(y, q);
    if (from > t) return null;
    const end = endOfMonth(`${y}-${String(q * 3 + 3).padStart(2, '0')}-01` as IsoDate);
    return { from, to: end < t ? end : t };
  }],
  // "over the weekend", "last weekend": Saturday and Sunday — this week's once it has begun, else the last.
  [/\b(?:(this|the|last|past|previous|pichle)\s+)?weekend\b/, (m, t) => {
    const saturday = addDays(startOfWeek(t), 5);
    const current = t >= saturday && !['last', 'past', 'previous', 'pichle'].includes(m[1] ?? '');
    return current ? { from: saturday, to: t } : { from: addDays(startOfWeek(t), -2), to: addDays(startOfWeek(t), -1) };
  }],
  // "over the past week": the last seven days ("last week" is the calendar week before this one).
  [/\b(?:the\s+)?past\s+week\b/, (_m, t) => lastDays(t, 7)],
  [/\b(?:the\s+)?week\s+before\s+last(?:\s+week)?\b/, (_m, t) => weekOf(t, 2)],
  [/\b(?:the\s+)?month\s+before\s+last(?:\s+month)?\b/, (_m, t) => lastMonthOf(t, 2)],
  // "for the week", "the week so far", "and for the month?": with nothing else to place it, the
  // week or month that is running (never "the week before", "the week of 10 Nov").
  [new RegExp(String.raw`\b(?:(?:this|current)\s+week|${regional('this', 'week')}|${BARE_HOW_WENT('hafta|hafte|week')}|wtd|week\s+to\s+date|${THE_PERIOD('week')})\b`), (_m, t) => ({ from: startOfWeek(t), to: t })],
  [new RegExp(String.raw`\b(?:(?:last|previous|prev)\s+week|${regional('last', 'week')})\b`), (_m, t) => weekOf(t, 1)],
  [new RegExp(String.raw`\b(?:(?:this|current)\s+month|${regional('this', 'month')}|${BARE_HOW_WENT('mahina|mahine|month')}|mtd|month\s+to\s+date|${THE_PERIOD('month')})\b`), (_m, t) => ({ from: startOfMonth(t), to: t })],
  [new RegExp(String.raw`\b(?:(?:last|previous|prev)\s+month|${regional('last', 'month')})\b`), (_m, t) => lastMonthOf(t)],
  [new RegExp(String.raw`\b(?:(?:this|current)\s+year|${regional('this', 'year')}|ytd|year\s+to\s+date)\b`), (_m, t) => ({ from: `${t.slice(0, 4)}-01-01`, to: t })],
  [new RegExp(String.raw`\b(?:(?:last|previous|prev)\s+year|${regional('last', 'year')})\b`), (_m, t) => {
    const y = Number(t.slice(0, 4)) - 1;
    return { from: `${y}-01-01`, to: `${y}-12-31` };
  }],
];

// A short month word ("oct") is a month where a month is expected: after "in", "for", "since";
// before a year; before a Hindi postposition ("oct ka pnl", "sept ki bets", "nov mein"); or last
// in the message ("pnl oct"; not "may", which ends sentences as a verb).
const MONTH_RULE = new RegExp(String.raw`\b(?:(since|from)\s+${MONTH}|(?:in|for|during|of)\s+${MONTH}|${FULL_MONTH}|${MONTH}(?=,?\s+(?:19|20)\d{2}\b|\s+(?:ka|ki|ke|ko|mein|me|main|wala|wali|wale|se)\b)|${MONTH}(?<!\bmay)(?=\s*[?.!]*$))(?:,?\s+((?:19|20)\d{2})\b)?`);
const TILL_DATE_ALONE = new RegExp(String.raw`\b${TO_TODAY}\b`);

function monthSpan(m: RegExpExecArray, today: IsoDate, after: string): Span {
  const mo = monthIndex((m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6])!);
  const y = m[7] ? Number(m[7]) : yearFor(mo, today);
  const from = `${y}-${pad(mo + 1)}-01`;
  // "since October", "from October onwards" run to today; "bets from October" are October's.
  if (m[1] === 'since' || (m[1] === 'from' && OPEN_AFTER.test(after))) return { from, to: today };
  const end = endOfMonth(from);
  return { from, to: end < today ? end : today };
}

const WEEK_OF_MONTH = new RegExp(String.raw`\b(?:the\s+)?(first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+of\s+(?:(this|last|previous)\s+month|${MONTH})`);

function weekOfMonth(m: RegExpExecArray, today: IsoDate): Span | null {
  const from = m[2] ? (m[2] === 'this' ? startOfMonth(today) : lastMonthOf(today).from) : (() => {
    const mo = monthIndex(m[3]!);
    return `${yearFor(mo, today)}-${pad(mo + 1)}-01`;
  })();
  const end = endOfMonth(from);
  const nth = ['first', '1st', 'second', '2nd', 'third', '3rd', 'fourth', '4th'].indexOf(m[1]!);
  if (nth < 0) return { from: addDays(end, -6), to: end };
  const start = addDays(from, 7 * Math.floor(nth / 2));
  return { from: start, to: addDays(start, 6) };
}

type Found = Span & { start: number; stop: number };

/** A period that ran to today takes "till date" / "so far" after it into its phrase. */
function withTail(lower: string, start: number, end: number, span: Span, today: IsoDate): Found | null {
  if (span.from > span.to) return null;
  let stop = end;
  if (span.to === today) {
    const tail = new RegExp(String.raw`^\s*${TO_TODAY}\b`).exec(lower.slice(end));
    if (tail) stop += tail[0].length;
  }
  return { from: span.from, to: span.to, start, stop };
}

// ---------------------------------------------------------------------------------------------
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

const SHORT_DAYS: Readonly<Record<string, string>> = { tues: 'tuesday', weds: 'wednesday', thur: 'thursday', thurs: 'thursday' };

/** The text with period words respelt, and where each of its characters stands in the text as typed. */
function respell(lower: string): { text: string; at: number[] | null } {
  const tokens = [...lower.matchAll(/[a-z]+|\d+/g)];
  const words = tokens.map((t) => t[0]);
  const adjacent = (i: number) => i + 1 < tokens.length && /^\s+$/.test(lower.slice(tokens[i]!.index + words[i]!.length, tokens[i + 1]!.index));
  const isCount = (i: number) => /^\d+$/.test(words[i]!) || COUNT_WORDS[words[i]!] !== undefined;
  const { alone, unit, modifier } = PERIOD_SPELLING;
  const fixed = words.map((word, i) => {
    if (!/^[a-z]+$/.test(word)) return word;
    // The week's days cut short the way people write them ("bets Tues", "Thurs"), save the three-letter
    // forms that are words or names too ("sat", "sun", "wed").
    const shortDay = SHORT_DAYS[word];
    if (shortDay) return shortDay;
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
    for (let k = from; k < t.index; k++) { at.push(k); text += lower[k]; }
    // Each letter stands at its own place in the word as typed, the last at the typed word's last.
    const last = fixed[i]!.length - 1;
    for (let k = 0; k <= last; k++) at.push(t.index + (k === last ? words[i]!.length - 1 : Math.min(k, words[i]!.length - 1)));
    text += fixed[i];
    from = t.index + words[i]!.length;
  });
  for (let k = from; k < lower.length; k++) { at.push(k); text += lower[k]; }
  at.push(lower.length);
  return { text, at };
}

/** The date phrase of the text (the most specific reading), or null when there is none or it is impossible. */
export function findDateRange(text: string, today: IsoDate): FoundRange | null {
  const typed = text.toLowerCase();
  const { text: lower, at } = respell(typed);
  const found = findIn(lower, today);
  if (!found) return null;
  // The phrase as typed, for callers to blank out: a respelt word maps back to its own letters.
  const start = at ? at[found.start]! : found.start;
  const stop = at ? (found.stop >= at.length - 1 ? typed.length : at[found.stop - 1]! + 1) : found.stop;
  return { from: found.from, to: found.to, raw: typed.slice(start, stop).trim() };
}

function findIn(lower: string, today: IsoDate): Found | null {
  // The most specific phrase decides: an impossible day ("31 Feb") or a reversed range is
  // refused, not read again as something vaguer ("Feb").
  for (const m of lower.matchAll(DAYLIKE)) if (!validDay(m[0], today)) return null;

  // "the fortnight ending 15th", "week ended 8 nov": that many days up to the day named.
  const ending = /\b(fortnight|two\s+weeks|2\s+weeks|week)\s+end(?:ing|ed|s)?\s+(?:on\s+)?/.exec(lower);
  if (ending) {
    const rest = lower.slice(ending.index + ending[0].length);
    // A day said bare ("15th") reads as one once it is "on the 15th".
    const lead = /^the\s/.test(rest) ? 'on ' : 'on the ';
    const last = findIn(lead + rest, today);
    if (last && last.from === last.to && last.to <= today) {
      const days = ending[1] === 'week' ? 7 : 14;
      return { from: addDays(last.to, 1 - days), to: last.to, start: ending.index, stop: ending.index + ending[0].length + Math.max(0, last.stop - lead.length) };
    }
  }

  // "w/c 9th", "week commencing 9 Nov", "the week of the 10th": the Monday-to-Sunday week with that day in it.
  const weekOfDay = /\b(?:(?:the\s+)?week\s+(?:of|commencing|starting|beginning)|w\s*\/\s*c|wc)\s+(?:on\s+)?/.exec(lower);
  if (weekOfDay) {
    const rest = lower.slice(weekOfDay.index + weekOfDay[0].length);
    const lead = /^the\s/.test(rest) ? 'on ' : 'on the ';
    const day = findIn(lead + rest, today);
    if (day && day.from === day.to && startOfWeek(day.from) <= today) {
      const monday = startOfWeek(day.from);
      const sunday = addDays(monday, 6);
      return { from: monday, to: sunday < today ? sunday : today, start: weekOfDay.index, stop: weekOfDay.index + weekOfDay[0].length + Math.max(0, day.stop - lead.length) };
    }
  }

  // "the first week of november", "last week of october": days 1–7, 8–14 … or the month's last seven.
  const nth = WEEK_OF_MONTH.exec(lower);
  if (nth) {
    const span = weekOfMonth(nth, today);
    return span && span.from <= today ? withTail(lower, nth.index, nth.index + nth[0].length, { from: span.from, to: span.to < today ? span.to : today }, today) : null;
  }

  const found = mentions(lower);
  const joined = fromMentions(lower, found, today);
  if (joined === 'refused') return null;
  if (joined) return withTail(lower, joined.start, joined.end, joined, today);

  // "the 3rd of last month" says its month: it goes before "last month" is read as a period.
  const anchored = found.find((m) => !('weekday' in m.from) && /\bmonth$/.test(lower.slice(m.start, m.end)));
  if (anchored) {
    const span = spanOf(anchored, today);
    const lead = /\b(?:on|for)\s+$/.exec(lower.slice(0, anchored.start));
    return span ? withTail(lower, anchored.start - (lead?.[0].length ?? 0), anchored.end, span, today) : null;
  }

  for (const [pattern, resolve] of PERIODS) {
    const m = pattern.exec(lower);
    if (!m) continue;
    const span = resolve(m, today);
    return span ? withTail(lower, m.index, m.index + m[0].length, span, today) : null;
  }

  const single = found[0];
  if (single) {
    if ('weekday' in single.from) {
      const { day, extra } = placeWeekday(single.from, today, lower.slice(single.end));
      const lead = /\b(?:on|for)\s+$/.exec(lower.slice(0, single.start));
      return withTail(lower, single.start - (lead?.[0].length ?? 0), single.end + extra, { from: day, to: day }, today);
    }
    const span = spanOf(single, today);
    if (!span) return null;
    const lead = /\b(?:on|for)\s+(?:the\s+)?$/.exec(lower.slice(0, single.start));
    return withTail(lower, single.start - (lead?.[0].length ?? 0), single.end, span, today);
  }

  const month = MONTH_RULE.exec(lower);
  if (month) return withTail(lower, month.index, month.index + month[0].length, monthSpan(month, today, lower.slice(month.index + month[0].length)), today);

  const tillDate = TILL_DATE_ALONE.exec(lower);
  if (tillDate) return { from: startOfMonth(today), to: today, start: tillDate.index, stop: tillDate.index + tillDate[0].length };
  return null;
}
