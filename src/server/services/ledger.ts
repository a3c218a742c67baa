import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { type Movement, type Posting, postingsOf } from '../domain/cascade.js';
import { type LedgerKind, balances, ledger, ledgerDaily, ledgerMarketDaily, playerDailyByAgent, playerMonthlyByAgent } from '../db/schema.js';

/**
 * The one way money is written: each movement's two postings, and the pair's running take, in
 * the caller's transaction. Call it with the transaction handle, never with a bare connection.
 */
export async function recordMovements(tx: Db, movements: readonly Movement[], occurredAt: Date, newEntryId: () => string = randomUUID): Promise<void> {
  const moving = movements.filter((m) => m.amount !== 0);
  if (moving.length === 0) return;
  const pairs = moving.map((m) => postingsOf(m, newEntryId(), occurredAt));
  const postings = pairs.flat();
  await tx.insert(ledger).values(postings);
  const byPair = new Map<string, { childId: string; parentId: string; take: number }>();
  for (const m of moving) {
    const pair = byPair.get(m.childId) ?? { childId: m.childId, parentId: m.parentId, take: 0 };
    if (pair.parentId !== m.parentId) throw new Error(`account ${m.childId} has one upline, not two`);
    pair.take += m.amount;
    byPair.set(m.childId, pair);
  }
  await tx.insert(balances).values([...byPair.values()])
    .onConflictDoUpdate({ target: balances.childId, set: { take: sql`${balances.take} + excluded.take` } });
  // A player's side of a bet's result or its commission has no reader by market (ledger_market_daily).
  await addToRollups(tx, postings, pairs.flatMap(([agentSide, childSide]) => (PLAYER_KINDS.has(childSide.kind) ? [agentSide] : [agentSide, childSide])),
    pairs.flatMap(([, childSide]) => (PLAYER_KINDS.has(childSide.kind) ? [childSide] : [])));
}

/**
 * The kinds booked between a player and its agent (domain/cascade.ts): their child side is always a
 * player's (a hedge's too: an agent's own bets are its self account's, a player's).
 */
const PLAYER_KINDS: ReadonlySet<LedgerKind> = new Set(['bet_result', 'commission']);

/** The UTC day a posting's rollup row is kept under, as the rollup tables' `day` column holds it. */
export const rollupDay = (at: Date): string => at.toISOString().slice(0, 10);
/** The UTC month a posting's monthly rollup row is kept under: its first day, as the `month` columns hold it. */
export const rollupMonth = (at: Date): string => `${at.toISOString().slice(0, 7)}-01`;

/**
 * Adds postings to the daily rollups: all of them per account and kind, `byMarketOnes` (those of
 * agents and the platform) per market too, and `playerSides` (a player's side of a posting with
 * its agent) under the agent. Rows are upserted in key order, so two transactions that touch the
 * same accounts lock their rows in the same order and never deadlock on them.
 */
async function addToRollups(tx: Db, postings: readonly Posting[], byMarketOnes: readonly Posting[], playerSides: readonly Posting[]): Promise<void> {
  const daily = new Map<string, { accountId: string; kind: LedgerKind; day: string; amount: number; postings: number }>();
  const byMarket = new Map<string, { accountId: string; marketId: string; kind: LedgerKind; day: string; amount: number; postings: number }>();
  const byAgent = new Map<string, { agentId: string; kind: LedgerKind; day: string; playerId: string; amount: number; postings: number }>();
  const byAgentMonthly = new Map<string, { agentId: string; kind: LedgerKind; month: string; playerId: string; amount: number; postings: number }>();
  for (const p of postings) {
    const day = rollupDay(p.occurredAt);
    addPosting(daily, `${p.accountId}|${p.kind}|${day}`, p.amount, () => ({ accountId: p.accountId, kind: p.kind, day }));
  }
  for (const p of byMarketOnes) {
    const { marketId } = p;
    if (marketId === null) continue;
    const day = rollupDay(p.occurredAt);
    addPosting(byMarket, `${p.accountId}|${day}|${marketId}|${p.kind}`, p.amount, () => ({ accountId: p.accountId, marketId, kind: p.kind, day }));
  }
  for (const p of playerSides) {
    const day = rollupDay(p.occurredAt);
    const month = rollupMonth(p.occurredAt);
    const row = { agentId: p.counterpartyId, kind: p.kind, playerId: p.accountId };
    addPosting(byAgent, `${p.counterpartyId}|${p.kind}|${day}|${p.accountId}`, p.amount, () => ({ ...row, day }));
    addPosting(byAgentMonthly, `${p.counterpartyId}|${p.kind}|${month}|${p.accountId}`, p.amount, () => ({ ...row, month }));
  }
  const inKeyOrder = <T>(rows: Map<string, T>) => [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
  if (byAgent.size > 0) {
    await tx.insert(playerDailyByAgent).values(inKeyOrder(byAgent)).onConflictDoUpdate({
      target: [playerDailyByAgent.agentId, playerDailyByAgent.kind, playerDailyByAgent.day, playerDailyByAgent.playerId],
      set: { amount: sql`${playerDailyByAgent.amount} + excluded.amount`, postings: sql`${playerDailyByAgent.postings} + excluded.postings` },
    });
    await tx.insert(playerMonthlyByAgent).values(inKeyOrder(byAgentMonthly)).onConflictDoUpdate({
      target: [playerMonthlyByAgent.agentId, playerMonthlyByAgent.kind, playerMonthlyByAgent.month, playerMonthlyByAgent.playerId],
      set: { amount: sql`${playerMonthlyByAgent.amount} + excluded.amount`, postings: sql`${playerMonthlyByAgent.postings} + excluded.postings` },
    });
  }
  await tx.insert(ledgerDaily).values(inKeyOrder(daily)).onConflictDoUpdate({
    target: [ledgerDaily.accountId, ledgerDaily.kind, ledgerDaily.day],
    set: { amount: sql`${ledgerDaily.amount} + excluded.amount`, postings: sql`${ledgerDaily.postings} + excluded.postings` },
  });
  if (byMarket.size === 0) return;
  await tx.insert(ledgerMarketDaily).values(inKeyOrder(byMarket)).onConflictDoUpdate({
    target: [ledgerMarketDaily.accountId, ledgerMarketDaily.day, ledgerMarketDaily.marketId, ledgerMarketDaily.kind],
    set: { amount: sql`${ledgerMarketDaily.amount} + excluded.amount`, postings: sql`${ledgerMarketDaily.postings} + excluded.postings` },
  });
}

/** Adds one posting's amount to the rollup row under `key`, made by `fresh` when the key is new. */
function addPosting<Row extends { amount: number; postings: number }>(rows: Map<string, Row>, key: string, amount: number, fresh: () => Omit<Row, 'amount' | 'postings'>): void {
  let row = rows.get(key);
  if (!row) rows.set(key, (row = { ...fresh(), amount: 0, postings: 0 } as Row));
  row.amount += amount;
  row.postings += 1;
}

/** Recomputes every pair's take from the ledger (after a bulk load): one row per account with an upline. */
export async function rebuildBalances(tx: Db): Promise<void> {
  await tx.execute(sql`delete from balances`);
  await tx.execute(sql`
    insert into balances (child_id, parent_id, take)
    select a.id, a.parent_id, coalesce((select sum(l.amount) from ledger l where l.account_id = a.parent_id and l.counterparty_id = a.id), 0)
    from accounts a where a.parent_id is not null`);
}

/**
 * Recomputes the daily rollups from the ledger (after a bulk load), as the postings would have
 * added them; inserted in their keys' order, so the primary key is built along instead of at random.
 */
export async function rebuildRollups(tx: Db): Promise<void> {
  await tx.execute(sql`delete from ledger_daily`);
  await tx.execute(sql`delete from ledger_market_daily`);
  await tx.execute(sql`
    insert into ledger_daily (account_id, kind, day, amount, postings)
    select account_id, kind, (occurred_at at time zone 'UTC')::date, sum(amount), count(*) from ledger group by 1, 2, 3 order by 1, 2, 3`);
  await tx.execute(sql`
    insert into ledger_market_daily (account_id, market_id, kind, day, amount, postings)
    select l.account_id, l.market_id, l.kind, (l.occurred_at at time zone 'UTC')::date, sum(l.amount), count(*)
    from ledger l join accounts a on a.id = l.account_id
    where l.market_id is not null and a.role <> 'player' group by 1, 2, 3, 4 order by 1, 4, 2, 3`);
  await tx.execute(sql`delete from player_daily_by_agent`);
  await tx.execute(sql`
    insert into player_daily_by_agent (agent_id, kind, day, player_id, amount, postings)
    select l.counterparty_id, l.kind, (l.occurred_at at time zone 'UTC')::date, l.account_id, sum(l.amount), count(*)
    from ledger l join accounts a on a.id = l.account_id
    where a.role = 'player' and l.kind in (${sql.join([...PLAYER_KINDS].map((k) => sql`${k}`), sql`, `)}) group by 1, 2, 3, 4 order by 1, 2, 3, 4`);
  await tx.execute(sql`delete from player_monthly_by_agent`);
  await tx.execute(sql`
    insert into player_monthly_by_agent (agent_id, kind, month, player_id, amount, postings)
    select agent_id, kind, date_trunc('month', day)::date, player_id, sum(amount), sum(postings)
    from player_daily_by_agent group by 1, 2, 3, 4 order by 1, 2, 3, 4`);
}
