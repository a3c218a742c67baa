import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { formatCount, formatDateTime, formatOdds, formatPoints, signClass } from '../lib/format';
import { buildHref, useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { type PanelInput, type PanelOutput, panelPages } from '../lib/queries';
import { usePaged } from '../lib/usePaged';
import { isIsoDate } from '../../../shared/dates';
import { PAGE_SIZE_MAX } from '../../../shared/contracts/page-size';
import { BET_SORT_KEYS, type BetSort, MAX_BET_SEARCH_LENGTH, NEWEST_FIRST } from '../../../shared/contracts/bet-list';
import { Link } from '../components/Link';
import { Loadable } from '../components/States';
import { ExportMenu } from '../components/ExportMenu';

type Status = 'open' | 'settled' | 'void';
const STATUSES: Status[] = ['open', 'settled', 'void'];
const PAGE = PAGE_SIZE_MAX.bets;
const ROW_HEIGHT = 36;
/** Rows from the end at which the next page is asked for. */
const PREFETCH = 100;
/** Typing pauses this long before the search goes to the URL (and to the backend). */
const SEARCH_DEBOUNCE_MS = 300;
type SortKey = BetSort['by'];

/** `?sort=stake&dir=asc`; anything else there is the default order. */
function sortFromQuery(query: Record<string, string>): BetSort {
  const by = BET_SORT_KEYS.find((k) => k === query.sort);
  const dir = query.dir === 'asc' || query.dir === 'desc' ? query.dir : undefined;
  return by && dir ? { by, dir } : NEWEST_FIRST;
}

type BetsOutput = PanelOutput<'bets'>;
type Bet = BetsOutput['bets'][number];

export function BetsPage() {
  const { path, query, navigate } = useRoute();
  const statuses: Status[] = query.status === undefined ? STATUSES : STATUSES.filter((s) => query.status!.split(',').includes(s));
  const from = query.from ?? '';
  const to = query.to ?? '';
  const playerId = query.playerId;
  const fixtureId = query.fixtureId;
  const search = (query.search ?? '').trim();
  const sort = sortFromQuery(query);
  const sorted = sort.by !== NEWEST_FIRST.by || sort.dir !== NEWEST_FIRST.dir;
  let problem: string | null = null;
  if (statuses.length === 0) problem = 'Choose at least one status.';
  else if (search.length > MAX_BET_SEARCH_LENGTH) problem = `A search holds at most ${MAX_BET_SEARCH_LENGTH} characters.`;
  else if ((from && !isIsoDate(from)) || (to && !isIsoDate(to))) problem = 'Dates must be calendar days.';
  else if (from && to && from > to) problem = 'The start date is after the end date.';

  const setQuery = (patch: Record<string, string | undefined>) => navigate(buildHref(path, { ...query, ...patch }));
  const toggleStatus = (s: Status, on: boolean) => {
    const next = STATUSES.filter((x) => (x === s ? on : statuses.includes(x)));
    setQuery({ status: next.length === STATUSES.length ? undefined : next.join(',') || 'none' });
  };
  // As the cards' tables do: the same column again flips the direction; a new column starts with
  // the largest (or newest) for figures and A first for names.
  const sortBy = (by: SortKey) => {
    const dir = sort.by === by ? (sort.dir === 'asc' ? 'desc' : 'asc') : by === 'player' ? 'asc' : 'desc';
    const next = by === NEWEST_FIRST.by && dir === NEWEST_FIRST.dir;
    setQuery({ sort: next ? undefined : by, dir: next ? undefined : dir });
  };

  const input = {
    ...(playerId && { playerId }), ...(fixtureId && { fixtureId }),
    ...(statuses.length < STATUSES.length && { status: statuses }),
    ...(from && { from }), ...(to && { to }), ...(search && { search }), ...(sorted && { sort }), limit: PAGE,
  };
  const key = problem ? 'bets:none' : `bets:${JSON.stringify(input)}`;
  // The export reads every page itself.
  const { limit: _limit, ...exportQuery } = input;

  return (
    <section aria-labelledby="bets-title" className="bets-page">
      <h1 id="bets-title">Bets</h1>
      <div className="filters" role="group" aria-label="Filters">
        <BetSearch value={search} />
        <fieldset className="checks">
          <legend>Status</legend>
          {STATUSES.map((s) => (
            <label key={s}>
              <input type="checkbox" checked={statuses.includes(s)} data-testid={`bets-status-${s}`}
                onChange={(e) => toggleStatus(s, e.target.checked)} /> {s}
            </label>
          ))}
        </fieldset>
        <label>From <input type="date" value={from} max={to || undefined} data-testid="bets-from" onChange={(e) => setQuery({ from: e.target.value })} /></label>
        <label>To <input type="date" value={to} min={from || undefined} data-testid="bets-to" onChange={(e) => setQuery({ to: e.target.value })} /></label>
        {(playerId || fixtureId || from || to || query.status !== undefined || search || sorted) && (
          <button type="button" onClick={() => navigate(path)} data-testid="bets-clear">Clear filters</button>
        )}
      </div>
      <ExportMenu request={{ table: 'bets', query: exportQuery }} disabled={problem !== null} />
      {problem ? <p className="state error" role="alert">{problem}</p> : (
        <BetsList key={key} input={input} playerId={playerId} fixtureId={fixtureId} searching={search !== ''}
          sort={sort} sortBy={sortBy} clear={(k) => setQuery({ [k]: undefined })} />
      )}
    </section>
  );
}

/**
 * The search box, in the look of the other page tables' (components/TableSearch.tsx), but the
 * search runs on the backend over every bet, not over the rows loaded: what is typed goes to the
 * URL once typing pauses, and the list starts again from its first page.
 */
function BetSearch({ value }: { value: string }) {
  const [typed, setTyped] = useState(value);
  // What this box last put in the URL: a different value there came from elsewhere (Clear
  // filters, Back) and replaces what is typed; its own echo must not undo newer keystrokes.
  const sent = useRef(value);
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    setTyped(value);
  }, [value]);
  useEffect(() => {
    const next = typed.trim();
    if (next === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = next;
      // The route as it is when the timer fires: a filter changed meanwhile stays changed.
      const { path, query, navigate } = useRoute.getState();
      navigate(buildHref(path, { ...query, search: next || undefined }));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  return (
    <div className="table-search" role="search">
      <input type="search" value={typed} maxLength={MAX_BET_SEARCH_LENGTH} placeholder="Search by name"
        aria-label="Search bets by player, fixture, market or selection" data-testid="bets-search"
        onChange={(e) => setTyped(e.target.value)} />
    </div>
  );
}

function BetsList({ input, playerId, fixtureId, searching, sort, sortBy, clear }: {
  input: PanelInput<'bets'>; playerId: string | undefined; fixtureId: string | undefined; searching: boolean;
  sort: BetSort; sortBy(by: SortKey): void;
  clear(key: 'playerId' | 'fixtureId'): void;
}) {
  const state = usePaged(panelPages('bets', input), (p: BetsOutput): Bet[] => p.bets);
  return (
    <Loadable state={state}>
      {(d) => {
        const s = d.first.summary;
        const first = d.rows[0];
        return (
          <>
            {(playerId || fixtureId) && (
              <p className="chips">
                {playerId && (
                  <span className="chip" data-testid="bets-filter-player">
                    Player: {first ? <Link to={`/agent/players/${playerId}`}>{first.playerName}</Link> : <Link to={`/agent/players/${playerId}`}>this player</Link>}
                    <button type="button" aria-label="Remove the player filter" onClick={() => clear('playerId')}>×</button>
                  </span>
                )}
                {fixtureId && (
                  <span className="chip" data-testid="bets-filter-fixture">
                    Fixture: {first ? first.fixtureName : 'this fixture'}
                    <button type="button" aria-label="Remove the fixture filter" onClick={() => clear('fixtureId')}>×</button>
                  </span>
                )}
              </p>
            )}
            <p className="summary" data-testid="bets-summary" aria-live="polite">
              <span data-testid="bets-summary-count">{formatCount(s.count)} bets</span>
              <span>stake <b data-testid="bets-summary-stake">{formatPoints(s.stake)}</b></span>
              <span>open liability <b data-testid="bets-summary-open-liability">{formatPoints(s.openLiability)}</b></span>
              <span>settled result (players) <b data-testid="bets-summary-settled-result" className={signClass(s.settledResult, 'players')}>{formatPoints(s.settledResult)}</b></span>
            </p>
            {d.rows.length === 0 ? <p className="state empty">{searching ? 'No bets match this search and these filters.' : 'No bets match these filters.'}</p> : (
              <BetsTable rows={d.rows} total={s.count} hasMore={d.nextCursor !== null} loadingMore={d.loadingMore}
                moreError={d.moreError} loadMore={state.loadMore} sort={sort} sortBy={sortBy} />
            )}
          </>
        );
      }}
    </Loadable>
  );
}

/** A column header; with `by`, a button that sorts the list by it, marked like SortableTable's (cards/shared.tsx). */
function Header({ children, by, numeric, col, sort, sortBy }: {
  children: ReactNode; by?: SortKey; numeric?: boolean; sort: BetSort; sortBy(by: SortKey): void;
  /** The column's classes (its priority: styles.css). */
  col: string;
}) {
  const className = numeric ? `num ${col}` : col;
  if (!by) return <th scope="col" className={className}>{children}</th>;
  const active = sort.by === by;
  return (
    <th scope="col" className={className} aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="sort-button" onClick={() => sortBy(by)} data-testid={`sort-${by}`}>
        {children}
        <span aria-hidden="true" className="sort-mark">{active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}</span>
      </button>
    </th>
  );
}

const COLUMNS = ['placed', 'player', 'fixture', 'selection', 'side', 'odds', 'stake', 'liability', 'status', 'result'] as const;
/**
 * Each column's classes: its width (bc-…) and its priority (styles.css). Who placed it, how much
 * is at stake and where it stands always show; the time gives way on a phone-wide page, and what
 * the bet is on (fixture, selection, side, odds) on a laptop-wide one.
 */
const COL: Record<(typeof COLUMNS)[number], string> = {
  placed: 'bc-placed nowrap col-p2', player: 'bc-player', fixture: 'bc-fixture col-p3', selection: 'bc-selection col-p3',
  side: 'bc-side col-p3', odds: 'bc-odds col-p3', stake: 'bc-stake', liability: 'bc-liability', status: 'bc-status', result: 'bc-result',
};

function BetsTable({ rows, total, hasMore, loadingMore, moreError, loadMore, sort, sortBy }: {
  rows: Bet[]; total: number; hasMore: boolean; loadingMore: boolean; moreError: string | null; loadMore(): void;
  sort: BetSort; sortBy(by: SortKey): void;
}) {
  const timezone = useSession((s) => s.user?.timezone ?? 'UTC');
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1]!.index : 0;

  // Near the end of what is loaded, ask for the next page.
  useEffect(() => {
    if (hasMore && !loadingMore && !moreError && lastIndex >= rows.length - PREFETCH) loadMore();
  }, [lastIndex, rows.length, hasMore, loadingMore, moreError, loadMore]);

  const focusRow = (index: number) => {
    const i = Math.max(0, Math.min(rows.length - 1, index));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${i}"]`)?.focus());
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 360) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + page, PageUp: index - page, Home: 0, End: rows.length - 1 };
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter') {
      e.currentTarget.querySelector<HTMLAnchorElement>('a')?.click();
      return;
    }
    const target = moves[e.key];
    if (target === undefined) return;
    e.preventDefault();
    focusRow(target);
  };

  const top = items.length ? items[0]!.start : 0;
  const bottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const activeIndex = Math.min(active, rows.length - 1);

  return (
    <>
      <div className="bets-scroll" ref={scrollRef} data-testid="bets-scroll">
        <table className="table bets-table" aria-rowcount={total + 1}>
          {/* The widths are styles.css's (.bets-table .bc-…); a narrower page hides the columns marked col-p2/col-p3. */}
          <colgroup>
            {COLUMNS.map((c) => <col key={c} className={COL[c]} />)}
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              <Header by="placedAt" col={COL.placed} sort={sort} sortBy={sortBy}>Placed</Header>
              <Header by="player" col={COL.player} sort={sort} sortBy={sortBy}>Player</Header>
              <Header col={COL.fixture} sort={sort} sortBy={sortBy}>Fixture</Header>
              <Header col={COL.selection} sort={sort} sortBy={sortBy}>Selection</Header>
              <Header col={COL.side} sort={sort} sortBy={sortBy}>Side</Header>
              <Header by="odds" numeric col={COL.odds} sort={sort} sortBy={sortBy}>Odds</Header>
              <Header by="stake" numeric col={COL.stake} sort={sort} sortBy={sortBy}>Stake</Header>
              <Header numeric col={COL.liability} sort={sort} sortBy={sortBy}>Liability</Header>
              <Header col={COL.status} sort={sort} sortBy={sortBy}>Status</Header>
              <Header by="result" numeric col={COL.result} sort={sort} sortBy={sortBy}>Result</Header>
            </tr>
          </thead>
          <tbody>
            {/* One column, as SortableTable's spacers (cards/shared.tsx): a hidden column must not come back empty. */}
            {top > 0 && <tr aria-hidden="true" className="spacer"><td style={{ height: `${top}px` }} /></tr>}
            {items.map((item) => {
              const b = rows[item.index]!;
              return (
                <tr key={b.id} data-index={item.index} data-testid="bet-row" aria-rowindex={item.index + 2}
                  tabIndex={item.index === activeIndex ? 0 : -1} style={{ height: `${ROW_HEIGHT}px` }}
                  onFocus={(e) => { if (e.target === e.currentTarget) setActive(item.index); }}
                  onKeyDown={(e) => onKeyDown(e, item.index)}>
                  <td className={COL.placed}>{formatDateTime(b.placedAt, timezone)}</td>
                  <td className={COL.player} title={b.playerName}><Link to={`/agent/players/${b.playerId}`} tabIndex={item.index === activeIndex ? 0 : -1}>{b.playerName}</Link></td>
                  <td className={COL.fixture} title={b.fixtureName}><Link to={buildHref('/agent/bets', { fixtureId: b.fixtureId })} tabIndex={item.index === activeIndex ? 0 : -1}>{b.fixtureName}</Link></td>
                  <td className={COL.selection} title={`${b.marketName} › ${b.outcomeName}`}>{b.outcomeName} <span className="muted">· {b.marketName}</span></td>
                  <td className={COL.side}>{b.side}</td>
                  <td className={`num ${COL.odds}`}>{formatOdds(b.odds)}</td>
                  <td className={`num ${COL.stake}`}>{formatPoints(b.stake)}</td>
                  <td className={`num ${COL.liability}`}>{formatPoints(b.liability)}</td>
                  <td className={COL.status}><span className={`badge ${b.status}`}>{b.status}</span></td>
                  <td className={`num ${COL.result} ${signClass(b.result ?? 0, 'players')}`}>{b.result === null ? '—' : formatPoints(b.result)}</td>
                </tr>
              );
            })}
            {bottom > 0 && <tr aria-hidden="true" className="spacer"><td style={{ height: `${bottom}px` }} /></tr>}
          </tbody>
        </table>
      </div>
      <p className="state" data-testid="bets-loaded" aria-live="polite">
        {loadingMore ? `Loading more… (${formatCount(rows.length)} of ${formatCount(total)})`
          : `${formatCount(rows.length)} of ${formatCount(total)} loaded`}
        {moreError && <> · <span className="error">{moreError}</span> <button type="button" onClick={loadMore}>Try again</button></>}
        {' '}· Use ↑/↓, Page Up/Down, Home/End in the table; Enter opens the player.
      </p>
    </>
  );
}
