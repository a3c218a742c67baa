import { formatDateTime } from '../lib/format';
import { ProposalBadge, ProposalFooter, proposalTone, useProposal } from './Proposal';
import { CardFrame, useMe } from './shared';
import type { CardProps } from './types';

/**
 * agent.shareReport: which report goes to whom, waiting for the user's confirmation (sending data
 * to someone is a change like any other), or sent.
 */
export function ReportShare({ card, onAction, proposal }: CardProps<'report_share'>) {
  const d = card.data;
  const me = useMe();
  const view = useProposal(d, proposal);
  const done = view.state === 'confirmed';
  return (
    <CardFrame type="report_share" title={`${done ? 'Sent' : 'Send'} a report to ${d.recipientName}`}
      tone={proposalTone(view.state)} badge={<ProposalBadge state={view.state} />}>
      {d.refusal && <p className="refusal" data-testid="card-refusal"><b>Refused:</b> {d.refusal}</p>}
      <dl className="chat-facts">
        <dt>Report</dt><dd data-testid="share-report">{d.title}</dd>
        <dt>To</dt><dd data-testid="share-recipient">{d.recipientName}</dd>
        {d.sharedAt && <><dt>Sent</dt><dd>{formatDateTime(d.sharedAt, me.timezone)}</dd></>}
      </dl>
      {!done && d.alreadyShared && !d.refusal && <p className="chat-card-text muted">{d.recipientName} has this report already.</p>}
      <ProposalFooter view={view} actions={card.actions} onAction={onAction} refusal={d.refusal} timezone={me.timezone} />
    </CardFrame>
  );
}
