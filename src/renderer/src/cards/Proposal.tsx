import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { ProposalState } from '../../../shared/contracts/assistant';
import type { MAX_DECLINE_REASON_LENGTH } from '../../../shared/contracts/chat';
import { amountRefusal, parseAmount } from '../../../shared/parse/amount';
import { formatPoints, formatTime } from '../lib/format';
import { WRITES_BLOCKED_REASON, useWritesBlocked } from '../lib/reachability';
import { businessNow } from '../lib/clock';
import type { ActionExtras, CardAction, ProposalStatus } from './types';

/**
 * The parts every proposal card (diff_card, settlement_summary, bet_slip, report_share) shares:
 * where it stands, the expiry, and the answers, which work only while the proposal is pending —
 * confirm (with the password again for a large change), cancel (with a reason if the user gives
 * one), and a new value for the card's amount, which main previews afresh under a new nonce.
 */

export const STATE_LABELS: Record<ProposalState, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  unchanged: 'No change',
  cancelled: 'Cancelled',
  expired: 'Expired',
  refused: 'Refused',
  edited: 'Edited',
};

/** The clock a proposal expires on: the business clock, which main's nonce store stamps and checks `expiresAt` by too. */
export function proposalNow(): number {
  return businessNow().getTime();
}

/** The proposal clock, re-read every second while `active`. */
function useProposalClock(active: boolean): number {
  const [now, setNow] = useState(proposalNow);
  useEffect(() => {
    if (!active) return;
    setNow(proposalNow());
    const timer = window.setInterval(() => setNow(proposalNow()), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return active ? now : proposalNow();
}

export interface ProposalView {
  /** What the card shows: a later answer's state, else the card's own, else pending; expired once past its time. */
  state: ProposalState;
  expiresAt: string | null;
  /** Milliseconds left while pending with an expiry, else null. */
  remainingMs: number | null;
  busy: 'confirm' | 'cancel' | 'edit' | null;
  error: string | null;
  /** Main turned the last answer down and the proposal is still open: which answer, and why. */
  turnedDown: { answer: 'confirm' | 'cancel' | 'edit'; message: string } | null;
  /** The reason the user gave when they declined it. */
  reason: string | null;
}

/**
 * Where a proposal card stands. A pending card past its `expiresAt` shows expired (the nonce is
 * refused by then anyway), and its buttons stop working.
 */
export function useProposal(data: { state?: ProposalState | undefined; expiresAt?: string | undefined; refusal?: string | undefined }, status: ProposalStatus | undefined): ProposalView {
  const base: ProposalState = status?.resolved ?? data.state ?? (data.refusal ? 'refused' : 'pending');
  const expiresMs = data.expiresAt ? Date.parse(data.expiresAt) : Number.NaN;
  const ticking = base === 'pending' && Number.isFinite(expiresMs);
  const now = useProposalClock(ticking);
  const remainingMs = ticking ? Math.max(0, expiresMs - now) : null;
  const state = ticking && remainingMs === 0 ? 'expired' : base;
  return {
    state,
    expiresAt: data.expiresAt ?? null,
    remainingMs: state === 'pending' ? remainingMs : null,
    busy: status?.busy ?? null,
    error: status?.error ?? null,
    turnedDown: state === 'pending' ? status?.turnedDown ?? null : null,
    reason: status?.reason ?? null,
  };
}

/** The card tone for a state: a refusal warns, a confirmation is marked done, the rest dim. */
export function proposalTone(state: ProposalState): 'warn' | 'good' | 'done' | undefined {
  if (state === 'refused') return 'warn';
  if (state === 'confirmed') return 'good';
  if (state === 'cancelled' || state === 'expired' || state === 'unchanged' || state === 'edited') return 'done';
  return undefined;
}

/** The state as a badge (text and `data-state`), announced when it changes. */
export function ProposalBadge({ state }: { state: ProposalState }) {
  return (
    <span className={`badge proposal-badge ${state}`} data-testid="proposal-state" data-state={state} role="status" tabIndex={-1}>
      {STATE_LABELS[state]}
    </span>
  );
}

/** "4 min left" from a minute on, "42 s left" below. */
function countdown(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds >= 60) return `${Math.ceil(seconds / 60)} min left`;
  return `${seconds} s left`;
}

const BUSY_LABELS = { confirm: 'Confirming…', cancel: 'Cancelling…', edit: 'Updating…' } as const;

/** The contract's bound on a reason (checked against it at compile time; the contract itself is not bundled). */
export const REASON_MAX: typeof MAX_DECLINE_REASON_LENGTH = 300;

const POINTS_EXAMPLE = 'Type an amount in points, such as 60,000.';

/**
 * Points as typed on a card ("60,000", "60k", "1.5 lakh") to exact paisa, by the grammar the
 * assistant reads amounts with (src/shared/parse/amount.ts: digits, never a float); or why not.
 */
export function readPoints(text: string): { paisa: number } | { problem: string } {
  const found = parseAmount(text);
  if (!found) return { problem: POINTS_EXAMPLE };
  const refusal = amountRefusal(found);
  if (refusal !== null || found.paisa === null) return { problem: refusal ?? POINTS_EXAMPLE };
  return { paisa: found.paisa };
}

/** A card's amount the user may change before confirming: its name ("credit limit") and its value now, in paisa. */
export interface EditableAmount {
  label: string;
  value: number;
}

/**
 * The expiry line and the answers. The buttons are real buttons (Tab reaches them) enabled only
 * for a pending, unexpired, unrefused proposal with nothing in flight, so a proposal is never
 * answered twice from here (main refuses a second answer too). A refusal has no buttons: its
 * reason is the card's message. Every field has a label; Enter sends, Escape closes a sub-form.
 * What the user types is sent as plain text and shown back only as React text.
 */
export function ProposalFooter({ view, actions, onAction, onEdit, refusal, timezone, stepUp = false, edit }: {
  view: ProposalView;
  actions: CardAction[] | undefined;
  onAction: ((action: CardAction, extras?: ActionExtras) => void) | undefined;
  onEdit?: ((action: CardAction, value: number) => void) | undefined;
  refusal: string | undefined;
  timezone: string;
  /** Confirming needs the user's password again (a large change). */
  stepUp?: boolean | undefined;
  /** The amount the user may change on the card (absent: none). */
  edit?: EditableAmount | undefined;
}) {
  const footerRef = useRef<HTMLDivElement>(null);
  const reasonId = useId();
  const passwordId = useId();
  const declineId = useId();
  const editId = useId();
  const editProblemId = useId();
  const turnedDownId = useId();
  const hadFocus = useRef(false);
  const [password, setPassword] = useState('');
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const [editText, setEditText] = useState('');
  const [editProblem, setEditProblem] = useState<string | null>(null);
  const answerable = actions?.filter((a) => a.id === 'confirm' || a.id === 'cancel') ?? [];
  const confirm = answerable.find((a) => a.id === 'confirm' && a.nonce && a.payloadHash);
  const cancel = answerable.find((a) => a.id === 'cancel' && a.nonce && a.payloadHash);
  const open = view.state === 'pending' && view.busy === null && onAction !== undefined;
  // Only Confirm waits for the backend: cancelling is main's own answer and changes nothing.
  const blocked = useWritesBlocked() && view.state === 'pending';
  const asking = !refusal && view.state !== 'refused' && answerable.length > 0;
  const editable = asking && edit !== undefined && onEdit !== undefined && confirm !== undefined;

  // A button pressed from the keyboard is disabled once the answer is in: keep the focus on the
  // card (its state badge) rather than losing it to the page.
  useEffect(() => {
    if (view.state === 'pending' || !hadFocus.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && !footerRef.current?.contains(active)) return;
    hadFocus.current = false;
    footerRef.current?.closest('section')?.querySelector<HTMLElement>('[data-testid="proposal-state"]')?.focus();
  }, [view.state]);

  // What was typed for a proposal that has ended is of no more use; a password least of all.
  useEffect(() => {
    if (view.state === 'pending') return;
    setPassword('');
    setDeclining(false);
    setEditing(false);
  }, [view.state]);

  const sendConfirm = (a: CardAction) => {
    if (stepUp && password === '') return;
    const typed = password;
    // Held no longer than the click: a wrong one is typed again.
    setPassword('');
    onAction?.(a, stepUp ? { password: typed } : undefined);
  };

  const sendDecline = (e: FormEvent) => {
    e.preventDefault();
    if (!open || !cancel) return;
    onAction?.(cancel, { reason: reason.trim() || undefined });
  };

  const startEdit = () => {
    setEditText(edit ? formatPoints(edit.value) : '');
    setEditProblem(null);
    setEditing(true);
  };

  const sendEdit = (e: FormEvent) => {
    e.preventDefault();
    if (!open || !confirm || !edit) return;
    const read = readPoints(editText);
    if ('problem' in read) {
      setEditProblem(read.problem);
      return;
    }
    if (read.paisa === edit.value) {
      setEditProblem(`That is the value the preview already shows (${formatPoints(edit.value)}).`);
      return;
    }
    setEditProblem(null);
    onEdit?.(confirm, read.paisa);
  };

  const escapeTo = (close: () => void, toggle: string) => (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    close();
    footerRef.current?.querySelector<HTMLElement>(`[data-testid="${toggle}"]`)?.focus();
  };

  const seconds = view.remainingMs !== null ? Math.ceil(view.remainingMs / 1000) : null;
  const turnedDown = view.turnedDown;

  return (
    <div className="proposal-footer" ref={footerRef} onFocus={() => { hadFocus.current = true; }}>
      {view.expiresAt && (view.state === 'pending' || view.state === 'expired') && (
        <p className={`proposal-expiry${view.state === 'expired' ? ' expired' : ''}`} data-testid="proposal-expiry"
          data-expires-at={view.expiresAt}>
          {view.state === 'expired'
            ? <>Expired at {formatTime(view.expiresAt, timezone, { seconds: true })}. Nothing was changed; ask again for a fresh preview.</>
            : <>Expires {formatTime(view.expiresAt, timezone, { seconds: true })}{view.remainingMs !== null && <span className="muted"> · {countdown(view.remainingMs)}</span>}</>}
        </p>
      )}
      {view.state === 'edited' && <p className="muted" data-testid="proposal-edited">Replaced by the updated preview below: this one can no longer be confirmed.</p>}
      {view.state === 'cancelled' && view.reason && (
        <p className="muted proposal-reason" data-testid="proposal-decline-reason">Your reason: “{view.reason}”</p>
      )}
      {asking && stepUp && view.state === 'pending' && confirm && (
        <div className="proposal-step-up" data-testid="proposal-step-up">
          <p className="proposal-step-up-note" data-testid="proposal-step-up-note">
            <b>Large change</b> — your password is needed to confirm; expires in {seconds ?? 60} s
          </p>
          <label htmlFor={passwordId}>Your password</label>
          <input id={passwordId} type="password" autoComplete="current-password" data-testid="step-up-password" value={password}
            disabled={!open} aria-describedby={turnedDown?.answer === 'confirm' ? turnedDownId : undefined}
            aria-invalid={turnedDown?.answer === 'confirm' ? true : undefined}
            onChange={(e) => setPassword(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              if (open && !blocked) sendConfirm(confirm);
            }} />
        </div>
      )}
      {editable && editing && view.state === 'pending' && (
        <form className="proposal-subform" data-testid="edit-form" noValidate autoComplete="off" onSubmit={sendEdit}
          onKeyDown={escapeTo(() => setEditing(false), 'card-action-edit')}>
          <label htmlFor={editId}>New {edit.label} (points)</label>
          <input id={editId} type="text" inputMode="decimal" data-testid="edit-value" value={editText} autoFocus
            aria-invalid={editProblem ? true : undefined} aria-describedby={editProblem ? editProblemId : turnedDown?.answer === 'edit' ? turnedDownId : undefined}
            onChange={(e) => { setEditText(e.target.value); setEditProblem(null); }} />
          <button type="submit" data-testid="edit-submit" disabled={!open} aria-busy={view.busy === 'edit' ? true : undefined}>
            {view.busy === 'edit' ? BUSY_LABELS.edit : 'Update preview'}
          </button>
          <button type="button" onClick={() => setEditing(false)}>Keep this value</button>
          {editProblem && <p className="proposal-error" id={editProblemId} role="alert" data-testid="edit-error">{editProblem}</p>}
        </form>
      )}
      {asking && cancel && declining && view.state === 'pending' && (
        <form className="proposal-subform" data-testid="decline-form" noValidate autoComplete="off" onSubmit={sendDecline}
          onKeyDown={escapeTo(() => setDeclining(false), 'card-action-decline')}>
          <label htmlFor={declineId}>Why are you declining? (optional)</label>
          <input id={declineId} type="text" data-testid="decline-reason" value={reason} maxLength={REASON_MAX} autoFocus
            onChange={(e) => setReason(e.target.value)} />
          <button type="submit" data-testid="decline-submit" disabled={!open}>Decline</button>
          <button type="button" onClick={() => setDeclining(false)}>Back</button>
        </form>
      )}
      {turnedDown && (
        <p className="proposal-error" id={turnedDownId} role="alert" data-testid="proposal-turned-down" data-answer={turnedDown.answer}>
          {turnedDown.message}
        </p>
      )}
      {asking && (
        <div className="chat-card-actions" role="group" aria-label="Answer this proposal">
          {answerable.map((a, i) => {
            const label = a.label.trim() || (a.id === 'confirm' ? 'Confirm' : 'Cancel');
            const needsPassword = a.id === 'confirm' && stepUp && password === '';
            const usable = open && Boolean(a.nonce) && Boolean(a.payloadHash) && !(blocked && a.id === 'confirm') && !needsPassword;
            return (
              <button key={`${a.id}:${i}`} type="button" className={a.id === 'confirm' ? 'primary' : undefined}
                data-testid={`card-action-${a.id}`} disabled={!usable} aria-busy={view.busy === a.id ? true : undefined}
                aria-describedby={blocked && a.id === 'confirm' ? reasonId : undefined}
                title={needsPassword && open ? 'Type your password first' : undefined}
                onClick={() => {
                  if (!usable) return;
                  if (a.id === 'confirm') sendConfirm(a);
                  else onAction?.(a);
                }}>
                {view.busy === a.id ? BUSY_LABELS[a.id as 'confirm' | 'cancel'] : label}
              </button>
            );
          })}
          {editable && (
            <button type="button" data-testid="card-action-edit" disabled={!open} aria-expanded={editing}
              onClick={() => (editing ? setEditing(false) : startEdit())}>
              Change {edit.label}…
            </button>
          )}
          {cancel && (
            <button type="button" data-testid="card-action-decline" disabled={!open} aria-expanded={declining}
              onClick={() => setDeclining((d) => !d)}>
              Cancel with a reason…
            </button>
          )}
        </div>
      )}
      {blocked && !refusal && answerable.some((a) => a.id === 'confirm') && (
        <p className="proposal-error" id={reasonId} role="status" data-testid="proposal-blocked">{WRITES_BLOCKED_REASON}</p>
      )}
      {view.error && view.state === 'pending' && (
        <p className="proposal-error" role="alert" data-testid="proposal-error">
          Your answer could not be sent: {view.error.replace(/[.\s]+$/, '')}. A proposal is carried out once at most: try
          again, or check the Audit page.
        </p>
      )}
    </div>
  );
}
