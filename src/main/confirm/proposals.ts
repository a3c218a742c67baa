/**
 * The proposal lifecycle (ARCHITECTURE.md, Confirmation): a destructive tool's preview is
 * proposed under a nonce; the user's answer consumes the nonce; a confirmation re-runs exactly
 * the frozen call against the state the preview showed (the backend refuses it if that moved),
 * under an idempotency key derived from the nonce; and every way a proposal ends — executed,
 * no_op, refused, failed, cancelled (with the user's reason, if they gave one), expired, edited —
 * goes into the audit log. A large change (step-up.ts) is confirmed only with the user's password
 * again and lives a minute. Editing the value on a card makes a new preview through the tool's
 * own `prepare`, under a new nonce, and ends the old proposal as `edited`. The Assistant only
 * asks for a proposal and passes the user's answer on.
 */
import type { User } from '../../shared/contracts/agent-api.js';
import type { Card, Envelope, ProposalState } from '../../shared/contracts/assistant.js';
import type { ChatConfirmInput, ChatEditRequest } from '../../shared/contracts/chat.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import type { Logger } from '../../infra/log.js';
import type { TurnCaller } from '../assistant/chat-service.js';
import { confirmedSentence, unchangedSentence } from '../assistant/composer.js';
import type { AuditLog, AuditOutcome } from '../audit/audit-log.js';
import { idempotencyKeyFor } from '../audit/verify.js';
import { errorCard } from '../tools/registry.js';
import type { ToolContext, ToolPreview, ToolRegistry } from '../tools/types.js';
import { previewSnapshotSchema } from './snapshot.js';
import type { NonceRefusal, NonceResult, NonceStore, ProposalEntry } from './nonce-store.js';
import { STEP_UP_TTL_MS, type StepUpRule, needsStepUp, verifyStepUp } from './step-up.js';
import { planningOf } from '../assistant/planner/intents/index.js';

export interface ProposalsOptions {
  registry: ToolRegistry;
  nonces: NonceStore;
  audit: AuditLog;
  log: Logger;
  /** Which changes need the user's password again to be confirmed; absent: none. */
  stepUp?: StepUpRule | undefined;
}

/** The user's answer as the card sends it: the proposal, and the password (confirm) or reason (cancel) when given. */
export type ProposalReply = ChatConfirmInput & { password?: string | undefined; reason?: string | undefined };

/**
 * An edit the user made on a card that produced no new proposal: the guardrails refused the new
 * value (or it changes nothing). The old proposal is untouched and can still be confirmed.
 */
export class ProposalEditRefused extends Error {
  override readonly name = 'ProposalEditRefused';
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
 * a change that was made (the backend-kill fault run, docs/faults.md, holds it to this).
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
    const stepUp = this.options.stepUp !== undefined && needsStepUp(card, this.options.stepUp);
    const { nonce, payloadHash, expiresAt } = this.options.nonces.issue({
      userId: user.id, tool, args, snapshot: preview.snapshot, ...(stepUp && { stepUp, ttlMs: STEP_UP_TTL_MS }),
    });
    const actions = [
      { id: 'confirm' as const, label: 'Confirm', nonce, payloadHash },
      { id: 'cancel' as const, label: 'Cancel', nonce, payloadHash },
    ];
    // Said on the card before anyone clicks: the password field, and the shorter expiry.
    const marks = { expiresAt, state: 'pending' as const, ...(stepUp && { stepUp }) };
    if (card.type === 'diff_card') return { ...card, data: { ...card.data, ...marks }, actions };
    if (card.type === 'report_share') return { ...card, data: { ...card.data, expiresAt, state: 'pending' }, actions };
    if (card.type === 'bet_slip') return { ...card, data: { ...card.data, ...marks }, actions };
    return { ...card, data: { ...card.data, ...marks }, actions };
  }

  /**
   * The user's answer to a proposal: the nonce is used up whatever happens, and the ending
   * audited — except a large change's confirmation whose password is missing or not accepted,
   * which throws StepUpRefused and leaves the proposal open to be confirmed again until it expires.
   */
  async answer(input: ProposalReply, caller: TurnCaller, answer: 'confirm' | 'cancel', requestId: string): Promise<ProposalAnswer> {
    const { user } = caller;
    const presented = { userId: user.id, payloadHash: input.payloadHash };
    let taken: NonceResult;
    let stepUp = false;
    if (answer === 'confirm') {
      taken = this.options.nonces.check(input.nonce, presented);
      if (taken.ok && taken.entry.stepUp) {
        await verifyStepUp(caller.api, input.password, requestId);
        stepUp = true;
      }
      // Taken only now: a confirmation that lost the race to another answer, or to the expiry, while the password was checked ends here.
      if (taken.ok) taken = this.options.nonces.consume(input.nonce, presented);
    } else taken = this.options.nonces.cancel(input.nonce, user.id);
    if (!taken.ok) return this.refused(taken, input.nonce, caller, requestId);
    const { entry } = taken;
    if (answer === 'cancel') {
      const audit = await this.record(caller, requestId, input.nonce, entry, null, 'cancelled', { reason: input.reason });
      return { text: 'Cancelled. Nothing was changed.', cards: [], state: 'cancelled', tool: entry.tool, audit };
    }
    // One confirmed change at a time per user, written and then audited: the audit log must list
    // executed changes in the order the backend recorded them (verification holds it to that),
    // and two in flight can be answered the other way round — above all when one is being resent
    // across a backend restart (the backend-kill fault run checks the order: "reordered").
    const previous = this.writing.get(user.id) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(async (): Promise<ProposalAnswer> => {
      const envelope = await executeConfirmed(this.options.registry, entry, caller, requestId, input.nonce);
      const ending = endingOf(envelope);
      const audit = await this.record(caller, requestId, input.nonce, entry, ending.after, ending.outcome, { stepUp });
      return { text: ending.text, cards: ending.cards, state: ending.state, tool: entry.tool, audit };
    });
    this.writing.set(user.id, mine);
    try {
      return await mine;
    } finally {
      if (this.writing.get(user.id) === mine) this.writing.delete(user.id);
    }
  }

  /**
   * The user changed the value on the card: a new preview of the same change with that value,
   * through the tool's own `prepare` (the guardrails of any proposal), under a new nonce. The old
   * proposal ends `edited` only once the new one exists; a new value the guardrails refuse, or
   * one that changes nothing, throws ProposalEditRefused and leaves the old one open.
   */
  async edit(input: ChatEditRequest, caller: TurnCaller, requestId: string): Promise<ProposalAnswer> {
    const { user } = caller;
    const presented = { userId: user.id, payloadHash: input.payloadHash };
    const checked = this.options.nonces.check(input.nonce, presented);
    if (!checked.ok) return this.refused(checked, input.nonce, caller, requestId);
    const old = checked.entry;
    const args = argsWithAmount(old.tool, old.args, input.value);
    if (!args) throw new ProposalEditRefused('This proposal has no amount to change.');
    if (canonicalJson(args) === canonicalJson(old.args)) throw new ProposalEditRefused('That is the value the preview already shows.');
    const ctx: ToolContext = { api: caller.api, user, requestId };
    const envelope = await this.options.registry.prepare(old.tool, args, ctx);
    if (!envelope.ok) throw new ProposalEditRefused(`${envelope.error.message.replace(/[.\s]+$/, '')}. The earlier preview still stands.`);
    const preview = envelope.data as ToolPreview;
    const reason = preview.refusal ?? preview.noOp;
    if (reason) throw new ProposalEditRefused(`${reason.replace(/[.\s]+$/, '')}. The earlier preview still stands.`);
    // The old proposal is taken only now: if it was answered (or expired) meanwhile, that answer stands and no new preview is issued.
    const taken = this.options.nonces.consume(input.nonce, presented);
    if (!taken.ok) return this.refused(taken, input.nonce, caller, requestId);
    const card = this.propose(old.tool, args, preview, user);
    const confirm = card.actions?.find((a) => a.id === 'confirm');
    // The new proposal's nonce is live and stays out of the log; its payload hash names it, and its own entry follows when it is answered.
    const audit = await this.record(caller, requestId, input.nonce, old, { editedTo: { args, payloadHash: confirm?.payloadHash ?? null } }, 'edited');
    return { text: 'Updated: here is the new preview to confirm. The earlier one can no longer be confirmed.', cards: [card], state: 'edited', tool: old.tool, audit };
  }

  /** A nonce refusal in words; when it ended the owner's proposal (too late, or not as shown), audited so. */
  private async refused(taken: Extract<NonceResult, { ok: false }>, nonce: string, caller: TurnCaller, requestId: string): Promise<ProposalAnswer> {
    const { text, state } = NONCE_REFUSALS[taken.reason];
    const cards: Card[] = [{ type: 'error_card', data: { code: `NONCE_${taken.reason.toUpperCase()}`, message: text, retryable: false } }];
    if (!taken.entry) return { text, cards, state, tool: null, audit: null };
    const audit = await this.record(caller, requestId, nonce, taken.entry, null, taken.reason === 'expired' ? 'expired' : 'refused');
    return { text, cards, state, tool: taken.entry.tool, audit };
  }

  private async record(
    caller: TurnCaller, requestId: string, nonce: string, entry: ProposalEntry, after: unknown, outcome: AuditOutcome,
    extra: { reason?: string | undefined; stepUp?: boolean } = {},
  ): Promise<AuditOutcome> {
    // An executed entry's `after` is the backend's answer, with the anchor the backend wrote in the
    // change's own transaction: verification holds the entry to that record (audit/verify.ts).
    const appended = await this.options.audit.append({
      requestId, user: caller.user.id, tool: entry.tool, args: entry.args, before: entry.snapshot ?? null, after: after ?? null, nonce, outcome, ...extra,
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

/**
 * The proposal's arguments with `value` as its amount: the argument each change module names as
 * its amount (a limit's new value, a settlement's amount with mode 'amount', a hedge's stake), so
 * the player, the limit and everything else stay as previewed. Null for a change without one.
 */
export function argsWithAmount(tool: string, args: Readonly<Record<string, unknown>>, value: number): Record<string, unknown> | null {
  const amount = planningOf(tool)?.amount;
  if (!amount) return null;
  return { ...args, ...amount.with, [amount.arg]: value };
}

/** A confirmed write the backend answered as a no-op (limits.edit to the value already set). */
function isNoOp(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { noOp?: unknown }).noOp === true;
}

const errorCardOf = (envelope: Envelope): Card => (envelope.ok
  ? { type: 'error_card', data: { code: 'INTERNAL', message: 'The tool failed.', retryable: true } }
  : errorCard(envelope));
