// The rollups of the bets themselves (open_positions, bet_totals): kept exact as bets are placed
// and markets settle, equal to what the bets add up to, and the reads built on them (exposure, the
// bet list's summary) equal to the bets summed in plain SQL, for callers at every level.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.js';
import { placeBetNow } from '../../src/server/services/bets.js';
import { settleMarketNow } from '../../src/server/services/markets.js';
import { paisaFromSql } from '../../src/shared/money.js';
import { ENGINES, type TestBackend, addPlayer, startTestBackend, tableMismatches } from '../helpers/backend.js';

const POINT = 100;
const LEVELS = ['admin', 'vikram', 'priya', 'sanjay', 'meera'];

/** A bet's result if outcome `o` wins, written out here as the rules say it (not the product's SQL). */
const RESULT_IF = sql`case
  when b.outcome_id = o.id and b.side = 'back' then round(b.stake * (b.odds - 100) / 100.0)
  when b.outcome_id = o.id then -round(b.stake * (b.odds - 100) / 100.0)
  when b.side = 'back' then -b.stake
  else b.stake end`;

describe.each(ENGINES)('bet rollups on %s', (engine) => {
  let b: TestBackend;
  const rows = <T extends object>(q: SQL) => queryRows<T>(b.deps.db, q);

  const positionMismatches = () => tableMismatches(b, 'open_positions', 'agent_id, market_id, outcome_id, player_result, bets', sql`
    select p.parent_id, b.market_id, o.id, sum(${RESULT_IF})::bigint, (count(*) filter (where b.outcome_id = o.id))::int
    from bets b join accounts p on p.id = b.player_id join outcomes o on o.market_id = b.market_id
    where b.status = 'open' group by 1, 2, 3`);
  const totalsMismatches = () => tableMismatches(b, 'bet_totals', 'agent_id, status, bets, stake, liability, result', sql`
    select p.parent_id, b.status, count(*)::int, sum(b.stake)::bigint,
      sum(case when b.side = 'back' then b.stake else round(b.stake * (b.odds - 100) / 100.0) end)::bigint, coalesce(sum(b.result), 0)::bigint
    from bets b join accounts p on p.id = b.player_id group by 1, 2`);

  /** A player under `parent` who can place the bets below. */
  const player = (parent: string) => addPlayer(b, parent, {
    creditLimit: 10_000_000 * POINT, perClickWin: 1_000_000 * POINT, aggregateDailyWin: 1_000_000 * POINT, minStake: 100 * POINT,
  }, 'r');

  async function downlineOf(username: string): Promise<SQL> {
    const [caller] = await rows<{ path: string; role: string }>(sql`select path, role from accounts where username = ${username}`);
    return caller!.role === 'platform_admin' ? sql`a.role <> 'platform_admin'` : sql`a.path like ${`${caller!.path}.%`}`;
  }

  beforeAll(async () => { b = await startTestBackend(engine); });
  afterAll(async () => b?.close());

  it('hold the seeded book\'s bets, each bet placed after, and a settlement moving them from open to settled', async () => {
    expect(await positionMismatches()).toBe(0);
    expect(await totalsMismatches()).toBe(0);
    const [market] = await rows<{ id: string }>(sql`
      select m.id from markets m join fixtures f on f.id = m.fixture_id where f.name = 'India vs Australia' and m.name = 'Match Odds'`);
    const outcomes = await rows<{ id: string }>(sql`select id from outcomes where market_id = ${market!.id} order by ordinal`);
    const [one, two] = [await player('meera'), await player('sanjay')];
    for (const [bettor, outcome, side, stake] of [
      [one, 0, 'back', 500], [one, 1, 'lay', 700], [two, 0, 'lay', 1_100], [two, 1, 'back', 333],
    ] as const) {
      await placeBetNow(b.deps, { accountId: bettor, marketId: market!.id, outcomeId: outcomes[outcome]!.id, side, stake: stake * POINT });
    }
    expect(await positionMismatches()).toBe(0);
    expect(await totalsMismatches()).toBe(0);
    const [open] = await rows<{ n: string | number }>(sql`select count(*) as n from open_positions where market_id = ${market!.id}`);
    expect(Number(open!.n)).toBeGreaterThan(0);

    await settleMarketNow(b.deps, { marketId: market!.id, winnerOutcomeId: outcomes[1]!.id });
    expect(await positionMismatches()).toBe(0);
    expect(await totalsMismatches()).toBe(0);
    const [left] = await rows<{ n: string | number }>(sql`select count(*) as n from open_positions where market_id = ${market!.id}`);
    expect(Number(left!.n)).toBe(0);
  });

  it('exposure equals the downline\'s open bets summed outcome by outcome, at every level', async () => {
    for (const username of LEVELS) {
      const client = b.client(await b.login(username));
      const live = await client.agent.getLiveExposure.query({});
      const raw = await rows<{ market_id: string; outcome_id: string; position: string; bets: string | number }>(sql`
        select b.market_id, o.id as outcome_id, -sum(${RESULT_IF}) as position, count(distinct b.id) as bets
        from bets b join accounts a on a.id = b.player_id join markets m on m.id = b.market_id join outcomes o on o.market_id = b.market_id
        where ${await downlineOf(username)} and b.status = 'open' and m.status = 'open'
        group by 1, 2 order by 1, 2`);
      const shown = live.scopes.flatMap((s) => s.outcomes.map((o) => [s.marketId, o.outcomeId, o.position, s.openBets]));
      const byKey = (x: unknown[]) => `${String(x[0])} ${String(x[1])}`;
      shown.sort((x, y) => (byKey(x) < byKey(y) ? -1 : 1));
      expect(shown.length, username).toBeGreaterThan(0);
      const marketBets = new Map<string, number>();
      for (const r of raw) marketBets.set(r.market_id, Number(r.bets));
      expect(shown, username).toEqual(raw.map((r) => [r.market_id, r.outcome_id, paisaFromSql(r.position), marketBets.get(r.market_id)])
        .sort((x, y) => (byKey(x) < byKey(y) ? -1 : 1)));
    }
  });

  it('top markets by exposure are the live exposure\'s markets of most exposure, at every level', async () => {
    for (const username of LEVELS) {
      const client = b.client(await b.login(username));
      const live = await client.agent.getLiveExposure.query({});
      const expected = live.scopes.map((s) => [s.marketId, s.exposure, s.openBets])
        .sort((x, y) => Number(y[1]) - Number(x[1]) || (String(x[0]) < String(y[0]) ? -1 : 1)).slice(0, 3);
      const top = await client.agent.getTopMarkets.query({ period: 'today', metric: 'exposure', limit: 3 });
      expect(top.rows.map((r) => [r.marketId, r.value, r.bets]), username).toEqual(expected);
      expect(top.rows.length, username).toBe(Math.min(3, live.scopes.length));
    }
  });

  it('the bet list\'s summary of a whole downline, by status and under a sub-agent, equals its bets summed', async () => {
    const [priya] = await rows<{ id: string; path: string }>(sql`select id, path from accounts where username = 'priya'`);
    for (const username of LEVELS) {
      const client = b.client(await b.login(username));
      const downline = await downlineOf(username);
      const inputs: Array<{ status?: Array<'open' | 'settled' | 'void'>; underAgentId?: string; below: SQL }> = [
        { below: downline },
        { status: ['open'], below: sql`${downline} and b.status = 'open'` },
        { status: ['settled', 'void'], below: sql`${downline} and b.status in ('settled', 'void')` },
      ];
      if (username === 'admin' || username === 'vikram') inputs.push({ underAgentId: priya!.id, below: sql`a.path like ${`${priya!.path}.%`}` });
      for (const { below, ...input } of inputs) {
        const { summary } = await client.agent.getBetHistory.query({ ...input, limit: 5 });
        const [raw] = await rows<{ count: string | number; stake: string | null; open_liability: string | null; settled_result: string | null }>(sql`
          select count(*) as count, sum(b.stake) as stake,
            sum(case when b.side = 'back' then b.stake else round(b.stake * (b.odds - 100) / 100.0) end) filter (where b.status = 'open') as open_liability,
            sum(b.result) filter (where b.status = 'settled') as settled_result
          from bets b join accounts a on a.id = b.player_id where ${below}`);
        expect(summary, `${username} ${JSON.stringify(input)}`).toEqual({
          count: Number(raw!.count), stake: paisaFromSql(raw!.stake),
          openLiability: paisaFromSql(raw!.open_liability), settledResult: paisaFromSql(raw!.settled_result),
        });
        expect(summary.count, username).toBeGreaterThan(0);
      }
    }
  });
});
