import { panelQuery, playerAgentQuery } from '../lib/queries';
import { formatDateTime, formatOdds, formatPeriod, formatPoints, formatWeek, owesInWords, paidInWords, signClass, takeInWords, takeTowards } from '../lib/format';
import { buildHref, useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { useDeskQuery } from '../lib/useQuery';
import { isNotFoundCode } from '../lib/errors';
import { ExportMenu } from '../components/ExportMenu';
import { Link } from '../components/Link';
import { NotFound } from '../components/NotFound';
import { PeriodPicker, periodFromQuery } from '../components/Period';
import { Loadable } from '../components/States';
import { Tile } from '../components/Tile';
import { PnlCells } from '../components/MoneyCell';

/** Bets shown on the page; the bets page has them all. */
const RECENT = 25;

/** Ids the backend hands out; anything else cannot name a player, so it is not asked for. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/agent/players/ID`, or `/agent/player?id=ID`. */
export function PlayerPage({ params }: { params: Record<string, string> }) {
  const query = useRoute((s) => s.query);
  const playerId = params.id ?? query.id ?? '';
  return UUID.test(playerId) ? <PlayerView key={playerId} playerId={playerId} /> : <PlayerNotFound />;
}

/**
 * A malformed id, one that names nobody, and another agent's player all read the same: the
 * backend answers a foreign id exactly as a missing one, and so does this page.
 */
function PlayerNotFound() {
  return (
    <NotFound title="No such player in your downline" back={{ to: '/agent/downline', label: 'Back to your downline' }}>
      The link may be mistyped or out of date, or the player is not in your book.
    </NotFound>
  );
}

function PlayerView({ playerId }: { playerId: string }) {
  const me = useSession((s) => s.user)!;
  const { path, query, navigate } = useRoute();
  const period = periodFromQuery(query, me.timezone, 'month');
  const range = period.error ? {} : { from: period.from, to: period.to };
  const state = useDeskQuery(panelQuery('player', { playerId, ...range }));
  const name = state.status === 'ready' ? (state.data.limits?.name ?? state.data.take?.name ?? null) : null;
  // The player's own agent, for the take in words (it may be a sub-agent, not you).
  const agent = useDeskQuery(playerAgentQuery(playerId, name));
  const agentRef = agent.status === 'ready' ? agent.data : null;

  if (state.status === 'error' && isNotFoundCode(state.code)) return <PlayerNotFound />;
  if (state.status === 'ready' && !state.data.limits && !state.data.take) return <PlayerNotFound />;

  return (
    <section aria-labelledby="player-title">
      <p className="crumbs"><Link to="/agent/downline">Downline</Link> › <span>Player</span></p>
      <h1 id="player-title" data-testid="player-name">{name ?? 'Player'}</h1>
      <PeriodPicker period={period} label="PnL period" onChange={(q) => navigate(buildHref(path, q))} />
      {period.error && <p className="state error" role="alert">{period.error}</p>}
      <Loadable state={state}>
        {(d) => {
          const take = d.take?.take ?? d.limits?.take ?? 0;
          const takeWords = agentRef ? takeTowards(take, agentRef, me.id) : takeInWords(take);
          return (
            <>
              <div className="tiles">
                <Tile label="Take" value={formatPoints(Math.abs(take))} note={takeWords} testId="player-take" tone={signClass(take)} />
                <Tile label="Available" value={formatPoints(d.take?.available ?? d.limits?.available ?? 0)} testId="player-available" />
                <Tile label="Credit limit" value={formatPoints(d.limits?.creditLimit ?? d.take?.creditLimit ?? 0)} testId="player-cl" />
                <Tile label="Per-click win" value={d.limits?.perClickWin == null ? '—' : formatPoints(d.limits.perClickWin)} testId="player-per-click-win" />
                <Tile label="Aggregate daily win" value={d.limits?.aggregateDailyWin == null ? '—' : formatPoints(d.limits.aggregateDailyWin)} testId="player-aggregate-daily-win" />
                <Tile label="Min stake" value={d.limits?.minStake == null ? '—' : formatPoints(d.limits.minStake)} testId="player-min-stake" />
              </div>
              {d.limits?.notes && <p className="muted player-notes" data-testid="player-notes">Notes: {d.limits.notes}</p>}
              <p><Link to={buildHref('/agent/statement', { account: playerId })} data-testid="player-statement">Statement: every line with the running balance and the credit-limit history</Link></p>

              <h2>Profit and loss <span className="muted period-note">{formatPeriod(d.pnl.period)}</span></h2>
              {d.pnl.rows.length === 0 ? <p className="state empty">No settled bets in this period.</p> : (
                <div className="table-scroll"><table className="table" data-testid="player-pnl">
                  <thead><tr><th scope="col">Period</th><th scope="col" className="num">Bets</th><th scope="col" className="num">Player PnL</th><th scope="col" className="num">Commission</th><th scope="col" className="num">Book result</th></tr></thead>
                  <tbody>
                    {d.pnl.rows.map((r) => (
                      <tr key={r.playerId}>
                        <td>{formatPeriod(d.pnl.period)}</td>
                        <PnlCells bets={r.bets} pnl={r.pnl} commission={r.commission} bookResult={r.bookResult} />
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr data-testid="player-pnl-total">
                      <th scope="row">Total</th>
                      <PnlCells bets={d.pnl.total.bets} pnl={d.pnl.total.pnl} commission={d.pnl.total.commission} bookResult={d.pnl.total.bookResult} />
                    </tr>
                  </tfoot>
                </table></div>
              )}

              <div className="section-head">
                <h2>Recent bets</h2>
                <Link to={buildHref('/agent/bets', { playerId })} data-testid="player-all-bets">All bets of this player</Link>
              </div>
              {d.bets.bets.length > 0 && <ExportMenu label="Export every bet of this player" request={{ table: 'bets', query: { playerId } }} />}
              {d.bets.bets.length === 0 ? <p className="state empty">No bets yet.</p> : (
                <div className="table-scroll"><table className="table" data-testid="player-bets">
                  <thead>
                    <tr>
                      <th scope="col">Placed</th><th scope="col">Fixture</th><th scope="col" className="col-p3">Market</th><th scope="col">Outcome</th>
                      <th scope="col" className="col-p3">Side</th><th scope="col" className="num col-p3">Odds</th><th scope="col" className="num">Stake</th>
                      <th scope="col">Status</th><th scope="col" className="num">Result</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.bets.bets.slice(0, RECENT).map((b) => (
                      <tr key={b.id}>
                        <td className="nowrap">{formatDateTime(b.placedAt, me.timezone)}</td>
                        <td><Link to={buildHref('/agent/bets', { playerId, fixtureId: b.fixtureId })}>{b.fixtureName}</Link></td>
                        <td className="col-p3">{b.marketName}</td>
                        <td>{b.outcomeName}</td>
                        <td className="col-p3">{b.side}</td>
                        <td className="num col-p3">{formatOdds(b.odds)}</td>
                        <td className="num">{formatPoints(b.stake)}</td>
                        <td><span className={`badge ${b.status}`}>{b.status}</span></td>
                        <td className={`num ${signClass(b.result ?? 0, 'players')}`}>{b.result === null ? '—' : formatPoints(b.result)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table></div>
              )}

              <h2>Settlements</h2>
              {d.settlements.length > 0 && <ExportMenu label="Export this player's settlements" request={{ table: 'settlements', query: { counterpartyId: playerId } }} />}
              {d.settlements.length === 0 ? <p className="state empty">No settlements yet.</p> : (
                <div className="table-scroll"><table className="table" data-testid="player-settlements">
                  <thead>
                    <tr>
                      <th scope="col">Date</th><th scope="col">Payment</th><th scope="col" className="col-p3">Take before</th><th scope="col">Take after</th>
                      <th scope="col" className="col-p3">Mode</th><th scope="col" className="col-p3">Period</th><th scope="col" className="col-p3">By</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.settlements.map((s) => {
                      const child = { id: s.childId, name: s.childName };
                      const parent = { id: s.parentId, name: s.parentName };
                      return (
                        <tr key={s.id}>
                          <td className="nowrap">{formatDateTime(s.createdAt, me.timezone)}</td>
                          <td>{paidInWords(s.amount, child, parent, me.id)}</td>
                          <td className="col-p3">{owesInWords(s.takeBefore, child, parent, me.id)}</td>
                          <td>{owesInWords(s.takeAfter, child, parent, me.id)}</td>
                          <td className="col-p3">{s.mode}</td>
                          <td className="nowrap col-p3" title={s.periodId ?? undefined}>{s.periodId ? formatWeek(s.periodId) : '—'}</td>
                          <td className="col-p3">{s.createdByName}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table></div>
              )}
            </>
          );
        }}
      </Loadable>
    </section>
  );
}
