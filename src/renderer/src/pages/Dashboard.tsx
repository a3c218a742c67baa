import { panelQuery } from '../lib/queries';
import { formatPoints, signClass, takeInWords } from '../lib/format';
import { useDeskQuery } from '../lib/useQuery';
import { DASHBOARD_TOP_MARKETS } from '../../../shared/contracts/table-export';
import { ExportMenu } from '../components/ExportMenu';
import { Link } from '../components/Link';
import { Loadable } from '../components/States';
import { Tile } from '../components/Tile';

export function DashboardPage() {
  const state = useDeskQuery(panelQuery('dashboard', undefined));
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">Dashboard</h1>
      <Loadable state={state}>
        {(d) => (
          <>
            <div className="tiles">
              <Tile label="Downline take" value={takeInWords(d.downlineTake.take, 'your downline')} tone={signClass(d.downlineTake.take)} testId="tile-downline-take" />
              {d.upline && <Tile label="Credit limit" value={formatPoints(d.upline.cl)} note={`from ${d.upline.uplineName}`} testId="tile-cl" />}
              {d.upline && <Tile label="Available" value={formatPoints(d.upline.available)} testId="tile-available" />}
              {/* `owed` is the agent's take towards the upline: the upline owes the agent its negation. */}
              {d.upline && <Tile label="With your upline" value={takeInWords(-d.upline.owed, d.upline.uplineName)} tone={signClass(-d.upline.owed)} testId="tile-owed" />}
              <Tile label="Today's result (your share)" value={formatPoints(d.today.yourShare ?? 0)} tone={signClass(d.today.yourShare ?? 0)} note={`${d.today.bets} bets settled`} testId="tile-today" />
              <Tile label="Live exposure" value={formatPoints(d.exposure.exposure)} note={`${formatPoints(d.exposure.exposureAtShare)} at your share`} testId="tile-exposure" />
            </div>
            <h2>Top markets today (by volume)</h2>
            {d.topMarkets.length === 0 ? <p className="state empty">No bets placed today.</p> : (<>
              <ExportMenu label="Export the top markets" request={{ table: 'topMarkets', query: DASHBOARD_TOP_MARKETS }} />
              <table className="table" data-testid="top-markets">
                <thead><tr><th scope="col">Fixture</th><th scope="col">Market</th><th scope="col" className="num">Volume</th><th scope="col" className="num">Bets</th></tr></thead>
                <tbody>
                  {d.topMarkets.map((m) => (
                    <tr key={m.marketId}>
                      <td><Link to={`/agent/exposure?fixtureId=${m.fixtureId}`}>{m.fixtureName}</Link></td>
                      <td>{m.marketName}</td>
                      <td className="num">{formatPoints(m.value)}</td>
                      <td className="num">{m.bets}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>)}
          </>
        )}
      </Loadable>
    </section>
  );
}
