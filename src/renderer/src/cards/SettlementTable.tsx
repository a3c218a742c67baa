import { formatDateTime, formatPoints, owesInWords, paidInWords } from '../lib/format';
import { CardFrame, type Column, SortableTable, plural, useMe } from './shared';
import type { CardOf, CardProps } from './types';

type Row = CardOf<'settlement_table'>['data']['rows'][number];

/** agent.getSettlementHistory: past settlements, who paid whom, and the take before → after. */
export function SettlementTable({ card }: CardProps<'settlement_table'>) {
  const d = card.data;
  const me = useMe();
  const parties = (r: Row) => [{ id: r.childId, name: r.childName }, { id: r.parentId, name: r.parentName }] as const;
  const columns: Column<Row>[] = [
    {
      id: 'date', header: 'Date', sortValue: (r) => Date.parse(r.createdAt), width: '112px',
      render: (r) => formatDateTime(r.createdAt, me.timezone),
    },
    { id: 'payment', header: 'Payment', sortValue: (r) => r.childName, render: (r) => paidInWords(r.amount, ...parties(r), me.id), width: '30%' },
    { id: 'amount', header: 'Amount', numeric: true, sortValue: (r) => Math.abs(r.amount), render: (r) => formatPoints(Math.abs(r.amount)) },
    {
      id: 'take', header: 'Take before → after', render: (r) => <>{owesInWords(r.takeBefore, ...parties(r), me.id)} → {owesInWords(r.takeAfter, ...parties(r), me.id)}</>,
      width: '34%',
    },
    { id: 'mode', header: 'Mode', sortValue: (r) => r.mode, render: (r) => (r.mode === 'auto' ? 'full' : 'part') },
    { id: 'by', header: 'By', sortValue: (r) => r.createdByName, render: (r) => r.createdByName },
  ];
  return (
    <CardFrame wide type="settlement_table" title="Settlements" subtitle={<>{d.rows.length} {plural(d.rows.length, 'settlement')}</>}>
      {d.rows.length === 0 ? <p className="state empty chat-card-text">No settlements.</p> : (
        <SortableTable label="Settlements" rows={d.rows} columns={columns} rowKey={(r) => r.id} rowTestId="card-row"
          initialSort={{ id: 'date', dir: 'desc' }} minWidth={720} />
      )}
      {d.nextCursor !== null && <p className="muted chat-card-text">Older settlements are on the settlements page.</p>}
    </CardFrame>
  );
}
