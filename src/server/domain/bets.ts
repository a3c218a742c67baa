import { mulDivFloor, mulDivRound } from '../../shared/money.js';

/** Odds are decimal in hundredths (1.85 → 185); evens is 100. */
export const ODDS_SCALE = 100;

export type Side = 'back' | 'lay';
export interface BetTerms {
  side: Side;
  stake: number;
  odds: number;
  outcomeId: string;
}

/** What the player wins if the bet wins: back = stake × (odds − 1), lay = stake. */
export function potentialWin(bet: Pick<BetTerms, 'side' | 'stake' | 'odds'>): number {
  return bet.side === 'back' ? mulDivRound(bet.stake, bet.odds - ODDS_SCALE, ODDS_SCALE) : bet.stake;
}

/** The most the player can lose: back = stake, lay = stake × (odds − 1). */
export function liability(bet: Pick<BetTerms, 'side' | 'stake' | 'odds'>): number {
  return bet.side === 'back' ? bet.stake : mulDivRound(bet.stake, bet.odds - ODDS_SCALE, ODDS_SCALE);
}

/** The player's result if `winnerOutcomeId` wins the market. */
export function betResult(bet: BetTerms, winnerOutcomeId: string): number {
  const betOutcomeWon = bet.outcomeId === winnerOutcomeId;
  const betWins = bet.side === 'back' ? betOutcomeWon : !betOutcomeWon;
  return betWins ? potentialWin(bet) : -liability(bet);
}

/** Exchange commission on a player's net market result: only winners pay, rounded down. */
export function commissionOn(netMarketResult: number, commissionBps: number): number {
  if (netMarketResult <= 0) return 0;
  return mulDivFloor(netMarketResult, commissionBps, 10_000);
}

/** The part of an agent's gross it passes to its upline: (1 − share) × gross, half away from zero. */
export function passUp(gross: number, shareBps: number): number {
  return mulDivRound(gross, 10_000 - shareBps, 10_000);
}

/**
 * The book's position on each outcome of one market: −Σ of the players' results if that outcome
 * wins. Positive means the book gains. Exposure is the worst position, as a positive liability.
 */
export function marketPositions(betsOnMarket: readonly BetTerms[], outcomeIds: readonly string[]): Map<string, number> {
  const positions = new Map<string, number>();
  for (const outcomeId of outcomeIds) {
    let position = 0;
    for (const bet of betsOnMarket) position -= betResult(bet, outcomeId);
    positions.set(outcomeId, position);
  }
  return positions;
}

export function worstCaseExposure(positions: Iterable<number>): number {
  let worst = 0;
  for (const p of positions) worst = Math.min(worst, p);
  return worst < 0 ? -worst : 0; // never −0
}

export interface AcceptanceLimits {
  minStake: number;
  perClickWin: number;
  aggregateDailyWin: number;
  creditLimit: number;
}
export interface AcceptanceState {
  marketStatus: string;
  /** Winnings already realised today in the player's timezone. */
  realisedWinToday: number;
  openLiability: number;
  take: number;
}
export type AcceptanceVerdict = { ok: true } | { ok: false; reason: string };

/** The one acceptance rule for every bet, player's or hedge (DOMAIN.md, Bets). */
export function checkBetAcceptance(
  bet: Pick<BetTerms, 'side' | 'stake' | 'odds'>,
  limits: AcceptanceLimits,
  state: AcceptanceState,
): AcceptanceVerdict {
  if (state.marketStatus !== 'open') return { ok: false, reason: 'market_not_open' };
  if (!Number.isSafeInteger(bet.stake) || bet.stake <= 0) return { ok: false, reason: 'invalid_stake' };
  if (!Number.isSafeInteger(bet.odds) || bet.odds <= ODDS_SCALE) return { ok: false, reason: 'invalid_odds' };
  if (bet.stake < limits.minStake) return { ok: false, reason: 'below_min_stake' };
  const win = potentialWin(bet);
  if (win > limits.perClickWin) return { ok: false, reason: 'above_per_click_win' };
  if (state.realisedWinToday + win > limits.aggregateDailyWin) return { ok: false, reason: 'above_aggregate_daily_win' };
  const available = limits.creditLimit - state.take;
  if (state.openLiability + liability(bet) > available) return { ok: false, reason: 'insufficient_available' };
  return { ok: true };
}
