import { useId, useState } from 'react';
import { formatCount, formatPoints, signClass } from '../lib/format';
import { Link } from '../components/Link';
import { CardFrame, type Column, SortableTable, idHref, plural } from './shared';
import type { CardOf, CardProps } from './types';

type Data = CardOf<'exposure_card'>['data'];
type FixtureRow = Data['fixtures'][number] & { markets: number; openBets: number };
type Scope = Data['scopes'][number];
type Outcome = Scope['outcomes'][number];

const outcomeColumns: Column<Outcome>[] = [
  { id: 'name', header: 'If this wins', sortValue: (o) => o.name, render: (o) => o.name },
  { id: 'position', header: 'Book position', numeric: true, sortValue: (o) => o.position, render: (o) => formatPoints(o.position), cellClass: (o) => signClass(o.position) },
  { id: 'share', header: 'At your share', numeric: true, sortValue: (o) => o.positionAtShare, render: (o) => formatPoints(o.positionAtShare), cellClass: (o) => signClass(o.positionAtShare) },
];

/** agent.getLiveExposure: worst cases per fixture, and each open market's positions by outcome. */
export function ExposureCard({ card }: CardProps<'exposure_card'>) {
  const d = card.data;
  const [showMarkets, setShowMarkets] = useState(d.scopes.length <= 2);
  const marketsId = useId();
  const fixtures: FixtureRow[] = d.fixtures.map((f) => {
    const scopes = d.scopes.filter((s) => s.fixtureId === f.fixtureId);
    return { ...f, markets: scopes.length, openBets: scopes.reduce((n, s) => n + s.openBets, 0) };
  });
  const columns: Column<FixtureRow>[] = [
    {
      id: 'fixture', header: 'Fixture', sortValue: (f) => f.fixtureName,
      render: (f) => {
        const href = idHref('/agent/exposure', { fixtureId: f.fixtureId });
        return href ? <Link to={href}>{f.fixtureName}</Link> : f.fixtureName;
      },
    },
    { id: 'markets', header: 'Markets', numeric: true, sortValue: (f) => f.markets, render: (f) => formatCount(f.markets) },
    { id: 'bets', header: 'Open bets', numeric: true, sortValue: (f) => f.openBets, render: (f) => formatCount(f.openBets) },
    { id: 'exposure', header: 'Worst case', numeric: true, sortValue: (f) => f.exposure, render: (f) => formatPoints(f.exposure) },
    { id: 'share', header: 'At your share', numeric: true, sortValue: (f) => f.exposureAtShare, render: (f) => formatPoints(f.exposureAtShare) },
  ];
  return (
    <CardFrame wide type="exposure_card" title="Live exposure"
      subtitle={<>{d.fixtures.length} {plural(d.fixtures.length, 'fixture')} · {d.scopes.length} open {plural(d.scopes.length, 'market')}</>}>
      <p className="summary chat-summary" data-testid="exposure-summary">
        <span>worst case (gross) <b>{formatPoints(d.total.exposure)}</b></span>
        <span>at your share <b>{formatPoints(d.total.exposureAtShare)}</b></span>
      </p>
      {d.fixtures.length === 0 ? <p className="state empty chat-card-text">No open bets: nothing at risk.</p> : (
        <>
          <SortableTable label="Exposure by fixture" rows={fixtures} columns={columns} rowKey={(f) => f.fixtureId} rowTestId="card-row"
            initialSort={{ id: 'exposure', dir: 'desc' }} minWidth={520} />
          {d.scopes.length > 0 && (
            <>
              <button type="button" className="link-button" aria-expanded={showMarkets} aria-controls={marketsId}
                onClick={() => setShowMarkets((v) => !v)} data-testid="exposure-markets-toggle">
                {showMarkets ? 'Hide' : 'Show'} positions by market ({d.scopes.length})
              </button>
              <div id={marketsId} hidden={!showMarkets}>
                {showMarkets && d.scopes.map((m) => (
                  <div key={m.marketId} className="chat-market">
                    <p className="chat-market-head">
                      <b>{m.fixtureName}</b> · {m.marketName}
                      <span className="muted"> · {m.openBets} open {plural(m.openBets, 'bet')} · worst case {formatPoints(m.exposure)} ({formatPoints(m.exposureAtShare)} at your share)</span>
                    </p>
                    <SortableTable label={`${m.fixtureName}, ${m.marketName}: positions`} rows={m.outcomes} columns={outcomeColumns}
                      rowKey={(o) => o.outcomeId} />
                  </div>
                ))}
              </div>
            </>
          )}
          <p className="muted chat-card-text">A position is what the book makes if that outcome wins; negative means the book pays.</p>
        </>
      )}
    </CardFrame>
  );
}
