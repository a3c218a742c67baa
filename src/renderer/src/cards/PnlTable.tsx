import { formatCount, formatPeriod, formatPoints, signClass } from '../lib/format';
import { buildHref } from '../lib/route';
import { Link } from '../components/Link';
import { CardFrame, type Column, SortableTable } from './shared';
import { PlayerLink } from './PlayerLink';
import type { CardOf, CardProps } from './types';

type Data = CardOf<'pnl_table'>['data'];
type Ranked = Extract<Data, { metric: unknown }>;
type PnL = Exclude<Data, Ranked>;
type PnlRow = PnL['rows'][number];
type RankedRow = Ranked['rows'][number] & { rank: number };

const METRIC = { pnl: 'P&L', volume: 'Volume', exposure: 'Exposure' } as const;

/** agent.getPnL (per player, with totals) or agent.getTopMarkets (ranked markets by a metric). */
export function PnlTable({ card }: CardProps<'pnl_table'>) {
  const d = card.data;
  return 'metric' in d ? <RankedMarkets data={d} /> : <PlayerPnl data={d} />;
}

const pnlColumns: Column<PnlRow>[] = [
  { id: 'name', header: 'Player', sortValue: (r) => r.name, render: (r) => <PlayerLink id={r.playerId} name={r.name} />, width: '28%' },
  { id: 'agent', header: 'Agent', sortValue: (r) => r.agentName, render: (r) => r.agentName, width: '20%' },
  { id: 'bets', header: 'Bets', numeric: true, sortValue: (r) => r.bets, render: (r) => formatCount(r.bets) },
  { id: 'pnl', header: 'Player P&L', numeric: true, sortValue: (r) => r.pnl, render: (r) => formatPoints(r.pnl), cellClass: (r) => signClass(r.pnl, 'players') },
  { id: 'commission', header: 'Commission', numeric: true, sortValue: (r) => r.commission, render: (r) => formatPoints(r.commission) },
  { id: 'book', header: 'Book result', numeric: true, sortValue: (r) => r.bookResult, render: (r) => formatPoints(r.bookResult), cellClass: (r) => signClass(r.bookResult) },
];

function PlayerPnl({ data }: { data: PnL }) {
  const t = data.total;
  return (
    <CardFrame wide type="pnl_table" title="Profit and loss" subtitle={formatPeriod(data.period)}>
      <p className="summary chat-summary" data-testid="pnl-summary">
        <span>your share <b className={signClass(t.yourShare ?? 0)}>{t.yourShare === null ? 'not attributable' : formatPoints(t.yourShare)}</b></span>
        <span>book result <b className={signClass(t.bookResult)}>{formatPoints(t.bookResult)}</b></span>
        <span>players' P&L <b className={signClass(t.pnl, 'players')}>{formatPoints(t.pnl)}</b></span>
        <span>commission <b>{formatPoints(t.commission)}</b></span>
        <span>{formatCount(t.bets)} settled bets</span>
      </p>
      {data.rows.length === 0 ? <p className="state empty chat-card-text">No settled bets in this period.</p> : (
        <SortableTable label="Profit and loss by player" rows={data.rows} columns={pnlColumns} rowKey={(r) => r.playerId}
          rowTestId="card-row" minWidth={560}
          footer={<>
            <th scope="row" colSpan={2}>Total</th>
            <td className="num">{formatCount(t.bets)}</td>
            <td className={`num ${signClass(t.pnl, 'players')}`}>{formatPoints(t.pnl)}</td>
            <td className="num">{formatPoints(t.commission)}</td>
            <td className={`num ${signClass(t.bookResult)}`}>{formatPoints(t.bookResult)}</td>
          </>} />
      )}
      {data.nextCursor !== null && (
        <p className="muted chat-card-text">
          More players than shown. <Link to={buildHref('/agent/pnl', { from: data.period.from, to: data.period.to })}>Open the P&L page</Link>
        </p>
      )}
    </CardFrame>
  );
}

function RankedMarkets({ data }: { data: Ranked }) {
  const rows: RankedRow[] = data.rows.map((r, i) => ({ ...r, rank: i + 1 }));
  const metric = METRIC[data.metric];
  const columns: Column<RankedRow>[] = [
    { id: 'rank', header: '#', numeric: true, sortValue: (r) => r.rank, render: (r) => r.rank, width: '44px' },
    { id: 'market', header: 'Market', sortValue: (r) => r.marketName, render: (r) => r.marketName },
    { id: 'fixture', header: 'Fixture', sortValue: (r) => r.fixtureName, render: (r) => r.fixtureName },
    {
      id: 'value', header: metric, numeric: true, sortValue: (r) => r.value, render: (r) => formatPoints(r.value),
      ...(data.metric === 'pnl' && { cellClass: (r: RankedRow) => signClass(r.value) }),
    },
    { id: 'bets', header: 'Bets', numeric: true, sortValue: (r) => r.bets, render: (r) => formatCount(r.bets) },
  ];
  return (
    <CardFrame wide type="pnl_table" title={`Top markets by ${metric === 'P&L' ? 'P&L' : metric.toLowerCase()}`} subtitle={formatPeriod(data.period)}>
      {rows.length === 0 ? <p className="state empty chat-card-text">No markets in this period.</p> : (
        <SortableTable label={`Top markets by ${metric}`} rows={rows} columns={columns} rowKey={(r) => r.marketId}
          rowTestId="card-row" initialSort={{ id: 'rank', dir: 'asc' }} minWidth={480} />
      )}
    </CardFrame>
  );
}
