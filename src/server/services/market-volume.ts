import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { marketVolumeDaily, marketVolumeMonthly } from '../db/schema.js';
import type { Caller, Period } from './caller.js';
import { inDownline } from './caller.js';
import { rollupDay, rollupMonth } from './ledger.js';
import { at, coveredRows, signed } from './period-sums.js';

/**
 * The accounts a bet counts for in the volume rollup: every account above its bettor in the tree
 * (the bettor's path without the bettor), in key order, so that two transactions upserting the
 * same rows lock them in the same order.
 */
function above(bettorPath: string, bettorId: string): string[] {
  return bettorPath.split('.').filter((id) => id !== bettorId).sort();
}

/** Adds a placed bet to the volume of every account above its bettor, in the bet's transaction. */
export async function addToMarketVolume(tx: Db, bet: { bettorId: string; bettorPath: string; marketId: string; stake: number; placedAt: Date }): Promise<void> {
  const day = rollupDay(bet.placedAt);
  const rows = above(bet.bettorPath, bet.bettorId).map((agentId) => ({ agentId, marketId: bet.marketId, day, stake: bet.stake, bets: 1 }));
  if (rows.length === 0) return;
  await tx.insert(marketVolumeDaily).values(rows).onConflictDoUpdate({
    target: [marketVolumeDaily.agentId, marketVolumeDaily.day, marketVolumeDaily.marketId],
    set: { stake: sql`${marketVolumeDaily.stake} + excluded.stake`, bets: sql`${marketVolumeDaily.bets} + excluded.bets` },
  });
  const month = rollupMonth(bet.placedAt);
  await tx.insert(marketVolumeMonthly).values(rows.map(({ day: _day, ...row }) => ({ ...row, month }))).onConflictDoUpdate({
    target: [marketVolumeMonthly.agentId, marketVolumeMonthly.month, marketVolumeMonthly.marketId],
    set: { stake: sql`${marketVolumeMonthly.stake} + excluded.stake`, bets: sql`${marketVolumeMonthly.bets} + excluded.bets` },
  });
}

/** Recomputes the volume rollup from the bets (after a bulk load), as placing them would have added it. */
export async function rebuildMarketVolume(tx: Db): Promise<void> {
  await tx.execute(sql`delete from market_volume_daily`);
  await tx.execute(sql`
    insert into market_volume_daily (agent_id, market_id, day, stake, bets)
    select above.id::uuid, b.market_id, (b.placed_at at time zone 'UTC')::date, sum(b.stake), count(*)
    from bets b join accounts p on p.id = b.player_id
    cross join lateral unnest(string_to_array(p.path, '.')) as above(id)
    where above.id <> p.id::text
    group by 1, 2, 3 order by 1, 3, 2`);
  await tx.execute(sql`delete from market_volume_monthly`);
  await tx.execute(sql`
    insert into market_volume_monthly (agent_id, market_id, month, stake, bets)
    select agent_id, market_id, date_trunc('month', day)::date, sum(stake), sum(bets)
    from market_volume_daily group by 1, 2, 3 order by 1, 3, 2`);
}

/**
 * The stake the caller's downline placed in the period, per market (`market_id`, `stake`,
 * `bets`): UTC months and days from the rollups, what is finer than a day from the bets.
 */
export function downlineVolume(caller: Caller, period: Pick<Period, 'start' | 'end'>): SQL {
  const rollup = (table: SQL, column: SQL) => (first: SQL, after: SQL, negate: boolean) => sql`
    select market_id, ${signed(sql`stake`, negate)} as stake, ${signed(sql`bets`, negate)} as bets from ${table}
    where agent_id = ${caller.id} and ${column} >= ${first} and ${column} < ${after}`;
  const rows = coveredRows({
    months: rollup(sql`market_volume_monthly`, sql`month`),
    days: rollup(sql`market_volume_daily`, sql`day`),
    raw: (from, to, negate) => sql`
      select b.market_id, ${signed(sql`b.stake`, negate)} as stake, ${negate ? sql`-1` : sql`1`} as bets from bets b join accounts a on a.id = b.player_id
      where ${inDownline(caller, 'a')} and b.placed_at >= ${at(from)} and b.placed_at < ${at(to)}`,
  }, period);
  return sql`select market_id, sum(stake) as stake, sum(bets) as bets from (${rows}) v group by market_id having sum(bets) > 0`;
}
