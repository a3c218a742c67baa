/**
 * The assistant's action tools (seed 000, Phases 3–4): the arguments a planner may give them and
 * what they answer. Shared so the backend validates the same shapes the tool registry offers the
 * model when these procedures are built; until then main plans and refuses them from here.
 */
import { z } from 'zod';
import { id, isoDate, paisa } from './agent-api.js';

/** Money a user asks to move or set: whole paisa, never zero or negative. */
const positivePaisa = paisa.positive('must be a positive amount in paisa');

export const limitType = z.enum(['creditLimit', 'perClickWin', 'aggregateDailyWin', 'minStake']);
export type LimitType = z.infer<typeof limitType>;

// ── agent.editLimit ──────────────────────────────────────────────────────────────────────────
export const editLimitInput = z.strictObject({ playerId: id, limitType, newValue: positivePaisa });
/** The change as the diff card shows it: before and after, in paisa. */
export const editLimitOutput = z.object({
  playerId: id, playerName: z.string(), limitType, before: paisa, after: paisa,
});

// ── agent.settlePlayer ───────────────────────────────────────────────────────────────────────
export const settlePlayerInput = z.strictObject({
  playerId: id,
  periodId: z.string().trim().min(1).max(64).optional(),
  mode: z.enum(['auto', 'amount']),
  amount: positivePaisa.optional(),
}).superRefine((v, ctx) => {
  // 'auto' settles the whole take, so an amount there would be ignored silently: refuse it instead.
  if (v.mode === 'amount' && v.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: "required when mode is 'amount'" });
  if (v.mode === 'auto' && v.amount !== undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: "only allowed when mode is 'amount'" });
});
export const settlePlayerOutput = z.object({
  playerId: id, playerName: z.string(), amount: paisa, takeBefore: paisa, takeAfter: paisa,
  direction: z.enum(['player_pays', 'agent_pays']),
});

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
