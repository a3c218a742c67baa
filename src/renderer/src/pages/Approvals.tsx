import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CardView } from '../cards';
import { desk } from '../lib/desk';
import { userMessage } from '../lib/errors';
import { formatDateTime } from '../lib/format';
import { useWritesBlocked } from '../lib/reachability';
import { useSession } from '../lib/session';
import { useDeskQuery } from '../lib/useQuery';
import { Loadable } from '../components/States';

type Approval = Awaited<ReturnType<typeof desk.approvals.list.query>>['approvals'][number];
type Answer = Awaited<ReturnType<typeof desk.approvals.confirm.mutate>>;

/**
 * Asked again every few seconds while the page is open: a new request arrives from another
 * process (an MCP client), and an approval expires on its own.
 */
function approvalsQuery() {
  return queryOptions({
    queryKey: ['approvals', 'pending'] as const,
    queryFn: () => desk.approvals.list.query(),
    refetchInterval: 5_000,
  });
}

/**
 * Changes an MCP client asked for (issue 16): each waits here with the preview it was asked
 * with until the user confirms or declines it, or it expires. Nothing the client sends can answer
 * it; only these buttons (or the client's own confirmation form, where it shows one).
 */
export function ApprovalsPage() {
  const state = useDeskQuery(approvalsQuery());
  const [answers, setAnswers] = useState<Array<{ id: string; summary: string; answer: Answer }>>([]);
  return (
    <section aria-labelledby="approvals-title">
      <div className="section-head">
        <h1 id="approvals-title">Approvals</h1>
      </div>
      <p className="muted">Changes asked for by an MCP client (an AI assistant you connected to Agent Desk). Nothing changes until you confirm it here.</p>
      {answers.length > 0 && (
        <ul className="approval-answers" data-testid="approval-answers">
          {answers.map((a) => (
            <li key={a.id} data-testid="approval-answer" data-state={a.answer.state}>
              <b>{a.summary}:</b> {a.answer.text}
            </li>
          ))}
        </ul>
      )}
      <Loadable state={state}>
        {(d) => d.approvals.length === 0
          ? <p className="state empty" data-testid="approvals-empty">Nothing waits for your approval.</p>
          : (
            <div className="approvals-list">
              {d.approvals.map((a) => (
                <ApprovalItem key={a.id} approval={a} onAnswered={(answer) => setAnswers((list) => [{ id: a.id, summary: a.summary, answer }, ...list].slice(0, 10))} />
              ))}
            </div>
          )}
      </Loadable>
    </section>
  );
}

const BACKEND_DOWN = 'The backend is unreachable: approvals can be answered again when it is back.';

function ApprovalItem({ approval: a, onAnswered }: { approval: Approval; onAnswered(answer: Answer): void }) {
  const me = useSession((s) => s.user)!;
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const blocked = useWritesBlocked();
  const answer = async (how: 'confirm' | 'reject') => {
    setBusy(true);
    setError(null);
    try {
      const done = how === 'confirm' ? await desk.approvals.confirm.mutate({ id: a.id }) : await desk.approvals.reject.mutate({ id: a.id });
      onAnswered(done);
      await client.invalidateQueries({ queryKey: ['approvals'] });
    } catch (e) {
      setError(userMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className="approval" data-testid="approval" data-approval-id={a.id}>
      <header className="approval-head">
        <h2 data-testid="approval-summary">{a.summary}</h2>
        <p className="muted">
          Asked by {a.client ?? 'an MCP client'} at {formatDateTime(a.createdAt, me.timezone)}; expires at {formatDateTime(a.expiresAt, me.timezone)}.
        </p>
      </header>
      <CardView card={a.card} />
      <div className="row-actions">
        <button type="button" className="primary" data-testid="approval-confirm" disabled={busy || blocked} title={blocked ? BACKEND_DOWN : undefined}
          onClick={() => void answer('confirm')}>Confirm</button>
        <button type="button" data-testid="approval-reject" disabled={busy || blocked} title={blocked ? BACKEND_DOWN : undefined}
          onClick={() => void answer('reject')}>Decline</button>
        {error && <span className="error" role="alert">{error}</span>}
      </div>
    </article>
  );
}
