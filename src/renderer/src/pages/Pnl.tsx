import { formatBps, formatCount, formatPoints, signClass } from '../lib/format';
import { buildHref, useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { type PanelOutput, panelPages } from '../lib/queries';
import { usePaged } from '../lib/usePaged';
import { useState } from 'react';
import { type Column, type Sort, SortableTable } from '../cards/shared';
import { ExportMenu, exportNames, exportSort } from '../components/ExportMenu';
import { COMMISSION_SORTS, COMMISSION_SORT_IDS, PNL_SORTS, PNL_SORT_IDS } from '../../../shared/table-sort';
import { Link } from '../components/Link';
import { TableSearch, useNameSearch } from '../components/TableSearch';
import { PeriodPicker, periodFromQuery } from '../components/Period';
import { More } from '../components/More';
import { Loadable } from '../components/States';
import { Tile } from '../components/Tile';
import { PnlCells } from '../components/MoneyCell';

type PnlOutput = PanelOutput<'pnl'>;
type CommissionOutput = PanelOutput<'commission'>;

export function PnlPage() {
  const timezone = useSession((s) => s.user?.timezone ?? 'UTC');
  const { path, query, navigate } = useRoute();
  const period = periodFromQuery(query, timezone, 'today');
  const range = `${period.from}:${period.to}`;
  return (
    <section aria-labelledby="pnl-title">
      <h1 id="pnl-title">Profit and loss</h1>
      <PeriodPicker period={period} onChange={(q) => navigate(buildHref(path, q))} />
      {period.error ? <p className="state error" role="alert">{period.error}</p> : (
        <>
          <PnlTable key={`pnl:${range}`} from={period.from} to={period.to} />
          <CommissionTable key={`commission:${range}`} from={period.from} to={period.to} />
        </>
      )}
    </section>
  );
}

function PnlTable({ from, to }: { from: string; to: string }) {
  const state = usePaged(panelPages('pnl', { from, to, limit: 500 }), (p: PnlOutput) => p.rows);
  return (
    <Loadable state={state}>
      {(d) => {
        const t = d.first.total;
        return (
          <>
            <div className="tiles">
              <Tile label="Your share" value={formatPoints(t.yourShare ?? 0)} testId="pnl-total-your-share" tone={signClass(t.yourShare ?? 0)}
                note={t.yourShare === null ? 'not attributable' : 'what you keep'} />
              <Tile label="Book result" value={formatPoints(t.bookResult)} testId="pnl-total-book-result" tone={signClass(t.bookResult)} note="gross, before shares" />
              <Tile label="Players' PnL" value={formatPoints(t.pnl)} testId="pnl-total-pnl" tone={signClass(t.pnl, 'players')} />
              <Tile label="Commission" value={formatPoints(t.commission)} testId="pnl-total-commission" />
              <Tile label="Settled bets" value={formatCount(t.bets)} testId="pnl-total-bets" />
            </div>
            {d.rows.length === 0 ? <p className="state empty" data-testid="pnl-empty">No settled bets in this period.</p> : (
              <PnlRows rows={d.rows} total={t} from={from} to={to} />
            )}
            <More hasMore={d.nextCursor !== null} loading={d.loadingMore} error={d.moreError} loadMore={state.loadMore} shown={d.rows.length} />
          </>
        );
      }}
    </Loadable>
  );
}

function CommissionTable({ from, to }: { from: string; to: string }) {
  const state = usePaged(panelPages('commission', { from, to, limit: 500 }), (p: CommissionOutput) => p.rows);
  return (
    <section aria-labelledby="commission-title">
      <div className="section-head">
        <h2 id="commission-title">Commission</h2>
        {state.status === 'ready' && <span className="muted">total <b data-testid="commission-total">{formatPoints(state.data.first.total)}</b></span>}
      </div>
      <Loadable state={state}>
        {(d) => d.rows.length === 0 ? <p className="state empty" data-testid="commission-empty">No commission in this period.</p> : (
          <>
            <CommissionRows rows={d.rows} total={d.first.total} from={from} to={to} />
            <More hasMore={d.nextCursor !== null} loading={d.loadingMore} error={d.moreError} loadMore={state.loadMore} shown={d.rows.length} />
          </>
        )}
      </Loadable>
    </section>
  );
}

type PnlRow = PnlOutput['rows'][number];

function PnlRows({ rows, total, from, to }: { rows: PnlRow[]; total: PnlOutput['total']; from: string; to: string }) {
  const search = useNameSearch(rows, (r) => [r.name, r.agentName]);
  const [sort, setSort] = useState<Sort>(null);
  return (
    <>
      <TableSearch query={search.query} onChange={search.setQuery} label="Search profit and loss by name" shown={search.rows.length} total={rows.length} testId="pnl-search" />
      <ExportMenu request={{ table: 'pnl', query: { from, to }, ...exportNames(search.query), ...exportSort(sort, PNL_SORT_IDS) }} />
      <SortableTable rows={search.rows} columns={PNL_COLUMNS} rowKey={(r) => r.playerId} label="Profit and loss by player" rowTestId="pnl-row" testId="pnl-table" page
        onSortChange={setSort}
        footer={<><th scope="row" colSpan={2}>Total</th><PnlCells bets={total.bets} pnl={total.pnl} commission={total.commission} bookResult={total.bookResult} /></>}
        footerRows={(
          <tr>
            <th scope="row" colSpan={5}>Your share</th>
            <td className={`num ${signClass(total.yourShare ?? 0)}`}>{total.yourShare === null ? '—' : formatPoints(total.yourShare)}</td>
          </tr>
        )} />
    </>
  );
}

const PNL_COLUMNS: Column<PnlRow>[] = [
  { id: 'player', header: 'Player', sortValue: PNL_SORTS.player, render: (r) => <Link to={`/agent/players/${r.playerId}`}>{r.name}</Link>, width: '200px' },
  { id: 'agent', header: 'Agent', sortValue: PNL_SORTS.agent, render: (r) => r.agentName, width: '160px' },
  { id: 'bets', header: 'Bets', numeric: true, sortValue: PNL_SORTS.bets, render: (r) => formatCount(r.bets), width: '90px' },
  { id: 'pnl', header: 'Player PnL', numeric: true, sortValue: PNL_SORTS.pnl, render: (r) => formatPoints(r.pnl), cellClass: (r) => signClass(r.pnl, 'players'), width: '130px' },
  { id: 'commission', header: 'Commission', numeric: true, sortValue: PNL_SORTS.commission, render: (r) => formatPoints(r.commission), width: '120px' },
  { id: 'book', header: 'Book result', numeric: true, sortValue: PNL_SORTS.book, render: (r) => formatPoints(r.bookResult), cellClass: (r) => signClass(r.bookResult), width: '130px' },
];

type CommissionRow = CommissionOutput['rows'][number];

function CommissionRows({ rows, total, from, to }: { rows: CommissionRow[]; total: number; from: string; to: string }) {
  const search = useNameSearch(rows, (r) => [r.name, r.agentName]);
  const [sort, setSort] = useState<Sort>(null);
  return (
    <>
      <TableSearch query={search.query} onChange={search.setQuery} label="Search commission by name" shown={search.rows.length} total={rows.length} testId="commission-search" />
      <ExportMenu label="Export the commission table"
        request={{ table: 'commission', query: { from, to }, ...exportNames(search.query), ...exportSort(sort, COMMISSION_SORT_IDS) }} />
      <SortableTable rows={search.rows} columns={COMMISSION_COLUMNS} rowKey={(r) => r.playerId} label="Commission by player" rowTestId="commission-row" testId="commission-table" page
        onSortChange={setSort}
        footer={<><th scope="row" colSpan={4}>Total</th><td className="num">{formatPoints(total)}</td></>} />
    </>
  );
}

const COMMISSION_COLUMNS: Column<CommissionRow>[] = [
  { id: 'player', header: 'Player', sortValue: COMMISSION_SORTS.player, render: (r) => <Link to={`/agent/players/${r.playerId}`}>{r.name}</Link>, width: '200px' },
  { id: 'agent', header: 'Agent', sortValue: COMMISSION_SORTS.agent, render: (r) => r.agentName, width: '160px' },
  { id: 'rate', header: 'Rate', numeric: true, sortValue: COMMISSION_SORTS.rate, render: (r) => formatBps(r.commissionBps), width: '90px' },
  { id: 'markets', header: 'Winning markets', numeric: true, sortValue: COMMISSION_SORTS.markets, render: (r) => formatCount(r.markets), width: '150px' },
  { id: 'commission', header: 'Commission', numeric: true, sortValue: COMMISSION_SORTS.commission, render: (r) => formatPoints(r.commission), width: '130px' },
];
