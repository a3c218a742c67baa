import { panelQuery } from '../lib/queries';
import { formatCount, formatPoints } from '../lib/format';
import { buildHref, useRoute } from '../lib/route';
import { useDeskQuery } from '../lib/useQuery';
import { ExportMenu } from '../components/ExportMenu';
import { Link } from '../components/Link';
import { Loadable } from '../components/States';
import { Tile } from '../components/Tile';
import { MoneyCell } from '../components/MoneyCell';

export function ExposurePage() {
  const fixtureId = useRoute((s) => s.query.fixtureId);
  const state = useDeskQuery(panelQuery('exposure', fixtureId ? { fixtureId } : {}));
  return (
    <section aria-labelledby="exposure-title">
      <h1 id="exposure-title">Live exposure</h1>
      {fixtureId && <p className="chips"><span className="chip">One fixture <Link to="/agent/exposure" data-testid="exposure-show-all">Show all fixtures</Link></span></p>}
      <ExportMenu request={{ table: 'exposure', query: fixtureId ? { fixtureId } : {} }} />
      <Loadable state={state}>
        {(d) => (
          <>
            <div className="tiles">
              <Tile label="Worst case (gross)" value={formatPoints(d.total.exposure)} testId="exposure-total"
                note={`${d.scopes.length} open market${d.scopes.length === 1 ? '' : 's'}`} />
              <Tile label="Worst case at your share" value={formatPoints(d.total.exposureAtShare)} testId="exposure-total-at-share" />
              <Tile label="Open bets" value={formatCount(d.scopes.reduce((n, s) => n + s.openBets, 0))} testId="exposure-open-bets" />
            </div>
            <p className="muted hint">A position is what the book makes if that outcome wins: negative means the book pays. The worst position of a market is its exposure.</p>
            {d.fixtures.length === 0 ? <p className="state empty" data-testid="exposure-empty">No open bets in your downline: nothing at risk.</p> : (
              d.fixtures.map((f) => (
                <section key={f.fixtureId} className="card" aria-labelledby={`fx-${f.fixtureId}`} data-testid="exposure-fixture">
                  <div className="section-head">
                    <h2 id={`fx-${f.fixtureId}`}>{f.fixtureName}</h2>
                    <span className="muted">
                      worst case <b data-testid="exposure-fixture-total">{formatPoints(f.exposure)}</b> · at your share <b>{formatPoints(f.exposureAtShare)}</b>
                      {' · '}<Link to={buildHref('/agent/bets', { fixtureId: f.fixtureId, status: 'open' })}>open bets</Link>
                      {!fixtureId && <>{' · '}<Link to={buildHref('/agent/exposure', { fixtureId: f.fixtureId })}>only this</Link></>}
                    </span>
                  </div>
                  {d.scopes.filter((s) => s.fixtureId === f.fixtureId).map((m) => (
                    <table key={m.marketId} className="table market" data-testid="exposure-market">
                      <caption>
                        <span>{m.marketName}</span>
                        <span className="muted"> · {m.openBets} open bet{m.openBets === 1 ? '' : 's'} · worst case {formatPoints(m.exposure)} ({formatPoints(m.exposureAtShare)} at your share)</span>
                      </caption>
                      <thead>
                        <tr><th scope="col">If this wins</th><th scope="col" className="num">Book position (gross)</th><th scope="col" className="num">At your share</th></tr>
                      </thead>
                      <tbody>
                        {m.outcomes.map((o) => {
                          const worst = o.position === Math.min(...m.outcomes.map((x) => x.position)) && o.position < 0;
                          return (
                            <tr key={o.outcomeId} className={worst ? 'worst' : undefined} data-testid="exposure-outcome">
                              <th scope="row">{o.name}{worst && <span className="badge void"> worst</span>}</th>
                              <MoneyCell value={o.position} />
                              <MoneyCell value={o.positionAtShare} />
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  ))}
                </section>
              ))
            )}
          </>
        )}
      </Loadable>
    </section>
  );
}
