import { formatPoints } from '../lib/format';
import { LIMIT_FIELDS } from '../lib/limit-fields';
import { ProposalBadge, ProposalFooter, proposalTone, useProposal } from './Proposal';
import { CardFrame, useMe } from './shared';
import type { CardProps } from './types';

/**
 * agent.editLimit: planned (the exact change to confirm or cancel; nothing changes until
 * confirmed), or done (state confirmed, no buttons).
 */
export function DiffCard({ card, onAction, onEdit, proposal }: CardProps<'diff_card'>) {
  const d = card.data;
  const me = useMe();
  const view = useProposal(d, proposal);
  const delta = d.after - d.before;
  const change = delta > 0 ? `raise by ${formatPoints(delta)}` : delta < 0 ? `lower by ${formatPoints(-delta)}` : 'no change';
  const done = view.state === 'confirmed';
  return (
    <CardFrame type="diff_card" title={`${done ? 'Changed' : 'Change'} ${LIMIT_FIELDS[d.field].toLowerCase()}`} subtitle={d.playerName}
      tone={proposalTone(view.state)} badge={<ProposalBadge state={view.state} />}>
      {d.refusal && <p className="refusal" data-testid="card-refusal"><b>Refused:</b> {d.refusal}</p>}
      {!d.refusal && view.state === 'unchanged' && <p className="muted" data-testid="card-unchanged"><b>No change:</b> {d.note ?? 'the limit already has this value'}</p>}
      <dl className="chat-facts">
        <dt>Player</dt><dd data-testid="diff-player">{d.playerName}</dd>
        <dt>Limit</dt><dd data-testid="diff-field">{LIMIT_FIELDS[d.field]}</dd>
        <dt>Before → after</dt>
        <dd data-testid="diff-values">
          <span className="num" data-testid="diff-before">{formatPoints(d.before)}</span>
          {' → '}
          <b className="num" data-testid="diff-after">{formatPoints(d.after)}</b>
        </dd>
        <dt>Change</dt><dd data-testid="diff-change">{change}</dd>
      </dl>
      <ProposalFooter view={view} actions={card.actions} onAction={onAction} onEdit={onEdit} refusal={d.refusal} timezone={me.timezone}
        stepUp={d.stepUp} edit={{ label: LIMIT_FIELDS[d.field].toLowerCase(), value: d.after }} />
    </CardFrame>
  );
}
