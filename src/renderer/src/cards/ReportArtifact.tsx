import { formatDateTime } from '../lib/format';
import { CardFrame, useMe } from './shared';
import type { CardProps } from './types';

const TEMPLATES = {
  per_player_pnl: 'P&L per player',
  bets_by_match: 'Bets by match',
  settlement_log: 'Settlement log',
} as const;

/**
 * Only a path of this app may become a link: one leading slash (not two, which would be another
 * host), no backslashes, no whitespace or control characters, and it must resolve on our origin.
 */
export function appPath(url: string): string | null {
  if (!/^\/(?!\/)[^\s\\]*$/.test(url)) return null;
  try {
    const base = 'https://app.invalid';
    const resolved = new URL(url, base);
    return resolved.origin === base ? `${resolved.pathname}${resolved.search}` : null;
  } catch {
    return null;
  }
}

/** agent.generateReport / agent.shareReport: a file ready to download (nothing is fetched here). */
export function ReportArtifact({ card }: CardProps<'report_artifact'>) {
  const d = card.data;
  const me = useMe();
  const href = appPath(d.downloadUrl);
  const name = `${TEMPLATES[d.template]} (${d.format.toUpperCase()})`;
  return (
    <CardFrame type="report_artifact" title="Report ready" subtitle={d.format.toUpperCase()}>
      <dl className="chat-facts">
        <dt>Report</dt><dd data-testid="report-template">{TEMPLATES[d.template]}</dd>
        <dt>Format</dt><dd data-testid="report-format">{d.format === 'xlsx' ? 'Excel (.xlsx)' : 'PDF (.pdf)'}</dd>
        <dt>Link expires</dt><dd data-testid="report-expires">{formatDateTime(d.expiresAt, me.timezone)}</dd>
      </dl>
      {href
        ? <p className="chat-card-text"><a href={href} download data-testid="report-download" rel="noopener noreferrer">Download {name}</a></p>
        : <p className="chat-card-text error" data-testid="report-download-unavailable">The download link is not an address of this app, so it is not shown.</p>}
    </CardFrame>
  );
}
