import { hedgeRisk, riskWarning } from '../../../shared/hedge-risk';
import { formatOdds, formatPoints } from '../lib/format';
import { ProposalBadge, ProposalFooter, proposalTone, useProposal } from './Proposal';
import { CardFrame, useMe } from './shared';
import type { CardProps } from './types';

/**
 * agent.placeHedgeBet: planned (the exact bet, the price it must get, what it can lose and what it
 * does to the agent's exposure on the market; nothing is placed until confirmed), refused by the
 * guardrails (the reason, no buttons), or placed (state confirmed, no buttons).
 */
export function BetSlip({ card, onAction, onEdit, proposal }: CardProps<'bet_slip'>) {
  const d = card.data;
  const me = useMe();
  const view = useProposal(d, proposal);
  const done = view.state === 'confirmed';
  const known = d.exposureBefore !== undefined && d.exposureAfter !== undefined;
  const risk = known ? hedgeRisk(d.exposureBefore!, d.exposureAfter!) : null;
  // Only while it can still be declined: a placed bet's slip states the figures.
  const warning = known && !done && !d.refusal ? riskWarning(d, d.exposureBefore!, d.exposureAfter!) : null;
  const side = d.side === 'back' ? `Back ${d.outcomeName} (bet that it wins)` : `Lay ${d.outcomeName} (bet that it does not win)`;
  return (
    <CardFrame type="bet_slip" title={done ? 'Hedge bet placed' : 'Hedge bet'} subtitle={d.fixtureName}
      tone={proposalTone(view.state)} badge={<ProposalBadge state={view.state} />}>
      {d.refusal && <p className="refusal" data-testid="card-refusal"><b>Refused:</b> {d.refusal}</p>}
      {warning && <p className="refusal" role="alert" data-testid="slip-risk-warning"><b>Warning:</b> {warning}</p>}
      <dl className="chat-facts">
        <dt>Match</dt><dd data-testid="slip-fixture">{d.fixtureName}</dd>
        <dt>Market</dt><dd data-testid="slip-market">{d.marketName}</dd>
        <dt>Selection</dt><dd data-testid="slip-outcome">{d.outcomeName}</dd>
        <dt>Side</dt><dd data-testid="slip-side"><b>{side}</b></dd>
        <dt>Stake</dt><dd className="num" data-testid="slip-stake">{formatPoints(d.stake)}</dd>
        <dt>Odds</dt><dd className="num" data-testid="slip-odds">{d.odds === undefined ? 'best available' : formatOdds(d.odds)}</dd>
        {d.liability !== undefined && <><dt>Liability</dt><dd className="num" data-testid="slip-liability">{formatPoints(d.liability)}</dd></>}
        {d.exposureBefore !== undefined && d.exposureAfter !== undefined && (
          <>
            <dt>Your worst case on this market</dt>
            <dd data-testid="slip-exposure" data-change={risk?.change}>
              <span className="num" data-testid="slip-exposure-before">{formatPoints(d.exposureBefore)}</span>
              {' → '}
              <b className="num" data-testid="slip-exposure-after">{formatPoints(d.exposureAfter)}</b>
              {risk && (
                <span className="muted" data-testid="slip-risk">
                  {risk.change === 'unchanged' ? ' (unchanged)' : ` (${risk.change === 'increases' ? 'up' : 'down'} ${formatPoints(risk.by)}${risk.change === 'increases' ? ': adds to your risk' : ': reduces your risk'})`}
                </span>
              )}
            </dd>
          </>
        )}
      </dl>
      <ProposalFooter view={view} actions={card.actions} onAction={onAction} onEdit={onEdit} refusal={d.refusal} timezone={me.timezone}
        stepUp={d.stepUp} edit={{ label: 'stake', value: d.stake }} />
    </CardFrame>
  );
}
