import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import { paisa } from '../../shared/contracts/agent-api.js';
import { formatPoints } from '../../shared/format.js';
import { BULK, TOP_UP, ask, hasAny, newValueOf } from '../assistant/planner/slots.js';
import type { Reading } from '../assistant/planner/grammar.js';
import { ORDER_MARKER } from '../assistant/planner/speech-act.js';
import { DESK, IDS, MONEY, opts } from './common.js';
import { defineTool } from './define.js';

/** What an edit's preview froze: the limit's value then (and whose it is, for the audit log). */
const limitSnapshot = z.object({ before: paisa, playerName: z.string() });

/** Verbs of a limit change; "make" only counts beside a limit word, so it is no vocabulary of its own. */
const EDIT_VERBS = ['set', 'change', 'update', 'increase', 'decrease', 'raise', 'lower', 'reduce', 'bump', 'edit', 'modify', 'adjust', 'put', 'cut', 'double', 'halve', 'lift', 'drop', 'give', 'allow', 'grant', 'add',
  // "knock Sneha's limit down to 20 grand", "chuck Suresh's limit up to 50k".
  'knock', 'chuck', 'bring', 'push',
  // Hindi: "CL 50k badha do", "limit ghata do".
  'badha', 'badhao', 'badhado', 'badhana', 'ghata', 'ghatao', 'ghatado', 'ghatana'];

/** The limit a message names: "min stake", "per click win", "daily win", else a bare CL or limit is the credit limit. */
function limitTypeOf(r: Reading): 'minStake' | 'perClickWin' | 'aggregateDailyWin' | 'creditLimit' | null {
  return hasAny(r, 'minstake') ? 'minStake' : hasAny(r, 'perclickwin') ? 'perClickWin' : hasAny(r, 'dailywin') ? 'aggregateDailyWin'
    // A bare "limit" is the credit limit, as agents say it (AGENT.md lists it with CL); the diff card names the field before anything is confirmed.
    : hasAny(r, 'creditlimit', 'credit', 'limit', 'limits') ? 'creditLimit' : null;
}

export default defineTool({
  name: 'agent.editLimit',
  label: 'limit change',
  description: 'Changes one limit of a player in the user\'s direct downline: creditLimit, perClickWin, aggregateDailyWin '
    + `or minStake, to newValue. Shows a before/after card the user must confirm; nothing changes until then. ${MONEY} ${IDS}`,
  input: actions.editLimitInput, output: actions.limitsEditOutput,
  allowedRoles: DESK, isDestructive: true, card: 'diff_card', entities: { player: 'playerId' }, backendAction: 'limits.edit',
  async prepare(args, ctx) {
    const p = await ctx.api.limits.preview.query(args, opts(ctx));
    return {
      card: {
        type: 'diff_card',
        data: {
          playerId: p.playerId, playerName: p.playerName, field: p.limitType, before: p.before, after: p.after,
          ...(p.refusal !== null && { refusal: p.refusal, state: 'refused' as const }),
          ...(p.refusal === null && p.noOp !== null && { note: p.noOp, state: 'unchanged' as const }),
        },
      },
      snapshot: { before: p.before, playerName: p.playerName },
      refusal: p.refusal,
      noOp: p.noOp,
    };
  },
  invoke: (args, ctx) => ctx.api.limits.edit.mutate({
    ...args, idempotencyKey: ctx.idempotencyKey!, expectedBefore: limitSnapshot.parse(ctx.expected).before,
  }, opts(ctx)),
  render: (out) => ({
    type: 'diff_card',
    data: { playerId: out.playerId, playerName: out.playerName, field: out.limitType, before: out.before, after: out.after, state: out.noOp ? 'unchanged' : 'confirmed' },
  }),
  planning: {
    id: 'edit_limit', precedence: 30, exclusive: true, amount: { arg: 'newValue' }, asQuestion: 'credit_limit', follows: { player: true },
    // "Sneha ka per click win kitna hai" … "usko 5k kar do": the limit that was asked about.
    afterRead: { intent: 'credit_limit', args: (asked) => ({ limitType: limitTypeOf(asked) ?? 'creditLimit' }) },
    vocabulary: EDIT_VERBS,
    triggers: (r) => hasAny(r, 'creditlimit', 'limit', 'limits', 'minstake', 'perclickwin', 'dailywin', 'credit')
      && (hasAny(r, ...EDIT_VERBS, 'make') || TOP_UP.test(r.folded)
        || /(?:\bto\s+|=>?\s*|->\s*|→\s*)(?:-|−|minus\s+)?(?:₹\s*)?\d/.test(r.folded)
        // "Imran ka CL 40k kar do", "min bet should be 200": an order with the new value.
        || (r.amounts.length > 0 && ORDER_MARKER.test(r.folded))
        // "deepak cl 30k": a player, a limit and one amount, typed as agents type an order; asked
        // ("deepak cl 30k hai kya?") the speech act makes it the credit-limit read.
        || (r.amounts.length === 1 && r.names.length > 0)
        // "iska CL 35k" on a player's page, "cl 50k": the ledger's terse order, its player from the
        // pronoun or the page (asked for when neither gives one).
        || (r.amounts.length === 1 && (r.pronounPlayer || r.tokens.length <= 3))
        // "per click win for Sam -3k": a limit given a negative or zero value is a change to refuse, not a read;
        // "Sam's CL +5k" a change by an amount, to ask about.
        || r.amounts.some((a) => a.negative || a.paisa === 0) || (r.amounts.length > 0 && /(?:^|\s)\+\s*\S/.test(r.folded))),
    fill(s) {
      const r = s.r;
      if (BULK.test(r.folded)) return ask('not_allowed', 'I change one player’s limit at a time, and only after you confirm it. Which player?');
      const target = newValueOf(r);
      // An amount given but not usable (negative, zero, a change by it) is said first: asking which
      // limit, then planning that amount once the user answers, would lose the reason.
      if ('problem' in target && r.amounts.length > 0) return ask('needs_amount', target.problem);
      const limitType = limitTypeOf(r);
      if (!limitType) return ask('needs_limit_type', 'Which limit: credit limit, min stake, per-click win or aggregate daily win?');
      // "aggregate daily win 2 lakh kar do" right after Anita's limits: hers (the preview names her before anything changes).
      const player = s.player({ takesFixture: false }) ?? (r.names.length === 0 ? s.lastAnswerPlayer() : null);
      if (!player) return ask('needs_player', 'Which player’s limit should I change?');
      if ('problem' in target) return ask('needs_amount', target.problem);
      // "increase Anita's limit by 10k": the gate reads her limit and proposes where it lands (changeBy).
      if ('by' in target) return { args: { player, limitType, changeBy: target.by } };
      // DOMAIN.md: "set CL to 1 trillion" is refused with its reason, before any preview is made.
      if (limitType === 'creditLimit' && target.paisa > actions.PLATFORM_MAX_CREDIT_LIMIT) {
        return ask('needs_amount', `${formatPoints(target.paisa)} is above the platform maximum credit limit of ${formatPoints(actions.PLATFORM_MAX_CREDIT_LIMIT)}. What should the new limit be?`);
      }
      return { args: { player, limitType, newValue: target.paisa } };
    },
    examples: ['set CL for Rahul Sharma to 50,000', "increase Anita's credit limit to 1 lakh", 'set min stake for Karan to 500'],
  },
});
