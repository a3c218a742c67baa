/**
 * The proposal lifecycle (ARCHITECTURE.md, Confirmation): a destructive tool's preview is
 * proposed under a nonce; the user's answer consumes the nonce; a confirmation re-runs exactly
 * the frozen call against the state the preview showed (the backend refuses it if that moved),
 * under an idempotency key derived from the nonce; and every way a proposal ends — executed,
 * no_op, refused, failed, cancelled, expired — goes into the audit log. The Assistant only asks
 * for a proposal and passes the user's answer on.
 */
import type { User } from '../../shared/contracts/agent-api.js';
import type { Card, Envelope, ProposalState } from '../../shared/contracts/assistant.js';
import type { ChatConfirmInput } from '../../shared/contracts/chat.js';
import type { Logger } from '../../infra/log.js';
import type { TurnCaller } from '../assistant/chat-service.js';
import { confirmedSentence, unchangedSentence } from '../assistant/composer.js';
import type { AuditLog, AuditOutcome } from '../audit/audit-log.js';
import { idempotencyKeyFor } from '../audit/verify.js';
import { errorCard } from '../tools/registry.js';
import type { ToolContext, ToolPreview, ToolRegistry } from '../tools/types.js';
import { previewSnapshotSchema } from './snapshot.js';
import type { NonceRefusal, NonceStore, ProposalEntry } from './nonce-store.js';

export interface ProposalsOptions {
  registry: ToolRegistry;
  nonces: NonceStore;
  audit: AuditLog;
  log: Logger;
}

/** How a proposal ended, in the words and cards the user is shown. */
export interface ProposalAnswer {
  text: string;
  cards: Card[];
  state: ProposalState;
  /** The proposal's tool, when the answer reached one. */
  tool: string | null;
  /** What the audit log recorded (null: nothing of the user's ended here). */
  audit: AuditOutcome | null;
}

/**
 * How long a confirmed write is sent again after transient failures, always under its one
 * idempotency key: as long as a backend takes to restart. A reply lost to a crash leaves the
 * outcome unknown — the write may have committed — and only the backend can tell, by replaying
 * its answer once it is back; giving up sooner would tell the user "nothing was changed" about
 * a change that was made (found by the backend-kill fault run).
 */
export const CONFIRM_RESEND_WINDOW_MS = 30_000;
const RESEND_FIRST_DELAY_MS = 100;
const RESEND_MAX_DELAY_MS = 2_000;
const TRANSIENT = new Set(['INTERNAL', 'TIMEOUT', 'UNAVAILABLE']);
/** The backend's refusals of the write itself (as opposed to failing to answer). */
const REFUSED_BY_GUARDRAILS = new Set(['PRECONDITION_FAILED', 'BAD_REQUEST', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE_CONTENT', 'INVALID_ARGS']);

const NONCE_REFUSALS: Record<NonceRefusal, { text: string; state: ProposalState }> = {
  unknown: { text: 'That proposal is not one I made. Nothing was changed.', state: 'refused' },
  expired: { text: 'That proposal expired. Nothing was changed; ask again for a fresh preview.', state: 'expired' },
  wrong_user: { text: 'That proposal belongs to someone else. Nothing was changed.', state: 'refused' },
  used: { text: 'That proposal was already answered. Nothing more was changed.', state: 'refused' },
  tampered: { text: 'That proposal does not match what was shown. Nothing was changed; ask again for a fresh preview.', state: 'refused' },
};

export class Proposals {
  /** Per user, the confirmed change being written now: the next one waits for it (see answer). */
  private readonly writing = new Map<string, Promise<unknown>>();

  constructor(private readonly options: ProposalsOptions) {}

  /**
   * A preview becomes a proposal: the frozen call goes into the nonce store, and the card carries
   * only the nonce and the hash of that call. A preview the guardrails refused gets no nonce.
   */
  propose(tool: string, args: Record<string, unknown>, preview: ToolPreview, user: User): Card {
    const card = preview.card;
    // A refusal, or a change to what already holds, has nothing to confirm: no nonce, no buttons.
    if (preview.refusal !== null || preview.noOp || (card.type !== 'diff_card' && card.type !== 'settlement_summary' && card.type !== 'report_share' && card.type !== 'bet_slip')) return card;
    const { nonce, payloadHash, expiresAt } = this.options.nonces.issue({ userId: user.id, tool, args, snapshot: preview.snapshot });
    const actions = [
      { id: 'confirm' as const, label: 'Confirm', nonce, payloadHash },
      { id: 'cancel' as const, label: 'Cancel', nonce, payloadHash },
    ];
    if (card.type === 'diff_card') return { ...card, data: { ...card.data, expiresAt, state: 'pending' }, actions };
    if (card.type === 'report_share') return { ...card, data: { ...card.data, expiresAt, state: 'pending' }, actions };
    if (card.type === 'bet_slip') return { ...card, data: { ...card.data, expiresAt, state: 'pending' }, actions };
    return { ...card, data: { ...card.data, expiresAt, state: 'pending' }, actions };
  }

  /** The user's answer to a proposal: the nonce is used up whatever happens, and the ending audited. */
  async answer(input: ChatConfirmInput, caller: TurnCaller, answer: 'confirm' | 'cancel', requestId: string): Promise<ProposalAnswer> {
    const { user } = caller;
    const taken = answer === 'confirm'
      ? this.options.nonces.consume(input.nonce, { userId: user.id, payloadHash: input.payloadHash })
      : this.options.nonces.cancel(input.nonce, user.id);
    if (!taken.ok) {
      const { text, state } = NONCE_REFUSALS[taken.reason];
      const cards: Card[] = [{ type: 'error_card', data: { code: `NONCE_${taken.reason.toUpperCase()}`, message: text, retryable: false } }];
      // The owner's proposal ended here (too late, or not as shown): the audit log says how.
      if (!taken.entry) return { text, cards, state, tool: null, audit: null };
      const audit = await this.record(caller, requestId, input.nonce, taken.entry, null, taken.reason === 'expired' ? 'expired' : 'refused');
      return { text, cards, state, tool: taken.entry.tool, audit };
    }
    const { entry } = taken;
    if (answer === 'cancel') {
      const audit = await this.record(caller, requestId, input.nonce, entry, null, 'cancelled');
      return { text: 'Cancelled. Nothing was changed.', cards: [], state: 'cancelled', tool: entry.tool, audit };
    }
    // One confirmed change at a time per user, written and then audited: the audit log must list
    // executed changes in the order the backend recorded them (verification holds it to that),
    // and two in flight can be answered the other way round — above all when one is being resent
    // across a backend restart (found by the backend-kill fault run: "reordered").
    const previous = this.writing.get(user.id) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(async (): Promise<ProposalAnswer> => {
      const envelope = await executeConfirmed(this.options.registry, entry, caller, requestId, input.nonce);
      const ending = endingOf(envelope);
      const audit = await this.record(caller, requestId, input.nonce, entry, ending.after, ending.outcome);
      return { text: ending.text, cards: ending.cards, state: ending.state, tool: entry.tool, audit };
    });
    this.writing.set(user.id, mine);
    try {
      return await mine;
    } finally {
      if (this.writing.get(user.id) === mine) this.writing.delete(user.id);
    }
  }

  private async record(caller: TurnCaller, requestId: string, nonce: string, entry: ProposalEntry, after: unknown, outcome: AuditOutcome): Promise<AuditOutcome> {
    // An executed entry's `after` is the backend's answer, with the anchor the backend wrote in the
    // change's own transaction: verification holds the entry to that record (audit/verify.ts).
    const appended = await this.options.audit.append({
      requestId, user: caller.user.id, tool: entry.tool, args: entry.args, before: entry.snapshot ?? null, after: after ?? null, nonce, outcome,
    });
    return appended.outcome;
  }
}

/** A call its owner confirmed: exactly what was previewed, and the state the preview showed. */
export interface ConfirmedCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly snapshot: unknown;
}

/**
 * Exactly the frozen call, confirmed, re-checked against its snapshot, under a key derived from
 * the nonce. A transient failure is sent again with the same key (backing off to every 2 s) until
 * `resendWindowMs` has passed: if an attempt did commit, the backend replays its answer and
 * nothing moves twice. The resends pass the tool's breaker (`resend`): it keeps new work off a
 * failing backend, but this write may already be done, and only an answer says whether.
 */
export async function executeConfirmed(
  registry: ToolRegistry, call: ConfirmedCall, caller: TurnCaller, requestId: string, nonce: string, resendWindowMs = CONFIRM_RESEND_WINDOW_MS,
): Promise<Envelope> {
  // The snapshot went in as a PreviewSnapshot (propose); the store keeps it as frozen JSON.
  const expected = previewSnapshotSchema.parse(call.snapshot);
  const ctx: ToolContext = { api: caller.api, user: caller.user, requestId, idempotencyKey: idempotencyKeyFor(nonce), expected };
  const started = Date.now();
  let envelope = await registry.call(call.tool, call.args, ctx, { confirmed: true });
  for (let attempt = 1; !envelope.ok && TRANSIENT.has(envelope.error.code); attempt++) {
    const delay = Math.min(RESEND_MAX_DELAY_MS, RESEND_FIRST_DELAY_MS * 2 ** (attempt - 1));
    if (Date.now() - started + delay > resendWindowMs) break;
    await new Promise((resolve) => setTimeout(resolve, delay));
    envelope = await registry.call(call.tool, call.args, ctx, { confirmed: true, resend: true });
  }
  return envelope;
}

/** How a confirmed call ended: the words and cards the user is shown, and what the audit log records. */
export interface Ending {
  text: string;
  cards: Card[];
  state: ProposalState;
  /** A confirmed call ends only these ways (cancelled and expired never reach execution). */
  outcome: Extract<AuditOutcome, 'executed' | 'no_op' | 'refused' | 'failed'>;
  /** The audit entry's `after`: the backend's answer, or its error. */
  after: unknown;
}

export function endingOf(envelope: Envelope): Ending {
  if (envelope.ok) {
    const card = envelope.ui ?? errorCardOf(envelope);
    // The value was already what the proposal set: the backend wrote nothing, and says so.
    return isNoOp(envelope.data)
      ? { text: unchangedSentence(card), cards: [card], state: 'unchanged', outcome: 'no_op', after: envelope.data }
      : { text: confirmedSentence(card), cards: [card], state: 'confirmed', outcome: 'executed', after: envelope.data };
  }
  const stale = envelope.error.code === 'PRECONDITION_FAILED';
  const text = stale
    ? `Nothing was changed: ${envelope.error.message}. Ask again for a fresh preview.`
    : `Nothing was changed: ${envelope.error.message}.`;
  const outcome = REFUSED_BY_GUARDRAILS.has(envelope.error.code) ? 'refused' as const : 'failed' as const;
  return { text, cards: [errorCardOf(envelope)], state: 'refused', outcome, after: { error: envelope.error } };
}

/** A confirmed write the backend answered as a no-op (limits.edit to the value already set). */
function isNoOp(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { noOp?: unknown }).noOp === true;
}

const errorCardOf = (envelope: Envelope): Card => (envelope.ok
  ? { type: 'error_card', data: { code: 'INTERNAL', message: 'The tool failed.', retryable: true } }
  : errorCard(envelope));
