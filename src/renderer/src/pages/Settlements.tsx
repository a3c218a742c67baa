import { formatDateTime, formatPoints, formatWeek, owesInWords, paidInWords, takeInWords } from '../lib/format';
import { buildHref, useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { type PanelOutput, panelPages } from '../lib/queries';
import { usePaged } from '../lib/usePaged';
import { isIsoDate } from '../../../shared/dates';
import { Link } from '../components/Link';
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

function SettlementList({ from, to }: { from: string; to: string }) {
  const me = useSession((s) => s.user)!;
  const state = usePaged(panelPages('settlements', { limit: 200, ...(from && { from }), ...(to && { to }) }),
    (p: SettlementsOutput) => p.rows);
  return (
    <Loadable state={state}>
      {(d) => d.rows.length === 0 ? <p className="state empty" data-testid="settlements-empty">No settlements yet.</p> : (
        <>
          <table className="table" data-testid="settlements-table">
            <thead>
              <tr>
                <th scope="col">Date</th><th scope="col">Counterparty</th><th scope="col" className="num">Amount</th><th scope="col">Payment</th>
                <th scope="col">Take before</th><th scope="col">Take after</th><th scope="col">Mode</th><th scope="col">Period</th><th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {d.rows.map((s) => {
                const child = { id: s.childId, name: s.childName };
                const parent = { id: s.parentId, name: s.parentName };
                const counterparty = s.parentId === me.id ? child : s.childId === me.id ? parent : null;
                return (
                  <tr key={s.id} data-testid="settlement-row">
                    <td className="nowrap">{formatDateTime(s.createdAt, me.timezone)}</td>
                    <td>
                      {counterparty === parent ? <>{parent.name} <span className="muted">(your upline)</span></>
                        : counterparty === child ? <Link to={buildHref('/agent/downline', { agentId: child.id })}>{child.name}</Link>
                          : <><Link to={buildHref('/agent/downline', { agentId: child.id })}>{child.name}</Link> <span className="muted">with {parent.name}</span></>}
                    </td>
                    <td className="num">{formatPoints(Math.abs(s.amount))}</td>
                    <td data-testid="settlement-direction">{counterparty ? paidForMe(s.amount, s.parentId === me.id) : paidInWords(s.amount, child, parent, me.id)}</td>
                    <td data-testid="settlement-take-before">{counterparty ? owesForMe(s.takeBefore, s.parentId === me.id) : owesInWords(s.takeBefore, child, parent, me.id)}</td>
                    <td data-testid="settlement-take-after">{counterparty ? owesForMe(s.takeAfter, s.parentId === me.id) : owesInWords(s.takeAfter, child, parent, me.id)}</td>
                    <td>{s.mode === 'auto' ? 'full (auto)' : 'part (amount)'}</td>
                    <td className="nowrap" title={s.periodId ?? undefined}>{s.periodId ? formatWeek(s.periodId) : '—'}</td>
                    <td>{s.createdByName}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <More hasMore={d.nextCursor !== null} loading={d.loadingMore} error={d.moreError} loadMore={state.loadMore} shown={d.rows.length} />
        </>
      )}
    </Loadable>
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
