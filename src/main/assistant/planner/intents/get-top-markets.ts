import { hasAny, metricOf, periodOf, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { holds } from './concepts.js';


/** The most rows one answer lists, asked as "top N" or "last N". */
const MOST_ROWS = 50;

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'top_markets', precedence: 50, exclusive: true, range: 'period', follows: { metric: true, count: MOST_ROWS },
  vocabulary: ['top', 'bottom', 'lowest', 'biggest', 'largest', 'busiest', 'best', 'worst', 'highest', 'hottest', 'popular', 'most', 'active', 'heaviest', 'volume', 'turnover', 'traded'],
  // "top markets", "most exposed markets", "which markets have the most volume", "where is most of the
  // betting volume", "sabse zyada exposure kaun se market pe hai": markets ranked.
  triggers: (r) => holds(r.folded, 'top:ranked'),
  fill(s) {
    const r = s.r;
    const metric = metricOf(r) ?? 'volume';
    const period = r.range ? periodOf(r.range.from, r.range.to, s.today)
      : hasAny(r, 'week', 'weekly') ? 'week' : hasAny(r, 'month', 'monthly') ? 'month' : 'today';
    // "best market this month": the one best, the first of the ranking.
    const one = r.count === null && holds(r.folded, 'top:one');
    return { args: put({ period, metric }, 'limit', r.count ? Math.min(r.count, MOST_ROWS) : one ? 1 : null) };
  },
  examples: ['top markets by volume this week', 'top 5 markets by pnl today'],
} satisfies ToolPlanning;
