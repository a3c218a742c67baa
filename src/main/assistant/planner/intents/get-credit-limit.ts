import { hasAny, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'credit_limit', precedence: 80, exclusive: false, refreshes: true, follows: { player: true },
  vocabulary: ['creditlimit', 'credit', 'limit', 'limits', 'minstake', 'perclickwin', 'dailywin', 'available', 'headroom'],
  triggers: (r) => hasAny(r, 'creditlimit', 'limit', 'limits', 'minstake', 'perclickwin', 'dailywin', 'credit', 'headroom'),
  fill: (s) => ({ args: put({}, 'player', s.player({ takesFixture: false })) }),
  examples: ["what is Sneha's credit limit"],
} satisfies ToolPlanning;
