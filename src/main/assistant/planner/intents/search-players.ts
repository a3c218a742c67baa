import { hasAny } from '../slots.js';
import type { ToolPlanning } from '../types.js';


/** "find players called raj", "look up ishaan", "kaun kaun Rahul hai": a search by name, nothing else asked. */
export const SEARCH_VERBS = ['find', 'search', 'lookup', 'locate', 'called', 'named', 'name', 'names', 'anyone', 'someone', 'anybody', 'somebody', 'paas', 'kaun',
  'dhundo', 'dhoondo', 'dhundho', 'dhoondho', 'dhund', 'khojo', 'surname', 'shodh', 'shodha', 'shodhun', 'vethuku', 'vedhuku', 'ngra', 'ngira'];

/** Words of a match: with them a search is for a fixture, not a person. */
export const FIXTURE_WORDS = ['match', 'matches', 'fixture', 'fixtures', 'game', 'games', 'event', 'events'];

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'find_players', precedence: 200, exclusive: true, fallback: true,
  vocabulary: [...SEARCH_VERBS, 'look'],
  triggers: (r) => r.names.length > 0 && !hasAny(r, ...FIXTURE_WORDS) && !r.fixture
    && (hasAny(r, ...SEARCH_VERBS) || /\blook\s+up\b|\bin\s+(?:the|their)\s+name\b/.test(r.folded)
      // "is there a raju in my players?", "do I have a zoe": asking whether such a person exists.
      || /\b(?:is|are)\s+there\s+(?:a|an|any)\b|\bdo\s+(?:i|we)\s+have\s+(?:a|an|any)\b/.test(r.folded)
      // "koi sharma hai mere neeche?", "sharma naam ka koi hai": the same, in Hindi.
      // "jitne bhi Rahul hain sab ki list de", "saare sharma dikhao": everyone so named, listed.
      || /\bkoi\s+(?:\S+\s+){1,2}(?:hai|he|h|hain)\b|\bnaam\s+(?:ka|ki|ke)\b|\b(?:jitne|jo\s+bhi|jitne\s+bhi)\s+(?:bhi\s+)?\S+\s+(?:hain|hai|he|h)\b/.test(r.folded)
      // "raj nu per la yaaravadhu irukangala?", "sharma nu ethana per irukanga": so named, in Tamil.
      || /\bnu\s+(?:per|peru|peyar)\b|\bani\s+(?:evaru|kaun)\b/.test(r.folded)
      // "mohammed se start hone wale players": names that start so.
      || /\b(?:se|from|with)\s+(?:start|shuru|begin)\w*\s+(?:hone|hote|ho)?\s*(?:wale|wali|vale)?\b|\bstart(?:s|ing)?\s+with\b/.test(r.folded)
      // "how many rahuls do I have", "kitne rahul hain": how many so named.
      || /\bhow\s+many\s+\p{L}+\s+(?:do\s+(?:i|we)|have\s+(?:i|we)|are\s+there|(?:i|we)\s+have|in\s+my)\b|\bkitne\s+\p{L}+\s+(?:hain|hai|he|h)\b/u.test(r.folded)
      // "who is sneha", "who's rahul", "ye ishaan kaun hai": who a name is, in the user's book.
      || /^(?:who\s+is|whos|who|who\s+was)\s+(?:this\s+|that\s+|the\s+)?\p{L}+(?:\s+\p{L}+)?\s*\?*$|\b(?:kaun|kon)\s+(?:hai|he|h)\s*\??$/u.test(r.folded.trim())),
  fill: (s) => ({ args: { query: s.r.names.map((n) => n.text).join(' ') } }),
  examples: ['find players called raj', 'look up ishaan'],
} satisfies ToolPlanning;
