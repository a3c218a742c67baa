import { hasAny } from '../slots.js';
import type { ToolPlanning } from '../types.js';

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'downline', precedence: 140, exclusive: false, shownOn: '/agent/downline', refreshes: true,
  vocabulary: ['downline', 'subagents', 'hierarchy', 'tree', 'structure', 'network'],
  triggers: (r) => hasAny(r, 'downline', 'subagents', 'hierarchy', 'tree', 'structure', 'network')
    // "in my players" is where a name is looked for ("is there a raju in my players"), "with my players" where money is: not the list itself.
    || /(?<!\b(?:in|among|amongst|with)\s)\b(?:my|all|list|show)\s+(?:the\s+)?(?:players|agents|accounts|clients)\b(?:\s+(?:please|pls|plz|only|list|bhai|ji))*\s*[.!?]*$/.test(r.folded)
    // "arjun ke neeche kaun kaun hai", "who is under arjun": who sits below, asked and nothing else of them.
    || (/\b(?:neeche|niche|under|below|beneath)\b/.test(r.folded) && /\b(?:kaun|kon|who|whom|log)\b/.test(r.folded)
      && !/\b(?:owe|owes|owed|pnl|bets?|exposure|limit|creditlimit|commission|outstanding|payable|receivable|balance|take|lost|won)\b/.test(r.folded)),
  // "show me Arjun Mehta's downline": the tree is the user's whole downline, but the one named is
  // still looked up, so a name not in it is said ("no player called …"), never silently dropped.
  fill: (s) => {
    const named = s.namedPlayer();
    return { args: named ? { player: named } : {} };
  },
  examples: ['show my downline', 'my sub-agents'],
} satisfies ToolPlanning;
