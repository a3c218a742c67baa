/**
 * Hedge bets (DOMAIN.md, Hedge bets): an agent lays off its own exposure by betting
 * from its self account — a player beside the agent, under the agent's upline, so the hedge sits
 * in the upline's book, and `self_of` ties it to the agent, whose exposure it offsets
 * (services/exposure.ts counts the caller's self account's open bets whole, on the agent's side).
 * A dry run and the write, like every change: the same acceptance as any bet (services/bets.ts).
 */
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { PLATFORM_MAX_CREDIT_LIMIT, auditAnchor, idempotencyKey, placeHedgeBetInput, placeHedgeBetOutput } from '../../shared/contracts/agent-actions.js';
import { id, paisa } from '../../shared/contracts/agent-api.js';
import { paisaInput } from '../../shared/contracts/bounds.js';
import { normalizeForSearch } from '../../shared/text.js';
import { type Db, queryRows } from '../db/client.js';
import { accounts, balances, playerLimits } from '../db/schema.js';
import { betResult, worstCaseExposure } from '../domain/bets.js';
import { appendAudited } from './audit.js';
import { type BettorState, judgeBet, loadBettor, placeBet } from './bets.js';
import type { Caller, ServiceDeps } from './caller.js';
import { marketExposures } from './exposure.js';
import { withIdempotency } from './idempotency.js';
import type { WriteMeta } from './limits.js';
import { loadMarketState } from './markets.js';

export const hedgePreviewInput = placeHedgeBetInput;
export const hedgePreviewOutput = z.object({
  fixtureName: z.string(), marketName: z.string(), outcomeName: z.string(), side: z.enum(['back', 'lay']),
  stake: paisa, odds: z.number().int(), liability: paisa, potentialWin: paisa,
  /** The caller's worst case on this market at its share (getLiveExposure's exposureAtShare), before and after the hedge. */
  exposureBefore: paisa, exposureAfter: paisa,
  /** The same, gross (the whole downline's position). */
  grossExposureBefore: paisa, grossExposureAfter: paisa,
  refusal: z.string().nullable(),
});
export const hedgePlaceInput = placeHedgeBetInput.extend({
  idempotencyKey,
  /** The price the preview showed: if the market has moved off it, nothing is placed (PRECONDITION_FAILED). */
  expectedOdds: paisaInput.positive(),
});
export const hedgePlaceOutput = placeHedgeBetOutput.extend({
  odds: z.number().int(), betId: id, selfAccountId: id, liability: paisa, potentialWin: paisa,
  auditId: z.number().int(), anchor: auditAnchor, replayed: z.boolean(),
});

type HedgeParams = z.infer<typeof hedgePreviewInput>;

/** A self account's limits, chosen once when it is made (see selfAccountLimits). */
const SELF_MIN_STAKE = 100;

/**
 * The self account bets the agent's own money against its upline: its credit limit is the agent's
 * own CL (what the upline trusts the agent with), its per-click and daily win are the platform's
 * ceiling (a hedge is sized by the exposure it offsets, not by a punter's limits), and its minimum
 * stake the smallest there is. No commission: an agent laying off with its own upline pays none.
 */
export function selfAccountLimits(agentCreditLimit: number) {
  return {
    creditLimit: Math.min(agentCreditLimit, PLATFORM_MAX_CREDIT_LIMIT),
    perClickWin: PLATFORM_MAX_CREDIT_LIMIT, aggregateDailyWin: PLATFORM_MAX_CREDIT_LIMIT, minStake: SELF_MIN_STAKE,
  };
}

const NO_UPLINE = 'the platform has no upline to lay off with: a hedge is placed in your upline\'s book';

function uplineRefusal(caller: Caller): string | null {
  if (caller.role !== 'agent' || caller.parentId === null) return NO_UPLINE;
  return null;
}

/** The agent's self account, if it has one yet. */
export async function findSelfAccount(db: Db, agentId: string): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(db, sql`select id from accounts where self_of = ${agentId}`);
  return row?.id ?? null;
}

/**
 * The agent's self account, made on first use inside the hedge's transaction: `<agent>.self`,
 * "<Agent name> (self)", beside the agent under its upline. Two first hedges at once both insert;
 * the unique self_of index lets one in and the other reads it.
 */
export async function ensureSelfAccount(deps: ServiceDeps, tx: Db, agent: Caller): Promise<string> {
  const existing = await findSelfAccount(tx, agent.id);
  if (existing) return existing;
  const selfId = randomUUID();
  const displayName = `${agent.name} (self)`;
  const username = `${agent.username}.self`;
  const limits = selfAccountLimits(agent.creditLimit);
  const inserted = await tx.insert(accounts).values({
    id: selfId, username, displayName, searchName: normalizeForSearch(displayName), role: 'player', parentId: agent.parentId,
    // A sibling of the agent: its upline's path, then its own id.
    path: `${agent.path.split('.').slice(0, -1).join('.')}.${selfId}`, depth: agent.depth,
    shareBps: 0, commissionBps: 0, creditLimit: limits.creditLimit, timezone: agent.timezone, selfOf: agent.id, createdAt: deps.now(),
  }).onConflictDoNothing({ target: accounts.selfOf }).returning({ id: accounts.id });
  if (inserted.length === 0) {
    const raced = await findSelfAccount(tx, agent.id);
    if (raced) return raced;
    throw new TRPCError({ code: 'CONFLICT', message: `the username ${username} is taken: the self account cannot be made` });
  }
  await tx.insert(playerLimits).values({ accountId: selfId, perClickWin: limits.perClickWin, aggregateDailyWin: limits.aggregateDailyWin, minStake: limits.minStake });
  // Every account with an upline has its running take, as the seed writes it.
  await tx.insert(balances).values({ childId: selfId, parentId: agent.parentId!, take: 0 });
  return selfId;
}

/** The self account as acceptance would see it before it exists: fresh, nothing owed, nothing open. */
function freshSelf(caller: Caller): BettorState {
  const l = selfAccountLimits(caller.creditLimit);
  return { id: caller.id, name: `${caller.name} (self)`, path: caller.path, parentId: caller.parentId!, limits: l, take: 0, openLiability: 0, realisedWinToday: 0 };
}

/** The dry run: the bet slip, the caller's exposure on the market before and after, or why it would be refused. Never writes. */
export async function previewHedge(deps: ServiceDeps, caller: Caller, input: HedgeParams) {
  const market = await loadMarketState(deps.db, input, false);
  const now = deps.now();
  const selfId = await findSelfAccount(deps.db, caller.id);
  const bettor = selfId ? await loadBettor(deps, deps.db, selfId, false) : freshSelf(caller);
  const verdict = judgeBet(market, bettor, { side: input.side, stake: input.stake }, now);
  const refusal = uplineRefusal(caller) ?? verdict.refusal?.message ?? null;

  const [scope] = await marketExposures(deps, caller, sql`m.id = ${market.marketId}`);
  const hedge = { side: input.side, stake: input.stake, odds: verdict.odds, outcomeId: market.outcomeId };
  const at = (outcomeId: string, which: 'position' | 'positionAtShare') => scope?.outcomes.find((o) => o.outcomeId === outcomeId)?.[which] ?? 0;
  const after = (which: 'position' | 'positionAtShare') => worstCaseExposure(market.outcomeIds.map((o) => at(o, which) + (refusal === null ? betResult(hedge, o) : 0)));
  return {
    fixtureName: market.fixtureName, marketName: market.marketName, outcomeName: market.outcomeName, side: input.side, stake: input.stake,
    odds: verdict.odds, liability: verdict.liability, potentialWin: verdict.potentialWin,
    exposureBefore: scope?.exposureAtShare ?? 0, exposureAfter: after('positionAtShare'),
    grossExposureBefore: scope?.exposure ?? 0, grossExposureAfter: after('position'),
    refusal,
  };
}

/**
 * The write, in one transaction with its idempotency key: the self account (made if it is the
 * first hedge), the bet through placeBet at the price the preview showed, and the audit row in
 * the agent's chain. A refusal rolls it all back, the self account included.
 */
export async function placeHedge(deps: ServiceDeps, caller: Caller, input: z.infer<typeof hedgePlaceInput>, meta: WriteMeta) {
  const { idempotencyKey: key, ...params } = input;
  return withIdempotency(deps, caller, 'hedge.place', key, params, async (tx) => {
    const noUpline = uplineRefusal(caller);
    if (noUpline) throw new TRPCError({ code: 'FORBIDDEN', message: noUpline });
    const selfId = await ensureSelfAccount(deps, tx, caller);
    const bet = await placeBet(deps, tx, {
      accountId: selfId, marketId: input.marketId, outcomeId: input.outcomeId, side: input.side, stake: input.stake, odds: input.expectedOdds,
    }, { hedge: true, fixtureId: input.fixtureId });
    const audit = await appendAudited(tx, deps, caller.id, {
      action: 'hedge.place', targetId: bet.betId, before: null,
      after: {
        betId: bet.betId, selfAccountId: selfId, fixtureId: bet.fixtureId, marketId: bet.marketId, outcomeId: bet.outcomeId,
        side: bet.side, stake: bet.stake, odds: bet.odds, liability: bet.liability,
      },
      requestId: meta.requestId, idempotencyKey: key,
    });
    return {
      fixtureName: bet.fixtureName, marketName: bet.marketName, outcomeName: bet.outcomeName, side: bet.side, stake: bet.stake, odds: bet.odds,
      betId: bet.betId, selfAccountId: selfId, liability: bet.liability, potentialWin: bet.potentialWin, auditId: audit.id, anchor: audit.anchor,
    };
  });
}
