import { useCallback, useMemo, useRef, useState } from 'react';
import { PAGE_SIZE_MAX } from '../../../shared/contracts/page-size';
import { desk } from '../lib/desk';
import { userMessage } from '../lib/errors';
import { formatCount, formatDateTime, formatOdds, formatPoints, signClass } from '../lib/format';
import { CardFrame, type Column, SortableTable, plural, useMe } from './shared';
import { PlayerLink } from './PlayerLink';
import type { CardOf, CardProps } from './types';

type Data = CardOf<'bet_table'>['data'];
type Row = Data['bets'][number];

interface More { rows: Row[]; cursor: string | null; loading: boolean; error: string | null }

/**
 * The bets after the card's own page, read on demand with the card's filters and cursor (the
 * Bets page's keyset pages), so a long list can be scrolled through in the chat. They live as
 * long as the card is drawn: the conversation keeps the card's first page only.
 */
function useMoreBets(d: Data): { rows: readonly Row[]; more: More; loadMore: () => void; onNearEnd: (() => void) | undefined } {
  const [more, setMore] = useState<More>({ rows: [], cursor: d.nextCursor, loading: false, error: null });
  // A ref as well as state: scrolling can ask again before the state of the first ask is drawn.
  const busy = useRef(false);
  const query = d.query;
  const cursor = more.cursor;
  const failed = more.error !== null;
  const loadMore = useCallback(() => {
    if (!query || cursor === null || busy.current) return;
    busy.current = true;
    setMore((m) => ({ ...m, loading: true, error: null }));
    desk.panel.bets.query({ ...query, limit: PAGE_SIZE_MAX.bets, cursor }).then(
      (page) => setMore((m) => ({ rows: [...m.rows, ...page.bets], cursor: page.nextCursor, loading: false, error: null })),
      (error: unknown) => setMore((m) => ({ ...m, loading: false, error: userMessage(error) })),
    ).finally(() => { busy.current = false; });
  }, [query, cursor]);
  const rows = useMemo(() => (more.rows.length === 0 ? d.bets : [...d.bets, ...more.rows]), [d.bets, more.rows]);
  // After a failure only the button asks again, not every scroll.
  return { rows, more, loadMore, onNearEnd: query && cursor !== null && !failed ? loadMore : undefined };
}

/** agent.getBetHistory: bets with their summary; long lists scroll in a virtualized box and page on at the end. */
export function BetTable({ card }: CardProps<'bet_table'>) {
  const d = card.data;
  const s = d.summary;
  const me = useMe();
  const { rows, more, loadMore, onNearEnd } = useMoreBets(d);
  const pages = d.query !== undefined;
  const timezone = me.timezone;
  // The same columns from one draw to the next, or every memoised row in view is drawn again when a page arrives.
  const columns = useMemo((): Column<Row>[] => [
    {
      id: 'placed', header: 'Placed', sortValue: (r) => Date.parse(r.placedAt), width: '128px',
      render: (r) => formatDateTime(r.placedAt, timezone),
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
      render: (r) => (r.result === null ? '—' : formatPoints(r.result)), cellClass: (r) => signClass(r.result ?? 0, 'players'),
    },
  ], [timezone]);
  return (
    <CardFrame wide type="bet_table" title="Bets" subtitle={<>{formatCount(s.count)} {plural(s.count, 'bet')}</>}>
      <p className="summary chat-summary" data-testid="bet-summary">
        <span>stake <b>{formatPoints(s.stake)}</b></span>
        <span>open liability <b>{formatPoints(s.openLiability)}</b></span>
        <span>settled result (players) <b className={signClass(s.settledResult, 'players')}>{formatPoints(s.settledResult)}</b></span>
      </p>
      {rows.length === 0 ? <p className="state empty chat-card-text">No bets match.</p> : (
        <SortableTable label="Bets" rows={rows} columns={columns} rowKey={(r) => r.id} rowTestId="card-row"
          initialSort={{ id: 'placed', dir: 'desc' }} minWidth={1020} onNearEnd={onNearEnd} />
      )}
      {pages && (more.cursor !== null || rows.length > d.bets.length) && (
        <p className="muted chat-card-text" data-testid="card-bets-loaded" data-rows={rows.length} aria-live="polite">
          {more.loading ? `Loading more… (${formatCount(rows.length)} of ${formatCount(s.count)})` : `${formatCount(rows.length)} of ${formatCount(s.count)} loaded`}
          {more.error && <> · <span className="error">{more.error}</span></>}
          {more.cursor !== null && !more.loading && (
            <> · <button type="button" className="link-button" data-testid="card-bets-more" onClick={loadMore}>{more.error ? 'Try again' : 'Show more'}</button></>
          )}
        </p>
      )}
      {!pages && d.bets.length < s.count && (
        <p className="muted chat-card-text">Showing {formatCount(d.bets.length)} of {formatCount(s.count)}: the bets page has them all.</p>
      )}
    </CardFrame>
  );
}
