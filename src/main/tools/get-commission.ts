import * as api from '../../shared/contracts/agent-api.js';
import { money, period, plural } from '../../shared/sentences.js';
import { DATES, DESK, MONEY, NAMES, ROWS, opts } from './common.js';
import { defineTool } from './define.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';

export default defineTool({
  name: 'agent.getCommission',
  label: 'commission',
  description: 'Commission earned from players over a period: each player\'s rate (basis points), the markets it was charged '
    + `on and the amount, with the total. Pass player for one player, agent for a sub-agent's players. ${DATES} ${MONEY} ${NAMES} ${ROWS}`,
  input: api.getCommissionInput, output: api.getCommissionOutput,
  allowedRoles: DESK, isDestructive: false, card: 'commission_table', entities: { player: 'playerId', agent: 'underAgentId' },
  invoke: (args, ctx) => ctx.api.agent.getCommission.query(args, opts(ctx)),
  render: (out) => ({ type: 'commission_table', data: out }),
  rows: {
    row: 'account', list: 'rows', name: 'name', id: 'playerId', noun: ['player', 'players'], measure: 'commission',
    columns: { commission: 'commission' },
    groups: { agent: { key: 'agentName' } },
    backend: {
      where: ['commission'], order: { field: 'orderBy', columns: ['commission'] },
      underAgent: true, matched: 'matched', totals: { commission: 'total' }, pageMax: PAGE_SIZE_MAX.rows,
    },
  },
  say: (d) => (d.rows.length === 0 ? `No commission ${period(d.period)}.` : `Commission ${period(d.period)}: ${money(d.total)} from ${plural(d.rows.length, 'player')}.`),
});
