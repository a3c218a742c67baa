import { formatDateTime, formatPoints, formatWeek, owesInWords, paidInWords, takeInWords } from '../lib/format';
import { buildHref, useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { type PanelOutput, panelPages } from '../lib/queries';
import { usePaged } from '../lib/usePaged';
import { isIsoDate } from '../../../shared/dates';
import { useMemo, useState } from 'react';
import { type Column, type Sort, SortableTable } from '../cards/shared';
import { ExportMenu, exportNames, exportSort } from '../components/ExportMenu';
import { SETTLEMENT_SORT_IDS, settlementSide, settlementSorts } from '../../../shared/table-sort';
import { Link } from '../components/Link';
import { TableSearch, useNameSearch } from '../components/TableSearch';
import { More } from '../components/More';
import { Loadable } from '../components/States';

type SettlementsOutput = PanelOutput<'settlements'>;

export function SettlementsPage() {
  const { path, query, navigate } = useRoute();
  const from = query.from ?? '';
  const to = query.to ?? '';
  let problem: string | null = null;
  if ((from && !isIsoDate(from)) || (to && !isIsoDate(to))) problem = 'Dates must be calendar days.';
  else if (from && to && from > to) problem = 'The start date is after the end date.';
  const setQuery = (patch: Record<string, string | undefined>) => navigate(buildHref(path, { ...query, ...patch }));
  return (
    <section aria-labelledby="settlements-title">
      <h1 id="settlements-title">Settlements</h1>
      <div className="filters" role="group" aria-label="Filters">
        <label>From <input type="date" value={from} max={to || undefined} data-testid="settlements-from" onChange={(e) => setQuery({ from: e.target.value })} /></label>
        <label>To <input type="date" value={to} min={from || undefined} data-testid="settlements-to" onChange={(e) => setQuery({ to: e.target.value })} /></label>
        {(from || to) && <button type="button" onClick={() => navigate(path)}>Clear dates</button>}
      </div>
      {problem ? <p className="state error" role="alert">{problem}</p> : <SettlementList key={`${from}:${to}`} from={from} to={to} />}
    </section>
  );
}

type Settlement = SettlementsOutput['rows'][number];

function SettlementList({ from, to }: { from: string; to: string }) {
  const state = usePaged(panelPages('settlements', { limit: 200, ...(from && { from }), ...(to && { to }) }),
    (p: SettlementsOutput) => p.rows);
  return (
    <Loadable state={state}>
      {(d) => d.rows.length === 0 ? <p className="state empty" data-testid="settlements-empty">No settlements yet.</p> : (
        <>
          <SettlementTable rows={d.rows} from={from} to={to} />
          <More hasMore={d.nextCursor !== null} loading={d.loadingMore} error={d.moreError} loadMore={state.loadMore} shown={d.rows.length} />
        </>
      )}
    </Loadable>
  );
}

function SettlementTable({ rows, from, to }: { rows: Settlement[]; from: string; to: string }) {
  const me = useSession((s) => s.user)!;
  const search = useNameSearch(rows, (s) => [s.childName, s.parentName, s.createdByName]);
  const [sort, setSort] = useState<Sort>(null);
  const columns = useMemo((): Column<Settlement>[] => {
    /** You are the upline of the row (the child is the counterparty), or its downline, or neither. */
    const side = (s: Settlement) => settlementSide(s, me.id);
    const child = (s: Settlement) => ({ id: s.childId, name: s.childName });
    const parent = (s: Settlement) => ({ id: s.parentId, name: s.parentName });
    const by = settlementSorts(me.id);
    const payment = (s: Settlement) => side(s) ? paidForMe(s.amount, side(s) === 'upline') : paidInWords(s.amount, child(s), parent(s), me.id);
    const owes = (take: number, s: Settlement) => side(s) ? owesForMe(take, side(s) === 'upline') : owesInWords(take, child(s), parent(s), me.id);
    // Widths for the virtualized (fixed) layout; the four columns of names and sentences share what is left.
    return [
      { id: 'date', header: 'Date', sortValue: by.date, render: (s) => formatDateTime(s.createdAt, me.timezone), cellClass: () => 'nowrap', width: '160px', priority: 2 },
      {
        id: 'counterparty', header: 'Counterparty',
        sortValue: by.counterparty,
        title: (s) => side(s) === 'downline' ? `${s.parentName} (your upline)` : side(s) === 'upline' ? s.childName : `${s.childName} with ${s.parentName}`,
        render: (s) => side(s) === 'downline' ? <>{s.parentName} <span className="muted">(your upline)</span></>
          : side(s) === 'upline' ? <Link to={buildHref('/agent/downline', { agentId: s.childId })}>{s.childName}</Link>
            : <><Link to={buildHref('/agent/downline', { agentId: s.childId })}>{s.childName}</Link> <span className="muted">with {s.parentName}</span></>,
      },
      { id: 'amount', header: 'Amount', numeric: true, sortValue: by.amount, render: (s) => formatPoints(Math.abs(s.amount)), width: '100px' },
      { id: 'payment', header: 'Payment', sortValue: by.payment, render: payment, title: payment },
      { id: 'before', header: 'Take before', sortValue: by.before, render: (s) => owes(s.takeBefore, s), title: (s) => owes(s.takeBefore, s), priority: 3 },
      { id: 'after', header: 'Take after', sortValue: by.after, render: (s) => owes(s.takeAfter, s), title: (s) => owes(s.takeAfter, s), priority: 2 },
      { id: 'mode', header: 'Mode', sortValue: by.mode, render: (s) => (s.mode === 'auto' ? 'full (auto)' : 'part (amount)'), width: '116px', priority: 3 },
      {
        id: 'period', header: 'Period', sortValue: by.period, width: '128px', cellClass: () => 'nowrap', priority: 3,
        render: (s) => <span title={s.periodId ?? undefined}>{s.periodId ? formatWeek(s.periodId) : '—'}</span>,
      },
      { id: 'by', header: 'By', sortValue: by.by, render: (s) => s.createdByName, title: (s) => s.createdByName, width: '108px', priority: 3 },
    ];
  }, [me.id, me.timezone]);
  return (
    <>
      <TableSearch query={search.query} onChange={search.setQuery} label="Search settlements by name" shown={search.rows.length} total={rows.length} testId="settlements-search" />
      <ExportMenu request={{
        table: 'settlements', query: { ...(from && { from }), ...(to && { to }) }, ...exportNames(search.query), ...exportSort(sort, SETTLEMENT_SORT_IDS),
      }} />
      <SortableTable rows={search.rows} columns={columns} rowKey={(s) => s.id} label="Settlements" rowTestId="settlement-row"
        testId="settlements-table" minWidth={0} page onSortChange={setSort} />
    </>
  );
}

/** The counterparty (named in its own column) and you: "paid you X" / "you paid X". `meParent`: you are the upline. */
function paidForMe(amount: number, meParent: boolean): string {
  const towardsMe = meParent ? amount > 0 : amount < 0;
  return towardsMe ? `paid you ${formatPoints(Math.abs(amount))}` : `you paid ${formatPoints(Math.abs(amount))}`;
}

/** The take between the counterparty and you: "owes you X" / "you owe X" / "square". */
function owesForMe(take: number, meParent: boolean): string {
  return takeInWords(meParent ? take : -take);
}
