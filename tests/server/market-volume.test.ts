// The stake placed per agent, market and UTC day (market_volume_daily): kept exact as bets are
// placed, equal to what the bets themselves add up to, and top markets by volume read from it
// equal to the bets summed in plain SQL, for callers at every level and periods whose ends are
// not UTC midnights.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.js';
import { placeBetNow } from '../../src/server/services/bets.js';
import { dayRangeToInstants } from '../../src/shared/dates.js';
import { paisaFromSql } from '../../src/shared/money.js';
import { ENGINES, type TestBackend, addPlayer, startTestBackend, tableMismatches } from '../helpers/backend.js';

const POINT = 100;
const HOUR = 3_600_000;

describe.each(ENGINES)('market volume on %s', (engine) => {
  let b: TestBackend;
  const rows = <T extends object>(q: ReturnType<typeof sql>) => queryRows<T>(b.deps.db, q);

  /** Rows of the rollups that the bets do not account for, and bets' sums the rollups lack. */
  async function rollupMismatches(): Promise<number> {
    const fromBets = (unit: SQL) => sql`
      select above.id::uuid as agent_id, b.market_id, ${unit}, sum(b.stake) as stake, count(*)::int as bets
      from bets b join accounts p on p.id = b.player_id, unnest(string_to_array(p.path, '.')) as above(id)
      where above.id <> p.id::text group by 1, 2, 3`;
    return await tableMismatches(b, 'market_volume_daily', 'agent_id, market_id, day, stake, bets', fromBets(sql`(b.placed_at at time zone 'UTC')::date`))
      + await tableMismatches(b, 'market_volume_monthly', 'agent_id, market_id, month, stake, bets', fromBets(sql`date_trunc('month', b.placed_at at time zone 'UTC')::date`));
  }

  /** A player under `parent` who can place the bets below. */
  const player = (parent: string) => addPlayer(b, parent, {
    creditLimit: 10_000_000 * POINT, perClickWin: 1_000_000 * POINT, aggregateDailyWin: 1_000_000 * POINT, minStake: 100 * POINT,
  }, 'v');

  beforeAll(async () => { b = await startTestBackend(engine); });
  afterAll(async () => b?.close());

  it('holds the seeded book\'s bets, and each bet placed after, for every account above its bettor', async () => {
    expect(await rollupMismatches()).toBe(0);
    const [market] = await rows<{ id: string }>(sql`
      select m.id from markets m join fixtures f on f.id = m.fixture_id where f.name = 'India vs Australia' and m.name = 'Match Odds'`);
    const [outcome] = await rows<{ id: string }>(sql`select id from outcomes where market_id = ${market!.id} order by ordinal limit 1`);
    const [before] = await rows<{ stake: string | null }>(sql`
      select sum(v.stake) as stake from market_volume_daily v join accounts a on a.id = v.agent_id where a.username = 'sanjay' and v.market_id = ${market!.id}`);
    const bettor = await player('meera');
    const started = b.clock.now.getTime();
    try {
      for (const [hours, stake] of [[0, 500], [1, 700], [2, 1_100]] as const) {
        b.clock.now = new Date(started + hours * HOUR);
        await placeBetNow(b.deps, { accountId: bettor, marketId: market!.id, outcomeId: outcome!.id, side: 'back', stake: stake * POINT });
      }
    } finally {
      b.clock.now = new Date(started);
    }
    expect(await rollupMismatches()).toBe(0);
    const [after] = await rows<{ stake: string | null }>(sql`
      select sum(v.stake) as stake from market_volume_daily v join accounts a on a.id = v.agent_id where a.username = 'sanjay' and v.market_id = ${market!.id}`);
    // Sanjay is meera's agent: the three bets count for him (and for the platform above him).
    expect(paisaFromSql(after!.stake) - paisaFromSql(before!.stake)).toBe(2_300 * POINT);
  });

  it('top markets by volume equal the downline\'s bets summed over the period, at every level', async () => {
    for (const username of ['admin', 'vikram', 'priya', 'sanjay', 'meera']) {
      const client = b.client(await b.login(username));
      const [caller] = await rows<{ path: string; role: string; timezone: string }>(sql`select path, role, timezone from accounts where username = ${username}`);
      const downline = caller!.role === 'platform_admin' ? sql`a.role <> 'platform_admin'` : sql`a.path like ${`${caller!.path}.%`}`;
      for (const period of ['today', 'week', 'month'] as const) {
        const top = await client.agent.getTopMarkets.query({ period, metric: 'volume', limit: 50 });
        const { start, end } = dayRangeToInstants(top.period.from, top.period.to, caller!.timezone);
        const raw = await rows<{ market_id: string; value: string; bets: string | number }>(sql`
          select b.market_id, sum(b.stake) as value, count(*) as bets from bets b join accounts a on a.id = b.player_id
          where ${downline} and b.placed_at >= ${start.toISOString()}::timestamptz and b.placed_at < ${end.toISOString()}::timestamptz
          group by b.market_id order by sum(b.stake) desc, b.market_id limit 50`);
        expect(top.rows.map((r) => [r.marketId, r.value, r.bets]), `${username}, ${period}`).toEqual(raw.map((r) => [r.market_id, paisaFromSql(r.value), Number(r.bets)]));
      }
    }
  });
});
