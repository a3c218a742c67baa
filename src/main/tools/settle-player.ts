import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import { paisa } from '../../shared/contracts/agent-api.js';
import { DESK, MONEY, NAMES, opts } from './common.js';
import { defineTool } from './define.js';

/** What a settlement's preview froze: the take then (and whose it is, for the audit log). */
const takeSnapshot = z.object({ takeBefore: paisa, playerName: z.string() });

export default defineTool({
  name: 'agent.settlePlayer',
  label: 'settlement',
  description: 'Settles (squares up) a player\'s take: mode auto settles all of it, mode amount settles the given amount. '
    + `Shows a settlement summary the user must confirm; no money moves until then. ${MONEY} ${NAMES}`,
  input: actions.settlePlayerInput, output: actions.settlementsSettleOutput,
  allowedRoles: DESK, isDestructive: true, card: 'settlement_summary', entities: { player: 'playerId' }, backendAction: 'settlements.settle',
  async prepare(args, ctx) {
    const p = await ctx.api.settlements.preview.query(args, opts(ctx));
    return {
      card: {
        type: 'settlement_summary',
        data: { playerId: p.playerId, playerName: p.playerName, amount: p.amount, takeBefore: p.takeBefore, takeAfter: p.takeAfter, direction: p.direction, ...(p.refusal !== null && { refusal: p.refusal, state: 'refused' as const }) },
      },
      snapshot: { takeBefore: p.takeBefore, playerName: p.playerName },
      refusal: p.refusal,
    };
  },
  invoke: (args, ctx) => ctx.api.settlements.settle.mutate({
    ...args, idempotencyKey: ctx.idempotencyKey!, expectedTakeBefore: takeSnapshot.parse(ctx.expected).takeBefore,
  }, opts(ctx)),
  render: (out) => ({
    type: 'settlement_summary',
    data: { playerId: out.playerId, playerName: out.playerName, amount: out.amount, takeBefore: out.takeBefore, takeAfter: out.takeAfter, direction: out.direction, state: 'confirmed' },
  }),
});
