import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.js';
import { betResult, commissionOn, marketPositions, worstCaseExposure } from '../../src/server/domain/bets.js';
import { loadCast } from '../../src/server/seed/cast.js';
import { ENGINES, type TestBackend, accountId, startTestBackend } from '../helpers/backend.js';

describe.each(ENGINES)('backend API on %s', (engine) => {
  let b: TestBackend;
  let priya: ReturnType<TestBackend['client']>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priya = b.client(await b.login('priya'));
    for (const u of ['priya', 'arjun', 'anita', 'karan', 'deepak', 'imran', 'rahul.sharma', 'rahul.sharma2']) ids[u] = await accountId(b, u);
  });
  afterAll(async () => b?.close());

  it('answers /health', async () => {
    const res = await fetch(`${b.server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('holds every cast entity exactly as written', async () => {
    const cast = loadCast();
    for (const a of cast.accounts) {
      const [row] = await queryRows<{ display_name: string; role: string; parent: string | null; credit_limit: string; share_bps: number; commission_bps: number; notes: string | null; timezone: string }>(b.deps.db, sql`
        select a.display_name, a.role, p.username as parent, a.credit_limit, a.share_bps, a.commission_bps, a.notes, a.timezone
        from accounts a left join accounts p on p.id = a.parent_id where a.username = ${a.username}`);
      expect(row, a.username).toBeDefined();
      expect(row!.display_name).toBe(a.name);
      expect(row!.role).toBe(a.role);
      expect(row!.parent).toBe(a.parent);
      expect(Number(row!.credit_limit)).toBe((a.creditLimit ?? 0) * 100);
      if (a.shareBps !== undefined) expect(row!.share_bps).toBe(a.shareBps);
      if (a.commissionBps !== undefined) expect(row!.commission_bps).toBe(a.commissionBps);
      expect(row!.notes).toBe(a.notes ?? null);
    }
    for (const f of cast.fixtures) {
      const markets = await queryRows<{ name: string; status: string; winner: string | null }>(b.deps.db, sql`
        select m.name, m.status, o.name as winner from fixtures f join markets m on m.fixture_id = f.id
        left join outcomes o on o.id = m.winner_outcome_id where f.name = ${f.name} order by m.ordinal`);
      expect(markets.map((m) => m.name)).toEqual(f.markets.map((m) => m.name));
      expect(markets.map((m) => m.winner)).toEqual(f.markets.map((m) => m.winner ?? null));
    }
  });

  it('logs in with the right password only, and never a player', async () => {
    await expect(b.client().auth.login.mutate({ username: 'priya', password: 'wrong' })).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    await expect(b.client().auth.login.mutate({ username: 'nobody', password: 'x' })).rejects.toThrow('invalid username or password');
    const me = await priya.auth.me.query();
    expect(me).toMatchObject({ username: 'priya', name: 'Priya Nair', role: 'agent', timezone: 'Asia/Kolkata' });
  });

  it('logs out: the token stops working', async () => {
    const token = await b.login('arjun');
    await b.client(token).auth.logout.mutate();
    await expect(b.client(token).auth.me.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('searches players accent- and case-insensitively, by prefix and fuzzily, within the downline', async () => {
    const rahul = await priya.agent.searchPlayers.query({ query: 'rahul' });
    expect(rahul.players.map((p) => p.name).sort()).toEqual(['Rahul Khanna', 'Rahul Sharma', 'Rahul Sharman', 'Rahul Verma']);
    const zoe = await priya.agent.searchPlayers.query({ query: 'ZOE NUNEZ' });
    expect(zoe.players).toMatchObject([{ name: 'Zoë Ñúñez', match: 'exact' }]);
    const sam = await priya.agent.searchPlayers.query({ query: "o'brien" });
    expect(sam.players.map((p) => p.name)).toEqual(["Sam O'Brien"]);
    const typo = await priya.agent.searchPlayers.query({ query: 'Anitha Desia' });
    expect(typo.players[0]).toMatchObject({ name: 'Anita Desai', match: 'fuzzy' });
    const exact = await priya.agent.searchPlayers.query({ query: 'Rahul Sharma' });
    expect(exact.players[0]).toMatchObject({ name: 'Rahul Sharma', match: 'exact', agentName: 'Priya Nair' });
    expect(exact.players.filter((p) => p.name === 'Rahul Sharma')).toHaveLength(1); // never meera's
    expect((await priya.agent.searchPlayers.query({ query: 'Farhan' })).players).toEqual([]);
  });

  it('finds fixtures by team names and short codes', async () => {
    const names = async (query: string) => (await priya.match.searchFixtures.query({ query })).fixtures.map((f) => f.name);
    expect(await names('MI vs CSK')).toEqual(['Mumbai Indians vs Chennai Super Kings']);
    expect(await names('IND v AUS')).toEqual(['India vs Australia']);
    expect((await names('the India match')).sort()).toEqual(['India vs Australia', 'India vs South Africa']);
    expect(await names('Barca')).toEqual(['Real Madrid vs Barcelona']);
    const [indAus] = (await priya.match.searchFixtures.query({ query: 'India vs Australia' })).fixtures;
    expect(indAus!.markets.map((m) => m.name)).toEqual(['Match Odds', 'Total Runs Over/Under 300.5']);
    expect(indAus!.markets[0]!.outcomes.map((o) => o.name)).toEqual(['India', 'Australia']);
  });

  it('computes each take from the ledger, equal to the players\' bets, commission and settlements', async () => {
    const take = await priya.agent.getTake.query({});
    expect(take.rows.length).toBeGreaterThan(15);
    for (const row of take.rows.filter((r) => r.role === 'player')) {
      // Recompute from the bets table with the domain rules, independently of the ledger.
      const bets = await queryRows<{ market_id: string; outcome_id: string; side: 'back' | 'lay'; stake: string; odds: number; winner: string; commission_bps: number }>(b.deps.db, sql`
        select b.market_id, b.outcome_id, b.side, b.stake, b.odds, m.winner_outcome_id as winner, a.commission_bps
        from bets b join markets m on m.id = b.market_id join accounts a on a.id = b.player_id
        where b.player_id = ${row.accountId} and b.status = 'settled'`);
      const netByMarket = new Map<string, number>();
      let expected = 0;
      for (const bet of bets) {
        const r = betResult({ side: bet.side, stake: Number(bet.stake), odds: bet.odds, outcomeId: bet.outcome_id }, bet.winner);
        expected -= r;
        netByMarket.set(bet.market_id, (netByMarket.get(bet.market_id) ?? 0) + r);
      }
      for (const net of netByMarket.values()) expected += commissionOn(net, bets[0]!.commission_bps);
      const [paid] = await queryRows<{ s: string | null }>(b.deps.db, sql`select sum(amount) as s from settlements where child_id = ${row.accountId}`);
      expected -= Number(paid?.s ?? 0);
      expect(row.take, row.name).toBe(expected);
      expect(row.available).toBe(row.creditLimit - row.take);
      expect(row.direction).toBe(row.take > 0 ? 'owes_you' : row.take < 0 ? 'you_owe' : 'square');
    }
    expect(take.totals.take).toBe(take.rows.reduce((s, r) => s + r.take, 0));
    expect(take.totals.available).toBe(take.totals.cl - take.totals.take);
  });

  it('keeps the whole ledger balanced: it sums to zero, entry by entry', async () => {
    const [total] = await queryRows<{ s: string | null; unbalanced: string }>(b.deps.db, sql`
      select (select sum(amount) from ledger) as s,
        (select count(*) from (select entry_id from ledger group by entry_id having sum(amount) <> 0) u) as unbalanced`);
    expect(Number(total!.s)).toBe(0);
    expect(Number(total!.unbalanced)).toBe(0);
  });

  it('reports the upline position', async () => {
    const up = await priya.agent.getUpline.query({});
    const [owed] = await queryRows<{ s: string | null }>(b.deps.db, sql`
      select sum(amount) as s from ledger where account_id = (select parent_id from accounts where username = 'priya') and counterparty_id = ${ids.priya}`);
    expect(up.uplineName).toBe('Vikram Rao');
    expect(up.cl).toBe(2_000_000 * 100);
    expect(up.owed).toBe(Number(owed?.s ?? 0));
    const take = await priya.agent.getTake.query({ limit: 500 });
    expect(up.takeNet).toBe(take.totals.take - up.owed);
  });

  it('computes live exposure per outcome, gross and at the agent\'s share', async () => {
    const [fixture] = (await priya.match.searchFixtures.query({ query: 'India vs Australia' })).fixtures;
    const exposure = await priya.agent.getLiveExposure.query({ fixtureId: fixture!.id });
    const matchOdds = exposure.scopes.find((s) => s.marketName === 'Match Odds')!;
    const bets = await queryRows<{ outcome_id: string; side: 'back' | 'lay'; stake: string; odds: number; agent: string }>(b.deps.db, sql`
      select b.outcome_id, b.side, b.stake, b.odds, p.username as agent from bets b join accounts a on a.id = b.player_id
      join accounts p on p.id = a.parent_id where b.market_id = ${matchOdds.marketId} and b.status = 'open'
      and a.path like (select path || '.%' from accounts where username = 'priya')`);
    const terms = bets.map((x) => ({ side: x.side, stake: Number(x.stake), odds: x.odds, outcomeId: x.outcome_id }));
    const outcomeIds = matchOdds.outcomes.map((o) => o.outcomeId);
    const gross = marketPositions(terms, outcomeIds);
    // priya keeps 80% of her own players, and 80% of arjun's 40% (32%) of his.
    const mine = marketPositions(terms.filter((_, i) => bets[i]!.agent === 'priya'), outcomeIds);
    const arjuns = marketPositions(terms.filter((_, i) => bets[i]!.agent === 'arjun'), outcomeIds);
    for (const o of matchOdds.outcomes) {
      expect(o.position).toBe(gross.get(o.outcomeId));
      expect(o.positionAtShare).toBe(Math.round(mine.get(o.outcomeId)! * 0.8 + arjuns.get(o.outcomeId)! * 0.32));
    }
    expect(matchOdds.exposure).toBe(worstCaseExposure(gross.values()));
    expect(matchOdds.openBets).toBe(bets.length);
    const all = await priya.agent.getLiveExposure.query({});
    expect(all.total.exposure).toBe(all.scopes.reduce((s, x) => s + x.exposure, 0));
  });

  it('computes PnL per player from the ledger for a period in the user\'s timezone', async () => {
    const month = await priya.agent.getPnL.query({ from: '2026-10-01', to: '2026-10-31', limit: 500 });
    expect(month.period).toEqual({ from: '2026-10-01', to: '2026-10-31', timezone: 'Asia/Kolkata' });
    const [bySql] = await queryRows<{ pnl: string | null; n: string }>(b.deps.db, sql`
      select sum(b.result) as pnl, count(*) as n from bets b join accounts a on a.id = b.player_id
      where b.status = 'settled' and a.path like (select path || '.%' from accounts where username = 'priya')
      and b.settled_at >= '2026-09-30T18:30:00Z' and b.settled_at < '2026-10-31T18:30:00Z'`);
    expect(month.total.pnl).toBe(Number(bySql!.pnl ?? 0));
    expect(month.total.bets).toBe(Number(bySql!.n));
    expect(month.total.bookResult).toBe(-month.total.pnl + month.total.commission);
    expect(month.rows.reduce((s, r) => s + r.pnl, 0)).toBe(month.total.pnl);
    // No date means today, in Asia/Kolkata.
    const today = await priya.agent.getPnL.query({});
    expect(today.period.from).toBe('2026-11-20');
    const anita = await priya.agent.getPnL.query({ playerId: ids.anita!, from: '2026-08-01' });
    expect(anita.rows.every((r) => r.playerId === ids.anita)).toBe(true);
    expect(anita.total.yourShare).toBeNull();
    const commission = await priya.agent.getCommission.query({ from: '2026-10-01', to: '2026-10-31', limit: 500 });
    expect(commission.total).toBe(month.total.commission);
  });

  it('answers a period with nothing in it with zero totals, not an error', async () => {
    const quiet = await priya.agent.getPnL.query({ from: '2025-01-01', to: '2025-01-31' });
    expect(quiet.rows).toEqual([]);
    expect(quiet.total).toEqual({ bets: 0, pnl: 0, commission: 0, bookResult: 0, yourShare: 0 });
    expect(quiet.nextCursor).toBeNull();
    const commission = await priya.agent.getCommission.query({ from: '2025-01-01', to: '2025-01-31' });
    expect(commission).toMatchObject({ rows: [], total: 0, nextCursor: null });
    // A page past the end still carries the totals.
    const all = await priya.agent.getPnL.query({ from: '2026-10-01', to: '2026-10-31', limit: 500 });
    const past = await priya.agent.getPnL.query({ from: '2026-10-01', to: '2026-10-31', cursor: Buffer.from(JSON.stringify({ o: 10_000 })).toString('base64url') });
    expect(past.rows).toEqual([]);
    expect(past.total).toEqual(all.total);
  });

  it('lists bets newest first with keyset pages and a summary over all of them', async () => {
    const first = await priya.agent.getBetHistory.query({ playerId: ids.anita!, limit: 5 });
    expect(first.bets).toHaveLength(5);
    const second = await priya.agent.getBetHistory.query({ playerId: ids.anita!, limit: 5, cursor: first.nextCursor! });
    expect(second.bets[0]!.placedAt <= first.bets[4]!.placedAt).toBe(true);
    expect(new Set([...first.bets, ...second.bets].map((x) => x.id)).size).toBe(10);
    const open = await priya.agent.getBetHistory.query({ playerId: ids.anita!, status: ['open'], limit: 100 });
    expect(open.bets.length).toBeGreaterThan(0); // the cast: an open bet on India vs Australia
    expect(open.bets.every((x) => x.status === 'open')).toBe(true);
    expect(open.summary.openLiability).toBe(open.bets.reduce((s, x) => s + x.liability, 0));
  });

  it('lists settlement history with a counterparty', async () => {
    const rows = (await priya.agent.getSettlementHistory.query({ counterpartyId: ids.deepak!, limit: 100 })).rows;
    expect(rows.every((r) => r.childId === ids.deepak)).toBe(true);
    for (const r of rows) expect(r.takeAfter).toBe(r.takeBefore - r.amount);
  });

  it('ranks top markets and builds the downline tree', async () => {
    const top = await priya.agent.getTopMarkets.query({ period: 'week', metric: 'volume', limit: 5 });
    expect(top.period).toMatchObject({ from: '2026-11-16', to: '2026-11-20' });
    expect(top.rows.length).toBeGreaterThan(0);
    expect([...top.rows].sort((x, y) => y.value - x.value)).toEqual(top.rows);
    const tree = await priya.agent.getDownline.query({ depth: 2 });
    const arjun = tree.tree.find((n) => n.username === 'arjun')!;
    expect(arjun.children.map((c) => c.name)).toEqual(expect.arrayContaining(['Imran Qureshi', 'Rahul Khanna']));
    expect(tree.tree.some((n) => n.username === 'rahul.sharma2')).toBe(false);
  });
});
