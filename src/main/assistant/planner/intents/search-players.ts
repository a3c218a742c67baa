import { hasAny } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { holds, means, ruleAt, said, tokensIn } from './concepts.js';


/** "find players called raj", "look up ishaan", "kaun kaun Rahul hai": a search by name, nothing else asked. */
export const SEARCH_VERBS = ['find', 'search', 'lookup', 'locate', 'called', 'named', 'name', 'names', 'anyone', 'someone', 'anybody', 'somebody', 'paas', 'kaun',
  'dhundo', 'dhoondo', 'dhundho', 'dhoondho', 'dhund', 'khojo', 'surname', 'shodh', 'shodha', 'shodhun', 'vethuku', 'vedhuku', 'ngra', 'ngira'];

/** Words of a match: with them a search is for a fixture, not a person. */
export const FIXTURE_WORDS = ['match', 'matches', 'fixture', 'fixtures', 'game', 'games', 'event', 'events'];

/** "who is sneha?", "ye ishaan kaun hai?": nothing but question marks after the name or the "kaun hai". */
function whoIs(folded: string): boolean {
  const at = ruleAt(folded, 'find:who_is');
  const after = at ? tokensIn(folded).slice(at.to) : [];
  return at !== null && after.every((t) => t === '?') && (!means(tokensIn(folded)[at.from], 'find:kaun') || after.length <= 1);
}

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'find_players', precedence: 200, exclusive: true, fallback: true,
  vocabulary: [...SEARCH_VERBS, 'look'],
  triggers: (r) => r.names.length > 0 && !hasAny(r, ...FIXTURE_WORDS) && !r.fixture
    && (hasAny(r, ...SEARCH_VERBS) || said(r.folded, 'find:look_up') || said(r.folded, 'find:in_name')
      // "is there a raju in my players?", "do I have a zoe": asking whether such a person exists.
      || said(r.folded, 'find:is_there')
      // "koi sharma hai mere neeche?", "sharma naam ka koi hai": the same, in Hindi.
      // "jitne bhi Rahul hain sab ki list de", "saare sharma dikhao": everyone so named, listed.
      || holds(r.folded, 'find:someone_so_named')
      // "raj nu per la yaaravadhu irukangala?", "sharma nu ethana per irukanga": so named, in Tamil.
      || said(r.folded, 'find:named_south')
      // "mohammed se start hone wale players": names that start so.
      || holds(r.folded, 'find:starting_with')
      // "how many rahuls do I have", "kitne rahul hain": how many so named.
      || holds(r.folded, 'find:how_many')
      // "who is sneha", "who's rahul", "ye ishaan kaun hai": who a name is, in the user's book.
      || whoIs(r.folded)),
  fill: (s) => ({ args: { query: s.r.names.map((n) => n.text).join(' ') } }),
  examples: ['find players called raj', 'look up ishaan'],
} satisfies ToolPlanning;
