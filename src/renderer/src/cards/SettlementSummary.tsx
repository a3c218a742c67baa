import { formatDateTime, formatPoints, owesInWords } from '../lib/format';
import { ActionBar, CardFrame, useMe } from './shared';
import type { CardProps } from './types';

/** agent.settlePlayer, planned: who pays whom, how much, and the take before and after. */
export function SettlementSummary({ card, onAction }: CardProps<'settlement_summary'>) {
  const d = card.data;
  const me = useMe();
  const player = { id: d.playerId, name: d.playerName };
  const you = { id: me.id, name: me.name };
  const payment = d.direction === 'player_pays'
    ? `${d.playerName} pays you ${formatPoints(d.amount)}`
    : `you pay ${d.playerName} ${formatPoints(d.amount)}`;
  return (
    <CardFrame type="settlement_summary" title={`Settle with ${d.playerName}`} tone={d.refusal ? 'warn' : undefined}>
      <dl className="chat-facts">
        <dt>Player</dt><dd data-testid="settle-player">{d.playerName}</dd>
        <dt>Payment</dt><dd data-testid="settle-direction"><b>{payment}</b></dd>
        <dt>Amount</dt><dd className="num" data-testid="settle-amount">{formatPoints(d.amount)}</dd>
        <dt>Take before → after</dt>
        <dd data-testid="settle-take">
          <span data-testid="settle-take-before">{owesInWords(d.takeBefore, player, you, me.id)}</span>
          {' → '}
          <b data-testid="settle-take-after">{owesInWords(d.takeAfter, player, you, me.id)}</b>
        </dd>
        {d.expiresAt && <><dt>Offer expires</dt><dd>{formatDateTime(d.expiresAt, me.timezone)}</dd></>}
      </dl>
      {d.refusal && <p className="refusal" data-testid="card-refusal">{d.refusal}</p>}
      <ActionBar actions={card.actions} onAction={onAction} blockConfirm={Boolean(d.refusal)} />
    </CardFrame>
  );
}
