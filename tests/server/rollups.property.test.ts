// The daily rollups against the raw ledger: after random sequences of market settlements, player
// settlements and clock moves (across UTC midnights), every rollup row is the ledger's own sum,
// and the period reads built on them (periodPostings, getPnL, getCommission, getTopMarkets by
// PnL) answer what the ledger summed over the same instants answers.
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayRangeToInstants } from '../../src/shared/dates.js';
import { paisaFromSql } from '../../src/shared/money.js';
import { queryRows } from '../../src/server/db/client.js';
import type { LedgerKind } from '../../src/server/db/schema.js';
import { agentsPlayerPostings, periodPostings } from '../../src/server/services/period-sums.js';
import { ENGINES, type TestBackend, accountId, startTestBackend, tableMismatches } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;
const MINUTE = 60_000;
const DAY = 86_400_000;

const actionArb = fc.oneof(
  fc.record({ kind: fc.constant('market' as const), pick: fc.nat(), winner: fc.nat() }),
  fc.record({ kind: fc.constant('player' as const), pick: fc.nat() }),
  // Up to two days in minutes: often across a UTC midnight, sometimes onto one exactly.
  fc.record({ kind: fc.constant('clock' as const), minutes: fc.oneof(fc.integer({ min: 1, max: 2 * 24 * 60 }), fc.constant(0)) }),
);

const periodArb = fc.record({
  startMinute: fc.integer({ min: 0, max: 100 * 24 * 60 }),
  lengthMinutes: fc.oneof(fc.integer({ min: 0, max: 3 * 24 * 60 }), fc.integer({ min: 0, max: 60 * 24 * 60 })),
  alignStart: fc.boolean(),
  kinds: fc.subarray(['bet_result', 'commission', 'share', 'settlement'] as LedgerKind[], { minLength: 1 }),
  account: fc.nat(),
});

describe.each(ENGINES)('ledger rollups on %s (property)', (engine) => {
  let b: TestBackend;
  let admin: Client;
  let priya: Client;
  let priyaId: string;
  const rows = <T extends object>(q: ReturnType<typeof sql>) => queryRows<T>(b.deps.db, q);

  beforeAll(async () => {
    b = await startTestBackend(engine);
    admin = b.client(await b.login('admin'));
    priya = b.client(await b.login('priya'));
    priyaId = await accountId(b, 'priya');
  });
  afterAll(async () => b?.close());

  async function run(action: typeof actionArb extends fc.Arbitrary<infer A> ? A : never): Promise<void> {
    if (action.kind === 'clock') {
      b.clock.now = new Date(b.clock.now.getTime() + action.minutes * MINUTE);
      // Now and then land on a UTC midnight exactly: a posting there belongs to the new day.
      if (action.minutes === 0) b.clock.now = new Date(Math.ceil(b.clock.now.getTime() / DAY) * DAY);
      return;
    }
    if (action.kind === 'market') {
      const open = await rows<{ id: string }>(sql`
        select m.id from markets m where m.status = 'open' and exists (select 1 from bets where market_id = m.id) order by m.id`);
      const market = open[action.pick % Math.max(1, open.length)];
      if (!market) return;
      const outcomes = await rows<{ id: string }>(sql`select id from outcomes where market_id = ${market.id} order by ordinal`);
      await admin.markets.settle.mutate({
        marketId: market.id, winnerOutcomeId: outcomes[action.winner % outcomes.length]!.id, idempotencyKey: `test-${randomUUID()}`,
      });
      return;
    }
    const owing = await rows<{ child_id: string }>(sql`select child_id from balances where take <> 0 order by child_id`);
    const pair = owing[action.pick % Math.max(1, owing.length)];
    if (!pair) return;
    await admin.settlements.settle.mutate({ playerId: pair.child_id, mode: 'auto', idempotencyKey: `test-${randomUUID()}` });
  }

  async function expectRollupsEqualLedger(): Promise<void> {
    const utcDay = sql`(occurred_at at time zone 'UTC')::date`;
    expect(await tableMismatches(b, 'ledger_daily', 'account_id, kind, day, amount, postings', sql`
      select account_id, kind, ${utcDay}, sum(amount), count(*)::int from ledger group by 1, 2, 3`)).toBe(0);
    // By market, the agents' and the platform's postings only.
    expect(await tableMismatches(b, 'ledger_market_daily', 'account_id, market_id, kind, day, amount, postings', sql`
      select account_id, market_id, kind, ${utcDay}, sum(amount), count(*)::int from ledger
      where market_id is not null and account_id in (select id from accounts where role <> 'player') group by 1, 2, 3, 4`)).toBe(0);
    // Players' postings with their agents, under the agent, by day and by month.
    const playerSides = (unit: SQL) => sql`
      select l.counterparty_id, l.kind, ${unit}, l.account_id, sum(l.amount), count(*)::int
      from ledger l join accounts a on a.id = l.account_id where a.role = 'player' and l.kind in ('bet_result', 'commission') group by 1, 2, 3, 4`;
    expect(await tableMismatches(b, 'player_daily_by_agent', 'agent_id, kind, day, player_id, amount, postings', playerSides(utcDay))).toBe(0);
    expect(await tableMismatches(b, 'player_monthly_by_agent', 'agent_id, kind, month, player_id, amount, postings',
      playerSides(sql`date_trunc('month', occurred_at at time zone 'UTC')::date`))).toBe(0);
  }

  it('every rollup row is the ledger sum after random settle sequences, and period sums match the ledger', async () => {
    const accounts = (await rows<{ id: string }>(sql`select distinct account_id as id from ledger order by 1`)).map((r) => r.id);
    const bookStart = b.clock.now.getTime() - 95 * DAY;
    await fc.assert(fc.asyncProperty(fc.array(actionArb, { minLength: 1, maxLength: 6 }), fc.array(periodArb, { minLength: 1, maxLength: 4 }), async (actions, periods) => {
      for (const action of actions) await run(action);
      await expectRollupsEqualLedger();
      for (const p of periods) {
        let start = bookStart + p.startMinute * MINUTE;
        if (p.alignStart) start = Math.ceil(start / DAY) * DAY;
        const period = { start: new Date(start), end: new Date(start + p.lengthMinutes * MINUTE) };
        const account = accounts[p.account % accounts.length]!;
        const kinds = sql.join(p.kinds.map((k) => sql`${k}`), sql`, `);
        const [fromRollups] = await rows<{ amount: string | null; postings: string | null }>(sql`
          select sum(u.amount) as amount, sum(u.postings) as postings from (${periodPostings(sql`${account}::uuid`, p.kinds, period)}) u`);
        const [fromLedger] = await rows<{ amount: string | null; postings: string | number }>(sql`
          select sum(amount) as amount, count(*) as postings from ledger
          where account_id = ${account} and kind in (${kinds})
            and occurred_at >= ${period.start.toISOString()}::timestamptz and occurred_at < ${period.end.toISOString()}::timestamptz`);
        expect([paisaFromSql(fromRollups!.amount), Number(fromRollups!.postings ?? 0)]).toEqual([paisaFromSql(fromLedger!.amount), Number(fromLedger!.postings)]);
        // Per player of priya's downline, from her agents' ranges and their side of the ledger.
        const playerKinds = p.kinds.filter((k): k is 'bet_result' | 'commission' => k === 'bet_result' || k === 'commission');
        if (playerKinds.length === 0) continue;
        const agents = sql`array(select id from accounts where role = 'agent' and (id = ${priyaId} or path like ${`%${priyaId}.%`}))`;
        const perPlayer = await rows<{ id: string; amount: string; postings: string | number }>(sql`
          select u.player_id as id, sum(u.amount) as amount, sum(u.postings) as postings
          from (${agentsPlayerPostings(agents, playerKinds, period)}) u group by 1 having sum(u.postings) > 0 order by 1`);
        const perPlayerLedger = await rows<{ id: string; amount: string; postings: string | number }>(sql`
          select l.account_id as id, sum(l.amount) as amount, count(*) as postings from ledger l join accounts a on a.id = l.account_id
          where a.role = 'player' and a.path like ${`%${priyaId}.%`} and l.kind in (${sql.join(playerKinds.map((k) => sql`${k}`), sql`, `)})
            and l.occurred_at >= ${period.start.toISOString()}::timestamptz and l.occurred_at < ${period.end.toISOString()}::timestamptz
          group by 1 order by 1`);
        expect(perPlayer.map((r) => [r.id, paisaFromSql(r.amount), Number(r.postings)]))
          .toEqual(perPlayerLedger.map((r) => [r.id, paisaFromSql(r.amount), Number(r.postings)]));
      }
    }), { numRuns: 8 });
  });

  it('getPnL, getCommission and top markets by PnL over the rollups answer what the ledger sums to', async () => {
    // Postings on the day just settled, and days ago: a period in priya's timezone crosses UTC days.
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), async (back, length) => {
      const today = b.clock.now.getTime();
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const from = day(today - (back + length) * DAY);
      const to = day(today - back * DAY);
      const { start, end } = dayRangeToInstants(from, to, 'Asia/Kolkata');
      const range = sql`l.occurred_at >= ${start.toISOString()}::timestamptz and l.occurred_at < ${end.toISOString()}::timestamptz`;
      const downline = sql`a.role = 'player' and a.path like ${`%${priyaId}.%`}`;
      const [raw] = await rows<{ bets: string | number; pnl: string | null; commission: string | null; players: string | number }>(sql`
        select count(*) filter (where l.kind = 'bet_result') as bets, sum(l.amount) filter (where l.kind = 'bet_result') as pnl,
          -sum(l.amount) filter (where l.kind = 'commission') as commission, count(distinct a.id) as players
        from ledger l join accounts a on a.id = l.account_id
        where ${downline} and l.kind in ('bet_result', 'commission') and ${range}`);
      const [kept] = await rows<{ kept: string | null }>(sql`
        select sum(l.amount) as kept from ledger l where l.account_id = ${priyaId} and l.kind in ('bet_result', 'commission', 'share') and ${range}`);
      const pnl = await priya.agent.getPnL.query({ from, to });
      expect(pnl.total).toEqual({
        bets: Number(raw!.bets), pnl: paisaFromSql(raw!.pnl), commission: paisaFromSql(raw!.commission),
        bookResult: -paisaFromSql(raw!.pnl) + paisaFromSql(raw!.commission), yourShare: paisaFromSql(kept!.kept),
      });
      expect(pnl.matched).toBe(Number(raw!.players));
      const rawRows = await rows<{ id: string; bets: string | number; pnl: string | null; commission: string | null }>(sql`
        select a.id, count(*) filter (where l.kind = 'bet_result') as bets, coalesce(sum(l.amount) filter (where l.kind = 'bet_result'), 0) as pnl,
          coalesce(-sum(l.amount) filter (where l.kind = 'commission'), 0) as commission
        from ledger l join accounts a on a.id = l.account_id
        where ${downline} and l.kind in ('bet_result', 'commission') and ${range} group by a.id order by a.id`);
      const allRows = await priya.agent.getPnL.query({ from, to, limit: 200 });
      expect(allRows.rows.map((r) => [r.playerId, r.bets, r.pnl, r.commission]).sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : 1)))
        .toEqual(rawRows.map((r) => [r.id, Number(r.bets), paisaFromSql(r.pnl), paisaFromSql(r.commission)]));
      const [rawCommission] = await rows<{ markets: string | number; commission: string | null }>(sql`
        select count(*) as markets, -sum(l.amount) as commission from ledger l join accounts a on a.id = l.account_id
        where ${downline} and l.kind = 'commission' and ${range}`);
      const commission = await priya.agent.getCommission.query({ from, to });
      expect(commission.total).toBe(paisaFromSql(rawCommission!.commission));
      expect(commission.rows.reduce((n, r) => n + r.markets, 0)).toBe(Number(rawCommission!.markets));
    }), { numRuns: 6 });

    for (const period of ['today', 'week', 'month'] as const) {
      const top = await priya.agent.getTopMarkets.query({ period, metric: 'pnl', limit: 50 });
      const { start, end } = dayRangeToInstants(top.period.from, top.period.to, 'Asia/Kolkata');
      const raw = await rows<{ market_id: string; value: string; bets: string | number }>(sql`
        select l.market_id, sum(l.amount) as value, count(*) filter (where l.kind = 'bet_result') as bets from ledger l
        where l.account_id = ${priyaId} and l.kind in ('bet_result', 'commission', 'share')
          and l.occurred_at >= ${start.toISOString()}::timestamptz and l.occurred_at < ${end.toISOString()}::timestamptz
        group by l.market_id order by sum(l.amount) desc, l.market_id limit 50`);
      expect(top.rows.map((r) => [r.marketId, r.value, r.bets])).toEqual(raw.map((r) => [r.market_id, paisaFromSql(r.value), Number(r.bets)]));
    }
  });
});
