import { useEffect, useId, useRef, useState } from 'react';
import type { ProposalState } from '../../../shared/contracts/assistant';
import { formatTime } from '../lib/format';
import { WRITES_BLOCKED_REASON, useWritesBlocked } from '../lib/reachability';
import type { CardAction, ProposalStatus } from './types';

/**
 * The parts every proposal card (diff_card, settlement_summary) shares: where it stands, the
 * expiry, and the confirm / cancel buttons, which work only while the proposal is pending.
 */

export const STATE_LABELS: Record<ProposalState, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  unchanged: 'No change',
  cancelled: 'Cancelled',
  expired: 'Expired',
  refused: 'Refused',
};

/**
 * The clock a proposal expires on. Main's nonce store stamps `expiresAt` from its own wall clock
 * (Date.now) and refuses a late confirm by that clock, which this window (same machine) shares;
 * the backend's business clock (businessNow) can run days away from it for a demo book, so it
 * would show live proposals as expired, or expired ones as live. Switch here if main changes.
 */
export function proposalNow(): number {
  return Date.now();
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
  busy: 'confirm' | 'cancel' | null;
  error: string | null;
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
  };
}

/** The card tone for a state: a refusal warns, a confirmation is marked done, the rest dim. */
export function proposalTone(state: ProposalState): 'warn' | 'good' | 'done' | undefined {
  if (state === 'refused') return 'warn';
  if (state === 'confirmed') return 'good';
  if (state === 'cancelled' || state === 'expired' || state === 'unchanged') return 'done';
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

const BUSY_LABELS = { confirm: 'Confirming…', cancel: 'Cancelling…' } as const;

/**
 * The expiry line, the buttons and an answer's failure. The buttons are real buttons (Tab
 * reaches them) enabled only for a pending, unexpired, unrefused proposal with nothing in
 * flight, so a proposal is never answered twice from here (main refuses a second answer too).
 * A refusal has no buttons: its reason is the card's message.
 */
export function ProposalFooter({ view, actions, onAction, refusal, timezone }: {
  view: ProposalView;
  actions: CardAction[] | undefined;
  onAction: ((action: CardAction) => void) | undefined;
  refusal: string | undefined;
  timezone: string;
}) {
  const groupRef = useRef<HTMLDivElement>(null);
  const reasonId = useId();
  const hadFocus = useRef(false);
  const answerable = actions?.filter((a) => a.id === 'confirm' || a.id === 'cancel') ?? [];
  const open = view.state === 'pending' && view.busy === null && onAction !== undefined;
  // Only Confirm waits for the backend: cancelling is main's own answer and changes nothing.
  const blocked = useWritesBlocked() && view.state === 'pending';

  // A button pressed from the keyboard is disabled once the answer is in: keep the focus on the
  // card (its state badge) rather than losing it to the page.
  useEffect(() => {
    if (view.state === 'pending' || !hadFocus.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && !groupRef.current?.contains(active)) return;
    hadFocus.current = false;
    groupRef.current?.closest('section')?.querySelector<HTMLElement>('[data-testid="proposal-state"]')?.focus();
  }, [view.state]);

  return (
    <>
      {view.expiresAt && (view.state === 'pending' || view.state === 'expired') && (
        <p className={`proposal-expiry${view.state === 'expired' ? ' expired' : ''}`} data-testid="proposal-expiry"
          data-expires-at={view.expiresAt}>
          {view.state === 'expired'
            ? <>Expired at {formatTime(view.expiresAt, timezone, { seconds: true })}. Nothing was changed; ask again for a fresh preview.</>
            : <>Expires {formatTime(view.expiresAt, timezone, { seconds: true })}{view.remainingMs !== null && <span className="muted"> · {countdown(view.remainingMs)}</span>}</>}
        </p>
      )}
      {!refusal && view.state !== 'refused' && answerable.length > 0 && (
        <div className="chat-card-actions" role="group" aria-label="Confirm or cancel" ref={groupRef}
          onFocus={() => { hadFocus.current = true; }}>
          {answerable.map((a, i) => {
            const label = a.label.trim() || (a.id === 'confirm' ? 'Confirm' : 'Cancel');
            const usable = open && Boolean(a.nonce) && Boolean(a.payloadHash) && !(blocked && a.id === 'confirm');
            return (
              <button key={`${a.id}:${i}`} type="button" className={a.id === 'confirm' ? 'primary' : undefined}
                data-testid={`card-action-${a.id}`} disabled={!usable} aria-busy={view.busy === a.id ? true : undefined}
                aria-describedby={blocked && a.id === 'confirm' ? reasonId : undefined}
                onClick={() => { if (usable) onAction?.(a); }}>
                {view.busy === a.id ? BUSY_LABELS[a.id as 'confirm' | 'cancel'] : label}
              </button>
            );
          })}
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
    </>
  );
}
