import { formatBps, formatCount, formatPoints, signClass } from '../lib/format';
import { buildHref, useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { type PanelOutput, panelPages } from '../lib/queries';
import { usePaged } from '../lib/usePaged';
import { Link } from '../components/Link';
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
              <Tile label="Players' PnL" value={formatPoints(t.pnl)} testId="pnl-total-pnl" tone={signClass(t.pnl)} />
              <Tile label="Commission" value={formatPoints(t.commission)} testId="pnl-total-commission" />
              <Tile label="Settled bets" value={formatCount(t.bets)} testId="pnl-total-bets" />
            </div>
            {d.rows.length === 0 ? <p className="state empty" data-testid="pnl-empty">No settled bets in this period.</p> : (
              <table className="table" data-testid="pnl-table">
                <thead>
                  <tr>
                    <th scope="col">Player</th><th scope="col">Agent</th><th scope="col" className="num">Bets</th>
                    <th scope="col" className="num">Player PnL</th><th scope="col" className="num">Commission</th><th scope="col" className="num">Book result</th>
                  </tr>
                </thead>
                <tbody>
                  {d.rows.map((r) => (
                    <tr key={r.playerId} data-testid="pnl-row">
                      <td><Link to={`/agent/players/${r.playerId}`}>{r.name}</Link></td>
                      <td>{r.agentName}</td>
                      <PnlCells bets={r.bets} pnl={r.pnl} commission={r.commission} bookResult={r.bookResult} />
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr data-testid="pnl-total-row">
                    <th scope="row" colSpan={2}>Total</th>
                    <PnlCells bets={t.bets} pnl={t.pnl} commission={t.commission} bookResult={t.bookResult} />
                  </tr>
                  <tr>
                    <th scope="row" colSpan={5}>Your share</th>
                    <td className={`num ${signClass(t.yourShare ?? 0)}`}>{t.yourShare === null ? '—' : formatPoints(t.yourShare)}</td>
                  </tr>
                </tfoot>
              </table>
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
            <table className="table" data-testid="commission-table">
              <thead>
                <tr><th scope="col">Player</th><th scope="col">Agent</th><th scope="col" className="num">Rate</th><th scope="col" className="num">Winning markets</th><th scope="col" className="num">Commission</th></tr>
              </thead>
              <tbody>
                {d.rows.map((r) => (
                  <tr key={r.playerId} data-testid="commission-row">
                    <td><Link to={`/agent/players/${r.playerId}`}>{r.name}</Link></td>
                    <td>{r.agentName}</td>
                    <td className="num">{formatBps(r.commissionBps)}</td>
                    <td className="num">{r.markets}</td>
                    <td className="num">{formatPoints(r.commission)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr><th scope="row" colSpan={4}>Total</th><td className="num">{formatPoints(d.first.total)}</td></tr>
              </tfoot>
            </table>
            <More hasMore={d.nextCursor !== null} loading={d.loadingMore} error={d.moreError} loadMore={state.loadMore} shown={d.rows.length} />
          </>
        )}
      </Loadable>
    </section>
  );
}
