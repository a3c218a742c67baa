import { hasAny } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { means, ruleAt, said, tokensIn } from './concepts.js';

/** "show my players", "all agents please.": the list itself asked, the message ending there. */
function listAsked(folded: string): boolean {
  const at = ruleAt(folded, 'down:list');
  const tokens = tokensIn(folded);
  return at !== null && !means(tokens[at.from - 1], 'down:place') && tokens.slice(at.to).every((t) => t === '.' || t === '!' || t === '?');
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
    return { args: named ? { player: named } : {} };
  },
  examples: ['show my downline', 'my sub-agents'],
} satisfies ToolPlanning;
