/**
 * Approvals as main carries them out (the backend's side is src/server/services/approvals.ts). A
 * destructive tool called over MCP becomes a pending approval holding its preview
 * (`requestApproval`, all an MCP server may do); the user answers it in the desk's Approvals page
 * (`Approvals`, the desk's alone: the backend refuses an answer from any session but a desk's). A
 * confirmation runs through the same path as a confirmed chat proposal (`executeConfirmed`,
 * `endingOf`): exactly the frozen call, against the state its preview showed, under an
 * idempotency key derived from the approval, and the ending goes into the desk's audit log with
 * the MCP channel named.
 */
import { TRPCClientError } from '@trpc/client';
import type { ApprovalView } from '../../shared/contracts/approvals.js';
import type { Card, ProposalState } from '../../shared/contracts/assistant.js';
import type { Logger } from '../../infra/log.js';
import type { TurnCaller } from '../assistant/chat-service.js';
import { changeSummary } from '../assistant/composer.js';
import type { AuditLog, AuditOutcome } from '../audit/audit-log.js';
import { callOptions } from '../backend/connection.js';
import type { ToolPreview } from '../tools/types.js';
import { endingOf, executeConfirmed } from './proposals.js';
import { type StepUpRule, needsStepUp, verifyStepUp } from './step-up.js';
import type { ToolRegistry } from '../tools/types.js';

export interface ApprovalsOptions {
  registry: ToolRegistry;
  audit: AuditLog;
  log: Logger;
  /** Large changes are confirmed only with the user's password again, as in the chat; none: never asked. */
  stepUp?: StepUpRule | undefined;
}

export interface ApprovalAnswer {
  text: string;
  cards: Card[];
  state: ProposalState;
  /** What the audit log recorded (null: the answer never reached the approval). */
  audit: AuditOutcome | null;
  /** The approval as the backend holds it after the answer (null when the backend could not be asked). */
  approval: ApprovalView | null;
}

/**
 * A preview becomes a pending approval, and the user is told. A preview the guardrails refused,
 * or one that would change nothing, is not asked about: its card says why.
 */
export async function requestApproval(tool: string, args: Record<string, unknown>, preview: ToolPreview, caller: TurnCaller, client: string | null, requestId: string):
  Promise<{ id: string; expiresAt: string; summary: string; card: Card } | { refused: string; card: Card }> {
  if (preview.refusal !== null) return { refused: preview.refusal, card: preview.card };
  if (preview.noOp) return { refused: preview.noOp, card: preview.card };
  const summary = changeSummary(preview.card);
  const created = await caller.api.approvals.create.mutate({
    tool, args: args as Record<string, never>, snapshot: (preview.snapshot ?? null) as never, card: preview.card, summary, channel: 'mcp', client,
  }, callOptions(requestId));
  return { ...created, summary, card: preview.card };
}

/** The nonce an approval's audit entry carries, and what its idempotency key is derived from. */
export const approvalNonce = (approvalId: string): string => `approval:${approvalId}`;

export class Approvals {
  constructor(private readonly options: ApprovalsOptions) {}

  /** Whether confirming this preview needs the user's password again (the card says so before the click). */
  needsPassword(card: Card): boolean {
    return this.options.stepUp !== undefined && needsStepUp(card, this.options.stepUp);
  }

  /**
   * The user confirms: claimed once at the backend, then exactly the frozen call runs. A large
   * change's password is checked first, against the card the backend holds (not one the page
   * sends); a missing or wrong one throws StepUpRefused and leaves the approval pending.
   */
  async confirm(approvalId: string, caller: TurnCaller, requestId: string, password?: string): Promise<ApprovalAnswer> {
    let steppedUp = false;
    if (this.options.stepUp !== undefined) {
      let held: ApprovalView;
      try {
        held = await caller.api.approvals.get.query({ id: approvalId }, callOptions(requestId));
      } catch (error) {
        return refusedAnswer(error);
      }
      if (held.status === 'pending' && this.needsPassword(held.card)) {
        await verifyStepUp(caller.api, password, requestId);
        steppedUp = true;
      }
    }
    let claimed: ApprovalView;
    try {
      claimed = await caller.api.approvals.claim.mutate({ id: approvalId }, callOptions(requestId));
    } catch (error) {
      return refusedAnswer(error);
    }
    const nonce = approvalNonce(approvalId);
    let envelope: Awaited<ReturnType<typeof executeConfirmed>>;
    try {
      envelope = await executeConfirmed(this.options.registry, claimed, caller, requestId, nonce);
    } catch (error) {
      // A stored snapshot that no longer reads as one: nothing ran; the approval ends failed, not stuck claimed.
      this.options.log.error('approval could not be carried out', { requestId, approvalId, err: error });
      envelope = { schema_version: 1, generated_at: new Date().toISOString(), tool: claimed.tool, ok: false, error: { code: 'INTERNAL', message: 'the approval could not be carried out' } };
    }
    const ending = endingOf(envelope);
    const approval = await caller.api.approvals.finish.mutate({ id: approvalId, ending: ending.outcome, result: (ending.after ?? null) as never }, callOptions(requestId))
      .catch((error: unknown) => {
        // The change itself is done (or refused) and audited below; only the approval's label is behind.
        this.options.log.warn('approval finish failed', { requestId, approvalId, err: error });
        return { ...claimed, status: ending.outcome } satisfies ApprovalView;
      });
    const entry = await this.options.audit.append({
      requestId, user: caller.user.id, tool: claimed.tool, args: claimed.args, before: claimed.snapshot, after: ending.after ?? null, nonce, outcome: ending.outcome, channel: 'mcp',
      ...(steppedUp && { stepUp: true }),
    });
    return { text: ending.text, cards: ending.cards, state: ending.state, audit: entry.outcome, approval };
  }

  /** The user declines, with their reason if they gave one: nothing runs, and the audit log says so. */
  async reject(approvalId: string, caller: TurnCaller, requestId: string, reason?: string): Promise<ApprovalAnswer> {
    let rejected: ApprovalView;
    try {
      rejected = await caller.api.approvals.reject.mutate({ id: approvalId }, callOptions(requestId));
    } catch (error) {
      return refusedAnswer(error);
    }
    const entry = await this.options.audit.append({
      requestId, user: caller.user.id, tool: rejected.tool, args: rejected.args, before: rejected.snapshot, after: null, nonce: approvalNonce(approvalId), outcome: 'cancelled', channel: 'mcp',
      ...(reason && { reason }),
    });
    return { text: 'Declined. Nothing was changed.', cards: [], state: 'cancelled', audit: entry.outcome, approval: rejected };
  }
}

/** An approval that could not be answered (expired, answered already, not the user's): the backend's reason, nothing changed. */
function refusedAnswer(error: unknown): ApprovalAnswer {
  const known = error instanceof TRPCClientError;
  const message = known ? error.message : 'the backend could not be reached';
  const code = known ? String((error.data as { code?: unknown } | undefined)?.code ?? 'REFUSED') : 'UNAVAILABLE';
  const text = `Nothing was changed: ${message}.`;
  const state: ProposalState = code === 'PRECONDITION_FAILED' ? 'expired' : 'refused';
  return { text, cards: [{ type: 'error_card', data: { code, message: text.slice(0, 500), retryable: !known } }], state, audit: null, approval: null };
}
