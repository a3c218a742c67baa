/**
 * Amounts as people type them in the trade, in points, to exact paisa: `50k`, `50,000`,
 * `1,00,000`, `5 lakh`, `5L`, `2.5Cr`, `1.2m`, `₹1,00,000`, `500 pts`, `5 hazaar`, and in words,
 * English or Hinglish: `fifty thousand`, `two lakh`, `ek lakh`, `paanch hazaar`, `dedh lakh`
 * (1.5 lakh), `half a lakh` / `aadha lakh` (0.5), `quarter lakh` (0.25), `dhai lakh` (2.5), `sawa lakh` (1.25), `saadhe teen lakh` (3.5), `paune do lakh`
 * (1.75). Parts in falling order join up: `2 lakh 50 hazaar`, `one crore twenty lakh`.
 * Decimal arithmetic is done on the digits (BigInt), so `2.5 cr` is exactly 2,500,000,000 paisa
 * and nothing passes through a float.
 *
 * A sign is kept, never dropped: `-50k` and `minus 50k` are found with `negative: true` and the
 * paisa of the magnitude, and zero is found as 0, so the caller can refuse either with
 * `amountRefusal` instead of acting on a number the user did not mean.
 */
import { formatPoints } from '../money.js';
import { isAlnum } from './date-words.js';
import { isWord, tokenSpans } from './phrases.js';

export interface FoundAmount {
  /** The amount's magnitude in paisa, or null when it is not a whole number of paisa or too large to hold. */
  paisa: number | null;
  problem: 'fraction_of_paisa' | 'too_large' | null;
  /** A leading '-', '−' or 'minus' stood right before it. */
  negative: boolean;
  /** The text as typed, and where it stands. */
  raw: string;
  start: number;
  end: number;
  /**
   * The paisa that one unit of the last place written stands for: how precisely the wording states
   * the amount. 1 for "12.50", 100 for "5,000", a lakh for "2 lakh", a tenth of a lakh for "1.2 lakh",
   * a thousand points for "two thousand", a quarter lakh for "sawa lakh".
   */
  step: number;
  /** Digits alone ("1,200.00"), digits with a scale ("2 lakh", "50k"), or number words ("two thousand"). */
  written: 'digits' | 'scaled' | 'words';
  /** A currency ("₹", "rs", "INR") or points ("pts") was written with it: money, never a count. */
  money: boolean;
}

const MULTIPLIERS: Record<string, bigint> = {
  k: 1_000n, thousand: 1_000n, thousands: 1_000n, grand: 1_000n,
  hazar: 1_000n, hazaar: 1_000n, hajar: 1_000n, hajaar: 1_000n, hazzar: 1_000n, hjr: 1_000n,
  l: 100_000n, lakh: 100_000n, lakhs: 100_000n, lac: 100_000n, lacs: 100_000n, laakh: 100_000n, laakhs: 100_000n,
  // Speech-to-text writes "lakh" as it hears it: "two lack".
  lack: 100_000n, lacks: 100_000n,
  m: 1_000_000n, mn: 1_000_000n, million: 1_000_000n, millions: 1_000_000n,
  cr: 10_000_000n, crore: 10_000_000n, crores: 10_000_000n, karod: 10_000_000n, karor: 10_000_000n,
  // The trade's street words: a "peti" is a lakh, a "khokha" a crore ("2 peti ka CL").
  // The London trade's slang: a "monkey" is 500, a "pony" 25 ("settle Karan a monkey").
  monkey: 500n, monkeys: 500n, pony: 25n, ponies: 25n,
  peti: 100_000n, petis: 100_000n, pethi: 100_000n, khokha: 10_000_000n, khoka: 10_000_000n, khokhe: 10_000_000n,
  b: 1_000_000_000n, bn: 1_000_000_000n, billion: 1_000_000_000n,
  tn: 1_000_000_000_000n, trillion: 1_000_000_000_000n,
};
// After a number word, the short scales read too ("twenty five k", "pachaas k", "paanch cr"); "l", "m"
// and "b" stay out, being letters as often as scales.
const SCALE_WORDS = Object.keys(MULTIPLIERS).filter((w) => w.length > 2 || ['k', 'cr', 'mn', 'bn'].includes(w));

// Quantities in words, in hundredths of a unit so that "dedh" (1.5) and "sawa" (+0.25) stay exact.
const ENGLISH_UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60,
  seventy: 70, eighty: 80, ninety: 90,
};
const UNITS: Record<string, number> = {
  ...ENGLISH_UNITS,
  ek: 1, do: 2, teen: 3, tin: 3, char: 4, chaar: 4, paanch: 5, panch: 5, paach: 5, chhe: 6, chhah: 6, che: 6,
  saat: 7, sat: 7, aath: 8, ath: 8, nau: 9, das: 10, dus: 10, gyarah: 11, barah: 12, baarah: 12,
  pandrah: 15, bees: 20, bis: 20, pachees: 25, pachis: 25, tees: 30, chalis: 40, chaalis: 40,
  pachas: 50, pachaas: 50, saath: 60, sattar: 70, assi: 80, nabbe: 90,
};
// Hindi fractions: a whole quantity ("dedh" = 1.5) or a change to the next one ("sawa do" = 2.25).
const WHOLE_FRACTIONS: Record<string, number> = { dedh: 150, derh: 150, dhai: 250, dhaai: 250, adhai: 250, dhaee: 250, adha: 50, aadha: 50, aadhe: 50, adhe: 50 };
const NEXT_FRACTIONS: Record<string, number> = { sawa: 25, sava: 25, saadhe: 50, sadhe: 50, saade: 50, sade: 50, paune: -25, pone: -25 };
const HUNDRED: Record<string, number> = { hundred: 100, sau: 100 };
/** Number words that are also everyday English or Hindi words: "what do two lakh". */
const HOMOGRAPHS: ReadonlySet<string> = new Set(['do', 'sat', 'tin', 'che', 'ath', 'bis', 'das', 'bees', 'sau']);
/**
 * Whole numbers in words, for counts ("the ten busiest", "pichle do hafte"): `homographs` says
 * whether words that are also everyday words ("do", "das") count, which only a context that
 * expects a number (a date's "last N days") can afford.
 */
export function numberWords(homographs: boolean): Readonly<Record<string, number>> {
  return Object.fromEntries(Object.entries(UNITS).filter(([w, n]) => n > 0 && (homographs || !HOMOGRAPHS.has(w))));
}

/**
 * Ordinals in words, 1 to 31, for days of the month ("the fourteenth", "twenty-first"): built from
 * the English units above, a two-word one keyed with one space ("twenty first").
 */
export function ordinalWords(): Readonly<Record<string, number>> {
  const irregular: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };
  const ordinal = (w: string) => irregular[w] ?? (w.endsWith('y') ? `${w.slice(0, -1)}ieth` : `${w}th`);
  // "fourty" is a misspelling read as forty, never written as an ordinal.
  const english = Object.entries(ENGLISH_UNITS).filter(([w, n]) => n > 0 && n <= 30 && w !== 'fourty');
  const out: Record<string, number> = {};
  for (const [w, n] of english) out[ordinal(w)] = n;
  for (const [tens, t] of english.filter(([, n]) => n === 20 || n === 30)) {
    for (const [w, n] of english.filter(([, n]) => n < 10)) if (t + n <= 31) out[`${tens} ${ordinal(w)}`] = t + n;
  }
  return out;
}
const FRACTION_WORDS: ReadonlySet<string> = new Set(['half', 'quarter', ...Object.keys(WHOLE_FRACTIONS), ...Object.keys(NEXT_FRACTIONS)]);

/**
 * Every word an amount may be written with ("paanch", "hazaar", "dedh", "crore"): the planner
 * knows them, so that an amount in words is never taken for a name.
 */
export const AMOUNT_WORDS: ReadonlySet<string> = new Set([...Object.keys(UNITS), ...Object.keys(WHOLE_FRACTIONS),
  ...Object.keys(NEXT_FRACTIONS), ...Object.keys(HUNDRED), ...Object.keys(MULTIPLIERS), 'minus', 'half', 'quarter']);

/** Every word a run of number words is read from ("two lakh", "sawa do", "one and a half"). */
const RUN_WORDS: ReadonlySet<string> = new Set([...Object.keys(UNITS), ...Object.keys(WHOLE_FRACTIONS), ...Object.keys(NEXT_FRACTIONS),
  ...Object.keys(HUNDRED), ...SCALE_WORDS, 'a', 'and', 'of', 'half', 'quarter', 'point']);
/** Words and marks of the currency an amount may be typed with ("₹500", "rs. 500", "INR 500", "rs500"). */
const CURRENCY: ReadonlySet<string> = new Set(['₹', 'rs', 'inr']);
const POINT_UNITS: ReadonlySet<string> = new Set(['pts', 'points', 'pt', 'point']);
const DASHES: ReadonlySet<string> = new Set(['-', '−']);
/** Run of the tokenizer that an amount's digits stand in: letters before (a currency), the digits, letters after (a scale or unit). */
const DIGIT_TOKEN = /^([a-z]*)(\d+)([a-z]*)$/;

interface Span {
  /** The token, lower-cased. */
  token: string;
  start: number;
  end: number;
}
/** Whether two tokens touch, with no space between them ("5" and "k" of "5k" do; of "5 k" they don't). */
export const glued = (a: { start: number; end: number } | undefined, b: { start: number; end: number } | undefined): boolean => a !== undefined && b !== undefined && a.end === b.start;
/** Whether the token at `i` is a word the next token does not run on from ("k" in "50 k", not in "50 k_"). */
const wordEnds = (spans: readonly Span[], i: number): boolean => !(glued(spans[i], spans[i + 1]) && spans[i + 1]!.token === '_');
/** Whether an amount may start at token `i`: not inside a word or a number ("v2", "1.5", "1,5"). */
function opens(spans: readonly Span[], i: number): boolean {
  const before = spans[i - 1];
  if (!glued(before, spans[i])) return true;
  return !(isWord(before!.token) || ['.', ',', '_'].includes(before!.token));
}

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

interface Part {
  /** Hundredths of a point: paisa. Null with a problem. */
  paisa: bigint | null;
  problem: FoundAmount['problem'];
  negative: boolean;
  start: number;
  end: number;
  /** The multiplier named last, when joining parts ("2 lakh 50 hazaar"). */
  scale: bigint;
  /** FoundAmount's `step`, in paisa. */
  step: bigint;
  currency: boolean;
  /** A points unit followed it ("500 pts"). */
  points: boolean;
  words: boolean;
}

/**
 * The finest part of a unit a quantity in hundredths was said to: a whole ("two"), a half ("dedh"),
 * a quarter ("sawa"), or the tenths and hundredths "point" says ("one point two five").
 */
function finest(hundredths: bigint, pointed: bigint | null): bigint {
  if (pointed !== null) return pointed;
  return [100n, 50n, 25n, 10n].find((d) => hundredths % d === 0n) ?? 1n;
}

/** A run of number words as paisa, or null when it is not an amount (no scale word, or out of order). */
function wordsToPaisa(words: string[]): { paisa: bigint; scale: bigint; step: bigint } | null {
  let total = 0n;
  let current = 0n; // hundredths of the quantity being read
  let adjust = 0n; // "sawa", "saadhe", "paune": applied to the next quantity
  let lastScale = 0n;
  let sawScale = false;
  // A scale word alone ("in lakhs") is a unit of display, not an amount.
  let sawQuantity = false;
  /** The quantity word just read, while no scale or hundred has followed it. */
  let previousUnit: number | null = null;
  /** The paisa one unit of the last place said stands for (FoundAmount's `step`). */
  let step = 100n;
  /** The decimals "point" said of the quantity being read: tenths (10) or hundredths (1). */
  let pointed: bigint | null = null;
  /** Whether a quantity was said after the last scale ("two hundred fifty"): its unit is a point. */
  let unitsAfterScale = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (w === 'and') continue;
    if (w === 'point') {
      // A run ending on "point" ("fifty point") ends on the unit "points", not on a decimal.
      if (next === undefined) continue;
      // "one point five lakh", "two point two five lakh": tenths and hundredths of the quantity read.
      const tenths = UNITS[next];
      if (previousUnit === null || tenths === undefined || tenths > 9) return null;
      current += BigInt(tenths) * 10n;
      pointed = 10n;
      i++;
      const hundredths = UNITS[words[i + 1] ?? ''];
      if (hundredths !== undefined && hundredths <= 9) {
        current += BigInt(hundredths);
        pointed = 1n;
        i++;
      }
      // After the decimals only a scale may follow ("one point five six lakh" is no amount).
      previousUnit = 0;
      continue;
    }
    // "of" only inside "half of a lakh" (read with the half); anywhere else it is no amount.
    if (w === 'of') return null;
    if (w === 'a') {
      // "a lakh", "one and a half lakh"
      if (next === 'half' || next === 'quarter') continue;
      if (next && (MULTIPLIERS[next] !== undefined || HUNDRED[next] !== undefined) && current === 0n) current = 100n;
      else return null;
      sawQuantity = true;
    } else if (w === 'half' || w === 'quarter') {
      // "half a lakh", "quarter lakh": that part of the scale that follows; "one and a half lakh": a part more.
      const part = w === 'half' ? 50n : 25n;
      if (current === 0n) {
        if (words[i + 1] === 'of') i++;
        if (words[i + 1] === 'a') i++;
        const scale = words[i + 1];
        if (!scale || (MULTIPLIERS[scale] === undefined && HUNDRED[scale] === undefined)) return null;
        current = part;
        sawQuantity = true;
      } else current += part;
    } else if (UNITS[w] !== undefined) {
      // Two quantities side by side are one number only as tens and units ("twenty five"):
      // "do two lakh" ("do" is 2 in Hindi) or "five two lakh" is no amount, never 4 or 7 lakh.
      const unit = UNITS[w]!;
      if (previousUnit !== null && !(previousUnit >= 20 && previousUnit % 10 === 0 && unit < 10)) return null;
      current += BigInt(unit) * 100n + adjust;
      previousUnit = unit;
      adjust = 0n;
      sawQuantity = true;
      unitsAfterScale = sawScale;
    } else if (WHOLE_FRACTIONS[w] !== undefined) {
      current += BigInt(WHOLE_FRACTIONS[w]);
      sawQuantity = true;
    } else if (NEXT_FRACTIONS[w] !== undefined) {
      adjust = BigInt(NEXT_FRACTIONS[w]);
      sawQuantity = true;
    } else if (HUNDRED[w] !== undefined) {
      previousUnit = null;
      const quantity = current === 0n ? 100n + adjust : current;
      step = finest(quantity, pointed) * 100n;
      pointed = null;
      unitsAfterScale = false;
      current = quantity * 100n;
      adjust = 0n;
      sawScale = true;
    } else {
      const scale = MULTIPLIERS[w]!;
      // A short scale ("k", "cr") only right after a quantity word: "a k" or "sawa k" is no amount.
      if (w.length <= 2 && previousUnit === null && WHOLE_FRACTIONS[words[i - 1] ?? ''] === undefined) return null;
      previousUnit = null;
      if (lastScale !== 0n && scale >= lastScale) return null;
      if (!sawQuantity) return null;
      if (current === 0n) current = 100n + adjust; // "sawa lakh", "lakh"
      adjust = 0n;
      step = finest(current, pointed) * scale;
      pointed = null;
      unitsAfterScale = false;
      total += current * scale;
      current = 0n;
      lastScale = scale;
      sawScale = true;
    }
  }
  // "zero" needs no scale to be an amount ("daily win zero kar do"): no count or date reads it.
  if (words.length === 1 && words[0] === 'zero') return { paisa: 0n, scale: 1n, step: 100n };
  if (!sawScale || adjust !== 0n) return null;
  total += current;
  // `total` is hundredths of a point: that is paisa.
  return { paisa: total, scale: lastScale || 100n, step: unitsAfterScale ? 100n : step };
}

/**
 * A sign and a currency before an amount, from token `i`: "-", "minus", "₹", "rs.", "INR", in
 * that order, each optional. A dash is a sign only touching what follows ("10k - 20k" is a range).
 */
function leadIn(spans: readonly Span[], i: number): { at: number; negative: boolean; currency: boolean } {
  let at = i;
  let negative = false;
  let currency = false;
  const t = spans[at];
  const next = spans[at + 1];
  if (t && DASHES.has(t.token) && glued(t, next) && (next!.token === '₹' || isAlnum(next!.token))) {
    negative = true;
    at++;
  } else if (t?.token === 'minus' && next && !glued(t, next)) {
    negative = true;
    at++;
  }
  const c = spans[at];
  if (c && CURRENCY.has(c.token)) {
    currency = true;
    at++;
    if (c.token === 'rs' && spans[at]?.token === '.' && glued(c, spans[at])) at++;
  }
  return { at, negative, currency };
}

interface DigitToken {
  digits: string;
  /** Letters after the digits in the same token ("k" of "50k"). */
  suffix: string;
}
/** A token of digits with the letters around them ("2nd", "50k", "rs5k"), or null; its letters before are kept only when `prefixes` has them. */
export function digitToken(span: { token: string } | undefined, prefixes: ReadonlySet<string> = new Set()): (DigitToken & { prefix: string }) | null {
  const m = span ? DIGIT_TOKEN.exec(span.token) : null;
  if (!m || (m[1] !== '' && !prefixes.has(m[1]!))) return null;
  return { prefix: m[1]!, digits: m[2]!, suffix: m[3]! };
}

/** One way of reading the digits from a token: the whole number, its decimals, the letters after the last token, and that token. */
interface Reading {
  whole: string;
  fraction: string;
  suffix: string;
  last: number;
}

/**
 * The ways the number at token `j` may be read, longest first: grouped with commas ("1,00,000",
 * each group of 2 or 3 digits), or plain; with decimals or without. A reading whose end does not
 * fit (a letter run that is no scale, "1,000x") gives way to a shorter one ("1").
 */
function readings(spans: readonly Span[], j: number, first: DigitToken): Reading[] {
  const out: Reading[] = [];
  const withDecimals = (whole: string, last: number): void => {
    const dot = spans[last + 1];
    const decimals = digitToken(spans[last + 2]);
    if (dot?.token === '.' && glued(spans[last], dot) && glued(dot, spans[last + 2]) && decimals) {
      out.push({ whole, fraction: decimals.digits, suffix: decimals.suffix, last: last + 2 });
    }
  };
  if (first.suffix === '' && first.digits.length <= 3) {
    const groups: Array<{ whole: string; last: number; suffix: string }> = [];
    let whole = first.digits;
    for (let k = j; ;) {
      const comma = spans[k + 1];
      const group = digitToken(spans[k + 2]);
      if (comma?.token !== ',' || !glued(spans[k], comma) || !glued(comma, spans[k + 2]) || !group || group.digits.length < 2 || group.digits.length > 3) break;
      whole += group.digits;
      k += 2;
      groups.push({ whole, last: k, suffix: group.suffix });
      if (group.suffix !== '') break;
    }
    for (const g of groups.reverse()) {
      if (g.suffix === '') withDecimals(g.whole, g.last);
      out.push({ whole: g.whole, fraction: '', suffix: g.suffix, last: g.last });
    }
  }
  if (first.suffix === '') withDecimals(first.digits, j);
  out.push({ whole: first.digits, fraction: '', suffix: first.suffix, last: j });
  return out;
}

/** The multiplier and point unit after a reading, and the token it ends on; null when letters run on that are neither. */
function tail(spans: readonly Span[], r: Reading): { multiplier: bigint; last: number; points: boolean } | null {
  let multiplier = 1n;
  let last = r.last;
  if (r.suffix !== '') {
    if (MULTIPLIERS[r.suffix] !== undefined) multiplier = MULTIPLIERS[r.suffix]!;
    else if (!POINT_UNITS.has(r.suffix)) return null;
    else return wordEnds(spans, last) ? { multiplier, last, points: true } : null;
  } else if (MULTIPLIERS[spans[last + 1]?.token ?? ''] !== undefined && !glued(spans[last], spans[last + 1]) && wordEnds(spans, last + 1)) {
    multiplier = MULTIPLIERS[spans[last + 1]!.token]!;
    last++;
  }
  let points = false;
  if (POINT_UNITS.has(spans[last + 1]?.token ?? '') && !glued(spans[last], spans[last + 1]) && wordEnds(spans, last + 1)) {
    last++;
    points = true;
  }
  return wordEnds(spans, last) ? { multiplier, last, points } : null;
}

function digitParts(spans: readonly Span[]): Part[] {
  const parts: Part[] = [];
  for (let i = 0; i < spans.length; i++) {
    if (!opens(spans, i)) continue;
    const lead = leadIn(spans, i);
    let { at, negative, currency } = lead;
    // "₹-500", "rs -500": the sign after the currency.
    if (DASHES.has(spans[at]?.token ?? '') && glued(spans[at], spans[at + 1]) && digitToken(spans[at + 1]) !== null) {
      negative = true;
      at++;
    }
    const first = digitToken(spans[at], currency ? new Set() : CURRENCY);
    if (!first) continue;
    if (first.prefix !== '') currency = true;
    let found: { r: Reading; multiplier: bigint; last: number; points: boolean } | null = null;
    for (const r of readings(spans, at, first)) {
      const t = tail(spans, r);
      if (t) {
        found = { r, ...t };
        break;
      }
    }
    if (!found) continue;
    const { r, multiplier, points } = found;
    // paisa = digits × multiplier × 100 / 10^decimals, exactly.
    const scaled = BigInt(r.whole + r.fraction) * multiplier * 100n;
    const divisor = 10n ** BigInt(r.fraction.length);
    const start = spans[i]!.start;
    const end = spans[found.last]!.end;
    // The last digit's place: a unit of the scale, over ten for each decimal ("1.2 lakh": a tenth of a lakh).
    const step = multiplier * 100n / divisor || 1n;
    const base = { negative, start, end, scale: multiplier, step, words: false, currency, points };
    if (scaled % divisor !== 0n) parts.push({ ...base, paisa: null, problem: 'fraction_of_paisa' });
    else parts.push({ ...base, paisa: scaled / divisor, problem: null });
    i = found.last;
  }
  return parts;
}

function wordParts(spans: readonly Span[], taken: Part[]): Part[] {
  const parts: Part[] = [];
  for (let i = 0; i < spans.length; i++) {
    if (!opens(spans, i)) continue;
    const { at, negative, currency } = leadIn(spans, i);
    if (!RUN_WORDS.has(spans[at]?.token ?? '')) continue;
    // The run: number words, apart by spaces or hyphens ("twenty-five lakh").
    const run = [at];
    for (let k = at + 1; k < spans.length; k++) {
      let w = k;
      while (spans[w]?.token === '-') w++;
      const apart = w > k || !glued(spans[k - 1], spans[k]);
      if (!apart || !RUN_WORDS.has(spans[w]?.token ?? '')) break;
      run.push(w);
      k = w;
    }
    // A word that runs on into "_" ends no run: the run ends before it.
    while (run.length > 1 && !wordEnds(spans, run.at(-1)!)) run.pop();
    if (!wordEnds(spans, run.at(-1)!)) continue;
    let matchEnd = run.at(-1)!;
    const points = POINT_UNITS.has(spans[matchEnd + 1]?.token ?? '') && !glued(spans[matchEnd], spans[matchEnd + 1]) && wordEnds(spans, matchEnd + 1);
    if (points) matchEnd++;
    const fullLength = run.length;
    // "dedh lakh and -50k": a joining word at the end belongs to what follows.
    while (run.length > 1 && ['and', 'a'].includes(spans[run.at(-1)!]!.token)) run.pop();
    const words = run.map((k) => spans[k]!.token);
    // Drop leading words until the rest reads as an amount: "what do two lakh" → "two lakh".
    for (let skip = 0; skip < words.length; skip++) {
      // A fraction that did not read ("quarter lakh") is never dropped to read the rest as a whole amount.
      // Nor a number word, save one that is also an everyday word ("what do two lakh": "do" is 2 in Hindi).
      if (skip > 0 && (FRACTION_WORDS.has(words[skip - 1]!) || (UNITS[words[skip - 1]!] !== undefined && !HOMOGRAPHS.has(words[skip - 1]!)))) break;
      const value = wordsToPaisa(words.slice(skip));
      if (!value) continue;
      const start = skip === 0 ? spans[i]!.start : spans[run[skip]!]!.start;
      const end = run.length === fullLength ? spans[matchEnd]!.end : spans[run.at(-1)!]!.end;
      if (taken.some((t) => start < t.end && end > t.start)) break;
      parts.push({
        paisa: value.paisa, problem: null, negative: skip === 0 && negative, start, end,
        scale: value.scale, step: value.step, words: true, currency: skip === 0 && currency, points: points && run.length === fullLength,
      });
      break;
    }
    i = matchEnd;
  }
  return parts;
}

/** Whether nothing but spaces stands between two parts, or (`and`) the one word "and" with spaces around it. */
function apartBySpace(text: string, from: number, to: number, and: boolean): boolean {
  const gap = text.slice(from, to);
  if (gap.trim() === '') return true;
  return and && gap.trim().toLowerCase() === 'and' && gap.trimStart() !== gap && gap.trimEnd() !== gap;
}

/** Every amount in the text, in order. Numbers that are part of dates or ids are the caller's to exclude. */
export function findAmounts(text: string): FoundAmount[] {
  const spans = tokenSpans(text).map((t) => ({ ...t, token: t.token.toLowerCase() }));
  const digits = digitParts(spans);
  const parts = [...digits, ...wordParts(spans, digits)].sort((a, b) => a.start - b.start);
  // "2 lakh 50 hazaar", "one crore 20 lakh": parts in falling order, side by side, are one amount.
  const joined: Part[] = [];
  for (const part of parts) {
    const prev = joined.at(-1);
    if (prev && prev.paisa !== null && part.paisa !== null && !part.negative && !part.currency
      && prev.scale > 1n && part.scale > 1n && part.scale < prev.scale
      && apartBySpace(text, prev.end, part.start, part.words)) {
      joined[joined.length - 1] = {
        ...prev, paisa: prev.paisa + part.paisa, end: part.end, scale: part.scale, step: part.step, words: prev.words || part.words, points: part.points,
      };
    } else joined.push(part);
  }
  return joined.map((p) => {
    const base = {
      negative: p.negative, raw: text.slice(p.start, p.end).trim(), start: p.start, end: p.end,
      step: Number(p.step), written: p.words ? 'words' as const : p.scale > 1n ? 'scaled' as const : 'digits' as const, money: p.currency || p.points,
    };
    if (p.paisa === null) return { ...base, paisa: null, problem: p.problem };
    if (p.paisa > MAX) return { ...base, paisa: null, problem: 'too_large' as const };
    return { ...base, paisa: Number(p.paisa), problem: null };
  });
}

/** The one amount of a short phrase ("50k", "5 lakh", "-50k"), or null. */
export function parseAmount(text: string): FoundAmount | null {
  const all = findAmounts(text);
  return all.length === 1 && all[0]!.raw.length === text.trim().length ? all[0]! : null;
}

/**
 * Why an amount can't be used as a limit, stake or settlement, in the user's words; null when
 * it can. Negative and zero amounts are refused with the reason, never turned into something else.
 */
export function amountRefusal(a: FoundAmount): string | null {
  if (a.paisa === null) {
    return a.problem === 'too_large' ? `That amount is too large: ${a.raw}.` : `Amounts go to the paisa at most: ${a.raw}.`;
  }
  if (a.negative && a.paisa > 0) {
    return `A limit or amount can't be negative: -${formatPoints(a.paisa)} (you wrote "${a.raw}"). What amount did you mean?`;
  }
  if (a.paisa === 0) return `A limit or amount must be more than zero (you wrote "${a.raw}"). What amount did you mean?`;
  return null;
}
