/**
 * The exchange side of the book: the one place a bet is accepted, a player's or an
 * agent's hedge alike, and the events a player's activity sends to the agents above it. Every
 * check is domain/bets.ts's checkBetAcceptance; this file only gathers what it needs (limits,
 * today's realised winnings in the player's timezone, open liability, take) and puts each refusal
 * in words.
 */
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { dayRangeToInstants, localDate } from '../../shared/dates.js';
import { formatOdds } from '../../shared/format.js';
import { formatPoints, paisaFromSql } from '../../shared/money.js';
import { type Db, queryRows } from '../db/client.js';
import { bets } from '../db/schema.js';
import { type AcceptanceLimits, type Side, checkBetAcceptance, liability, potentialWin } from '../domain/bets.js';
import type { ServiceDeps } from './caller.js';
import { type OutboxEvent, emitEvents } from './event-outbox.js';
import { type MarketState, agentsAbove, closedMarketReason, loadMarketState, outcomePrice, tradingStatus } from './markets.js';
import { addBetToRollups } from './bet-rollups.js';
import { LIABILITY } from './bet-terms-sql.js';
import { addToMarketVolume } from './market-volume.js';

export interface BetInput {
  accountId: string;
  marketId: string;
  outcomeId: string;
  side: Side;
  stake: number;
  /** The price the bettor saw: if the market has moved off it, the bet is refused rather than taken at another price. */
  odds?: number | undefined;
}

export interface PlaceBetMeta {
  /** Placed from an agent's self account to offset its book (said so in `large_bet`). */
  hedge: boolean;
  /** The fixture the bettor named, checked against the market's. */
  fixtureId?: string | undefined;
}

/** A bettor as acceptance sees it. */
export interface BettorState {
  id: string;
  name: string;
  path: string;
  /** The agent the player bets under: its bets count in that agent's rollups (bet-rollups.ts). */
  parentId: string;
  limits: AcceptanceLimits;
  take: number;
  openLiability: number;
  realisedWinToday: number;
}

/** A bet refused by a guardrail: the guardrail's code (checkBetAcceptance's, or `price_moved`) and the reason in words. */
export class BetRefusedError extends TRPCError {
  constructor(readonly reason: string, message: string, code: 'BAD_REQUEST' | 'PRECONDITION_FAILED') {
    super({ code, message });
  }
}

// The market's state and the price are facts that moved under the bettor; the rest is the bet asking too much.
const REFUSAL_CODE: Record<string, 'BAD_REQUEST' | 'PRECONDITION_FAILED'> = {
  market_not_open: 'PRECONDITION_FAILED', price_moved: 'PRECONDITION_FAILED', insufficient_available: 'PRECONDITION_FAILED',
};

/**
 * The bettor's limits and state, read in `db` (the bet's transaction). With `lock`, the account
 * row is locked, so two bets of one player are judged one after the other against the same
 * open liability; settlements lock the balance, not this row, and are not held up.
 */
export async function loadBettor(deps: ServiceDeps, db: Db, accountId: string, lock: boolean): Promise<BettorState> {
  const [a] = await queryRows<{
    id: string; name: string; role: string; path: string; parent_id: string; timezone: string; credit_limit: string | number;
    per_click_win: string | number | null; aggregate_daily_win: string | number | null; min_stake: string | number | null;
  }>(db, sql`
    select a.id, a.display_name as name, a.role, a.path, a.parent_id, a.timezone, a.credit_limit, pl.per_click_win, pl.aggregate_daily_win, pl.min_stake
    from accounts a left join player_limits pl on pl.account_id = a.id where a.id = ${accountId}
    ${lock ? sql`for no key update of a` : sql``}`);
  if (!a) throw new TRPCError({ code: 'NOT_FOUND', message: 'player not found' });
  if (a.role !== 'player' || a.per_click_win === null) throw new TRPCError({ code: 'BAD_REQUEST', message: `${a.name} is not a player: only players bet` });
  const today = localDate(deps.now(), a.timezone);
  const { start, end } = dayRangeToInstants(today, today, a.timezone);
  const [state] = await queryRows<{ take: string | null; open_liability: string | null; settled_today: string | null }>(db, sql`
    select (select take from balances where child_id = ${accountId}) as take,
      (select sum(${LIABILITY}) from bets b where b.player_id = ${accountId} and b.status = 'open') as open_liability,
      (select sum(result) from bets where player_id = ${accountId} and status = 'settled'
        and settled_at >= ${start.toISOString()}::timestamptz and settled_at < ${end.toISOString()}::timestamptz) as settled_today`);
  return {
    id: a.id, name: a.name, path: a.path, parentId: a.parent_id,
    limits: {
      creditLimit: paisaFromSql(a.credit_limit), perClickWin: paisaFromSql(a.per_click_win),
      aggregateDailyWin: paisaFromSql(a.aggregate_daily_win), minStake: paisaFromSql(a.min_stake),
    },
    take: paisaFromSql(state?.take),
    openLiability: paisaFromSql(state?.open_liability),
    // Winnings net of today's losses: a day that is down so far has realised no winnings.
    realisedWinToday: Math.max(0, paisaFromSql(state?.settled_today)),
  };
}

export interface BetVerdict {
  odds: number;
  liability: number;
  potentialWin: number;
  refusal: { reason: string; message: string } | null;
}

/** The one judgement behind a preview and a write: the price now, and checkBetAcceptance's verdict in words. */
export function judgeBet(
  market: MarketState, bettor: BettorState, bet: { side: Side; stake: number; expectedOdds?: number | undefined }, now: Date,
): BetVerdict {
  const odds = outcomePrice(market.outcomeId, market.outcomeIds.length, now);
  const terms = { side: bet.side, stake: bet.stake, odds };
  const win = Number.isSafeInteger(bet.stake) && bet.stake > 0 ? potentialWin(terms) : 0;
  const risk = Number.isSafeInteger(bet.stake) && bet.stake > 0 ? liability(terms) : 0;
  const verdict = { odds, liability: risk, potentialWin: win };
  const verdictOf = checkBetAcceptance(terms, bettor.limits, {
    marketStatus: tradingStatus(market, now), realisedWinToday: bettor.realisedWinToday, openLiability: bettor.openLiability, take: bettor.take,
  });
  if (!verdictOf.ok) return { ...verdict, refusal: { reason: verdictOf.reason, message: refusalWords(verdictOf.reason, market, bettor, verdict, bet.stake, now) } };
  if (bet.expectedOdds !== undefined && bet.expectedOdds !== odds) {
    return { ...verdict, refusal: { reason: 'price_moved', message: `the price of ${market.outcomeName} moved from ${formatOdds(bet.expectedOdds)} to ${formatOdds(odds)}: check the new price and try again` } };
  }
  return { ...verdict, refusal: null };
}

function refusalWords(reason: string, market: MarketState, bettor: BettorState, v: Omit<BetVerdict, 'refusal'>, stake: number, now: Date): string {
  const l = bettor.limits;
  switch (reason) {
    case 'market_not_open': return closedMarketReason(market, now) ?? `${market.marketName} is not open`;
    case 'invalid_stake': return 'the stake must be a positive whole number of paisa';
    case 'invalid_odds': return `the price of ${market.outcomeName} is not above evens`;
    case 'below_min_stake': return `the stake of ${formatPoints(stake)} is below ${bettor.name}'s minimum stake of ${formatPoints(l.minStake)}`;
    case 'above_per_click_win':
      return `the potential win of ${formatPoints(v.potentialWin)} is above ${bettor.name}'s per-click win limit of ${formatPoints(l.perClickWin)}`;
    case 'above_aggregate_daily_win':
      return `${formatPoints(bettor.realisedWinToday)} already won today plus the potential win of ${formatPoints(v.potentialWin)} is above ${bettor.name}'s daily win limit of ${formatPoints(l.aggregateDailyWin)}`;
    case 'insufficient_available':
      return `the liability of ${formatPoints(v.liability)} on top of ${formatPoints(bettor.openLiability)} already at risk on open bets is more than ${bettor.name}'s ${formatPoints(l.creditLimit - bettor.take)} available (credit limit ${formatPoints(l.creditLimit)} less take ${formatPoints(bettor.take)})`;
    default: return `the bet was refused: ${reason}`;
  }
}

export interface PlacedBet {
  betId: string; playerId: string; playerName: string; fixtureId: string; fixtureName: string; marketId: string; marketName: string;
  outcomeId: string; outcomeName: string; side: Side; stake: number; odds: number; liability: number; potentialWin: number;
  placedAt: string;
  /** The agents told of a large bet. */
  largeBetRecipients: string[];
}

/**
 * Accepts a bet on `tx` or refuses it (BetRefusedError, nothing written): locks the market for
 * share and the bettor's row, judges it, inserts it, then tells every agent above the bettor
 * whose large-bet threshold the stake reaches — in the same transaction, so a bet that rolls back
 * takes its events with it.
 */
export async function placeBet(deps: ServiceDeps, tx: Db, input: BetInput, meta: PlaceBetMeta = { hedge: false }): Promise<PlacedBet> {
  const market = await loadMarketState(tx, { marketId: input.marketId, outcomeId: input.outcomeId, fixtureId: meta.fixtureId }, true);
  const bettor = await loadBettor(deps, tx, input.accountId, true);
  const now = deps.now();
  const verdict = judgeBet(market, bettor, { side: input.side, stake: input.stake, expectedOdds: input.odds }, now);
  if (verdict.refusal) throw new BetRefusedError(verdict.refusal.reason, verdict.refusal.message, REFUSAL_CODE[verdict.refusal.reason] ?? 'BAD_REQUEST');

  const betId = randomUUID();
  await tx.insert(bets).values({
    id: betId, playerId: bettor.id, marketId: market.marketId, outcomeId: market.outcomeId, side: input.side, stake: input.stake,
    odds: verdict.odds, status: 'open', placedAt: now,
  });
  await addToMarketVolume(tx, { bettorId: bettor.id, bettorPath: bettor.path, marketId: market.marketId, stake: input.stake, placedAt: now });
  await addBetToRollups(tx, {
    agentId: bettor.parentId, marketId: market.marketId, outcomeId: market.outcomeId, outcomeIds: market.outcomeIds,
    side: input.side, stake: input.stake, odds: verdict.odds,
  });
  const recipients = (await agentsAbove(tx, bettor.path)).filter((a) => a.largeBetThreshold <= input.stake).map((a) => a.id);
  const events: OutboxEvent[] = recipients.map((recipientId) => ({
    kind: 'large_bet', recipientId,
    payload: {
      betId, playerId: bettor.id, playerName: bettor.name, fixtureId: market.fixtureId, fixtureName: market.fixtureName,
      marketName: market.marketName, outcomeName: market.outcomeName, side: input.side, stake: input.stake, odds: verdict.odds,
      liability: verdict.liability, hedge: meta.hedge,
    },
  }));
  await emitEvents(tx, events, now);
  return {
    betId, playerId: bettor.id, playerName: bettor.name, fixtureId: market.fixtureId, fixtureName: market.fixtureName,
    marketId: market.marketId, marketName: market.marketName, outcomeId: market.outcomeId, outcomeName: market.outcomeName,
    side: input.side, stake: input.stake, odds: verdict.odds, liability: verdict.liability, potentialWin: verdict.potentialWin,
    placedAt: now.toISOString(), largeBetRecipients: recipients,
  };
}

/** A bet in a transaction of its own (the simulator; tests). */
export async function placeBetNow(deps: ServiceDeps, input: BetInput, meta?: PlaceBetMeta): Promise<PlacedBet> {
  return deps.db.transaction(async (tx) => placeBet(deps, tx as unknown as Db, input, meta));
}

/**
 * `player_login` for every agent above the account that signed in, on `tx` (the sign-in's own
 * transaction). Players sign in on the exchange, not the desk; the desk's own sign-ins (agents)
 * are told to the agents above them the same way.
 */
export async function emitPlayerLogin(deps: ServiceDeps, tx: Db, account: { id: string; displayName: string; path: string }): Promise<number> {
  const agents = await agentsAbove(tx, account.path);
  await emitEvents(tx, agents.map((a) => ({ kind: 'player_login' as const, recipientId: a.id, payload: { playerId: account.id, playerName: account.displayName } })), deps.now());
  return agents.length;
}
