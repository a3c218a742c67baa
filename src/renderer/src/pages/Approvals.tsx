import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { CardView } from '../cards';
import { REASON_MAX } from '../cards/Proposal';
import { desk } from '../lib/desk';
import { userMessage } from '../lib/errors';
import { formatDateTime } from '../lib/format';
import { useWritesBlocked } from '../lib/reachability';
import { useSession } from '../lib/session';
import { useRoute } from '../lib/route';
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
 * Changes an MCP client asked for: each waits here with the preview it was asked with until the
 * user confirms or declines it, or it expires. Nothing the client sends can answer it; only these
 * buttons. `?id=` (the notification, or the link an MCP client was given) opens one approval.
 */
export function ApprovalsPage() {
  const state = useDeskQuery(approvalsQuery());
  const opened = useRoute((r) => r.query.id);
  const [answers, setAnswers] = useState<Array<{ id: string; summary: string; answer: Answer }>>([]);
  const answeredHere = (id: string) => answers.some((a) => a.id === id);
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
        {(d) => (
          <>
            {opened && !answeredHere(opened) && !d.approvals.some((a) => a.id === opened) && (
              <p className="state" role="status" data-testid="approval-gone">The change you opened is no longer waiting: it was answered, or it expired.</p>
            )}
            {d.approvals.length === 0
              ? <p className="state empty" data-testid="approvals-empty">Nothing waits for your approval.</p>
              : (
                <div className="approvals-list">
                  {d.approvals.map((a) => (
                    <ApprovalItem key={a.id} approval={a} focused={a.id === opened}
                      onAnswered={(answer) => setAnswers((list) => [{ id: a.id, summary: a.summary, answer }, ...list].slice(0, 10))} />
                  ))}
                </div>
              )}
          </>
        )}
      </Loadable>
    </section>
  );
}

const BACKEND_DOWN = 'The backend is unreachable: approvals can be answered again when it is back.';

function ApprovalItem({ approval: a, focused, onAnswered }: { approval: Approval; focused: boolean; onAnswered(answer: Answer): void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // The approval the user came for is brought into view and takes the focus, so Tab reaches its buttons next.
    if (focused) {
      ref.current?.scrollIntoView({ block: 'center' });
      ref.current?.focus();
    }
  }, [focused]);
  const me = useSession((s) => s.user)!;
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [reason, setReason] = useState('');
  const passwordId = useId();
  const reasonId = useId();
  const blocked = useWritesBlocked();
  const answer = async (how: 'confirm' | 'reject') => {
    setBusy(true);
    setError(null);
    try {
      const done = how === 'confirm'
        ? await desk.approvals.confirm.mutate({ id: a.id, ...(a.needsPassword && { password }) })
        : await desk.approvals.reject.mutate({ id: a.id, ...(reason.trim() && { reason: reason.trim() }) });
      setPassword('');
      onAnswered(done);
      await client.invalidateQueries({ queryKey: ['approvals'] });
    } catch (e) {
      setError(userMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <article ref={ref} tabIndex={-1} className={focused ? 'approval focused' : 'approval'} data-testid="approval" data-approval-id={a.id} data-focused={focused}
      aria-current={focused ? 'true' : undefined}>
      <header className="approval-head">
        <h2 data-testid="approval-summary">{a.summary}</h2>
        <p className="muted">
          Asked by {a.client ?? 'an MCP client'} at {formatDateTime(a.createdAt, me.timezone)}; expires at {formatDateTime(a.expiresAt, me.timezone)}.
        </p>
      </header>
      <CardView card={a.card} />
      {a.needsPassword && (
        <div className="step-up" data-testid="approval-step-up">
          <p><b>Large change</b> — your password is needed to confirm it.</p>
          <label htmlFor={passwordId}>Your password</label>
          <input id={passwordId} type="password" autoComplete="current-password" data-testid="approval-password" value={password}
            onChange={(e) => setPassword(e.target.value)} onKeyDown={(e) => { if (e.key === 'Enter' && password) void answer('confirm'); }} />
        </div>
      )}
      <div className="decline-reason">
        <label htmlFor={reasonId}>Reason if you decline (optional)</label>
        <input id={reasonId} type="text" data-testid="approval-decline-reason" value={reason} maxLength={REASON_MAX}
          onChange={(e) => setReason(e.target.value)} />
      </div>
      <div className="row-actions">
        <button type="button" className="primary" data-testid="approval-confirm" disabled={busy || blocked || (a.needsPassword && password === '')}
          title={blocked ? BACKEND_DOWN : a.needsPassword && password === '' ? 'Type your password first' : undefined}
          onClick={() => void answer('confirm')}>Confirm</button>
        <button type="button" data-testid="approval-reject" disabled={busy || blocked} title={blocked ? BACKEND_DOWN : undefined}
          onClick={() => void answer('reject')}>Decline</button>
        {error && <span className="error" role="alert">{error}</span>}
      </div>
    </article>
  );
}
