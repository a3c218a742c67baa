import { formatPoints, owesInWords } from '../lib/format';
import { ProposalBadge, ProposalFooter, proposalTone, useProposal } from './Proposal';
import { CardFrame, useMe } from './shared';
import type { CardProps } from './types';

/**
 * agent.settlePlayer: planned (who pays whom, how much, and the take before and after; nothing
 * moves until confirmed), or done (state confirmed, no buttons).
 */
export function SettlementSummary({ card, onAction, onEdit, proposal }: CardProps<'settlement_summary'>) {
  const d = card.data;
  const me = useMe();
  const view = useProposal(d, proposal);
  const player = { id: d.playerId, name: d.playerName };
  const you = { id: me.id, name: me.name };
  const done = view.state === 'confirmed';
  const payment = d.direction === 'player_pays'
    ? `${d.playerName} ${done ? 'paid' : 'pays'} you ${formatPoints(d.amount)}`
    : `You ${done ? 'paid' : 'pay'} ${d.playerName} ${formatPoints(d.amount)}`;
  return (
    <CardFrame type="settlement_summary" title={`${done ? 'Settled' : 'Settle'} with ${d.playerName}`}
      tone={proposalTone(view.state)} badge={<ProposalBadge state={view.state} />}>
      {d.refusal && <p className="refusal" data-testid="card-refusal"><b>Refused:</b> {d.refusal}</p>}
      <dl className="chat-facts">
        <dt>Player</dt><dd data-testid="settle-player">{d.playerName}</dd>
        <dt>Payment</dt><dd data-testid="settle-direction" data-direction={d.direction}><b>{payment}</b></dd>
        <dt>Amount</dt><dd className="num" data-testid="settle-amount">{formatPoints(d.amount)}</dd>
        <dt>Take before → after</dt>
        <dd data-testid="settle-take">
          <span data-testid="settle-take-before">{owesInWords(d.takeBefore, player, you, me.id)}</span>
          {' → '}
          <b data-testid="settle-take-after">{owesInWords(d.takeAfter, player, you, me.id)}</b>
        </dd>
      </dl>
      <ProposalFooter view={view} actions={card.actions} onAction={onAction} onEdit={onEdit} refusal={d.refusal} timezone={me.timezone}
        stepUp={d.stepUp} edit={{ label: 'amount', value: d.amount }} />
    </CardFrame>
  );
}
