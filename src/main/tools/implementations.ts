/**
 * Handlers of the tools: each read is the backend procedure of the same name, called with the
 * caller's own session (the backend checks scope and role again), and the card its result shows.
 * The two writes preview through the backend's dry run and, once confirmed, write with the
 * idempotency key and the state the preview showed. Hedge bets and reports have no handler yet;
 * the registry refuses them as unavailable.
 */
import { z } from 'zod';
import { paisa } from '../../shared/contracts/agent-api.js';
import type { ToolImplementations } from './catalog.js';

/** What an edit's preview froze: the limit's value then (and whose it is, for the audit log). */
const limitSnapshot = z.object({ before: paisa, playerName: z.string() });
/** What a settlement's preview froze: the take then (and whose it is, for the audit log). */
const takeSnapshot = z.object({ takeBefore: paisa, playerName: z.string() });

/** Forwards the registry's abort signal, so a timed-out or cancelled call stops its request. */
const opts = (signal: AbortSignal | undefined) => (signal ? { signal } : undefined);

export const implementations: ToolImplementations = {
  'agent.searchPlayers': {
    invoke: (args, ctx) => ctx.api.agent.searchPlayers.query(args, opts(ctx.signal)),
    // One match needs no choosing; none is said in words, not with an empty picker.
    render: (out, args) => (out.players.length > 1 ? { type: 'player_picker', data: { query: args.query, players: out.players } } : undefined),
  },
  'match.searchFixtures': {
    invoke: (args, ctx) => ctx.api.match.searchFixtures.query(args, opts(ctx.signal)),
    render: (out, args) => (out.fixtures.length > 1 ? { type: 'fixture_picker', data: { query: args.query, fixtures: out.fixtures } } : undefined),
  },
  'agent.getDownline': {
    invoke: (args, ctx) => ctx.api.agent.getDownline.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'downline_tree', data: out }),
  },
  'agent.getTake': {
    invoke: (args, ctx) => ctx.api.agent.getTake.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'take_table', data: out }),
  },
  'agent.getUpline': {
    invoke: (args, ctx) => ctx.api.agent.getUpline.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'balance_card', data: out }),
  },
  'agent.getCreditLimit': {
    invoke: (args, ctx) => ctx.api.agent.getCreditLimit.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'take_table', data: out }),
  },
  'agent.getLiveExposure': {
    invoke: (args, ctx) => ctx.api.agent.getLiveExposure.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'exposure_card', data: out }),
  },
  'agent.getPnL': {
    invoke: (args, ctx) => ctx.api.agent.getPnL.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'pnl_table', data: out }),
  },
  'agent.getCommission': {
    invoke: (args, ctx) => ctx.api.agent.getCommission.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'commission_table', data: out }),
  },
  'agent.getSettlementHistory': {
    invoke: (args, ctx) => ctx.api.agent.getSettlementHistory.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'settlement_table', data: out }),
  },
  'agent.getBetHistory': {
    invoke: (args, ctx) => ctx.api.agent.getBetHistory.query(args, opts(ctx.signal)),
    render: (out) => ({ type: 'bet_table', data: out }),
  },
  'agent.getTopMarkets': {
    invoke: (args, ctx) => ctx.api.agent.getTopMarkets.query(args, opts(ctx.signal)),
    // The ranking's values mean nothing without the metric they rank by.
    render: (out, args) => ({ type: 'pnl_table', data: { ...out, metric: args.metric } }),
  },
  'agent.editLimit': {
    async prepare(args, ctx) {
      const p = await ctx.api.limits.preview.query(args, opts(ctx.signal));
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
    }, opts(ctx.signal)),
    render: (out) => ({
      type: 'diff_card',
      data: { playerId: out.playerId, playerName: out.playerName, field: out.limitType, before: out.before, after: out.after, state: out.noOp ? 'unchanged' : 'confirmed' },
    }),
  },
  'agent.settlePlayer': {
    async prepare(args, ctx) {
      const p = await ctx.api.settlements.preview.query(args, opts(ctx.signal));
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
    }, opts(ctx.signal)),
    render: (out) => ({
      type: 'settlement_summary',
      data: { playerId: out.playerId, playerName: out.playerName, amount: out.amount, takeBefore: out.takeBefore, takeAfter: out.takeAfter, direction: out.direction, state: 'confirmed' },
    }),
  },
};
