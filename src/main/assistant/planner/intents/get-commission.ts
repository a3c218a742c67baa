import { hasAny, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'commission', precedence: 110, exclusive: false, follows: { player: true }, range: 'dates',
  vocabulary: ['commission', 'commissions', 'comm', 'comms', 'rebate'],
  triggers: (r) => hasAny(r, 'commission', 'commissions', 'comm', 'comms', 'rebate'),
  fill: (s) => ({ args: put({ ...s.range(true) }, 'player', s.player({ takesFixture: false })) }),
  examples: ['commission this month'],
} satisfies ToolPlanning;
