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

/** round(a × numerator / denominator), half away from zero, exact for any safe-integer inputs. */
export function mulDivRound(a: number, numerator: number, denominator: number): number {
  if (denominator === 0) throw new RangeError('division by zero');
  const n = BigInt(a) * BigInt(numerator);
  const d = BigInt(denominator);
  const negative = n < 0n !== d < 0n;
  const absN = n < 0n ? -n : n;
  const absD = d < 0n ? -d : d;
  const q = (absN * 2n + absD) / (absD * 2n);
  return Number(negative ? -q : q);
}

/** floor(a × numerator / denominator) toward −∞, exact. */
export function mulDivFloor(a: number, numerator: number, denominator: number): number {
  const n = BigInt(a) * BigInt(numerator);
  const d = BigInt(denominator);
  let q = n / d;
  if ((n % d !== 0n) && ((n < 0n) !== (d < 0n))) q -= 1n;
  return Number(q);
}

/** 5000000 → "50,000.00"; −123 → "-1.23". Thousands separators, always two decimals. */
export function formatPoints(paisa: Paisa): string {
  assertPaisa(paisa);
  const negative = paisa < 0;
  const abs = Math.abs(paisa);
  const whole = Math.floor(abs / PAISA_PER_POINT);
  const fraction = abs % PAISA_PER_POINT;
  const grouped = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}.${fraction.toString().padStart(2, '0')}`;
}
