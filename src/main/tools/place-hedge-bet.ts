import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import { id, paisa } from '../../shared/contracts/agent-api.js';
import type { Card } from '../../shared/contracts/assistant.js';
import { formatOdds } from '../../shared/format.js';
import { riskWarning, worstCaseMove } from '../../shared/hedge-risk.js';
import { money, name } from '../../shared/sentences.js';
import { DESK, MONEY, NAMES, marketIds, opts } from './common.js';
import { defineTool } from './define.js';

/**
 * What a hedge's preview froze: the odds (the bet is placed only at them), and what the slip
 * said — the names and the worst case before and after — for the audit log's `before` (the Audit
 * page's sentence) and its verification against the backend's record. Proposals made before the
 * worst case after was kept have no `exposureAfter`.
 */
const hedgeSnapshot = z.object({
  odds: z.number().int(), fixtureName: z.string(), marketName: z.string(), outcomeName: z.string(), exposureBefore: z.number().int(),
  exposureAfter: z.number().int().optional(),
});

/**
 * hedge.place's answer with the audit anchor the backend wrote in the bet's own transaction (the
 * audit log keeps it to verify against), and the exposure on the market before (the slip's) and
 * after (read once the bet stands).
 */
const hedgePlaced = actions.placeHedgeBetOutput.extend({
  odds: z.number().int(), betId: id, selfAccountId: id, liability: paisa, potentialWin: paisa, anchor: actions.auditAnchor,
  exposureBefore: paisa.optional(), exposureAfter: paisa.optional(),
});

/** The words a slip's bet is said in: "back India for 20,000.00 at 2.10". */
export function betWords(d: { side: 'back' | 'lay'; outcomeName: string; stake: number; odds?: number | undefined }): string {
  return `${d.side} ${name(d.outcomeName)} for ${money(d.stake)}${d.odds === undefined ? '' : ` at ${formatOdds(d.odds)}`}`;
}

/** The sentence of a bet slip: proposed, refused or placed (the composer's words for this card). */
export function betSlipSentence(card: Extract<Card, { type: 'bet_slip' }>): string {
  const d = card.data;
  const where = `in ${name(d.fixtureName)} (${name(d.marketName)})`;
  if (d.refusal) return `I can't ${betWords(d)} ${where}: ${d.refusal}`;
  const known = d.exposureBefore !== undefined && d.exposureAfter !== undefined;
  const exposure = known ? `your worst case on the market ${worstCaseMove(d.exposureBefore!, d.exposureAfter!, d.state === 'confirmed')}` : '';
  const liability = d.liability === undefined ? '' : `liability ${money(d.liability)}`;
  const facts = [liability, exposure].filter(Boolean).join(', and ');
  if (d.state === 'confirmed') return `Placed: ${betWords(d)} ${where}${facts ? `; ${facts}` : ''}.`;
  // Said before the facts, so a bet that adds to the risk is never confirmed as a hedge without a word.
  const warning = known ? riskWarning(d, d.exposureBefore!, d.exposureAfter!) : null;
  return `${warning ? `Warning: ${warning} ` : ''}Confirm to ${betWords(d)} ${where}${facts ? `: ${facts}` : ''}. Nothing is placed until you do.`;
}

export default defineTool({
  name: 'agent.placeHedgeBet',
  label: 'hedge bet',
  description: 'Places a hedge (lay-off) bet on an outcome of a match (fixture, marketId, outcomeId), back or lay, for a stake, from the agent\'s own account. Shows a bet slip '
    + '(odds, liability, the agent\'s exposure on the market before and after) the user must confirm; nothing is placed until then, '
    + `and only at the odds the slip showed. ${MONEY} ${NAMES} ${marketIds('marketId', 'outcomeId')}`,
  input: actions.placeHedgeBetInput, output: hedgePlaced,
  allowedRoles: DESK, isDestructive: true, card: 'bet_slip',
  entities: { fixture: 'fixtureId', market: 'marketId', outcome: 'outcomeId' }, backendAction: 'hedge.place',
  async prepare(args, ctx) {
    const p = await ctx.api.hedge.preview.query(args, opts(ctx));
    return {
      card: {
        type: 'bet_slip',
        data: {
          fixtureName: p.fixtureName, marketName: p.marketName, outcomeName: p.outcomeName, side: p.side, stake: p.stake, odds: p.odds,
          liability: p.liability, exposureBefore: p.exposureBefore, exposureAfter: p.exposureAfter,
          ...(p.refusal !== null && { refusal: p.refusal, state: 'refused' as const }),
        },
      },
      snapshot: {
        odds: p.odds, fixtureName: p.fixtureName, marketName: p.marketName, outcomeName: p.outcomeName, exposureBefore: p.exposureBefore, exposureAfter: p.exposureAfter,
      },
      refusal: p.refusal,
    };
  },
  async invoke(args, ctx) {
    const expected = hedgeSnapshot.parse(ctx.expected);
    const placed = await ctx.api.hedge.place.mutate({ ...args, idempotencyKey: ctx.idempotencyKey!, expectedOdds: expected.odds }, opts(ctx));
    // The bet stands whatever happens next: a failed read must not turn it into an error (a retry would only replay it).
    const after = await ctx.api.agent.getLiveExposure.query({ fixtureId: args.fixtureId, marketId: args.marketId }, opts(ctx))
      .then((e) => e.scopes.find((sc) => sc.marketId === args.marketId)?.exposureAtShare ?? 0, () => undefined);
    return { ...placed, exposureBefore: expected.exposureBefore, ...(after !== undefined && { exposureAfter: after }) };
  },
  render: (o) => ({
    type: 'bet_slip',
    data: {
      fixtureName: o.fixtureName, marketName: o.marketName, outcomeName: o.outcomeName, side: o.side, stake: o.stake, odds: o.odds,
      liability: o.liability, betId: o.betId, state: 'confirmed',
      ...(o.exposureBefore !== undefined && { exposureBefore: o.exposureBefore }), ...(o.exposureAfter !== undefined && { exposureAfter: o.exposureAfter }),
    },
  }),
  say: (out) => `Placed: ${betWords(out)} in ${name(out.fixtureName)} (${name(out.marketName)}).`,
});
