import { UNPAID, hasAny, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { holds, said, tokensIn } from './concepts.js';


/** The most rows one answer lists, asked as "top N" or "last N". */
const MOST_ROWS = 500;

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'settlements', precedence: 60, exclusive: false, shownOn: '/agent/settlements', follows: { player: true, count: MOST_ROWS }, range: 'dates',
  vocabulary: ['settlement', 'settlements', 'payment', 'payments', 'paid', 'receipt', 'receipts', 'transaction', 'transactions', 'history', 'log', 'ledger'],
  // "who still hasn't paid?" asks who owes now (take), not what was paid.
  triggers: (r) => (hasAny(r, 'settlement', 'settlements', 'payment', 'payments', 'receipt', 'receipts', 'transaction', 'transactions')
    || (hasAny(r, 'paid') && !UNPAID.test(r.folded))
    // "neha 5k recd?": money received from a player, asked about.
    || (hasAny(r, 'received', 'receive', 'got') && r.names.length > 0 && r.amounts.length > 0 && tokensIn(r.folded).at(-1) === '?'))
    || said(r.folded, 'st:settled_with')
    // "has Vivek settled (up) yet?": asked of a person; "settled bets" and "settled ones" are bets.
    || (holds(r.folded, 'st:has_settled') && !hasAny(r, 'bet', 'bets', 'ones', 'one', 'market', 'markets', 'matches', 'games'))
    || (hasAny(r, 'settle', 'settling') && hasAny(r, 'history', 'log', 'ledger', 'show', 'dikhao', 'dikha', 'batao', 'list', 'view', 'display')),
  fill(s) {
    const args: Record<string, unknown> = { ...s.range(false) };
    put(args, 'player', s.player({ takesFixture: false }));
    if (s.r.count) args.limit = Math.min(s.r.count, MOST_ROWS);
    return { args };
  },
  examples: ['settlement history with Deepak'],
} satisfies ToolPlanning;
