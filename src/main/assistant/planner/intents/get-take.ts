import { UNPAID, hasAny, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'take', precedence: 90, exclusive: false, shownOn: '/agent/players', refreshes: true, follows: { player: true },
  vocabulary: ['take', 'owe', 'owes', 'owed', 'owing', 'outstanding', 'due', 'dues', 'receivable', 'payable', 'balance', 'balances'],
  triggers: (r) => hasAny(r, 'take', 'owe', 'owes', 'owed', 'owing', 'outstanding', 'due', 'dues', 'receivable', 'payable', 'balance', 'balances')
    || UNPAID.test(r.folded),
  fill: (s) => ({ args: put({}, 'player', s.player({ takesFixture: false })) }),
  examples: ['how much does Karan owe me', 'who owes me money'],
} satisfies ToolPlanning;
