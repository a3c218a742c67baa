import { formatCount, formatDateTime, formatOdds, formatPoints, signClass } from '../lib/format';
import { CardFrame, type Column, SortableTable, plural, useMe } from './shared';
import { PlayerLink } from './PlayerLink';
import type { CardOf, CardProps } from './types';

type Row = CardOf<'bet_table'>['data']['bets'][number];

/** agent.getBetHistory: bets with their summary; long lists scroll in a virtualized box. */
export function BetTable({ card }: CardProps<'bet_table'>) {
  const d = card.data;
  const s = d.summary;
  const me = useMe();
  const columns: Column<Row>[] = [
    {
      id: 'placed', header: 'Placed', sortValue: (r) => Date.parse(r.placedAt), width: '128px',
      render: (r) => formatDateTime(r.placedAt, me.timezone),
    },
    { id: 'player', header: 'Player', sortValue: (r) => r.playerName, render: (r) => <PlayerLink id={r.playerId} name={r.playerName} />, width: '120px' },
    { id: 'fixture', header: 'Fixture', sortValue: (r) => r.fixtureName, render: (r) => <span title={r.fixtureName}>{r.fixtureName}</span>, width: '150px' },
    {
      id: 'selection', header: 'Selection', sortValue: (r) => r.outcomeName, width: '160px',
      render: (r) => <span title={`${r.marketName} › ${r.outcomeName}`}>{r.outcomeName} <span className="muted">· {r.marketName}</span></span>,
    },
    { id: 'side', header: 'Side', sortValue: (r) => r.side, render: (r) => r.side, width: '52px' },
    { id: 'odds', header: 'Odds', numeric: true, sortValue: (r) => r.odds, render: (r) => formatOdds(r.odds), width: '60px' },
    { id: 'stake', header: 'Stake', numeric: true, sortValue: (r) => r.stake, render: (r) => formatPoints(r.stake), width: '96px' },
    { id: 'liability', header: 'Liability', numeric: true, sortValue: (r) => r.liability, render: (r) => formatPoints(r.liability), width: '96px' },
    { id: 'status', header: 'Status', sortValue: (r) => r.status, render: (r) => <span className={`badge ${r.status}`}>{r.status}</span>, width: '76px' },
    {
      id: 'result', header: 'Result', numeric: true, sortValue: (r) => r.result, width: '96px',
      render: (r) => (r.result === null ? '—' : formatPoints(r.result)), cellClass: (r) => signClass(r.result ?? 0),
    },
  ];
  return (
    <CardFrame wide type="bet_table" title="Bets" subtitle={<>{formatCount(s.count)} {plural(s.count, 'bet')}</>}>
      <p className="summary chat-summary" data-testid="bet-summary">
        <span>stake <b>{formatPoints(s.stake)}</b></span>
        <span>open liability <b>{formatPoints(s.openLiability)}</b></span>
        <span>settled result (players) <b className={signClass(s.settledResult)}>{formatPoints(s.settledResult)}</b></span>
      </p>
      {d.bets.length === 0 ? <p className="state empty chat-card-text">No bets match.</p> : (
        <SortableTable label="Bets" rows={d.bets} columns={columns} rowKey={(r) => r.id} rowTestId="card-row"
          initialSort={{ id: 'placed', dir: 'desc' }} minWidth={1020} />
      )}
      {d.bets.length < s.count && (
        <p className="muted chat-card-text">Showing {formatCount(d.bets.length)} of {formatCount(s.count)}: the bets page has them all.</p>
      )}
    </CardFrame>
  );
}
