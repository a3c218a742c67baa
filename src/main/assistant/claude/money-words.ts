/** Dollars for people: "$2.00", and "$0.0012" for the small costs of a turn. */
export function formatUsd(microUsd: number): string {
  const dollars = microUsd / 1_000_000;
  return `$${dollars >= 0.01 || dollars === 0 ? dollars.toFixed(2) : dollars.toFixed(4)}`;
}
