/**
 * Amounts as people type them in the trade, in points, to exact paisa: `50k`, `50,000`,
 * `5 lakh`, `2.5cr`, `1.2m`, `₹1,00,000`, `500 pts`. Decimal arithmetic is done on the digits
 * (BigInt), so `2.5 cr` is exactly 2,500,000,000 paisa and nothing passes through a float.
 */
export interface FoundAmount {
  /** The amount in paisa, or null when it is not a whole number of paisa or too large to hold. */
  paisa: number | null;
  problem: 'fraction_of_paisa' | 'too_large' | null;
  /** The text as typed, and where it stands. */
  raw: string;
  start: number;
  end: number;
}

const MULTIPLIERS: Record<string, bigint> = {
  k: 1_000n, thousand: 1_000n, thousands: 1_000n,
  l: 100_000n, lakh: 100_000n, lakhs: 100_000n, lac: 100_000n, lacs: 100_000n,
  m: 1_000_000n, mn: 1_000_000n, million: 1_000_000n, millions: 1_000_000n,
  cr: 10_000_000n, crore: 10_000_000n, crores: 10_000_000n,
  b: 1_000_000_000n, bn: 1_000_000_000n, billion: 1_000_000_000n,
  tn: 1_000_000_000_000n, trillion: 1_000_000_000_000n,
};

// currency? number (grouped with commas, or plain, with decimals) multiplier? unit?
const AMOUNT = new RegExp(
  String.raw`(?<![\w.,])(?:(?:₹|rs\.?|inr)\s*)?` +
  String.raw`(\d{1,3}(?:,\d{2,3})+(?:\.\d+)?|\d+(?:\.\d+)?)` +
  String.raw`(?:\s*(${Object.keys(MULTIPLIERS).sort((a, b) => b.length - a.length).join('|')})\b)?` +
  String.raw`(?:\s*(?:pts|points|pt|point)\b)?(?![\w])`,
  'giu',
);

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** Every amount in the text, in order. Numbers that are part of dates or ids are the caller's to exclude. */
export function findAmounts(text: string): FoundAmount[] {
  const found: FoundAmount[] = [];
  for (const match of text.matchAll(AMOUNT)) {
    const [raw, number, multiplierWord] = match as unknown as [string, string, string | undefined];
    const multiplier = multiplierWord ? MULTIPLIERS[multiplierWord.toLowerCase()]! : 1n;
    const [whole, fraction = ''] = number.replace(/,/g, '').split('.') as [string, string | undefined];
    // paisa = digits × multiplier × 100 / 10^decimals, exactly.
    const scaled = BigInt(whole + fraction) * multiplier * 100n;
    const divisor = 10n ** BigInt(fraction.length);
    const start = match.index!;
    const base = { raw: raw.trim(), start, end: start + raw.length };
    if (scaled % divisor !== 0n) found.push({ ...base, paisa: null, problem: 'fraction_of_paisa' });
    else if (scaled / divisor > MAX) found.push({ ...base, paisa: null, problem: 'too_large' });
    else found.push({ ...base, paisa: Number(scaled / divisor), problem: null });
  }
  return found;
}

/** The one amount of a short phrase ("50k", "5 lakh"), or null. */
export function parseAmount(text: string): FoundAmount | null {
  const all = findAmounts(text);
  return all.length === 1 && all[0]!.raw.length === text.trim().length ? all[0]! : null;
}
