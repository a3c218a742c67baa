import { hasAny, metricOf, periodOf, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';


/** The most rows one answer lists, asked as "top N" or "last N". */
const MOST_ROWS = 50;

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'top_markets', precedence: 50, exclusive: true, range: 'period', follows: { metric: true, count: MOST_ROWS },
  vocabulary: ['top', 'bottom', 'lowest', 'biggest', 'largest', 'busiest', 'best', 'worst', 'highest', 'hottest', 'popular', 'most', 'active', 'heaviest', 'volume', 'turnover', 'traded'],
  triggers: (r) => /\b(?:top|biggest|largest|busiest|best|worst|highest|hottest|popular|most\s+active|heaviest|bottom|lowest|least)\b.*\b(?:markets?|matches|fixtures|events|games)\b/.test(r.folded)
    // "most exposed markets", "most traded games": "most" and one describing word before the markets.
    || /\bmost\s+\p{L}+\s+(?:markets?|matches|fixtures|events|games)\b/u.test(r.folded)
    || /\b(?:which|what)\s+(?:markets?|matches|fixtures|events|games)\b.*\b(?:most|highest|biggest|largest|top)\b/.test(r.folded)
    // "where is most of the betting volume": where the volume is, by market.
    || /\b(?:where|which)\b.*\bmost\s+(?:of\s+(?:the\s+)?)?(?:\p{L}+\s+)?(?:volume|action|money|turnover)\b/u.test(r.folded)
    // "sabse zyada exposure kaun se market pe hai", "kis match mein sabse bada volume".
    || /\bsabse\s+(?:zyada|jyada|jada|bada|badi|bade|adhik|upar)\b.*\b(?:markets?|matches|match|fixtures|games|game)\b|\b(?:kaun|kon|konsa|kaunsa|konse|kaunse|kis)\s+(?:se\s+)?(?:markets?|match|matches|game)\b.*\bsabse\b/.test(r.folded),
  fill(s) {
    const r = s.r;
    const metric = metricOf(r) ?? 'volume';
    const period = r.range ? periodOf(r.range.from, r.range.to, s.today)
      : hasAny(r, 'week', 'weekly') ? 'week' : hasAny(r, 'month', 'monthly') ? 'month' : 'today';
    // "best market this month": the one best, the first of the ranking.
    const one = r.count === null && /\b(?:the\s+)?(?:best|top|worst|biggest|busiest|most\s+\p{L}+)\s+(?:market|match|game|fixture)\b(?!s)/u.test(r.folded);
    return { args: put({ period, metric }, 'limit', r.count ? Math.min(r.count, MOST_ROWS) : one ? 1 : null) };
  },
  examples: ['top markets by volume this week', 'top 5 markets by pnl today'],
} satisfies ToolPlanning;
