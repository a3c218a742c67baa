import { useEffect, useState } from 'react';
import type { ReportStatus } from '../../../shared/contracts/reports';
import { desk } from '../lib/desk';
import { userMessage } from '../lib/errors';
import { formatCount, formatDateTime, formatFileSize, formatPeriod } from '../lib/format';
import { useSaveFile } from '../lib/save-file';
import { SavedFollowUps } from '../components/SavedFollowUps';
import { CardFrame, useMe } from './shared';
import type { CardOf, CardProps } from './types';

/** A report as the desk shows it (never with its signed link: main fetches the file itself). */
export type ReportView = CardOf<'report_artifact'>['data'];

const TEMPLATES = {
  per_player_pnl: 'PnL per player',
  bets_by_match: 'Bets by match',
  settlement_log: 'Settlement log',
} as const;

const STATUS_LABELS: Record<ReportStatus, string> = { running: 'Being made', ready: 'Ready', failed: 'Failed', cancelled: 'Cancelled' };

/** How often a running report is asked after. */
export const REPORT_POLL_MS = 1_000;

/** The size, or a dash while there is no file yet. */
export function formatSize(bytes: number | null): string {
  return bytes === null ? '—' : formatFileSize(bytes);
}

export function reportName(r: Pick<ReportView, 'template' | 'format'>): string {
  return `${TEMPLATES[r.template]} (${r.format === 'xlsx' ? 'Excel' : 'PDF'})`;
}

/** The rows line: "1,000 of 100,000 rows" while running, "42 rows" once made. */
export function rowsInWords(r: Pick<ReportView, 'status' | 'rowsDone' | 'rowsTotal'>): string {
  const n = formatCount;
  if (r.status === 'running') return r.rowsTotal > 0 ? `${n(r.rowsDone)} of ${n(r.rowsTotal)} rows` : 'Starting…';
  return `${n(r.rowsTotal)} ${r.rowsTotal === 1 ? 'row' : 'rows'}`;
}

/** The report's current state: the given one, then the desk's answers every second while it runs. */
export function useLiveReport(initial: ReportView): { report: ReportView; error: string | null; setReport(r: ReportView): void } {
  const [report, setReport] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const running = report.status === 'running';
  useEffect(() => {
    if (!running) return;
    let stopped = false;
    const timer = window.setInterval(() => {
      desk.reports.get.query({ artifactId: initial.artifactId })
        .then((r) => { if (!stopped) { setReport(r); setError(null); } })
        .catch((e: unknown) => { if (!stopped) setError(userMessage(e)); });
    }, REPORT_POLL_MS);
    return () => { stopped = true; window.clearInterval(timer); };
  }, [running, initial.artifactId]);
  return { report, error, setReport };
}

/** Rows done of total, as a bar and in words. */
export function ReportProgress({ report }: { report: Pick<ReportView, 'status' | 'rowsDone' | 'rowsTotal'> }) {
  const pct = report.rowsTotal > 0 ? Math.min(100, Math.round((report.rowsDone / report.rowsTotal) * 100)) : 0;
  return (
    <span className="report-progress" data-testid="report-progress">
      <progress max={100} value={pct} aria-label="Rows made" />
      <span>{rowsInWords(report)}</span>
    </span>
  );
}

/** Save… and, once saved by the desktop app, Show in folder and Open. */
export function SaveControls({ report, compact }: { report: Pick<ReportView, 'artifactId' | 'status'>; compact?: boolean }) {
  const s = useSaveFile();
  return (
    <>
      <button type="button" className={compact ? undefined : 'primary'} data-testid="report-save" disabled={report.status !== 'ready' || s.busy}
        aria-busy={s.busy || undefined} onClick={() => void s.save(() => desk.reports.save.mutate({ artifactId: report.artifactId }))}>
        {s.busy ? 'Saving…' : compact ? 'Download' : 'Save…'}
      </button>
      <SavedFollowUps file={s} testId="report" />
    </>
  );
}

/** agent.generateReport: the report with its period, rows and size; progress and Cancel while it is made; Save… once ready. */
export function ReportArtifact({ card }: CardProps<'report_artifact'>) {
  const me = useMe();
  const { report: d, error, setReport } = useLiveReport(card.data);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const cancel = async () => {
    try {
      setReport(await desk.reports.cancel.mutate({ artifactId: d.artifactId }));
    } catch (e) {
      setCancelError(userMessage(e));
    }
  };
  const tone = d.status === 'failed' ? 'bad' : d.status === 'cancelled' ? 'done' : d.status === 'ready' ? 'good' : undefined;
  return (
    <CardFrame type="report_artifact" title={<span data-testid="report-title">{d.title}</span>} subtitle={d.format === 'xlsx' ? 'Excel' : 'PDF'} tone={tone}
      badge={<span className={`badge report-status ${d.status}`} data-testid="report-status" data-status={d.status} role="status">{STATUS_LABELS[d.status]}</span>}>
      <dl className="chat-facts">
        <dt>Report</dt><dd data-testid="report-template">{TEMPLATES[d.template]}</dd>
        <dt>Period</dt><dd data-testid="report-period">{formatPeriod(d.filters)}</dd>
        <dt>Rows</dt>
        <dd className="num" data-testid="report-rows" data-rows={d.rowsTotal}>{d.status === 'running' ? <ReportProgress report={d} /> : rowsInWords(d)}</dd>
        <dt>Size</dt><dd className="num" data-testid="report-size" data-bytes={d.sizeBytes ?? ''}>{formatSize(d.sizeBytes)}</dd>
        {d.sharedBy && <><dt>Shared by</dt><dd data-testid="report-shared-by">{d.sharedBy.name}</dd></>}
        <dt>Kept until</dt><dd>{formatDateTime(d.expiresAt, me.timezone)}</dd>
      </dl>
      {d.status === 'failed' && <p className="chat-card-text error" role="alert" data-testid="report-error">{d.error ?? 'The report could not be made.'}</p>}
      {error && <p className="chat-card-text error" role="alert" data-testid="report-poll-error">{error}</p>}
      <div className="chat-card-actions">
        {d.status === 'running' && <button type="button" data-testid="report-cancel" onClick={() => void cancel()}>Cancel</button>}
        {d.status === 'ready' && <SaveControls report={d} />}
        {cancelError && <span className="error" role="alert">{cancelError}</span>}
      </div>
    </CardFrame>
  );
}
