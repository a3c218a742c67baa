/**
 * What the desk's own words mean, for "what does take mean?" or "exposure kya hota hai": a new
 * agent asks, and a read of their take would answer a different question. Each entry names the
 * words the planner folds a message to (grammar.ts: synonyms, slang and typos already canonical)
 * and says the meaning the domain gives it (the design's DOMAIN.md). Plain text, no figures: a
 * definition is never an answer about anyone's book.
 */
export const GLOSSARY = {
  take: {
    words: ['take', 'outstanding', 'udhaar'],
    text: 'Take is what one side owes the other right now. A player\'s take is what they owe you: their settled losses, less what they have paid you. When it is negative, you owe them. Your own take towards your upline works the same way. Ask "who owes me" to see it.',
  },
  exposure: {
    words: ['exposure'],
    text: 'Exposure is the most your book can lose on open markets: for each market, your downline\'s open bets are looked at for every outcome, and the worst one counts. It is shown in full and at your share. A match\'s exposure is the sum of its markets. Ask "exposure on India vs Australia" to see it.',
  },
  creditlimit: {
    words: ['creditlimit', 'limit', 'limits'],
    text: 'A credit limit (CL) is the credit an account is given by the agent above it. What is still available to bet is the credit limit minus the take. You set your players\' limits, and only when you confirm the change; your upline sets yours.',
  },
  available: {
    words: ['available', 'headroom'],
    text: 'Available is the credit limit minus the take: how much of its credit an account can still use for bets.',
  },
  commission: {
    words: ['commission', 'comm'],
    text: 'Commission is what a player pays you on a market they won: their commission rate of their net winnings on that market, rounded down. Losing markets pay none.',
  },
  pnl: {
    words: ['pnl'],
    text: 'PnL is profit and loss: the result of settled bets over a period. Yours is your share of your downline\'s result after commission; a player\'s is their own win or loss.',
  },
  settlement: {
    words: ['settlement', 'settlements', 'settle', 'settling'],
    text: 'A settlement records money paid between you and a player to clear their take, in full or in part, and moves the take towards zero. I prepare one on request, and nothing moves until you confirm it.',
  },
  upline: {
    words: ['upline'],
    text: 'Your upline is the agent above you: they set your credit limit, and the part of your downline\'s result you do not keep passes up to them. Ask "what do I owe my upline" for your balance with them.',
  },
  downline: {
    words: ['downline', 'subagents'],
    text: 'Your downline is everyone below you: your players and sub-agents, and theirs in turn. Your direct downline is the accounts directly under you.',
  },
  share: {
    words: ['share', 'partnership', 'patti'],
    text: 'Your share (partnership) is the part of your downline\'s result that you keep. The rest passes up to your upline.',
  },
  hedge: {
    words: ['hedge', 'hedging'],
    text: 'A hedge bet is a bet from your own self account, placed in your upline\'s book, that offsets your exposure on a market. Like any change, it is placed only when you confirm it.',
  },
  liability: {
    words: ['liability', 'liabilities'],
    text: 'A bet\'s liability is the most the player can lose on it: the stake on a back bet, stake × (odds − 1) on a lay bet.',
  },
  perclickwin: {
    words: ['perclickwin'],
    text: 'Per-click win is the most a player may win on a single bet.',
  },
  dailywin: {
    words: ['dailywin'],
    text: 'Aggregate daily win is the most a player may win in one day, counting what they have already won that day.',
  },
  minstake: {
    words: ['minstake'],
    text: 'Minimum stake is the smallest bet a player may place.',
  },
} as const satisfies Record<string, { words: readonly string[]; text: string }>;

export type GlossaryTerm = keyof typeof GLOSSARY;

/** The intent of a definition asked for: `definition:take`. */
export const DEFINITION_INTENT = 'definition:';

export function definitionOf(intent: string): string | null {
  if (!intent.startsWith(DEFINITION_INTENT)) return null;
  const term = intent.slice(DEFINITION_INTENT.length);
  return Object.hasOwn(GLOSSARY, term) ? GLOSSARY[term as GlossaryTerm].text : null;
}
