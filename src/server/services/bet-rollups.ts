import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { betTotals, openPositions } from '../db/schema.js';
import { type BetTerms, betResult, liability } from '../domain/bets.js';
import { LIABILITY, RESULT_IF_OUTCOME_WINS } from './bet-terms-sql.js';

/**
 * The two rollups of the bets themselves, kept by each agent for its own players (the accounts
 * whose parent it is): their open positions per market and outcome (open_positions), and their
 * bets' count, stake, liability and result per status (bet_totals). A bet is added when it is
 * placed and moved from open to settled by its market's settlement, both in the transaction that
 * writes the bet; the seed rebuilds them. A downline's figure is the sum of its agents' rows.
 */

/** Adds a placed bet to its agent's open positions (every outcome of the market) and open totals, on the bet's transaction. */
export async function addBetToRollups(tx: Db, bet: BetTerms & { agentId: string; marketId: string; outcomeIds: readonly string[] }): Promise<void> {
  // Key order, so two transactions upserting rows of the same market lock them in the same order.
  const outcomes = [...bet.outcomeIds].sort();
  await tx.insert(openPositions).values(outcomes.map((outcomeId) => ({
    agentId: bet.agentId, marketId: bet.marketId, outcomeId, playerResult: betResult(bet, outcomeId), bets: outcomeId === bet.outcomeId ? 1 : 0,
  }))).onConflictDoUpdate({
    target: [openPositions.agentId, openPositions.marketId, openPositions.outcomeId],
    set: { playerResult: sql`${openPositions.playerResult} + excluded.player_result`, bets: sql`${openPositions.bets} + excluded.bets` },
  });
  await addToTotals(tx, [{ agentId: bet.agentId, status: 'open', bets: 1, stake: bet.stake, liability: liability(bet), result: 0 }]);
}

type TotalsRow = typeof betTotals.$inferInsert;

async function addToTotals(tx: Db, rows: TotalsRow[]): Promise<void> {
  if (rows.length === 0) return;
  const inKeyOrder = [...rows].sort((a, b) => (a.agentId === b.agentId ? (a.status < b.status ? -1 : 1) : a.agentId < b.agentId ? -1 : 1));
  await tx.insert(betTotals).values(inKeyOrder).onConflictDoUpdate({
    target: [betTotals.agentId, betTotals.status],
    set: {
      bets: sql`${betTotals.bets} + excluded.bets`, stake: sql`${betTotals.stake} + excluded.stake`,
      liability: sql`${betTotals.liability} + excluded.liability`, result: sql`${betTotals.result} + excluded.result`,
    },
  });
}

/**
 * A market's open bets settled (on the settlement's transaction): each moves from its agent's open
 * totals to its settled ones with its result, and the market's open positions are gone, since a
 * settlement settles every open bet of the market.
 */
export async function settleInRollups(tx: Db, marketId: string, settled: ReadonlyArray<BetTerms & { agentId: string; result: number }>): Promise<void> {
  const byAgent = new Map<string, { bets: number; stake: number; liability: number; result: number }>();
  for (const b of settled) {
    const sums = byAgent.get(b.agentId) ?? { bets: 0, stake: 0, liability: 0, result: 0 };
    sums.bets += 1;
    sums.stake += b.stake;
    sums.liability += liability(b);
    sums.result += b.result;
    byAgent.set(b.agentId, sums);
  }
  const rows: TotalsRow[] = [];
  for (const [agentId, s] of byAgent) {
    rows.push({ agentId, status: 'open', bets: -s.bets, stake: -s.stake, liability: -s.liability, result: 0 });
    rows.push({ agentId, status: 'settled', ...s });
  }
  await addToTotals(tx, rows);
  // An agent left with no open bets has no open row, as a rebuild would leave it.
  if (byAgent.size > 0) {
    await tx.execute(sql`delete from bet_totals where status = 'open' and bets = 0 and agent_id = any(${sql.param([...byAgent.keys()])}::uuid[])`);
  }
  await tx.execute(sql`delete from open_positions where market_id = ${marketId}`);
}

/** Recomputes both rollups from the bets (after a bulk load), as placing and settling them would have kept them. */
export async function rebuildBetRollups(tx: Db): Promise<void> {
  await tx.execute(sql`delete from open_positions`);
  await tx.execute(sql`delete from bet_totals`);
  await tx.execute(sql`
    insert into open_positions (agent_id, market_id, outcome_id, player_result, bets)
    select p.parent_id, b.market_id, o.id, sum(${RESULT_IF_OUTCOME_WINS}), count(*) filter (where b.outcome_id = o.id)
    from bets b join accounts p on p.id = b.player_id join outcomes o on o.market_id = b.market_id
    where b.status = 'open'
    group by 1, 2, 3 order by 1, 2, 3`);
  await tx.execute(sql`
    insert into bet_totals (agent_id, status, bets, stake, liability, result)
    select p.parent_id, b.status, count(*), sum(b.stake), sum(${LIABILITY}), coalesce(sum(b.result), 0)
    from bets b join accounts p on p.id = b.player_id
    group by 1, 2 order by 1, 2`);
}
