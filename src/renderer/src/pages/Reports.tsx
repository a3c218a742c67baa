import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ReportProgress, SaveControls, formatSize, reportName, rowsInWords } from '../cards/ReportArtifact';
import { desk } from '../lib/desk';
import { userMessage } from '../lib/errors';
import { formatDateTime, formatPeriod } from '../lib/format';
import { useWritesBlocked } from '../lib/reachability';
import { useSession } from '../lib/session';
import { useDeskQuery } from '../lib/useQuery';
import { Loadable } from '../components/States';
import { ExportMenu } from '../components/ExportMenu';

type ReportsOutput = Awaited<ReturnType<typeof desk.reports.list.query>>;
type Report = ReportsOutput['reports'][number];

const STATUS_LABELS: Record<Report['status'], string> = { running: 'Being made', ready: 'Ready', failed: 'Failed', cancelled: 'Cancelled' };

/** The reports the page lists (and exports). */
const LIST = { limit: 100 } as const;

/** The list, asked again every second while any report on it is still being made. */
function reportsQuery() {
  return queryOptions({
    queryKey: ['reports', 'list'] as const,
    queryFn: () => desk.reports.list.query(LIST),
    refetchInterval: (q) => (q.state.data?.reports.some((r) => r.status === 'running') ? 1_000 : false),
  });
}

/**
 * Reports of the last 30 days: the user's own and those shared with them ("shared by …"), newest
 * first, each with Download, Regenerate (the same template, format and filters, as a new report)
 * and Delete (own reports only: a shared one belongs to whoever made it).
 */
export function ReportsPage() {
  const state = useDeskQuery(reportsQuery());
  return (
    <section aria-labelledby="reports-title">
      <div className="section-head">
        <h1 id="reports-title">Reports</h1>
      </div>
      <p className="muted">Reports you made or that were shared with you in the last 30 days. Ask the assistant for a new one, e.g. “excel of last month’s PnL per player”.</p>
      <Loadable state={state}>
        {(d) => d.reports.length === 0
          ? <p className="state empty" data-testid="reports-empty">No reports in the last 30 days.</p>
          : <><ExportMenu request={{ table: 'reports', query: LIST }} /><ReportTable reports={d.reports} /></>}
      </Loadable>
    </section>
  );
}

function ReportTable({ reports }: { reports: Report[] }) {
  return (
    <div className="reports-box table-scroll">
      <table className="table reports-table" data-testid="reports-table">
        <thead>
          <tr><th>Report</th><th>Period</th><th>Status</th><th className="num">Rows</th><th className="num col-p3">Size</th><th className="col-p2">Made</th><th>Actions</th></tr>
        </thead>
        <tbody>
          {reports.map((r) => <ReportRow key={r.artifactId} report={r} />)}
        </tbody>
      </table>
    </div>
  );
}

const BACKEND_DOWN = 'The backend is unreachable: reports can be changed again when it is back.';

function ReportRow({ report: r }: { report: Report }) {
  const me = useSession((s) => s.user)!;
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (what: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
      await client.invalidateQueries({ queryKey: ['reports'] });
    } catch (e) {
      setError(userMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const own = r.owner.id === me.id;
  // A click that changes a report must not wait queued for the backend's return.
  const blocked = useWritesBlocked();
  const held = busy || blocked;
  const why = blocked ? BACKEND_DOWN : undefined;
  return (
    <tr data-testid="report-row" data-artifact-id={r.artifactId} data-status={r.status}>
      <td>
        <div data-testid="report-row-title">{r.title}</div>
        <div className="muted">{reportName(r)}{r.sharedBy && <span data-testid="report-row-shared"> · shared by {r.sharedBy.name}</span>}</div>
      </td>
      <td>{formatPeriod(r.filters)}</td>
      <td>
        <span className={`badge report-status ${r.status}`} data-testid="report-row-status">{STATUS_LABELS[r.status]}</span>
        {r.status === 'failed' && r.error && <div className="error">{r.error}</div>}
      </td>
      <td className="num">{r.status === 'running' ? <ReportProgress report={r} /> : rowsInWords(r)}</td>
      <td className="num col-p3">{formatSize(r.sizeBytes)}</td>
      <td className="col-p2">{formatDateTime(r.createdAt, me.timezone)}</td>
      <td>
        <div className="row-actions">
          {r.status === 'ready' && <SaveControls report={r} compact />}
          {r.status === 'running' && own && (
            <button type="button" data-testid="report-row-cancel" disabled={held} title={why} onClick={() => void act(() => desk.reports.cancel.mutate({ artifactId: r.artifactId }))}>Cancel</button>
          )}
          {r.status !== 'running' && (
            <button type="button" data-testid="report-row-regenerate" disabled={held} title={why} onClick={() => void act(() => desk.reports.regenerate.mutate({ artifactId: r.artifactId }))}>Regenerate</button>
          )}
          {own && (
            <button type="button" className="danger" data-testid="report-row-delete" disabled={held} title={why}
              onClick={() => { if (window.confirm(`Delete “${r.title}”? It cannot be brought back.`)) void act(() => desk.reports.delete.mutate({ artifactId: r.artifactId })); }}>
              Delete
            </button>
          )}
          {blocked && <span className="muted" data-testid="report-row-blocked">{BACKEND_DOWN}</span>}
          {error && <span className="error" role="alert">{error}</span>}
        </div>
      </td>
    </tr>
  );
}
