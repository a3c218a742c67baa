import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import { paisa } from '../../shared/contracts/agent-api.js';
import { DESK, MONEY, NAMES, opts } from './common.js';
import { defineTool } from './define.js';

/** What an edit's preview froze: the limit's value then (and whose it is, for the audit log). */
const limitSnapshot = z.object({ before: paisa, playerName: z.string() });

export default defineTool({
  name: 'agent.editLimit',
  label: 'limit change',
  description: 'Changes one limit of a player in the user\'s direct downline: creditLimit, perClickWin, aggregateDailyWin '
    + `or minStake, to newValue. Shows a before/after card the user must confirm; nothing changes until then. ${MONEY} ${NAMES}`,
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
});
