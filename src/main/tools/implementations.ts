/**
 * Handlers of the read tools: each is the backend procedure of the same name, called with the
 * caller's own session (the backend checks scope and role again), and the card its result shows.
 * The action tools have no handler yet; the registry refuses them as unavailable.
 */
import type { ToolImplementations } from './catalog.js';

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
};
