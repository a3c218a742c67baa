import { hasAny } from '../slots.js';
import { FIXTURE_WORDS, SEARCH_VERBS } from './search-players.js';
import type { ToolPlanning } from '../types.js';
import { said } from './concepts.js';

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'find_fixtures', precedence: 201, exclusive: true, fallback: true,
  vocabulary: ['look'],
  triggers: (r) => (r.fixture !== null || r.names.length > 0) && hasAny(r, ...FIXTURE_WORDS)
    && (hasAny(r, ...SEARCH_VERBS) || said(r.folded, 'find:look_up')),
  fill: (s) => ({ args: { query: s.r.fixture ?? s.r.names.map((n) => n.text).join(' ') } }),
  examples: ['find the madrid fixture', 'search matches with india'],
} satisfies ToolPlanning;
