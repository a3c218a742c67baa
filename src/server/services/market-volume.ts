import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { marketVolumeDaily } from '../db/schema.js';
import type { Caller, Period } from './caller.js';
import { inDownline } from './caller.js';
import { rollupDay } from './ledger.js';
import { wholeUtcDays } from './period-sums.js';

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
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The stake the caller's downline placed in the period, per market (`market_id`, `stake`,
 * `bets`): the period's whole UTC days from the rollup, the part-days at its ends from the bets.
 */
export function downlineVolume(caller: Caller, period: Pick<Period, 'start' | 'end'>): SQL {
  const raw = (from: Date, to: Date) => sql`
    select b.market_id, b.stake, 1 as bets from bets b join accounts a on a.id = b.player_id
    where ${inDownline(caller, 'a')} and b.placed_at >= ${at(from)} and b.placed_at < ${at(to)}`;
  const days = wholeUtcDays(period.start, period.end);
  const parts = days
    ? [sql`
      select market_id, stake, bets from market_volume_daily
      where agent_id = ${caller.id} and day >= ${days.first.toISOString().slice(0, 10)}::date and day < ${days.after.toISOString().slice(0, 10)}::date`]
    : [raw(period.start, period.end)];
  if (days && period.start.getTime() < days.first.getTime()) parts.push(raw(period.start, days.first));
  if (days && days.after.getTime() < period.end.getTime()) parts.push(raw(days.after, period.end));
  return sql`select market_id, sum(stake) as stake, sum(bets) as bets from (${sql.join(parts, sql` union all `)}) v group by market_id`;
}
