import { useMemo } from 'react';
import { STATEMENT_KIND_LABELS, type StatementLine } from '../../../shared/contracts/agent-api';
import { formatCount, formatDateTime, formatPoints, formatWeek, signClass, takeTowards } from '../lib/format';
import { buildHref } from '../lib/route';
import { Link } from '../components/Link';
import { CardFrame, type Column, SortableTable, idHref, plural, useMe } from './shared';
import type { CardOf, CardProps } from './types';

export { STATEMENT_KIND_LABELS };

/** What a line is about: the bet, the market, the settlement's week, or the limit's change. */
function lineDetail(l: StatementLine) {
  switch (l.kind) {
    case 'bet_result': return `${l.fixtureName ?? ''} · ${l.marketName ?? ''} › ${l.outcomeName ?? ''} (${l.side ?? ''})`;
    case 'commission':
    case 'share': return l.marketName === null ? '—' : `${l.fixtureName ?? ''} · ${l.marketName}`;
    case 'settlement': return l.periodId ? `for ${formatWeek(l.periodId)}` : '—';
    case 'credit_limit': return `${formatPoints(l.creditLimitBefore ?? 0)} → ${formatPoints(l.creditLimitAfter ?? 0)}`;
    case 'adjustment': return '—';
  }
}

/** A line's author: a person for a settlement or a limit change; what a market's settlement posted says so. */
const madeBy = (l: StatementLine) => l.madeByName ?? (l.kind === 'adjustment' ? '—' : 'market result');

/**
 * The statement's columns, in the ledger's order (a running balance only reads top to bottom, so
 * no column sorts). Amount and balance are signed as take: positive, the account owes its upline.
 */
export function useStatementColumns(account: { parentId: string; parentName: string }): Column<StatementLine>[] {
  const me = useMe();
  const { timezone, id: meId } = me;
  const { parentId, parentName } = account;
  return useMemo((): Column<StatementLine>[] => [
    { id: 'when', header: 'When', render: (l) => formatDateTime(l.at, timezone), cellClass: () => 'nowrap', width: '164px' },
    { id: 'kind', header: 'Kind', render: (l) => STATEMENT_KIND_LABELS[l.kind], title: (l) => STATEMENT_KIND_LABELS[l.kind], width: '124px', priority: 2 },
    { id: 'detail', header: 'Detail', render: (l) => <span title={lineDetail(l)}>{lineDetail(l)}</span>, priority: 2 },
    { id: 'counterparty', header: 'Counterparty', render: (l) => l.counterpartyName, title: (l) => l.counterpartyName, width: '120px', priority: 3 },
    { id: 'by', header: 'By', render: madeBy, title: madeBy, width: '130px', priority: 3 },
    {
      id: 'amount', header: 'Amount', numeric: true, width: '110px',
      render: (l) => (l.amount === null ? '—' : formatPoints(l.amount)), cellClass: (l) => signClass(l.amount ?? 0),
    },
    {
      id: 'balance', header: 'Balance', numeric: true, width: '120px', cellClass: (l) => signClass(l.balanceAfter),
      render: (l) => <span title={takeTowards(l.balanceAfter, { id: parentId, name: parentName }, meId)}>{formatPoints(l.balanceAfter)}</span>,
    },
  ], [timezone, meId, parentId, parentName]);
}

type Data = CardOf<'statement_table'>['data'];

/** agent.getStatement: a page of an account's statement, with its balances; the Statement page has the rest. */
export function StatementTable({ card }: CardProps<'statement_table'>) {
  const d: Data = card.data;
  const me = useMe();
  const columns = useStatementColumns(d.account);
  const q = d.query;
  // Only an id the backend handed out goes into a link.
  const href = idHref('/agent/statement', { account: d.account.id }) && buildHref('/agent/statement', {
    account: d.account.id, from: q?.from ?? d.period?.from, to: q?.to ?? d.period?.to, kind: q?.kinds?.join(','),
  });
  const parent = { id: d.account.parentId, name: d.account.parentName };
  return (
    <CardFrame wide type="statement_table" title={`Statement · ${d.account.name}`} subtitle={<>{formatCount(d.matched)} {plural(d.matched, 'line')}</>}>
      <p className="summary chat-summary" data-testid="statement-summary">
        {d.period && <span>opening <b className={signClass(d.openingBalance)}>{formatPoints(d.openingBalance)}</b></span>}
        <span>{d.period ? 'closing' : 'balance'} <b className={signClass(d.closingBalance)}>{formatPoints(d.closingBalance)}</b></span>
        <span>{takeTowards(d.account.take, parent, me.id)}</span>
      </p>
      {d.lines.length === 0 ? <p className="state empty chat-card-text">No lines match.</p> : (
        <SortableTable label="Statement" rows={d.lines} columns={columns} rowKey={(l) => l.id} rowTestId="card-row" minWidth={930} />
      )}
      {href && <p className="chat-card-text"><Link to={href}>{d.nextCursor !== null ? 'The rest on the Statement page' : 'Open on the Statement page'}</Link></p>}
    </CardFrame>
  );
}
