import { hasAny, put, statusOf } from '../slots.js';
import type { ToolPlanning } from '../types.js';


/** The most rows one answer lists, asked as "top N" or "last N". */
const MOST_ROWS = 1000;

/** Ranking words shape the list: "largest bets", "smallest stakes first", "highest odds". */
function betSortOf(folded: string): { by: 'stake' | 'odds' | 'placedAt'; dir: 'asc' | 'desc' } | null {
  const m = /\b(largest|biggest|highest|heaviest|top|smallest|lowest|tiniest|least)\s+(?:\w+\s+)??(stakes?|bets?|odds)\b/.exec(folded);
  // "badi stake pehle", "highest odds first", "sort by stake", "odds se sort kar", "stake wise": ranked, largest first
  // unless said otherwise.
  // "deepak ke sabse chote bets pehle", "biggest first" (said of the bets just listed): by stake.
  const sized = /\b(?:(smallest|lowest|tiniest|chhot[aie]|chot[aie]|kam)|bad[aie]|bar[aie]|big|bigger|biggest|largest|highest|heaviest)\s+(?:(?:stakes?|bets?|daav|saude)\s+)?(?:pehle|first|upar|on\s+top)\b/.exec(folded);
  if (!m && sized && !/\b(?:odds|bhav)\b/.test(folded)) return { by: 'stake', dir: sized[1] !== undefined ? 'asc' : 'desc' };
  // "chhote stake se bade tak", "purani se nayi": Hindi's from … to says the order.
  const fromTo = /\b(?:(chhot\w*|chot\w*|kam|small\w*)|bad\w*|bar[aie]|zyada|big\w*)\s+(?:stake\s+|bets?\s+)?se\s+(?:bad\w*|bar[aie]|zyada|chhot\w*|chot\w*|kam)\b/.exec(folded);
  if (!m && fromTo) return { by: /\bodds\b/.test(folded) ? 'odds' : 'stake', dir: fromTo[1] !== undefined ? 'asc' : 'desc' };
  const oldNew = /\b(?:(puran\w*|old\w*)|nay[aie]|new\w*|latest)\s+(?:bets?\s+)?se\s+(?:puran\w*|nay[aie]|new\w*|latest|old\w*)\b/.exec(folded);
  if (!m && oldNew) return { by: 'placedAt', dir: oldNew[1] !== undefined ? 'asc' : 'desc' };
  const ranked = /\b(?:(smallest|lowest|chhoti|choti|kam)|bad[aie]|big|biggest|largest|high|highest|zyada|unch[aie])\s+(stakes?|odds)\s+(?:pehle|first|upar|on\s+top)\b/.exec(folded)
    ?? /\b(?:sort|sorted|order|ordered|rank|ranked)\s+(?:by|se|on)\s+(stakes?|odds)\b|\b(stakes?|odds)\s+(?:se|ne|nusar|wise|ke\s+hisaab\s+se)\s+(?:sort|order|rank)|\b(stakes?|odds)\s+wise\b/.exec(folded);
  if (!m && ranked) {
    const key = ranked.slice(1).find((g) => g !== undefined && /^(?:stakes?|odds)$/.test(g))!;
    const asc = ranked[0]!.match(/\b(?:smallest|lowest|chhoti|choti|kam)\b/) !== null;
    return { by: key === 'odds' ? 'odds' : 'stake', dir: asc ? 'asc' : 'desc' };
  }
  // "latest 10 bets", "the most recent ones", "oldest first": by when they were placed, said so on the card.
  if (!m) {
    // "latest 10 dikhao bas" after someone's bets: a count of the newest, the bets understood.
    const when = /\b(?:(latest|newest|recent|most\s+recent|last)|(oldest|earliest))\s+(?:\d+\s+|\p{L}+\s+)?(?:bets?|ones|daav|saude)\b|\b(?:(newest|latest)|(oldest|earliest))\s+(?:first|pehle|upar|\d{1,3}\b(?!\s*(?:days?|weeks?|months?|din|hafte|mahine)))/u.exec(folded);
    if (!when) return null;
    return { by: 'placedAt', dir: when[2] ?? when[4] ? 'asc' : 'desc' };
  }
  const dir = /^(?:smallest|lowest|tiniest|least)$/.test(m[1]!) ? 'asc' : 'desc';
  return { by: m[2] === 'odds' ? 'odds' : 'stake', dir };
}

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'bets', precedence: 130, exclusive: false, shownOn: '/agent/bets', refreshes: true, follows: { player: true, fixture: true, status: true, count: MOST_ROWS, refine: (r) => { const sort = betSortOf(r.folded); return sort && { sort }; } }, range: 'dates',
  vocabulary: [
    'bet', 'bets', 'betting', 'wager', 'wagers', 'ticket', 'tickets', 'slip', 'slips', 'stake', 'stakes', 'punt', 'punts',
    'open', 'unsettled', 'pending', 'running', 'active', 'settled', 'closed', 'completed', 'finished', 'graded', 'void', 'voided', 'cancelled', 'canceled',
  ],
  // "highest odds neha took last week": odds ranked are the bets they were taken at.
  triggers: (r) => hasAny(r, 'bet', 'bets', 'betting', 'wager', 'wagers', 'ticket', 'tickets', 'punts') || /\b(?:highest|lowest|biggest|best|top|smallest)\s+odds\b/.test(r.folded),
  fill(s) {
    const fixture = s.fixture({ takesPlayer: true });
    const player = s.player();
    const args: Record<string, unknown> = {};
    put(args, 'player', player !== fixture ? player : null);
    put(args, 'fixture', fixture);
    put(args, 'status', statusOf(s.r));
    const range = s.range(false);
    if (range) Object.assign(args, range);
    if (s.r.count) args.limit = Math.min(s.r.count, MOST_ROWS);
    put(args, 'sort', betSortOf(s.r.folded));
    return { args };
  },
  examples: ["show Rahul's bets", 'open bets for Anita', 'bets on MI vs CSK'],
} satisfies ToolPlanning;
