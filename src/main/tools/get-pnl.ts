import * as api from '../../shared/contracts/agent-api.js';
import { money, name, period, plural } from '../../shared/sentences.js';
import { DATES, DESK, MONEY, NAMES, ROWS, marketIds, opts } from './common.js';
import { defineTool } from './define.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';

export default defineTool({
  name: 'agent.getPnL',
  label: 'P&L',
  description: 'Profit and loss on settled bets over a period, per player: the player\'s result (positive: the player won), '
    + 'commission, and the book\'s result, with totals and the user\'s own share. Filter by player, agent (a sub-agent\'s players), fixture or marketId. '
    + `${DATES} ${MONEY} ${NAMES} ${marketIds('marketId')} ${ROWS}`,
  input: api.getPnLInput, output: api.getPnLOutput,
  allowedRoles: DESK, isDestructive: false, card: 'pnl_table',
  entities: { player: 'playerId', agent: 'underAgentId', fixture: 'fixtureId', market: 'marketId' },
  invoke: (args, ctx) => ctx.api.agent.getPnL.query(args, opts(ctx)),
  render: (out) => ({ type: 'pnl_table', data: out }),
  rows: {
    row: 'account', list: 'rows', name: 'name', id: 'playerId', noun: ['player', 'players'], measure: 'pnl', plain: ['bets'],
    columns: { pnl: 'pnl', commission: 'commission', bets: 'bets' },
    groups: { agent: { key: 'agentName' } },
    backend: {
      where: ['pnl', 'commission', 'bets'], order: { field: 'orderBy', columns: ['pnl', 'commission', 'bets'] },
      underAgent: true, matched: 'matched', totals: { pnl: 'total.pnl', commission: 'total.commission', bets: 'total.bets' }, pageMax: PAGE_SIZE_MAX.rows,
    },
  },
  say(d, args) {
    const who = args.playerId && d.rows.length === 1 ? name(d.rows[0]!.name) : args.playerId ? 'That player' : 'Your players';
    if (d.total.bets === 0 && d.rows.length === 0) return `No settled bets ${period(d.period)}.`;
    const result = d.total.pnl > 0 ? `${who} won ${money(d.total.pnl)}` : d.total.pnl < 0 ? `${who} lost ${money(d.total.pnl)}` : `${who} broke even`;
    const share = d.total.yourShare === null ? '' : ` Your share: ${d.total.yourShare >= 0 ? 'profit' : 'loss'} of ${money(d.total.yourShare)}.`;
    return `${result} ${period(d.period)} over ${plural(d.total.bets, 'settled bet')}; commission ${money(d.total.commission)}.${share}`;
  },
});
