import { formatPoints, signClass } from '../lib/format';

/** A table cell with an amount in points, right-aligned, coloured by its sign. */
export function MoneyCell({ value }: { value: number }) {
  return <td className={`num ${signClass(value)}`}>{formatPoints(value)}</td>;
}
