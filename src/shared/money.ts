/**
 * Money is an integer number of paisa (1 point = 100 paisa) everywhere: database, API, tool
 * arguments. Floats never hold money; conversions that divide go through BigInt so that the
 * rounding rule is exact and stated once.
 */
export type Paisa = number;

export const PAISA_PER_POINT = 100;

export function assertPaisa(value: number, what = 'amount'): Paisa {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${what} must be a whole number of paisa, got ${value}`);
  }
  return value;
}

/** Turns a SQL aggregate (pg returns bigint/numeric as strings) into paisa, refusing fractions. */
export function paisaFromSql(value: unknown, what = 'amount'): Paisa {
  if (value === null || value === undefined) return 0;
  const n = typeof value === 'number' ? value : Number(value);
  return assertPaisa(n, what);
}

/**
 * The two rounding rules money knows, and the only places an amount is divided. The product is
 * taken in BigInt because a × numerator passes 2^53 long before either factor does (a commission
 * on 10^15 paisa at 1.5% comes out one paisa short in floats); an input or a result that is not a
 * safe integer is refused rather than silently rounded by `Number`.
 */
function exactRatio(a: number, numerator: number, denominator: number): { n: bigint; d: bigint } {
  safeInteger(a, 'amount');
  safeInteger(numerator, 'numerator');
  safeInteger(denominator, 'denominator');
  if (denominator === 0) throw new RangeError('division by zero');
  return { n: BigInt(a) * BigInt(numerator), d: BigInt(denominator) };
}

function safeInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
}

function toSafeNumber(q: bigint): number {
  const result = Number(q);
  if (!Number.isSafeInteger(result)) throw new RangeError(`result ${q} is not a safe integer`);
  return result;
}

/** round(a × numerator / denominator), half away from zero: bet payouts, shares passed up. */
export function mulDivRound(a: number, numerator: number, denominator: number): number {
  const { n, d } = exactRatio(a, numerator, denominator);
  const negative = (n < 0n) !== (d < 0n);
  const absN = n < 0n ? -n : n;
  const absD = d < 0n ? -d : d;
  const q = (absN * 2n + absD) / (absD * 2n);
  return toSafeNumber(negative ? -q : q);
}

/** floor(a × numerator / denominator), toward −∞: commission, so a player never pays above the rate. */
export function mulDivFloor(a: number, numerator: number, denominator: number): number {
  const { n, d } = exactRatio(a, numerator, denominator);
  let q = n / d;
  if (n % d !== 0n && (n < 0n) !== (d < 0n)) q -= 1n;
  return toSafeNumber(q);
}

/** 5000000 → "50,000.00"; −123 → "-1.23". Thousands separators, always two decimals. */
export function formatPoints(paisa: Paisa): string {
  assertPaisa(paisa);
  const negative = paisa < 0;
  const abs = Math.abs(paisa);
  const fraction = abs % PAISA_PER_POINT;
  // Subtracting the remainder first makes the division exact, so no rounding happens here.
  const whole = (abs - fraction) / PAISA_PER_POINT;
  const grouped = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}.${fraction.toString().padStart(2, '0')}`;
}
