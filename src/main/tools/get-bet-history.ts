import * as api from '../../shared/contracts/agent-api.js';
import { listScope, money, plural } from '../../shared/sentences.js';
import { DATES, DESK, MONEY, NAMES, ROWS, opts } from './common.js';
import { defineTool } from './define.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';

export default defineTool({
  name: 'agent.getBetHistory',
  label: 'bets',
  description: 'Bets placed by the downline, newest first: player, fixture, market, outcome, back/lay, stake, odds '
    + '(decimal odds ×100: 250 is 2.50), status (open, settled, void), result, liability, with a summary. Filter by player, agent (a sub-agent\'s players), fixture, '
    + `status, side (back or lay) and dates. ${DATES} ${MONEY} ${NAMES} ${ROWS}`,
  input: api.getBetHistoryInput, output: api.getBetHistoryOutput,
  allowedRoles: DESK, isDestructive: false, card: 'bet_table', entities: { player: 'playerId', agent: 'underAgentId', fixture: 'fixtureId' },
  invoke: (args, ctx) => ctx.api.agent.getBetHistory.query(args, opts(ctx)),
  render: (out, { limit: _limit, cursor: _cursor, ...query }) => ({ type: 'bet_table', data: { ...out, query } }),
  rows: {
    row: 'bet', list: 'bets', name: 'playerName', id: 'playerId', noun: ['bet', 'bets'], measure: 'stake', plain: ['odds'],
    columns: { stake: 'stake', odds: 'odds', potentialWin: 'potentialWin', exposure: 'liability', pnl: 'result' },
    groups: { fixture: { key: 'fixtureId', name: 'fixtureName' }, player: { key: 'playerId', name: 'playerName' }, day: { key: 'placedAt' } },
    backend: {
      where: ['stake', 'odds', 'potentialWin', 'exposure', 'pnl'], order: { field: 'sort', columns: ['stake', 'odds', 'potentialWin', 'exposure', 'pnl'] },
      underAgent: true, matched: 'summary.count', totals: { stake: 'summary.stake' }, pageMax: PAGE_SIZE_MAX.bets,
      grouped: { by: api.BET_GROUPS, list: 'groups', columns: { stake: 'stake' } },
    },
  },
  say(d, args) {
    if (d.summary.count === 0) return `No bets match${listScope(args)}.`;
    const settled = d.summary.settledResult === 0 ? '' : `; settled result for the players: ${d.summary.settledResult > 0 ? 'won' : 'lost'} ${money(d.summary.settledResult)}`;
    return `${plural(d.summary.count, 'bet')}${listScope(args)}, stake ${money(d.summary.stake)}; open liability ${money(d.summary.openLiability)}${settled}.`;
  },
});
