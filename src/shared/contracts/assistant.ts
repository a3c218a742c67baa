/**
 * The assistant's contracts (AGENT.md, Contracts): the decision any planner returns, the envelope
 * every tool answers with, and the cards. One zod schema each; JSON Schema comes from the same zod.
 */
import { z } from 'zod';
import * as api from './agent-api.js';
import { reportArtifact } from './reports.js';

// ── decision (seed 003) ──────────────────────────────────────────────────────────────────────
export const TOOL_NAME = /^(agent|match)\.[a-zA-Z]{2,40}$/;

export const clarifyReason = z.enum([
  'needs_amount', 'needs_player', 'needs_fixture', 'needs_market', 'needs_limit_type', 'needs_outcome', 'needs_period', 'needs_template',
  'player_not_found', 'fixture_not_found', 'ambiguous_player', 'ambiguous_fixture', 'not_allowed', 'unplannable',
]);

export const decisionSchema = z.strictObject({
  request_id: z.string().min(1).max(64),
  intent: z.string().min(1).max(64),
  action: z.enum(['tools', 'clarify', 'direct']),
  calls: z.array(z.strictObject({ tool: z.string().regex(TOOL_NAME, 'not a tool name'), args: z.record(z.string(), z.unknown()) })).max(6),
  confidence: z.number().min(0).max(1),
  notes: z.string().max(500).optional(),
  clarify: z.strictObject({ reason: clarifyReason, question: z.string().min(1).max(300) }).optional(),
}).refine((d) => d.action !== 'tools' || d.calls.length > 0, 'a tools decision names at least one call')
  .refine((d) => d.action !== 'clarify' || d.clarify !== undefined, 'a clarify decision carries its reason and question');
export type Decision = z.infer<typeof decisionSchema>;

// ── cards ────────────────────────────────────────────────────────────────────────────────────
/** A button on a card. Confirm and cancel carry the nonce and the hash of the frozen call they answer. */
const action = z.strictObject({
  id: z.enum(['confirm', 'cancel', 'pick']), label: z.string().max(60), nonce: z.string().max(128).optional(),
  payloadHash: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});
/** `caption`: the filter and order the rows were read with ("Bets: stake over 10,000.00 points; highest stake first"), stated on the card. */
const card = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.strictObject({ type: z.literal(type), data, actions: z.array(action).max(8).optional(), caption: z.string().max(300).optional() });

export const balanceCard = card('balance_card', api.getUplineOutput);
export const exposureCard = card('exposure_card', api.getLiveExposureOutput);
/** A card kept in a conversation from before lists counted their matched rows still reads: `matched` may be absent on a card. */
const kept = { matched: z.number().int().optional() };
export const pnlTableCard = card('pnl_table', z.union([api.getPnLOutput.extend(kept), api.getTopMarketsOutput.extend({ metric: z.enum(['pnl', 'volume', 'exposure']) })]));
export const takeTableCard = card('take_table', z.union([api.getTakeOutput.extend(kept), api.getCreditLimitOutput.extend(kept)]));
export const commissionTableCard = card('commission_table', api.getCommissionOutput.extend(kept));
export const settlementTableCard = card('settlement_table', api.getSettlementHistoryOutput.extend(kept));
/**
 * `query`: the filters and order the bets were read with, so the card can page on through the
 * same list (a card holds one page: a desk message carries at most 256 KB). Absent on cards kept
 * from before it existed: those show their page only.
 */
export const betTableCard = card('bet_table', api.getBetHistoryOutput.extend({
  query: api.getBetHistoryInput.omit({ limit: true, cursor: true }).optional(),
}));
/** agent.getStatement: one page of lines; `query` the filters it was read with, so the card can page on and open the page. */
export const statementCard = card('statement_table', api.getStatementOutput.extend({
  query: api.getStatementInput.omit({ limit: true, cursor: true }).optional(),
}));
export const downlineTreeCard = card('downline_tree', api.getDownlineOutput);
export const playerPickerCard = card('player_picker', z.object({ query: z.string(), players: z.array(api.playerRef) }));
export const fixturePickerCard = card('fixture_picker', z.object({ query: z.string(), fixtures: z.array(api.fixtureRef) }));
/** Where a proposed change stands: waiting for the user, or how it ended. */
/**
 * `unchanged`: the change would set what is already set, so there is nothing to confirm (or nothing was written).
 * `edited`: the user changed the value on the card, and a new preview (with a nonce of its own) replaced this one.
 */
export const proposalState = z.enum(['pending', 'confirmed', 'unchanged', 'cancelled', 'expired', 'refused', 'edited']);
export type ProposalState = z.infer<typeof proposalState>;
/**
 * A large change (src/main/confirm/step-up.ts): its confirmation needs the user's password again,
 * and the proposal lives a minute instead of the usual five. Shown on the card before anyone clicks.
 */
const stepUp = z.boolean().optional();

export const diffCard = card('diff_card', z.object({
  playerId: api.id, playerName: z.string(), field: z.enum(['creditLimit', 'perClickWin', 'aggregateDailyWin', 'minStake']),
  before: api.paisa, after: api.paisa, expiresAt: z.iso.datetime().optional(), refusal: z.string().optional(), state: proposalState.optional(), stepUp,
  /** Why nothing changes, for an `unchanged` card. */
  note: z.string().max(300).optional(),
}));
export const settlementSummaryCard = card('settlement_summary', z.object({
  playerId: api.id, playerName: z.string(), amount: api.paisa, takeBefore: api.paisa, takeAfter: api.paisa,
  direction: z.enum(['player_pays', 'agent_pays']), expiresAt: z.iso.datetime().optional(), refusal: z.string().optional(), state: proposalState.optional(), stepUp,
}));
/** agent.placeHedgeBet: the bet at the odds the preview found, and what it does to the agent's exposure on that market. */
export const betSlipCard = card('bet_slip', z.object({
  fixtureName: z.string(), marketName: z.string(), outcomeName: z.string(), side: z.enum(['back', 'lay']),
  stake: api.paisa,
  /** In hundredths (250 = 2.50): the price the preview found, which the confirmed bet must still get. */
  odds: z.number().int().optional(),
  /** What the bet can lose: the stake when backing, stake × (odds − 1) when laying. */
  liability: api.paisa.optional(),
  /** The agent's exposure on the market before the bet, and after it if it is placed (the placed slip: after it was). */
  exposureBefore: api.paisa.optional(), exposureAfter: api.paisa.optional(),
  /** The placed bet, once confirmed. */
  betId: api.id.optional(),
  expiresAt: z.iso.datetime().optional(), refusal: z.string().optional(), state: proposalState.optional(), stepUp,
}));
/** A report as the chat shows it: its name, period, rows and size; the card asks for a fresh link when saved (links expire in minutes). */
export const reportArtifactCard = card('report_artifact', reportArtifact.omit({ link: true }));
/** agent.shareReport's proposal: the report and who receives it; sent only once the user confirms. */
export const reportShareCard = card('report_share', z.object({
  artifactId: api.id, title: z.string().max(300), recipientId: api.id, recipientName: z.string(),
  /** The recipient has it already: confirming sends it again. */
  alreadyShared: z.boolean(), sharedAt: z.iso.datetime().optional(),
  expiresAt: z.iso.datetime().optional(), refusal: z.string().optional(), state: proposalState.optional(),
}));
export const errorCard = card('error_card', z.object({ code: z.string().max(64), message: z.string().max(500), retryable: z.boolean() }));

export const cardSchema = z.discriminatedUnion('type', [
  balanceCard, exposureCard, pnlTableCard, takeTableCard, commissionTableCard, settlementTableCard, betTableCard, statementCard,
  downlineTreeCard, playerPickerCard, fixturePickerCard, diffCard, settlementSummaryCard, betSlipCard, reportArtifactCard, reportShareCard, errorCard,
]);
export type Card = z.infer<typeof cardSchema>;
export type CardType = Card['type'];
export const CARD_TYPES = cardSchema.options.map((o) => o.shape.type.value) as CardType[];

// ── tool result envelope (seed 002) ──────────────────────────────────────────────────────────
export const envelopeSchema = z.discriminatedUnion('ok', [
  z.strictObject({ schema_version: z.literal(1), generated_at: z.iso.datetime(), tool: z.string(), ok: z.literal(true), data: z.unknown(), ui: cardSchema.optional() }),
  z.strictObject({ schema_version: z.literal(1), generated_at: z.iso.datetime(), tool: z.string(), ok: z.literal(false), error: z.strictObject({ code: z.string(), message: z.string() }) }),
]);
export type Envelope = z.infer<typeof envelopeSchema>;
