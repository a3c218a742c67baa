import * as api from '../../shared/contracts/agent-api.js';
import { hasAny, put } from '../assistant/planner/slots.js';
import { money, name, period, plural } from '../assistant/words.js';
import { DATES, DESK, IDS, MONEY, ROWS, opts } from './common.js';
import { defineTool } from './define.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';

export default defineTool({
  name: 'agent.getPnL',
  label: 'P&L',
  description: 'Profit and loss on settled bets over a period, per player: the player\'s result (positive: the player won), '
    + 'commission, and the book\'s result, with totals and the user\'s own share. Filter by playerId, fixtureId or marketId. '
    + `${DATES} ${MONEY} ${IDS} ${ROWS}`,
  input: api.getPnLInput, output: api.getPnLOutput,
  allowedRoles: DESK, isDestructive: false, card: 'pnl_table',
  entities: { player: 'playerId', agent: 'underAgentId', fixture: 'fixtureId', market: 'marketId' },
  invoke: (args, ctx) => ctx.api.agent.getPnL.query(args, opts(ctx)),
  render: (out) => ({ type: 'pnl_table', data: out }),
  rows: {
    row: 'account', list: 'rows', name: 'name', id: 'playerId', noun: ['player', 'players'], measure: 'pnl', plain: ['bets'],
    columns: { pnl: 'pnl', commission: 'commission', bets: 'bets' },
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
  planning: {
    id: 'pnl', precedence: 120, exclusive: false, shownOn: '/agent/pnl', follows: { player: true, fixture: true }, range: 'dates',
    vocabulary: ['pnl', 'profit', 'profits', 'loss', 'losses', 'lose', 'lost', 'losing', 'win', 'wins', 'won', 'winnings', 'earnings', 'result', 'results', 'performance'],
    triggers: (r) => hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'lose', 'lost', 'losing', 'win', 'wins', 'won', 'winnings', 'earnings', 'result', 'results', 'performance')
      // "how much did I make", but not "what commission did I earn": the commission is what was earned.
      // (only when the commission is said with the earning: "…make last week, and my commission?" asks both).
      || (/\b(?:how\s+much\s+)?(?:did|have)\s+(?:i|we)\s+(?:make|made|win|won|lose|lost|earn)\b/.test(r.folded)
        && !/\b(?:make|made|earn|earned|win|won)\b.{0,15}\b(?:commission|comm)\b|\b(?:commission|comm)\b.{0,15}\b(?:did|have)\s+(?:i|we)\s+(?:make|made|earn)\b/.test(r.folded))
      || /\bup\s+or\s+down\b/.test(r.folded) || /\bhow\s+(?:is|are|was|were|s)\b.*\bdoing\b/.test(r.folded)
      // "worst 5 players this month": players ranked by their results.
      || /\b(?:best|worst)\s+(?:\d+\s+)?(?:players|clients|punters|accounts)\b/.test(r.folded)
      // "how did the india sa game go for us", "how did Sneha do last week": asked how it went.
      || /\bhow\s+(?:did|has|have|had)\b.*\b(?:go|gone|went|do|done|fare|fared|perform|performed)\b/.test(r.folded),
    fill(s) {
      const args: Record<string, unknown> = { ...s.range(true) };
      put(args, 'player', s.player());
      const fixture = s.r.fixture ?? (s.r.pronounFixture ? s.fixture({ takesPlayer: true }) : null) ?? s.fixture({ takesPlayer: true });
      if (fixture && fixture !== args.player) put(args, 'fixture', fixture);
      if (s.r.market && args.fixture) args.market = s.r.market;
      return { args };
    },
    examples: ["what's my pnl today", 'pnl last week', "Rahul Sharma's pnl this month"],
  },
});
