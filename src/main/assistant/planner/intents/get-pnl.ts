import { hasAny, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { holds, said } from './concepts.js';

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'pnl', precedence: 120, exclusive: false, shownOn: '/agent/pnl', follows: { player: true, fixture: true }, range: 'dates',
  vocabulary: ['pnl', 'profit', 'profits', 'loss', 'losses', 'lose', 'lost', 'losing', 'win', 'wins', 'won', 'winnings', 'earnings', 'result', 'results', 'performance'],
  triggers: (r) => hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'lose', 'lost', 'losing', 'win', 'wins', 'won', 'winnings', 'earnings', 'result', 'results', 'performance')
    // "how much did I make", but not "what commission did I earn": the commission is what was earned.
    // (only when the commission is said with the earning: "…make last week, and my commission?" asks both).
    || (holds(r.folded, 'pnl:did_i_make') && !holds(r.folded, 'pnl:commission_earned'))
    || said(r.folded, 'pnl:up_or_down') || holds(r.folded, 'pnl:how_doing')
    // "how much is Karan down this month": a player up or down over a period is their P&L.
    || holds(r.folded, 'pnl:how_much_up_down')
    // "worst 5 players this month": players ranked by their results.
    || holds(r.folded, 'pnl:ranked_people')
    // "how did the india sa game go for us", "how did Sneha do last week": asked how it went.
    || holds(r.folded, 'pnl:how_went'),
  fill(s) {
    const args: Record<string, unknown> = { ...s.range(true) };
    put(args, 'player', s.player());
    const fixture = s.r.fixture ?? (s.r.pronounFixture ? s.fixture({ takesPlayer: true }) : null) ?? s.fixture({ takesPlayer: true });
    if (fixture && fixture !== args.player) put(args, 'fixture', fixture);
    if (s.r.market && args.fixture) args.market = s.r.market;
    return { args };
  },
  examples: ["what's my pnl today", 'pnl last week', "Rahul Sharma's pnl this month"],
} satisfies ToolPlanning;
