import { formatDateTime, formatPoints } from '../lib/format';
import { ActionBar, CardFrame, useMe } from './shared';
import type { CardOf, CardProps } from './types';

export const LIMIT_FIELDS: Record<CardOf<'diff_card'>['data']['field'], string> = {
  creditLimit: 'Credit limit',
  perClickWin: 'Per-click win limit',
  aggregateDailyWin: 'Daily win limit',
  minStake: 'Minimum stake',
};

/** agent.editLimit, planned: the exact change to confirm or cancel. Nothing changes until confirmed. */
export function DiffCard({ card, onAction }: CardProps<'diff_card'>) {
  const d = card.data;
  const me = useMe();
  const delta = d.after - d.before;
  const change = delta > 0 ? `raise by ${formatPoints(delta)}` : delta < 0 ? `lower by ${formatPoints(-delta)}` : 'no change';
  return (
    <CardFrame type="diff_card" title={`Change ${LIMIT_FIELDS[d.field].toLowerCase()}`} subtitle={d.playerName} tone={d.refusal ? 'warn' : undefined}>
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
        {d.expiresAt && <><dt>Offer expires</dt><dd>{formatDateTime(d.expiresAt, me.timezone)}</dd></>}
      </dl>
      {d.refusal && <p className="refusal" data-testid="card-refusal">{d.refusal}</p>}
      <ActionBar actions={card.actions} onAction={onAction} blockConfirm={Boolean(d.refusal)} />
    </CardFrame>
  );
}
