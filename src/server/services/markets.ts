/**
 * Markets on the exchange side: the current price of an outcome, whether a market
 * takes bets now, and settling a market as the exchange does when the result is in — the seed's
 * own cascade (domain/cascade.ts) posted through the one ledger writer, with `market_settled`
 * told to every agent whose downline had bets on it, in the same transaction.
 */
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { auditAnchor, idempotencyKey } from '../../shared/contracts/agent-actions.js';
import { id, paisa } from '../../shared/contracts/agent-api.js';
import { paisaFromSql } from '../../shared/money.js';
import { type Db, queryRows } from '../db/client.js';
import type { Role } from '../db/schema.js';
import type { HierarchyNode, Movement, SettledBet } from '../domain/cascade.js';
import { settleMarket } from '../domain/cascade.js';
import { SeededRandom } from '../seed/random.js';
import { appendAudited } from './audit.js';
import type { Caller, ServiceDeps } from './caller.js';
import { type OutboxEvent, emitEvents } from './event-outbox.js';
import { withIdempotency } from './idempotency.js';
import { settleInRollups } from './bet-rollups.js';
import { recordMovements } from './ledger.js';
import type { WriteMeta } from './limits.js';

// ── prices ──────────────────────────────────────────────────────────────────────────────────────

/** How long a price holds: the demo exchange reprices every outcome every five minutes of business time. */
export const PRICE_TICK_MS = 5 * 60_000;

/**
 * The outcome's current decimal odds in hundredths. Outcomes store no price: the seed draws each
 * bet's odds from `int(30, 120) × 5` (three-way markets) or `int(22, 80) × 5` (two-way), so the
 * price is drawn from that same range, as a pure function of (outcome, five-minute tick): a base
 * fixed per outcome plus a small drift per tick, so it moves the way a market does, never jumps
 * across the range, and a preview and the write a minute later agree unless the tick turned.
 */
export function outcomePrice(outcomeId: string, outcomesInMarket: number, at: Date): number {
  const [low, high] = outcomesInMarket > 2 ? [30, 120] : [22, 80];
  const base = new SeededRandom(`price:${outcomeId}`).int(low, high);
  const tick = Math.floor(at.getTime() / PRICE_TICK_MS);
  const drift = new SeededRandom(`price:${outcomeId}:${tick}`).int(-3, 3);
  return Math.min(high, Math.max(low, base + drift)) * 5;
}

// ── a market as a bet sees it ───────────────────────────────────────────────────────────────────

export interface MarketState {
  fixtureId: string;
  fixtureName: string;
  fixtureStatus: 'scheduled' | 'live' | 'finished';
  startsAt: Date;
  marketId: string;
  marketName: string;
  marketStatus: 'open' | 'suspended' | 'settled' | 'void';
  outcomeId: string;
  outcomeName: string;
  outcomeIds: string[];
}

/**
 * The market's status for acceptance: `open` only while bets are taken. A fixture that is `live`
 * is in-play (its open markets trade); one whose start time has passed without going in-play has
 * closed its markets at the start, and a finished one takes nothing.
 */
export function tradingStatus(m: Pick<MarketState, 'marketStatus' | 'fixtureStatus' | 'startsAt'>, now: Date): string {
  if (m.marketStatus !== 'open') return m.marketStatus;
  if (m.fixtureStatus === 'finished') return 'finished';
  if (m.fixtureStatus !== 'live' && m.startsAt.getTime() <= now.getTime()) return 'started';
  return 'open';
}

/** Why the market takes no bet now, in words; null when it does. */
export function closedMarketReason(m: MarketState, now: Date): string | null {
  const status = tradingStatus(m, now);
  const what = `${m.marketName} of ${m.fixtureName}`;
  switch (status) {
    case 'open': return null;
    case 'finished': return `${m.fixtureName} has finished: ${m.marketName} takes no more bets`;
    case 'started': return `${m.fixtureName} started at ${m.startsAt.toISOString()} and ${m.marketName} is not in-play: bets closed at the start`;
    case 'suspended': return `${what} is suspended: bets are taken only while a market is open`;
    case 'settled': return `${what} is already settled`;
    default: return `${what} is ${status}: bets are taken only while a market is open`;
  }
}

/**
 * The outcome with its market and fixture, or NOT_FOUND. With `lock`, the market row is share-
 * locked: bets on it may go in side by side, but a settlement (which updates the row) waits for
 * them, so no bet lands on a market after its open bets were settled.
 */
export async function loadMarketState(db: Db, input: { marketId: string; outcomeId: string; fixtureId?: string | undefined }, lock: boolean): Promise<MarketState> {
  const [row] = await queryRows<{
    fixture_id: string; fixture_name: string; fixture_status: MarketState['fixtureStatus']; starts_at: Date | string;
    market_id: string; market_name: string; market_status: MarketState['marketStatus']; outcome_id: string; outcome_name: string;
  }>(db, sql`
    select f.id as fixture_id, f.name as fixture_name, f.status as fixture_status, f.starts_at,
      m.id as market_id, m.name as market_name, m.status as market_status, o.id as outcome_id, o.name as outcome_name
    from markets m join fixtures f on f.id = m.fixture_id join outcomes o on o.market_id = m.id and o.id = ${input.outcomeId}
    where m.id = ${input.marketId} ${lock ? sql`for share of m` : sql``}`);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'outcome not found in that market' });
  if (input.fixtureId !== undefined && row.fixture_id !== input.fixtureId) throw new TRPCError({ code: 'NOT_FOUND', message: 'market not found in that fixture' });
  const outcomeIds = (await queryRows<{ id: string }>(db, sql`select id from outcomes where market_id = ${input.marketId} order by ordinal`)).map((r) => r.id);
  return {
    fixtureId: row.fixture_id, fixtureName: row.fixture_name, fixtureStatus: row.fixture_status, startsAt: new Date(row.starts_at),
    marketId: row.market_id, marketName: row.market_name, marketStatus: row.market_status,
    outcomeId: row.outcome_id, outcomeName: row.outcome_name, outcomeIds,
  };
}

/** `markets.prices`: every outcome's price now, and whether the market takes bets. */
export async function marketPrices(deps: ServiceDeps, marketId: string) {
  const outcomes = await queryRows<{ id: string; name: string }>(deps.db, sql`select id, name from outcomes where market_id = ${marketId} order by ordinal`);
  if (outcomes.length === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'market not found' });
  const now = deps.now();
  const state = await loadMarketState(deps.db, { marketId, outcomeId: outcomes[0]!.id }, false);
  const refusal = closedMarketReason(state, now);
  return {
    fixtureId: state.fixtureId, fixtureName: state.fixtureName, marketId, marketName: state.marketName, status: state.marketStatus,
    open: refusal === null, refusal,
    outcomes: outcomes.map((o) => ({ outcomeId: o.id, name: o.name, odds: outcomePrice(o.id, outcomes.length, now) })),
    at: now.toISOString(),
  };
}

// ── the hierarchy above an account ──────────────────────────────────────────────────────────────

/** The ids above an account, root first: its path without itself. */
export function ancestorIds(path: string): string[] {
  return path.split('.').slice(0, -1);
}

/**
 * The agents above an account (walking its path), who hear about its logins, large bets and
 * markets. The platform admin is not told: DOMAIN.md sends events to "the agents above the player".
 */
export async function agentsAbove(db: Db, path: string): Promise<Array<{ id: string; largeBetThreshold: number }>> {
  const ids = ancestorIds(path);
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string; large_bet_threshold: string | number; depth: number }>(db, sql`
    select id, large_bet_threshold, depth from accounts where id = any(${sql.param(ids)}::uuid[]) and role = 'agent' order by depth`);
  return rows.map((r) => ({ id: r.id, largeBetThreshold: paisaFromSql(r.large_bet_threshold) }));
}

// ── settling ────────────────────────────────────────────────────────────────────────────────────

export interface SettleMarketInput {
  marketId: string;
  winnerOutcomeId: string;
}

export interface SettleMarketResult {
  marketId: string; marketName: string; fixtureId: string; fixtureName: string; winnerOutcomeId: string; winnerName: string;
  bets: number; settledAt: string;
  /** Per agent told, its downline's bets on the market and what its own book made (positive: it won). */
  recipients: Array<{ agentId: string; bets: number; bookResult: number }>;
}

/**
 * Settles an open (or suspended) market on `tx`: each open bet's result, the cascade's movements
 * (bet results, commission, each agent's share passed up) through recordMovements, the market
 * closed with its winner, and `market_settled` for every agent above a player who had bets on it.
 */
export async function settleMarketIn(deps: ServiceDeps, tx: Db, input: SettleMarketInput): Promise<SettleMarketResult> {
  const [market] = await queryRows<{ id: string; name: string; status: string; fixture_id: string; fixture_name: string }>(tx, sql`
    select m.id, m.name, m.status, f.id as fixture_id, f.name as fixture_name
    from markets m join fixtures f on f.id = m.fixture_id where m.id = ${input.marketId} for no key update of m`);
  if (!market) throw new TRPCError({ code: 'NOT_FOUND', message: 'market not found' });
  if (market.status !== 'open' && market.status !== 'suspended') {
    throw new TRPCError({ code: 'PRECONDITION_FAILED', message: `${market.name} of ${market.fixture_name} is already ${market.status}` });
  }
  const [winner] = await queryRows<{ id: string; name: string }>(tx, sql`
    select id, name from outcomes where id = ${input.winnerOutcomeId} and market_id = ${input.marketId}`);
  if (!winner) throw new TRPCError({ code: 'BAD_REQUEST', message: `that outcome is not one of ${market.name}'s` });

  const openBets = await queryRows<{ id: string; player_id: string; outcome_id: string; side: 'back' | 'lay'; stake: string | number; odds: number; path: string; parent_id: string }>(tx, sql`
    select b.id, b.player_id, b.outcome_id, b.side, b.stake, b.odds, p.path, p.parent_id
    from bets b join accounts p on p.id = b.player_id where b.market_id = ${input.marketId} and b.status = 'open'
    order by b.placed_at, b.id for update of b`);
  const bets: SettledBet[] = openBets.map((b) => ({
    id: b.id, playerId: b.player_id, outcomeId: b.outcome_id, side: b.side, stake: paisaFromSql(b.stake), odds: Number(b.odds),
  }));

  // Every account on the way up from a bettor: the cascade walks them level by level.
  const treeIds = new Set<string>();
  for (const b of openBets) for (const id of b.path.split('.')) treeIds.add(id);
  const nodes = new Map<string, HierarchyNode & { path: string }>();
  if (treeIds.size > 0) {
    const rows = await queryRows<{ id: string; role: Role; parent_id: string | null; depth: number; share_bps: number; commission_bps: number; path: string }>(tx, sql`
      select id, role, parent_id, depth, share_bps, commission_bps, path from accounts where id = any(${sql.param([...treeIds])}::uuid[])`);
    for (const r of rows) {
      nodes.set(r.id, { id: r.id, role: r.role, parentId: r.parent_id, depth: r.depth, shareBps: r.share_bps, commissionBps: r.commission_bps, path: r.path });
    }
  }
  const node = (id: string) => {
    const n = nodes.get(id);
    if (!n) throw new Error(`account ${id} is not in the settled market's tree`);
    return n;
  };
  const settled = settleMarket(input.marketId, winner.id, bets, node);
  const now = deps.now();

  if (bets.length > 0) {
    await tx.execute(sql`
      update bets b set status = 'settled', settled_at = ${now.toISOString()}::timestamptz, result = r.result
      from unnest(${sql.param(bets.map((b) => b.id))}::uuid[], ${sql.param(bets.map((b) => settled.results.get(b.id)!))}::bigint[]) as r(id, result)
      where b.id = r.id`);
  }
  await recordMovements(tx, settled.movements, now);
  await settleInRollups(tx, input.marketId, openBets.map((b, i) => ({ ...bets[i]!, agentId: b.parent_id, result: settled.results.get(b.id)! })));
  await tx.execute(sql`
    update markets set status = 'settled', winner_outcome_id = ${winner.id}, settled_at = ${now.toISOString()}::timestamptz
    where id = ${input.marketId}`);

  const recipients = await settlementRecipients(tx, openBets, settled.movements);
  const events: OutboxEvent[] = recipients.map((r) => ({
    kind: 'market_settled', recipientId: r.agentId,
    payload: {
      fixtureId: market.fixture_id, fixtureName: market.fixture_name, marketId: market.id, marketName: market.name, winnerName: winner.name,
      bets: r.bets, bookResult: r.bookResult,
    },
  }));
  await emitEvents(tx, events, now);
  return {
    marketId: market.id, marketName: market.name, fixtureId: market.fixture_id, fixtureName: market.fixture_name,
    winnerOutcomeId: winner.id, winnerName: winner.name, bets: bets.length, settledAt: now.toISOString(), recipients,
  };
}

/**
 * Each agent above a bettor, with its downline's bets on the market and its own book's result:
 * what it gained from its children (movements where it is the parent) less what it passed up
 * (where it is the child), which is exactly its ledger's change from this market.
 */
async function settlementRecipients(tx: Db, openBets: ReadonlyArray<{ path: string }>, movements: readonly Movement[]) {
  const paths = new Map<string, number>();
  for (const b of openBets) paths.set(b.path, (paths.get(b.path) ?? 0) + 1);
  const above = new Set<string>();
  for (const path of paths.keys()) for (const id of ancestorIds(path)) above.add(id);
  const agents = new Set((await queryRows<{ id: string }>(tx, sql`
    select id from accounts where id = any(${sql.param([...above])}::uuid[]) and role = 'agent'`)).map((r) => r.id));
  const betsByAgent = new Map<string, number>();
  for (const [path, count] of paths) {
    for (const id of ancestorIds(path)) if (agents.has(id)) betsByAgent.set(id, (betsByAgent.get(id) ?? 0) + count);
  }
  const result = new Map<string, number>();
  for (const m of movements) {
    result.set(m.parentId, (result.get(m.parentId) ?? 0) + m.amount);
    result.set(m.childId, (result.get(m.childId) ?? 0) - m.amount);
  }
  return [...betsByAgent].map(([agentId, bets]) => ({ agentId, bets, bookResult: result.get(agentId) ?? 0 }));
}

/** Settles a market in a transaction of its own (the exchange's result feed, the simulator). */
export async function settleMarketNow(deps: ServiceDeps, input: SettleMarketInput): Promise<SettleMarketResult> {
  return deps.db.transaction(async (tx) => settleMarketIn(deps, tx as unknown as Db, input));
}

// ── the procedures ──────────────────────────────────────────────────────────────────────────────

export const marketPricesInput = z.strictObject({ marketId: id });
export const marketPricesOutput = z.object({
  fixtureId: id, fixtureName: z.string(), marketId: id, marketName: z.string(), status: z.enum(['open', 'suspended', 'settled', 'void']),
  /** Takes bets now; else `refusal` says why (suspended, settled, started and not in-play, finished). */
  open: z.boolean(), refusal: z.string().nullable(),
  outcomes: z.array(z.object({ outcomeId: id, name: z.string(), odds: z.number().int() })),
  at: z.iso.datetime(),
});
export const marketSettleInput = z.strictObject({ marketId: id, winnerOutcomeId: id, idempotencyKey });
export const marketSettleOutput = z.object({
  marketId: id, marketName: z.string(), fixtureId: id, fixtureName: z.string(), winnerOutcomeId: id, winnerName: z.string(),
  bets: z.number().int(), settledAt: z.iso.datetime(),
  recipients: z.array(z.object({ agentId: id, bets: z.number().int(), bookResult: paisa })),
  auditId: z.number().int(), anchor: auditAnchor, replayed: z.boolean(),
});

/** `markets.settle`: the platform admin settles a market by hand, with its key and its audit row. */
export async function settleMarketAsAdmin(deps: ServiceDeps, caller: Caller, input: z.infer<typeof marketSettleInput>, meta: WriteMeta) {
  const { idempotencyKey: key, ...params } = input;
  return withIdempotency(deps, caller, 'markets.settle', key, params, async (tx) => {
    if (caller.role !== 'platform_admin') throw new TRPCError({ code: 'FORBIDDEN', message: 'only the platform settles markets: agents see the result when it is in' });
    const settled = await settleMarketIn(deps, tx, params);
    const audit = await appendAudited(tx, deps, caller.id, {
      action: 'markets.settle', targetId: settled.marketId, before: { status: 'open' },
      after: { status: 'settled', winnerOutcomeId: settled.winnerOutcomeId, bets: settled.bets }, requestId: meta.requestId, idempotencyKey: key,
    });
    return { ...settled, auditId: audit.id, anchor: audit.anchor };
  });
}
