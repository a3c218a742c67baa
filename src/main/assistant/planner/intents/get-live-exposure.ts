import { hasAny, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { said } from './concepts.js';

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'exposure', precedence: 100, exclusive: false, shownOn: '/agent/exposure', refreshes: true, follows: { fixture: true },
  vocabulary: ['exposure', 'exposed', 'liability', 'liabilities', 'risk', 'book', 'position', 'positions', 'worst', 'case'],
  // "book" is the whole position only now and as such: "how did the whole book do yesterday" is a
  // result, "anyone named Pooja in my book" a search.
  // "what's my worst case here" asks the exposure in the trade's other words.
  triggers: (r) => hasAny(r, 'exposure', 'exposed', 'liability', 'liabilities', 'risk', 'position', 'positions') || said(r.folded, 'exp:worst_case')
    || (hasAny(r, 'book') && r.range === null && !said(r.folded, 'exp:in_book')),
  fill(s) {
    // "total runs wale market pe exposure" after a question on ind aus: a market is of a match,
    // the one the conversation is on when none is named.
    const fixture = s.fixture({ takesPlayer: false }) ?? (s.r.market ? s.conversationFixture() : null);
    const args = put({}, 'fixture', fixture);
    if (s.r.market && fixture) args.market = s.r.market;
    return { args };
  },
  examples: ['exposure on India vs Australia', "what's my total exposure right now"],
} satisfies ToolPlanning;
