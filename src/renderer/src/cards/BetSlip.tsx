import { formatDateTime, formatOdds, formatPoints } from '../lib/format';
import { ActionBar, CardFrame, useMe } from './shared';
import type { CardProps } from './types';

/** agent.placeHedgeBet, planned: the exact bet to confirm or cancel. */
export function BetSlip({ card, onAction }: CardProps<'bet_slip'>) {
  const d = card.data;
  const me = useMe();
  const side = d.side === 'back' ? `Back ${d.outcomeName} (bet that it wins)` : `Lay ${d.outcomeName} (bet that it does not win)`;
  return (
    <CardFrame type="bet_slip" title="Hedge bet" subtitle={d.fixtureName} tone={d.refusal ? 'warn' : undefined}>
      <dl className="chat-facts">
        <dt>Match</dt><dd data-testid="slip-fixture">{d.fixtureName}</dd>
        <dt>Market</dt><dd data-testid="slip-market">{d.marketName}</dd>
        <dt>Selection</dt><dd data-testid="slip-outcome">{d.outcomeName}</dd>
        <dt>Side</dt><dd data-testid="slip-side"><b>{side}</b></dd>
        <dt>Stake</dt><dd className="num" data-testid="slip-stake">{formatPoints(d.stake)}</dd>
        <dt>Odds</dt><dd className="num" data-testid="slip-odds">{d.odds === undefined ? 'best available' : formatOdds(d.odds)}</dd>
        {d.expiresAt && <><dt>Offer expires</dt><dd>{formatDateTime(d.expiresAt, me.timezone)}</dd></>}
      </dl>
      {d.refusal && <p className="refusal" data-testid="card-refusal">{d.refusal}</p>}
      <ActionBar actions={card.actions} onAction={onAction} blockConfirm={Boolean(d.refusal)} />
    </CardFrame>
  );
}
