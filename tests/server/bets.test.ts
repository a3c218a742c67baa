// Bets on the exchange side: every guardrail refused with its reason, large_bet to the
// agents whose threshold the stake reaches and in the bet's own transaction, market_settled to the
// agents above the bettors with their book's result, player_login with the sign-in.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/server/db/client.js';
import { betResult, liability, potentialWin } from '../../src/server/domain/bets.js';
import { BetRefusedError, type BetInput, placeBet, placeBetNow } from '../../src/server/services/bets.js';
import { outcomePrice, settleMarketNow } from '../../src/server/services/markets.js';
import { BOOK_NOW, ENGINES, type PlayerLimits, type TestBackend, accountId, addPlayer, startTestBackend } from '../helpers/backend.js';

const POINT = 100;

describe.each(ENGINES)('bets and their events on %s', (engine) => {
  let b: TestBackend;
  const ids: Record<string, string> = {};
  /** India vs Australia (live: in-play), England vs New Zealand (starts in two days). */
  let indAus: { marketId: string; outcomes: Array<{ id: string; name: string }> };
  let engNz: { marketId: string; fixtureId: string; outcomes: Array<{ id: string; name: string }> };

  const rows = <T extends object>(q: ReturnType<typeof sql>) => queryRows<T>(b.deps.db, q);
  const count = async (q: ReturnType<typeof sql>) => Number((await rows<{ n: string | number }>(q))[0]!.n);
  const eventCount = () => count(sql`select count(*) as n from events`);
  const market = async (fixture: string, name = 'Match Odds') => {
    const [m] = await rows<{ id: string; fixture_id: string }>(sql`
      select m.id, m.fixture_id from markets m join fixtures f on f.id = m.fixture_id where f.name = ${fixture} and m.name = ${name}`);
    const outcomes = await rows<{ id: string; name: string }>(sql`select id, name from outcomes where market_id = ${m!.id} order by ordinal`);
    return { marketId: m!.id, fixtureId: m!.fixture_id, outcomes };
  };
  /** A player of priya's with limits set for the case at hand (and nothing open, nothing owed). */
  async function freshPlayer(limits: PlayerLimits, parent = 'priya'): Promise<string> {
    return addPlayer(b, parent, limits);
  }
  const roomy = { creditLimit: 10_000_000 * POINT, perClickWin: 1_000_000 * POINT, aggregateDailyWin: 1_000_000 * POINT, minStake: 100 * POINT };

  async function refusal(input: BetInput): Promise<BetRefusedError> {
    const before = await count(sql`select count(*) as n from bets`);
    const eventsBefore = await eventCount();
    const outcome = await placeBetNow(b.deps, input).then(() => null, (e: unknown) => e);
    if (!(outcome instanceof BetRefusedError)) throw new Error(`expected a refusal, got ${String(outcome)}`);
    // A refused bet writes nothing, its events included.
    expect(await count(sql`select count(*) as n from bets`)).toBe(before);
    expect(await eventCount()).toBe(eventsBefore);
    return outcome;
  }

  beforeAll(async () => {
    b = await startTestBackend(engine);
    for (const u of ['priya', 'arjun', 'vikram', 'admin', 'sanjay', 'meera', 'rahul.sharma', 'imran']) ids[u] = await accountId(b, u);
    indAus = await market('India vs Australia');
    engNz = await market('England vs New Zealand');
  });
  afterAll(async () => b?.close());

  it('takes a bet at the outcome\'s current price and writes it open', async () => {
    const player = await freshPlayer(roomy);
    const outcome = indAus.outcomes[0]!;
    const odds = outcomePrice(outcome.id, indAus.outcomes.length, BOOK_NOW);
    const bet = await placeBetNow(b.deps, { accountId: player, marketId: indAus.marketId, outcomeId: outcome.id, side: 'back', stake: 500 * POINT });
    expect(bet).toMatchObject({ odds, stake: 50_000, liability: 50_000, potentialWin: potentialWin({ side: 'back', stake: 50_000, odds }), outcomeName: outcome.name });
    const [row] = await rows<{ status: string; odds: number; placed_at: Date | string }>(sql`select status, odds, placed_at from bets where id = ${bet.betId}`);
    expect(row).toMatchObject({ status: 'open', odds });
    expect(new Date(row!.placed_at).toISOString()).toBe(BOOK_NOW.toISOString());
  });

  it('a bet list\'s later pages carry the summary its first page summed; a new listing sums again', async () => {
    const player = await freshPlayer(roomy);
    const on = { accountId: player, marketId: indAus.marketId, outcomeId: indAus.outcomes[0]!.id, side: 'back' as const };
    for (const stake of [100, 200, 300]) await placeBetNow(b.deps, { ...on, stake: stake * POINT });
    const priya = b.client(await b.login('priya'));
    const first = await priya.agent.getBetHistory.query({ playerId: player, limit: 1 });
    expect(first.summary).toMatchObject({ count: 3, stake: 600 * POINT });
    await placeBetNow(b.deps, { ...on, stake: 400 * POINT });
    const second = await priya.agent.getBetHistory.query({ playerId: player, limit: 1, cursor: first.nextCursor! });
    expect(second.summary).toEqual(first.summary);
    // Another filter is another listing, and a first page always sums the bets as they are now.
    expect((await priya.agent.getBetHistory.query({ playerId: player, limit: 1, side: 'back' })).summary).toMatchObject({ count: 4, stake: 1_000 * POINT });
    const again = await priya.agent.getBetHistory.query({ playerId: player, limit: 1 });
    expect(again.summary).toMatchObject({ count: 4, stake: 1_000 * POINT });
    // Past the minute a listing's summary is kept, a later page sums the bets again.
    await placeBetNow(b.deps, { ...on, stake: 500 * POINT });
    b.clock.real = new Date(b.clock.real.getTime() + 61_000);
    const late = await priya.agent.getBetHistory.query({ playerId: player, limit: 1, cursor: again.nextCursor! });
    expect(late.summary).toMatchObject({ count: 5, stake: 1_500 * POINT });
  });

  it('refuses every guardrail with its reason in words', async () => {
    const outcomeId = indAus.outcomes[1]!.id;
    const odds = outcomePrice(outcomeId, indAus.outcomes.length, BOOK_NOW);
    const on = { marketId: indAus.marketId, outcomeId, side: 'back' as const };

    const minStake = await freshPlayer({ ...roomy, minStake: 500 * POINT });
    let e = await refusal({ ...on, accountId: minStake, stake: 200 * POINT });
    expect([e.reason, e.code]).toEqual(['below_min_stake', 'BAD_REQUEST']);
    expect(e.message).toMatch(/stake of 200\.00 is below .*minimum stake of 500\.00/);

    const perClick = await freshPlayer({ ...roomy, perClickWin: 1_000 * POINT });
    const stake = 10_000 * POINT;
    e = await refusal({ ...on, accountId: perClick, stake });
    expect(e.reason).toBe('above_per_click_win');
    expect(e.message).toContain(`potential win of ${(potentialWin({ side: 'back', stake, odds }) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect(e.message).toContain('per-click win limit of 1,000.00');

    // Today's winnings so far (in the player's timezone) count against the daily limit.
    const daily = await freshPlayer({ ...roomy, aggregateDailyWin: 5_000 * POINT });
    await b.deps.db.execute(sql`insert into bets (id, player_id, market_id, outcome_id, side, stake, odds, status, placed_at, settled_at, result)
      values (${randomUUID()}, ${daily}, ${indAus.marketId}, ${outcomeId}, 'back', 400000, 200, 'settled', ${new Date(BOOK_NOW.getTime() - 7_200_000).toISOString()}::timestamptz,
        ${new Date(BOOK_NOW.getTime() - 3_600_000).toISOString()}::timestamptz, 400000)`);
    // A potential win just over the 1,000.00 left today.
    const dailyStake = Math.ceil((1_001 * POINT * 100) / (odds - 100));
    e = await refusal({ ...on, accountId: daily, stake: dailyStake });
    expect(e.reason).toBe('above_aggregate_daily_win');
    expect(e.message).toMatch(/4,000\.00 already won today plus the potential win of .* is above .*daily win limit of 5,000\.00/);
    // Within what is left of the day, it goes through.
    await placeBetNow(b.deps, { ...on, accountId: daily, stake: 100 * POINT });

    const available = await freshPlayer({ ...roomy, creditLimit: 1_000 * POINT });
    await placeBetNow(b.deps, { ...on, accountId: available, stake: 600 * POINT });
    e = await refusal({ ...on, accountId: available, stake: 500 * POINT });
    expect([e.reason, e.code]).toEqual(['insufficient_available', 'PRECONDITION_FAILED']);
    expect(e.message).toContain('liability of 500.00 on top of 600.00 already at risk on open bets is more than');
    expect(e.message).toContain('1,000.00 available');
  });

  it('refuses a suspended, a settled, a started (not in-play) and a finished market, and a moved price', async () => {
    const player = await freshPlayer(roomy);
    const eng = engNz.outcomes[0]!.id;
    // England vs New Zealand starts in two days: open now.
    await placeBetNow(b.deps, { accountId: player, marketId: engNz.marketId, outcomeId: eng, side: 'back', stake: 100 * POINT });

    await b.deps.db.execute(sql`update markets set status = 'suspended' where id = ${engNz.marketId}`);
    let e = await refusal({ accountId: player, marketId: engNz.marketId, outcomeId: eng, side: 'back', stake: 100 * POINT });
    expect([e.reason, e.code]).toEqual(['market_not_open', 'PRECONDITION_FAILED']);
    expect(e.message).toBe('Match Odds of England vs New Zealand is suspended: bets are taken only while a market is open');
    await b.deps.db.execute(sql`update markets set status = 'open' where id = ${engNz.marketId}`);

    // Its start time passed, the fixture not in-play: the market closed at the start.
    const startsAt = (await rows<{ starts_at: Date | string }>(sql`select starts_at from fixtures where id = ${engNz.fixtureId}`))[0]!.starts_at;
    const clock = b.clock.now;
    b.clock.now = new Date(new Date(startsAt).getTime() + 60_000);
    try {
      e = await refusal({ accountId: player, marketId: engNz.marketId, outcomeId: eng, side: 'back', stake: 100 * POINT });
      expect(e.reason).toBe('market_not_open');
      expect(e.message).toMatch(/England vs New Zealand started at .* and Match Odds is not in-play: bets closed at the start/);
    } finally {
      b.clock.now = clock;
    }

    const settled = (await rows<{ id: string; outcome: string }>(sql`
      select m.id, (select id from outcomes where market_id = m.id limit 1) as outcome from markets m where m.status = 'settled' limit 1`))[0]!;
    e = await refusal({ accountId: player, marketId: settled.id, outcomeId: settled.outcome, side: 'back', stake: 100 * POINT });
    expect(e.message).toMatch(/is already settled|has finished/);

    const odds = outcomePrice(eng, engNz.outcomes.length, BOOK_NOW);
    e = await refusal({ accountId: player, marketId: engNz.marketId, outcomeId: eng, side: 'back', stake: 100 * POINT, odds: odds + 5 });
    expect([e.reason, e.code]).toEqual(['price_moved', 'PRECONDITION_FAILED']);
    expect(e.message).toContain(`moved from ${((odds + 5) / 100).toFixed(2)} to ${(odds / 100).toFixed(2)}`);
  });

  it('tells a large bet to exactly the agents above whose threshold the stake reaches, with the bet', async () => {
    // arjun's player: above are arjun, priya, vikram (and the admin, who is no agent).
    const player = await freshPlayer(roomy, 'arjun');
    await b.deps.db.execute(sql`update accounts set large_bet_threshold = case username
      when 'arjun' then ${1_000 * POINT} when 'priya' then ${20_000 * POINT} when 'vikram' then ${5_000 * POINT} else large_bet_threshold end`);
    const outcome = indAus.outcomes[0]!;
    const since = (await rows<{ m: string | null }>(sql`select max(id)::text as m from events`))[0]!.m ?? '0';
    const bet = await placeBetNow(b.deps, { accountId: player, marketId: indAus.marketId, outcomeId: outcome.id, side: 'lay', stake: 5_000 * POINT });
    expect(new Set(bet.largeBetRecipients)).toEqual(new Set([ids.arjun, ids.vikram]));
    const events = await rows<{ kind: string; recipient_id: string; payload: Record<string, unknown>; created_at: Date | string }>(sql`
      select kind, recipient_id, payload, created_at from events where id > ${since}::bigint order by id`);
    expect(events.map((e) => e.recipient_id).sort()).toEqual([ids.arjun, ids.vikram].sort());
    expect(events[0]!.payload).toEqual({
      betId: bet.betId, playerId: player, playerName: bet.playerName, fixtureId: bet.fixtureId, fixtureName: 'India vs Australia', marketName: 'Match Odds',
      outcomeName: outcome.name, side: 'lay', stake: 500_000, odds: bet.odds, liability: liability({ side: 'lay', stake: 500_000, odds: bet.odds }), hedge: false,
    });
    expect(events.every((e) => e.kind === 'large_bet')).toBe(true);

    // Below every threshold: nothing.
    const small = await placeBetNow(b.deps, { accountId: player, marketId: indAus.marketId, outcomeId: outcome.id, side: 'back', stake: 999 * POINT });
    expect(small.largeBetRecipients).toEqual([]);

    // The events are the bet's: a transaction that rolls back after the bet leaves neither.
    const eventsBefore = await eventCount();
    const betsBefore = await count(sql`select count(*) as n from bets`);
    await expect(b.deps.db.transaction(async (tx) => {
      await placeBet(b.deps, tx as unknown as Db, { accountId: player, marketId: indAus.marketId, outcomeId: outcome.id, side: 'back', stake: 5_000 * POINT });
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(await eventCount()).toBe(eventsBefore);
    expect(await count(sql`select count(*) as n from bets`)).toBe(betsBefore);
  });

  it('settles a market through the cascade, posting the ledger and telling each agent its bets and book result', async () => {
    const m = await market('India vs Australia', 'Total Runs Over/Under 300.5');
    const p1 = await freshPlayer(roomy, 'arjun');
    const p2 = await freshPlayer(roomy, 'meera');
    await placeBetNow(b.deps, { accountId: p1, marketId: m.marketId, outcomeId: m.outcomes[0]!.id, side: 'back', stake: 1_000 * POINT });
    await placeBetNow(b.deps, { accountId: p2, marketId: m.marketId, outcomeId: m.outcomes[1]!.id, side: 'lay', stake: 700 * POINT });
    const open = await rows<{ id: string; player_id: string; outcome_id: string; side: 'back' | 'lay'; stake: string; odds: number; path: string }>(sql`
      select b.id, b.player_id, b.outcome_id, b.side, b.stake, b.odds, p.path from bets b join accounts p on p.id = b.player_id
      where b.market_id = ${m.marketId} and b.status = 'open'`);
    const winner = m.outcomes[0]!;
    const since = (await rows<{ m: string | null }>(sql`select max(id)::text as m from events`))[0]!.m ?? '0';

    const result = await settleMarketNow(b.deps, { marketId: m.marketId, winnerOutcomeId: winner.id });
    expect(result.bets).toBe(open.length);

    // Every bet settled with its domain result; the market closed with its winner.
    const settled = await rows<{ id: string; status: string; result: string }>(sql`select id, status, result from bets where market_id = ${m.marketId}`);
    for (const bet of open) {
      const row = settled.find((s) => s.id === bet.id)!;
      expect(row.status).toBe('settled');
      expect(Number(row.result)).toBe(betResult({ side: bet.side, stake: Number(bet.stake), odds: bet.odds, outcomeId: bet.outcome_id }, winner.id));
    }
    expect((await rows<{ status: string; winner_outcome_id: string }>(sql`select status, winner_outcome_id from markets where id = ${m.marketId}`))[0])
      .toEqual({ status: 'settled', winner_outcome_id: winner.id });
    // The ledger balances, and every pair's running take still equals its ledger sum.
    expect(await count(sql`select coalesce(sum(amount), 0) as n from ledger where market_id = ${m.marketId}`)).toBe(0);
    expect(await count(sql`select count(*) as n from balances bal where bal.take <> coalesce(
      (select sum(l.amount) from ledger l where l.account_id = bal.parent_id and l.counterparty_id = bal.child_id), 0)`)).toBe(0);

    // Recipients: every agent above a bettor, with its downline's bets and its book's ledger change.
    const expected = new Map<string, number>();
    const agents = new Set((await rows<{ id: string }>(sql`select id from accounts where role = 'agent'`)).map((r) => r.id));
    for (const bet of open) for (const a of bet.path.split('.').slice(0, -1)) if (agents.has(a)) expected.set(a, (expected.get(a) ?? 0) + 1);
    const events = await rows<{ kind: string; recipient_id: string; payload: { bets: number; bookResult: number; winnerName: string; marketId: string } }>(sql`
      select kind, recipient_id, payload from events where id > ${since}::bigint`);
    expect(events.every((e) => e.kind === 'market_settled')).toBe(true);
    expect(new Map(events.map((e) => [e.recipient_id, e.payload.bets]))).toEqual(expected);
    expect(events.some((e) => e.recipient_id === ids.admin)).toBe(false);
    for (const e of events) {
      expect(e.payload).toMatchObject({ marketId: m.marketId, winnerName: winner.name });
      const ledgerChange = await count(sql`select coalesce(sum(amount), 0) as n from ledger where market_id = ${m.marketId} and account_id = ${e.recipient_id}`);
      expect(e.payload.bookResult).toBe(ledgerChange);
    }
    expect(new Set(events.map((e) => e.recipient_id))).toEqual(new Set([...expected.keys()]));
    expect(expected.has(ids.arjun!) && expected.has(ids.meera!) && expected.has(ids.sanjay!)).toBe(true);

    // Settled once: a second result is refused, and bets on it too.
    await expect(settleMarketNow(b.deps, { marketId: m.marketId, winnerOutcomeId: winner.id })).rejects.toThrow(/already settled/);
    const e = await refusal({ accountId: p1, marketId: m.marketId, outcomeId: winner.id, side: 'back', stake: 100 * POINT });
    expect(e.message).toContain('is already settled');
  });

  it('tells the agents above an account that signs in, with the session', async () => {
    const since = (await rows<{ m: string | null }>(sql`select max(id)::text as m from events`))[0]!.m ?? '0';
    await b.login('arjun');
    const events = await rows<{ kind: string; recipient_id: string; payload: unknown }>(sql`
      select kind, recipient_id, payload from events where id > ${since}::bigint and kind = 'player_login'`);
    expect(events.map((e) => e.recipient_id).sort()).toEqual([ids.priya, ids.vikram].sort());
    expect(events[0]!.payload).toEqual({ playerId: ids.arjun, playerName: 'Arjun Mehta' });
  });
});
