import { MAX_DOWNLINE_DEPTH } from '../../../../shared/contracts/agent-api.js';
import { hasAny } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { found, isDigits, means, ruleAt, said, tokensIn } from './concepts.js';

/** "show my players", "all agents please.": the list itself asked, the message ending there. */
function listAsked(folded: string): boolean {
  const at = ruleAt(folded, 'down:list');
  const tokens = tokensIn(folded);
  return at !== null && !means(tokens[at.from - 1], 'down:place') && tokens.slice(at.to).every((t) => t === '.' || t === '!' || t === '?');
}

/** "the full tree, 3 levels deep": how many levels below the user to show, said as a number before "levels". */
function levelsAsked(folded: string): number | null {
  const tokens = tokensIn(folded);
  const at = found(folded, 'down:levels').find((m) => isDigits(tokens[m.from - 1]));
  const n = at ? Number(tokens[at.from - 1]) : NaN;
  // More levels than a read shows is the whole tree it can show.
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_DOWNLINE_DEPTH) : null;
}

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'downline', precedence: 140, exclusive: false, shownOn: '/agent/downline', refreshes: true,
  vocabulary: ['downline', 'subagents', 'hierarchy', 'tree', 'structure', 'network'],
  // "her lot only, not Sanjay's whole tree": the tree turned down is not asked for.
  triggers: (r) => (hasAny(r, 'downline', 'subagents', 'hierarchy', 'tree', 'structure', 'network') && ruleAt(r.folded, 'down:declined') === null)
    // "in my players" is where a name is looked for ("is there a raju in my players"), "with my players" where money is: not the list itself.
    || listAsked(r.folded)
    // "arjun ke neeche kaun kaun hai", "who is under arjun": who sits below, asked and nothing else of them.
    || (said(r.folded, 'down:under') && said(r.folded, 'down:who') && !said(r.folded, 'down:other_read')),
  // "show me Arjun Mehta's downline": the tree is the user's whole downline, but the one named is
  // still looked up, so a name not in it is said ("no player called …"), never silently dropped.
  fill: (s) => {
    const named = s.namedPlayer();
    const depth = levelsAsked(s.r.folded);
    return { args: { ...(named ? { player: named } : {}), ...(depth !== null ? { depth } : {}) } };
  },
  examples: ['show my downline', 'my sub-agents'],
} satisfies ToolPlanning;
