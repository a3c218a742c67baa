import { formatBps, formatCount, formatPeriod, formatPoints } from '../lib/format';
import { CardFrame, type Column, SortableTable } from './shared';
import { PlayerLink } from './PlayerLink';
import type { CardOf, CardProps } from './types';

type Row = CardOf<'commission_table'>['data']['rows'][number];

const columns: Column<Row>[] = [
  { id: 'name', header: 'Player', sortValue: (r) => r.name, render: (r) => <PlayerLink id={r.playerId} name={r.name} />, width: '30%' },
  { id: 'agent', header: 'Agent', sortValue: (r) => r.agentName, render: (r) => r.agentName, width: '22%' },
  { id: 'rate', header: 'Rate', numeric: true, sortValue: (r) => r.commissionBps, render: (r) => formatBps(r.commissionBps) },
  { id: 'markets', header: 'Markets', numeric: true, sortValue: (r) => r.markets, render: (r) => formatCount(r.markets) },
  { id: 'commission', header: 'Commission', numeric: true, sortValue: (r) => r.commission, render: (r) => formatPoints(r.commission) },
];

/** agent.getCommission: commission per player over a period. */
export function CommissionTable({ card }: CardProps<'commission_table'>) {
  const d = card.data;
  return (
    <CardFrame wide type="commission_table" title="Commission" subtitle={formatPeriod(d.period)}>
      <p className="summary chat-summary"><span>total commission <b data-testid="commission-total">{formatPoints(d.total)}</b></span></p>
      {d.rows.length === 0 ? <p className="state empty chat-card-text">No commission in this period.</p> : (
        <SortableTable label="Commission by player" rows={d.rows} columns={columns} rowKey={(r) => r.playerId} rowTestId="card-row" minWidth={520}
          footer={<><th scope="row" colSpan={4}>Total</th><td className="num">{formatPoints(d.total)}</td></>} />
      )}
      {d.nextCursor !== null && <p className="muted chat-card-text">More players than shown: open the P&L page for all of them.</p>}
    </CardFrame>
  );
}
