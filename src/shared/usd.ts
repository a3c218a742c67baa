/**
 * Dollars of model cost, from integer micro-dollars (1 USD = 1,000,000), through BigInt so no
 * float drifts: the Settings page, the usage line and main's budget message all write them so.
 */
export const MICRO_PER_USD = 1_000_000;

export function grouped(digits: bigint): string {
  return digits.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** round(n / d), half up, for non-negative n. */
export function divRound(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (d * 2n);
}

/**
 * A cost for reading: "$0.0123" below a dollar (a turn costs fractions of a cent, so cents
 * alone would read $0.00), "$12.35" from a dollar on; "<$0.0001" for a cost too small to show,
 * so a paid call never reads as free.
 */
export function formatMicroUsd(micro: number): string {
  if (!Number.isSafeInteger(micro) || micro < 0) return '—';
  if (micro === 0) return '$0.00';
  const m = BigInt(micro);
  const tenThousandths = divRound(m, 100n);
  if (tenThousandths === 0n) return '<$0.0001';
  if (tenThousandths < 10_000n) return `$0.${tenThousandths.toString().padStart(4, '0')}`;
  const cents = divRound(m, 10_000n);
  return `$${grouped(cents / 100n)}.${(cents % 100n).toString().padStart(2, '0')}`;
}

