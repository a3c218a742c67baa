import { formatCount, formatPoints, signClass } from '../lib/format';

/** A table cell with an amount in points, right-aligned, coloured by what it means for the agent (`of: 'players'`: a figure of the players'). */
export function MoneyCell({ value, of = 'agent' }: { value: number; of?: 'agent' | 'players' }) {
  return <td className={`num ${signClass(value, of)}`}>{formatPoints(value)}</td>;
}

/** The four figures of a PnL line, row or total: bets, the players' PnL, commission, book result. */
export function PnlCells({ bets, pnl, commission, bookResult }: { bets: number; pnl: number; commission: number; bookResult: number }) {
  return (
    <>
      <td className="num">{formatCount(bets)}</td>
      <MoneyCell value={pnl} of="players" />
      <td className="num">{formatPoints(commission)}</td>
      <MoneyCell value={bookResult} />
    </>
  );
}
