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
const SCALE_WORDS = Object.keys(MULTIPLIERS).filter((w) => (w.length > 2 || ['k', 'cr', 'mn', 'bn'].includes(w)) && /^[a-z]+$/.test(w));

// Quantities in words, in hundredths of a unit so that "dedh" (1.5) and "sawa" (+0.25) stay exact.
const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60,
  seventy: 70, eighty: 80, ninety: 90,
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
  const english = Object.entries(UNITS).filter(([w, n]) => n > 0 && n <= 30 && /^(?:[a-z]+teen|[a-z]+ty|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)$/.test(w) && w !== 'fourty');
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

const WORDS = [...Object.keys(UNITS), ...Object.keys(WHOLE_FRACTIONS), ...Object.keys(NEXT_FRACTIONS),
  ...Object.keys(HUNDRED), ...SCALE_WORDS, 'a', 'and', 'of', 'half', 'quarter', 'point']
  .sort((a, b) => b.length - a.length).join('|');
// A dash is a sign only touching the number: "10k - 20k" is a range, "-50k" is negative.
const SIGN = String.raw`(?:([-−])(?=[\d₹a-z])|(minus)\s+)`;

// sign? currency? sign? number (grouped with commas, or plain, with decimals) multiplier? unit?
const AMOUNT = new RegExp(
  String.raw`(?<![\w.,])${SIGN}?(?:(?:₹|rs\.?|inr)\s*)?([-−](?=\d))?` +
  String.raw`(\d{1,3}(?:,\d{2,3})+(?:\.\d+)?|\d+(?:\.\d+)?)` +
  String.raw`(?:\s*(${Object.keys(MULTIPLIERS).sort((a, b) => b.length - a.length).join('|')})\b)?` +
  String.raw`(?:\s*(?:pts|points|pt|point)\b)?(?![\w])`,
  'giu',
);
const WORD_AMOUNT = new RegExp(
  String.raw`(?<![\w.,])${SIGN}?(?:(?:₹|rs\.?|inr)\s*)?((?:${WORDS})(?:[\s-]+(?:${WORDS}))*)\b(?:\s*(?:pts|points|pt|point)\b)?`,
  'giu',
);

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
  currency: boolean;
  words: boolean;
}

/** A run of number words as paisa, or null when it is not an amount (no scale word, or out of order). */
function wordsToPaisa(words: string[]): { paisa: bigint; scale: bigint } | null {
  let total = 0n;
  let current = 0n; // hundredths of the quantity being read
  let adjust = 0n; // "sawa", "saadhe", "paune": applied to the next quantity
  let lastScale = 0n;
  let sawScale = false;
  // A scale word alone ("in lakhs") is a unit of display, not an amount.
  let sawQuantity = false;
  /** The quantity word just read, while no scale or hundred has followed it. */
  let previousUnit: number | null = null;
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
      i++;
      const hundredths = UNITS[words[i + 1] ?? ''];
      if (hundredths !== undefined && hundredths <= 9) {
        current += BigInt(hundredths);
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
    } else if (WHOLE_FRACTIONS[w] !== undefined) {
      current += BigInt(WHOLE_FRACTIONS[w]);
      sawQuantity = true;
    } else if (NEXT_FRACTIONS[w] !== undefined) {
      adjust = BigInt(NEXT_FRACTIONS[w]);
      sawQuantity = true;
    } else if (HUNDRED[w] !== undefined) {
      previousUnit = null;
      current = (current === 0n ? 100n + adjust : current) * 100n;
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
      total += current * scale;
      current = 0n;
      lastScale = scale;
      sawScale = true;
    }
  }
  // "zero" needs no scale to be an amount ("daily win zero kar do"): no count or date reads it.
  if (words.length === 1 && words[0] === 'zero') return { paisa: 0n, scale: 1n };
  if (!sawScale || adjust !== 0n) return null;
  total += current;
  // `total` is hundredths of a point: that is paisa.
  return { paisa: total, scale: lastScale || 100n };
}

function digitParts(text: string): Part[] {
  const parts: Part[] = [];
  for (const match of text.matchAll(AMOUNT)) {
    const [raw, dash, minus, innerDash, number, multiplierWord] = match as unknown as
      [string, string | undefined, string | undefined, string | undefined, string, string | undefined];
    const multiplier = multiplierWord ? MULTIPLIERS[multiplierWord.toLowerCase()]! : 1n;
    const [whole, fraction = ''] = number.replace(/,/g, '').split('.') as [string, string | undefined];
    // paisa = digits × multiplier × 100 / 10^decimals, exactly.
    const scaled = BigInt(whole + fraction) * multiplier * 100n;
    const divisor = 10n ** BigInt(fraction.length);
    const start = match.index;
    const end = start + raw.trimEnd().length;
    const base = { negative: Boolean(dash ?? minus ?? innerDash), start, end, scale: multiplier, words: false, currency: /^[-−\s]*(?:minus\s+)?(?:₹|rs|inr)/i.test(raw) };
    if (scaled % divisor !== 0n) parts.push({ ...base, paisa: null, problem: 'fraction_of_paisa' });
    else parts.push({ ...base, paisa: scaled / divisor, problem: null });
  }
  return parts;
}

function wordParts(text: string, taken: Part[]): Part[] {
  const parts: Part[] = [];
  for (const match of text.matchAll(WORD_AMOUNT)) {
    const [raw, dash, minus, fullRun] = match as unknown as [string, string | undefined, string | undefined, string];
    const runStart = match.index + raw.toLowerCase().indexOf(fullRun.toLowerCase());
    // "dedh lakh and -50k": a joining word at the end belongs to what follows.
    const run = fullRun.replace(/(?:[\s-]+(?:and|a))+$/i, '');
    const words = run.toLowerCase().split(/[\s-]+/);
    // Drop leading words until the rest reads as an amount: "what do two lakh" → "two lakh".
    for (let skip = 0; skip < words.length; skip++) {
      // A fraction that did not read ("quarter lakh") is never dropped to read the rest as a whole amount.
      // Nor a number word, save one that is also an everyday word ("what do two lakh": "do" is 2 in Hindi).
      if (skip > 0 && (FRACTION_WORDS.has(words[skip - 1]!) || (UNITS[words[skip - 1]!] !== undefined && !HOMOGRAPHS.has(words[skip - 1]!)))) break;
      const value = wordsToPaisa(words.slice(skip));
      if (!value) continue;
      const offset = skip === 0 ? 0 : new RegExp(String.raw`^(?:\S+[\s-]+){${skip}}`).exec(text.slice(runStart))![0].length;
      const start = skip === 0 ? match.index : runStart + offset;
      const end = run === fullRun ? match.index + raw.length : runStart + run.length;
      if (taken.some((t) => start < t.end && end > t.start)) break;
      parts.push({
        paisa: value.paisa, problem: null, negative: skip === 0 && Boolean(dash ?? minus), start, end,
        scale: value.scale, words: true, currency: skip === 0 && /(?:₹|rs|inr)/i.test(text.slice(match.index, runStart)),
      });
      break;
    }
  }
  return parts;
}

/** Every amount in the text, in order. Numbers that are part of dates or ids are the caller's to exclude. */
export function findAmounts(text: string): FoundAmount[] {
  const digits = digitParts(text);
  const parts = [...digits, ...wordParts(text, digits)].sort((a, b) => a.start - b.start);
  // "2 lakh 50 hazaar", "one crore 20 lakh": parts in falling order, side by side, are one amount.
  const joined: Part[] = [];
  for (const part of parts) {
    const prev = joined.at(-1);
    if (prev && prev.paisa !== null && part.paisa !== null && !part.negative && !part.currency
      && prev.scale > 1n && part.scale > 1n && part.scale < prev.scale
      && (/^\s*$/.test(text.slice(prev.end, part.start)) || part.words && /^\s+and\s+$/i.test(text.slice(prev.end, part.start)))) {
      joined[joined.length - 1] = { ...prev, paisa: prev.paisa + part.paisa, end: part.end, scale: part.scale };
    } else joined.push(part);
  }
  return joined.map((p) => {
    const base = { negative: p.negative, raw: text.slice(p.start, p.end).trim(), start: p.start, end: p.end };
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
