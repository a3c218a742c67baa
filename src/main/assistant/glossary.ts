/**
 * What the desk's own words mean, for "what does take mean?" or "exposure kya hota hai": a new
 * agent asks, and a read of their take would answer a different question. Each entry names the
 * words the planner folds a message to (grammar.ts: synonyms, slang and typos already canonical)
 * and says the meaning the domain gives it (the design's DOMAIN.md). Plain text, no figures: a
 * definition is never an answer about anyone's book.
 */
export const GLOSSARY = {
  take: {
    words: ['take', 'outstanding', 'udhaar', 'balance', 'dues'],
    text: 'Take is what one side owes the other right now. A player\'s take is what they owe you: their settled losses net of their wins, less what they have paid you, plus what you have paid them. When it is positive they owe you; when it is negative, you owe them. Your own take towards your upline works the same way: positive, you owe your upline. In Hindi it is the hisaab, and what is owed on it the udhaar. Ask "who owes me" to see it.',
  },
  exposure: {
    words: ['exposure'],
    text: 'Exposure is the most your book can lose on open markets: for each market, your downline\'s open bets are looked at for every outcome, and the worst one counts. It is shown in full and at your share. A match\'s exposure is the sum of its markets. Ask "exposure on India vs Australia" to see it.',
  },
  creditlimit: {
    words: ['creditlimit', 'limit', 'limits', 'credit'],
    text: 'A credit limit (CL) is the credit an account is given by the agent above it: play on the desk is on credit (udhaar), settled later. What is still available to bet is the credit limit minus the take. You set your players\' limits, and only when you confirm the change; your upline sets yours.',
  },
  available: {
    words: ['available', 'headroom', 'available credit'],
    text: 'Available is the credit limit minus the take: how much of its credit an account can still use for bets.',
  },
  commission: {
    words: ['commission', 'comm', 'commissions'],
    text: 'Commission is what a player pays you on a market they won: their commission rate of their net winnings on that market, rounded down. Losing markets pay none.',
  },
  pnl: {
    words: ['pnl'],
    text: 'PnL is profit and loss: the result of settled bets over a period. Yours is your share of your downline\'s result after commission; a player\'s is their own win or loss.',
  },
  settlement: {
    words: ['settlement', 'settlements', 'settle', 'settling'],
    text: 'A settlement records money paid between you and a player to clear their take, in full or in part, and moves the take towards zero. I prepare one on request, and nothing moves until you confirm it. (A market settles when its result is known: its bets are then won or lost.)',
  },
  upline: {
    words: ['upline'],
    text: 'Your upline is the agent above you: they set your credit limit, and the part of your downline\'s result you do not keep passes up to them. Ask "what do I owe my upline" for your balance with them.',
  },
  downline: {
    words: ['downline'],
    text: 'Your downline is everyone below you: your players and sub-agents, and theirs in turn. Your direct downline is the accounts directly under you.',
  },
  subagent: {
    words: ['subagents', 'subagent'],
    text: 'A sub-agent is an agent under you, with players (and perhaps sub-agents) of their own. They keep their share of their downline\'s result and pass the rest up to you, so it counts in your book.',
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
  back: {
    words: ['back', 'backing', 'backed', 'lagai'],
    text: 'A back bet (lagai, in Indian bookie slang: usually on the favourite) is a bet that an outcome will win. If it wins, the player wins stake × (odds − 1); if it does not, they lose the stake.',
  },
  lay: {
    words: ['lay', 'laying', 'laid', 'khai', 'khaai', 'khayi', 'khaayi'],
    text: 'A lay bet (khai, in Indian bookie slang: "eating" the bet, as a bookie does) is a bet that an outcome will not win. If the outcome loses, the player wins the stake; if it wins, they lose stake × (odds − 1), which is the lay bet\'s liability.',
  },
  bet: {
    // "lagai" reaches the planner folded to "bets" (grammar.ts): in Hindi, "lagana" is placing a bet.
    words: ['bet', 'bets'],
    text: 'A bet is a player\'s stake on one outcome of a market at given odds. It is either a back bet, for the outcome (lagai, in Indian bookie slang: usually on the favourite), or a lay bet, against it (khai: "eating" the bet, as a bookie does). It stays open until its market settles, then it is won or lost (or void).',
  },
  odds: {
    words: ['odds', 'rate', 'rates', 'bhav', 'bhaav', 'price'],
    text: 'Odds (the rate, or bhav) are decimal: a back bet that wins pays stake × (odds − 1), so the higher the odds, the less likely the outcome and the more it pays. A lay bet at those odds risks stake × (odds − 1) to win the stake.',
  },
  stake: {
    words: ['stake'],
    text: 'The stake is the amount a bet is placed for. A back bet risks its stake; a lay bet wins its stake if the outcome loses. A player\'s bets must be at least their minimum stake.',
  },
  market: {
    words: ['market', 'markets'],
    text: 'A market is one question bet on within a match, like its winner, with the outcomes it can have. Bets are placed on a market\'s outcomes while it is open; it settles when its result is known.',
  },
  fixture: {
    words: ['fixture', 'fixtures', 'event', 'events'],
    text: 'A fixture is a match or event, like India vs Australia. It has one or more markets, and its exposure is the sum of theirs.',
  },
  outcome: {
    words: ['outcome', 'outcomes', 'selection', 'selections', 'runner', 'runners'],
    text: 'An outcome (a selection, or runner) is one of the results a market can have, like one team winning. Each bet is on one outcome, back or lay.',
  },
  book: {
    words: ['book', 'books'],
    text: 'Your book is the bets of your downline that you stand behind: their results, less what passes up to your upline, are yours. What it can lose on open markets is its exposure; what it made on settled ones is your PnL.',
  },
  khaiwal: {
    words: ['khaiwal', 'khaiwaal', 'khaiwala', 'khaiwale', 'bookie', 'bookies', 'bookmaker'],
    text: 'A khaiwal is a bookie: the one who takes bets, laying them (khai) and paying out when they win. On the desk, the agents of a book play that part: what the players lose, the book wins, shared up the line by each agent\'s share.',
  },
  satta: {
    words: ['satta', 'sattebazi', 'sattebaazi'],
    text: 'Satta is the everyday Hindi word for betting. On the desk it is your downline\'s bets on the markets of matches, back (lagai) or lay (khai).',
  },
  line: {
    words: ['line', 'lines'],
    text: 'The line is the chain of accounts: your upline above you and your downline below you. A result is passed up the line, each agent keeping its share. (A credit line is a credit limit.)',
  },
  gross: {
    words: ['gross'],
    text: 'Gross is your downline\'s whole result for a period: what your players lost after commission (their PnL, negated), plus what your sub-agents pass up. You keep your share of it and pass the rest up.',
  },
} as const satisfies Record<string, { words: readonly string[]; text: string }>;

export type GlossaryTerm = keyof typeof GLOSSARY;

/**
 * What sets two terms apart, for "back vs lay?" or "exposure and PnL: how are they different",
 * said before both meanings. A pair not here is answered with the two meanings alone.
 */
const DIFFERENCES: Readonly<Record<string, string>> = {
  'back+lay': 'A back bet is for an outcome and a lay bet is against it: one wins when the other loses.',
  'exposure+pnl': 'Exposure is what open bets could still cost you; PnL is what settled bets made or lost.',
  'exposure+take': 'Exposure is what open bets could still cost; take is money owed now, from bets already settled.',
  'pnl+take': 'PnL is the result of a period\'s settled bets; take is what is owed right now, after every payment made.',
  'available+creditlimit': 'The credit limit is the whole credit given; available is what is left of it after the take.',
  'creditlimit+take': 'The credit limit is the credit given; the take is what is owed against it. Available is the difference.',
  'downline+upline': 'Your upline is the agent above you; your downline is everyone below you.',
  'exposure+liability': 'Liability is what one bet can lose the player; exposure is what all your downline\'s open bets on a market can lose your book.',
  'commission+pnl': 'Commission is paid on a market a player won; it is taken off their winnings before their PnL counts.',
  'settlement+take': 'The take is what is owed; a settlement is a payment that clears some or all of it.',
  'odds+stake': 'The stake is the amount bet; the odds decide what it wins.',
  'fixture+market': 'A fixture is the match; a market is one question bet on within it, like its winner.',
  'market+outcome': 'A market is the question; its outcomes are the answers bet on.',
  'khaiwal+lay': 'Khai is the lay bet; a khaiwal is the bookie who lays.',
};

/** The intent of a definition asked for: `definition:take`, or `definition:back+lay` for two told apart. */
export const DEFINITION_INTENT = 'definition:';

export function definitionOf(intent: string): string | null {
  if (!intent.startsWith(DEFINITION_INTENT)) return null;
  const terms = intent.slice(DEFINITION_INTENT.length).split('+');
  if (terms.length > 2 || !terms.every((t) => Object.hasOwn(GLOSSARY, t))) return null;
  const texts = terms.map((t) => GLOSSARY[t as GlossaryTerm].text);
  const difference = DIFFERENCES[[...terms].sort().join('+')];
  return [...(terms.length > 1 && difference ? [difference] : []), ...texts].join(' ');
}
