import * as api from '../../shared/contracts/agent-api.js';
import { formatDate } from '../../shared/format.js';
import { UNPAID, hasAny, put } from '../assistant/planner/slots.js';
import { listScope, money, name, plural } from '../assistant/words.js';
import { DATES, DESK, IDS, MONEY, opts } from './common.js';
import { defineTool } from './define.js';

/** The most rows one answer lists, asked as "top N" or "last N". */
const MOST_ROWS = 500;

export default defineTool({
  name: 'agent.getSettlementHistory',
  label: 'settlements',
  description: 'Past settlements (cash squared up) between the user\'s accounts: who paid whom (positive amount: the child '
    + `paid the parent), take before and after, mode and when. Pass counterpartyId for one account. ${DATES} ${MONEY} ${IDS}`,
  input: api.getSettlementHistoryInput, output: api.getSettlementHistoryOutput,
  allowedRoles: DESK, isDestructive: false, card: 'settlement_table', entities: { player: 'counterpartyId' },
  invoke: (args, ctx) => ctx.api.agent.getSettlementHistory.query(args, opts(ctx)),
  render: (out) => ({ type: 'settlement_table', data: out }),
  say(d, args, timeZone) {
    if (d.rows.length === 0) return `No settlements found${listScope(args)}.`;
    const last = d.rows[0]!;
    const paid = last.amount >= 0 ? `${name(last.childName)} paid ${name(last.parentName)} ${money(last.amount)}` : `${name(last.parentName)} paid ${name(last.childName)} ${money(last.amount)}`;
    return `${plural(d.rows.length, 'settlement')}${listScope(args)}; the latest on ${formatDate(last.createdAt, timeZone)}: ${paid}.`;
  },
  planning: {
    id: 'settlements', precedence: 60, exclusive: false, shownOn: '/agent/settlements', follows: { player: true, count: MOST_ROWS }, range: 'dates',
    vocabulary: ['settlement', 'settlements', 'payment', 'payments', 'paid', 'receipt', 'receipts', 'transaction', 'transactions', 'history', 'log', 'ledger'],
    // "who still hasn't paid?" asks who owes now (take), not what was paid.
    triggers: (r) => (hasAny(r, 'settlement', 'settlements', 'payment', 'payments', 'receipt', 'receipts', 'transaction', 'transactions')
      || (hasAny(r, 'paid') && !UNPAID.test(r.folded))
      // "neha 5k recd?": money received from a player, asked about.
      || (hasAny(r, 'received', 'receive', 'got') && r.names.length > 0 && r.amounts.length > 0 && /\?\s*$/.test(r.folded)))
      || /\bsettled\s+with\b/.test(r.folded)
      // "has Vivek settled (up) yet?": asked of a person; "settled bets" and "settled ones" are bets.
      || (/\b(?:has|have|had|did|was|were|is)\b.*\bsettled\b/.test(r.folded) && !hasAny(r, 'bet', 'bets', 'ones', 'one', 'market', 'markets', 'matches', 'games'))
      || (hasAny(r, 'settle', 'settling') && hasAny(r, 'history', 'log', 'ledger', 'show', 'dikhao', 'dikha', 'batao', 'list', 'view', 'display')),
    fill(s) {
      const args: Record<string, unknown> = { ...s.range(false) };
      put(args, 'player', s.player({ takesFixture: false }));
      if (s.r.count) args.limit = Math.min(s.r.count, MOST_ROWS);
      return { args };
    },
    examples: ['settlement history with Deepak'],
  },
});
