/**
 * The assistant's action tools (AGENT.md, Tools) and the backend procedures behind the two
 * that move money or limits: the arguments a planner may give them, the dry run (preview) and the
 * write, which takes an idempotency key and the state the preview showed. Shared so the backend
 * validates exactly the shapes the tool registry offers.
 */
import { z } from 'zod';
import { id, isoDate, paisa } from './agent-api.js';
import { PAGE_SIZE_MAX, isoWeek, pageSize, paisaInput } from './bounds.js';

/** Money a user asks to move or set: whole paisa, never zero or negative. */
const positivePaisa = paisaInput.positive('must be a positive amount in paisa');

export const limitType = z.enum(['creditLimit', 'perClickWin', 'aggregateDailyWin', 'minStake']);
export type LimitType = z.infer<typeof limitType>;

// ── agent.editLimit ──────────────────────────────────────────────────────────────────────────
// A limit may be set to zero (a player blocked from betting); the backend applies the rest of the guardrails.
export const editLimitInput = z.strictObject({ playerId: id, limitType, newValue: paisaInput.nonnegative('must not be negative') });

// ── agent.settlePlayer ───────────────────────────────────────────────────────────────────────
const settlePlayerFields = z.strictObject({
  playerId: id,
  /** An ISO week (`2026-W46`): settle the take as it stood at the end of that week. */
  periodId: isoWeek.optional(),
  mode: z.enum(['auto', 'amount']),
  amount: positivePaisa.optional(),
});
function checkSettleMode(v: { mode: 'auto' | 'amount'; amount?: number | undefined }, ctx: z.RefinementCtx): void {
  // 'auto' settles the whole take, so an amount there would be ignored silently: refuse it instead.
  if (v.mode === 'amount' && v.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: "required when mode is 'amount'" });
  if (v.mode === 'auto' && v.amount !== undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: "only allowed when mode is 'amount'" });
}
export const settlePlayerInput = settlePlayerFields.superRefine(checkSettleMode);

// ── agent.placeHedgeBet ──────────────────────────────────────────────────────────────────────
export const placeHedgeBetInput = z.strictObject({
  fixtureId: id, marketId: id, outcomeId: id, side: z.enum(['back', 'lay']), stake: positivePaisa,
});
export const placeHedgeBetOutput = z.object({
  fixtureName: z.string(), marketName: z.string(), outcomeName: z.string(), side: z.enum(['back', 'lay']),
  stake: paisa, odds: z.number().int().optional(),
});

// ── agent.generateReport / agent.shareReport ─────────────────────────────────────────────────
export const reportTemplate = z.enum(['per_player_pnl', 'bets_by_match', 'settlement_log']);
export const reportFormat = z.enum(['xlsx', 'pdf']);
export const generateReportInput = z.strictObject({
  template: reportTemplate,
  format: reportFormat,
  filters: z.strictObject({
    from: isoDate.optional(), to: isoDate.optional(), playerId: id.optional(), fixtureId: id.optional(),
  }).default({}),
});
export const generateReportOutput = z.object({
  artifactId: id, template: reportTemplate, format: reportFormat, downloadUrl: z.string(), expiresAt: z.iso.datetime(),
});

export const shareReportInput = z.strictObject({
  artifactId: id,
  recipient: z.union([z.literal('self'), id]),
  channel: z.literal('notification').default('notification'),
});
export const shareReportOutput = z.object({ ok: z.literal(true) });

// ── backend: the audit chain's link, carried by every audited change's answer ───────────────
/** The largest seq of an audit chain (the seq columns are PostgreSQL integers). */
export const AUDIT_SEQ_MAX = 2_147_483_647;
const auditSeq = z.number().int().min(1).max(AUDIT_SEQ_MAX);
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 hex digest');
/** Where an audited change sits in its actor's chain on the backend: what a desk keeps with its entry. */
export const auditAnchor = z.strictObject({ seq: auditSeq, hash: sha256Hex });
export type AuditAnchorRef = z.infer<typeof auditAnchor>;

// ── backend: limits.preview / limits.edit, settlements.preview / settlements.settle ──────────
/** Chosen by the caller, scoped by the backend to (caller, procedure); kept at least 24 hours. */
export const idempotencyKey = z.string().min(16).max(128).regex(/^[A-Za-z0-9_-]+$/, 'not an idempotency key');

/** The platform's ceiling on any credit limit, in paisa (10,000,000.00 points). */
export const PLATFORM_MAX_CREDIT_LIMIT = 1_000_000_000;

export const limitsPreviewInput = editLimitInput;
/** The dry run: the same guardrails as the write, with the reason when they refuse. */
export const limitsPreviewOutput = z.object({
  playerId: id, playerName: z.string(), limitType, before: paisa, after: paisa, refusal: z.string().nullable(),
  /** The limit already has this value: there is nothing to confirm. */
  noOp: z.string().nullable(),
});
export const limitsEditInput = editLimitInput.extend({
  idempotencyKey,
  /** The value the preview showed: if it no longer holds, the write is refused (PRECONDITION_FAILED). */
  expectedBefore: paisaInput.optional(),
});
export const limitsEditOutput = z.object({
  playerId: id, playerName: z.string(), limitType, before: paisa, after: paisa,
  /** The backend's audit row of this change; null for a no-op. */
  auditId: z.number().int().nullable(),
  /** The change's place in the caller's audit chain on the backend; null for a no-op (nothing was written). */
  anchor: auditAnchor.nullable(),
  /** The limit already had this value: nothing was written. */
  noOp: z.boolean(),
  /** True when this answer is the stored one of an earlier call with the same key: nothing moved now. */
  replayed: z.boolean(),
});

export const settlementsPreviewInput = settlePlayerInput;
export const settlementDirection = z.enum(['player_pays', 'agent_pays']);
export const settlementsPreviewOutput = z.object({
  playerId: id, playerName: z.string(), mode: z.enum(['auto', 'amount']), periodId: z.string().nullable(),
  /** Always positive: who pays is `direction`. */
  amount: paisa, takeBefore: paisa, takeAfter: paisa, direction: settlementDirection, refusal: z.string().nullable(),
});
export const settlementsSettleInput = settlePlayerFields.extend({
  idempotencyKey,
  /** The take the preview showed: if it no longer holds, the write is refused (PRECONDITION_FAILED). */
  expectedTakeBefore: paisaInput.optional(),
}).superRefine(checkSettleMode);
export const settlementsSettleOutput = z.object({
  settlementId: id, playerId: id, playerName: z.string(), amount: paisa, takeBefore: paisa, takeAfter: paisa,
  direction: settlementDirection, auditId: z.number().int(),
  /** The settlement's place in the caller's audit chain on the backend. */
  anchor: auditAnchor,
  replayed: z.boolean(),
});

// ── backend: audit.anchors ───────────────────────────────────────────────────────────────
export const auditAnchorsInput = z.strictObject({
  /** Rows after this seq (0: from the start). */
  afterSeq: z.number().int().min(0).max(AUDIT_SEQ_MAX).optional(),
  limit: pageSize(PAGE_SIZE_MAX.auditRecords, PAGE_SIZE_MAX.auditRecords),
}).default({ limit: PAGE_SIZE_MAX.auditRecords });
export const anchoredRow = z.object({
  seq: auditSeq, hash: sha256Hex, prevHash: sha256Hex, action: z.string(), targetId: id.nullable(), requestId: z.string().nullable(),
  idempotencyKey: z.string().nullable(), before: z.json(), after: z.json(), at: z.iso.datetime(),
});
export type AnchoredRowOutput = z.infer<typeof anchoredRow>;
export const auditAnchorsOutput = z.object({
  anchors: z.array(anchoredRow),
  next: auditSeq.nullable(),
  head: auditAnchor.nullable(),
});
