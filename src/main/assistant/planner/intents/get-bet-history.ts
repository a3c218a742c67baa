import { hasAny, put, statusOf } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { found, holds, isDigits, means, ruleAt, said, tokensIn } from './concepts.js';


/** The most rows one answer lists, asked as "top N" or "last N". */
const MOST_ROWS = 1000;

/** Whether a token is a count of one to three figures ("latest 10"), not a longer number or an amount ("10k"). */
const smallCount = (t: string | undefined) => isDigits(t) && t!.length <= 3;

/** "newest first", "oldest 5": the edge of the list said, then where it goes; "latest 7 days" is a period. */
function edgeFirst(folded: string): { from: number } | null {
  const tokens = tokensIn(folded);
  const edge = found(folded, 'bets:when_edge').find((m) => means(tokens[m.to], 'bets:edge_next')
    || (smallCount(tokens[m.to]) && !means(tokens[m.to + 1], 'bets:period_unit')));
  return edge ?? null;
}

/** Ranking words shape the list: "largest bets", "smallest stakes first", "highest odds". */
function betSortOf(folded: string): { by: 'stake' | 'odds' | 'placedAt'; dir: 'asc' | 'desc' } | null {
  const tokens = tokensIn(folded);
  const m = ruleAt(folded, 'bets:ranked_noun');
  if (m) return { by: tokens[m.to - 1] === 'odds' ? 'odds' : 'stake', dir: means(tokens[m.from], 'bets:rank_small') ? 'asc' : 'desc' };
  // "badi stake pehle", "highest odds first", "sort by stake", "odds se sort kar", "stake wise": ranked, largest first
  // unless said otherwise.
  // "deepak ke sabse chote bets pehle", "biggest first" (said of the bets just listed): by stake.
  const sized = ruleAt(folded, 'bets:sized');
  if (sized && !said(folded, 'bets:odds_word')) return { by: 'stake', dir: means(tokens[sized.from], 'bets:size_small') ? 'asc' : 'desc' };
  // "chhote stake se bade tak", "purani se nayi": Hindi's from … to says the order.
  const fromTo = ruleAt(folded, 'bets:from_to');
  if (fromTo) return { by: said(folded, 'bets:odds') ? 'odds' : 'stake', dir: means(tokens[fromTo.from], 'bets:from_small') ? 'asc' : 'desc' };
  const oldNew = ruleAt(folded, 'bets:old_new');
  if (oldNew) return { by: 'placedAt', dir: means(tokens[oldNew.from], 'bets:age_old') ? 'asc' : 'desc' };
  const ranked = ruleAt(folded, 'bets:ranked');
  if (ranked) {
    const span = tokens.slice(ranked.from, ranked.to);
    const asc = span.some((t) => means(t, 'bets:rank_first_small'));
    return { by: span.includes('odds') ? 'odds' : 'stake', dir: asc ? 'asc' : 'desc' };
  }
  // "latest 10 bets", "the most recent ones", "oldest first": by when they were placed, said so on the card.
  // "latest 10 dikhao bas" after someone's bets: a count of the newest, the bets understood.
  const when = ruleAt(folded, 'bets:when') ?? edgeFirst(folded);
  if (!when) return null;
  return { by: 'placedAt', dir: means(tokens[when.from], 'bets:when_old') ? 'asc' : 'desc' };
}

/**
 * "lay bets", "back side", "khai wali bets": the bets of one side. Both sides said ("back and lay
 * bets", "khai lagai": the trade's word for the back is read as the bets) is every bet.
 */
function sideOf(folded: string): 'back' | 'lay' | null {
  const tokens = tokensIn(folded);
  const sided = ruleAt(folded, 'bets:sided');
  if (!sided) return null;
  const sides = [...found(folded, 'bets:side'), ...found(folded, 'bets:side_hi')];
  if (sides.some((m) => means(tokens[m.from], 'bets:lay')) && sides.some((m) => !means(tokens[m.from], 'bets:lay'))) return null;
  return means(tokens[sided.from], 'bets:lay') ? 'lay' : 'back';
}

/** What a follow-up says of the bets just listed: "biggest first", "only the lay ones". */
function refineOf(r: { folded: string }): Record<string, unknown> | null {
  const sort = betSortOf(r.folded);
  const side = sideOf(r.folded);
  return sort || side ? { ...(sort && { sort }), ...(side && { side }) } : null;
}

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'bets', precedence: 130, exclusive: false, shownOn: '/agent/bets', refreshes: true, follows: { player: true, fixture: true, status: true, count: MOST_ROWS, refine: refineOf }, range: 'dates',
  vocabulary: [
    'bet', 'bets', 'betting', 'wager', 'wagers', 'ticket', 'tickets', 'slip', 'slips', 'stake', 'stakes', 'punt', 'punts',
    'open', 'unsettled', 'pending', 'running', 'active', 'settled', 'closed', 'completed', 'finished', 'graded', 'void', 'voided', 'cancelled', 'canceled',
  ],
  // "highest odds neha took last week": odds ranked are the bets they were taken at.
  // "allowed to win 10k on a single bet" names a limit by the bet it is per, and asks for no bets.
  triggers: (r) => (hasAny(r, 'bet', 'bets', 'betting', 'wager', 'wagers', 'ticket', 'tickets', 'punts') || holds(r.folded, 'bets:odds_ranked'))
    && !holds(r.folded, 'limit:per_bet'),
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
    put(args, 'side', sideOf(s.r.folded));
    return { args };
  },
  examples: ["show Rahul's bets", 'open bets for Anita', 'bets on MI vs CSK'],
} satisfies ToolPlanning;
