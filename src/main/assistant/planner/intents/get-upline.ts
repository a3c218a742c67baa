import { hasAny } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { found, holds, means, opensWithFigure, tokensIn } from './concepts.js';


/**
 * "upar" (Hindi: above) on its own is the agent over you ("upar kitna dena hai", "upar wala
 * balance"); after "ke" it is only "on" ("kiske upar udhaar hai": on whom is the debt, "1 lakh ke
 * upar": above it), and after an amount and its "se" more than that amount ("10k se upar ki bets").
 */
function upTheLine(folded: string): boolean {
  const tokens = tokensIn(folded);
  const amount = (t: string | undefined) => opensWithFigure(t) || means(t, 'up:scale');
  return found(folded, 'up:upar').some((m) => !means(tokens[m.from - 1], 'up:owner')
    && !(means(tokens[m.from - 1], 'up:than') && amount(tokens[m.from - 2])));
}

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'upline', precedence: 70, exclusive: false, refreshes: true,
  vocabulary: ['upline', 'parent', 'master', 'superagent', 'upar'],
  triggers: (r) => hasAny(r, 'upline', 'parent', 'master', 'superagent') || upTheLine(r.folded)
    // "mujhe kitna dena hai": what I have to give, with nobody named, is what I owe up the line.
    || (holds(r.folded, 'up:i_owe') && r.names.length === 0)
    || (holds(r.folded, 'up:my_balance') && r.names.length === 0)
    // "my own credit limit": the limit the upline gave the user, not the downline's.
    || holds(r.folded, 'up:own_limit'),
  fill: () => ({ args: {} }),
  examples: ['what do I owe my upline'],
} satisfies ToolPlanning;
