import * as api from '../../shared/contracts/agent-api.js';
import { money, name, period, plural } from '../../shared/sentences.js';
import { DESK, MONEY, opts } from './common.js';
import { defineTool } from './define.js';

export default defineTool({
  name: 'agent.getTopMarkets',
  label: 'top markets',
  description: 'Markets ranked by a metric, highest first: pnl (the user\'s own kept result) or volume (stake placed) over '
    + 'today, this week or this month, or exposure (open liability now; the period does not narrow it). Use it for '
    + `"biggest markets", "where did I make most", "where am I most exposed". ${MONEY}`,
  input: api.getTopMarketsInput, output: api.getTopMarketsOutput,
  allowedRoles: DESK, isDestructive: false, card: 'pnl_table', entities: {},
  invoke: (args, ctx) => ctx.api.agent.getTopMarkets.query(args, opts(ctx)),
  // The ranking's values mean nothing without the metric they rank by.
  render: (out, args) => ({ type: 'pnl_table', data: { ...out, metric: args.metric } }),
  say(d) {
    if (d.rows.length === 0) return `No markets ${period(d.period)}.`;
    const top = d.rows[0]!;
    return `Top ${plural(d.rows.length, 'market')} ${period(d.period)}; first: ${name(top.marketName)} of ${name(top.fixtureName)} with ${top.value < 0 ? '-' : ''}${money(top.value)}.`;
  },
});
