// Hedge bets: the preview's bet slip and exposure, the write at the previewed price, the
// self account made once in the upline's book, the agent's exposure moving exactly as previewed,
// the idempotent replay, and the refusals (no upline, a moved price, a guardrail).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.js';
import { ENGINES, type TestBackend, accountId, startTestBackend } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;
const newKey = () => `test-${randomUUID()}`;

async function failure(call: Promise<unknown>): Promise<{ data: { code: string }; message: string }> {
  const outcome = await call.then(() => null, (e: unknown) => e);
  if (outcome === null) throw new Error('the call succeeded; it should have been refused');
  return outcome as { data: { code: string }; message: string };
}

describe.each(ENGINES)('hedge bets on %s', (engine) => {
  let b: TestBackend;
  let priya: Client;
  let admin: Client;
  let vikram: Client;
  const ids: Record<string, string> = {};
  let target: { fixtureId: string; marketId: string; outcomes: Array<{ id: string; name: string }> };

  const rows = <T extends object>(q: ReturnType<typeof sql>) => queryRows<T>(b.deps.db, q);
  const count = async (q: ReturnType<typeof sql>) => Number((await rows<{ n: string | number }>(q))[0]!.n);

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priya = b.client(await b.login('priya'));
    admin = b.client(await b.login('admin'));
    vikram = b.client(await b.login('vikram'));
    for (const u of ['priya', 'vikram', 'admin']) ids[u] = await accountId(b, u);
    const [m] = await rows<{ id: string; fixture_id: string }>(sql`
      select m.id, m.fixture_id from markets m join fixtures f on f.id = m.fixture_id where f.name = 'India vs Australia' and m.name = 'Match Odds'`);
    const outcomes = await rows<{ id: string; name: string }>(sql`select id, name from outcomes where market_id = ${m!.id} order by ordinal`);
    target = { fixtureId: m!.fixture_id, marketId: m!.id, outcomes };
  });
  afterAll(async () => b?.close());

  /** priya's exposure on the market now, as the desk reads it. */
  const exposureOf = async (client: Client) => {
    const e = await client.agent.getLiveExposure.query({ marketId: target.marketId });
    const scope = e.scopes.find((s) => s.marketId === target.marketId);
    return { atShare: scope?.exposureAtShare ?? 0, gross: scope?.exposure ?? 0, outcomes: scope?.outcomes ?? [] };
  };

  it('previews, places at the previewed price, and the exposure moves exactly as previewed; the self account is made once', async () => {
    const before = await exposureOf(priya);
    expect(before.atShare).toBeGreaterThan(0);
    // Back the outcome the book loses most on: that is what offsets it.
    const worst = [...before.outcomes].sort((x, y) => x.positionAtShare - y.positionAtShare)[0]!;
    const input = { fixtureId: target.fixtureId, marketId: target.marketId, outcomeId: worst.outcomeId, side: 'back' as const, stake: 1_000_00 };
    const fingerprint = await count(sql`select count(*) as n from bets`);
    const preview = await priya.hedge.preview.query(input);
    expect(await count(sql`select count(*) as n from bets`)).toBe(fingerprint);
    expect(preview).toMatchObject({
      fixtureName: 'India vs Australia', marketName: 'Match Odds', outcomeName: worst.name, side: 'back', stake: 100_000,
      liability: 100_000, refusal: null, exposureBefore: before.atShare, grossExposureBefore: before.gross,
    });
    expect(preview.exposureAfter).toBeLessThan(preview.exposureBefore);

    const key = newKey();
    const placed = await priya.hedge.place.mutate({ ...input, idempotencyKey: key, expectedOdds: preview.odds });
    expect(placed).toMatchObject({ odds: preview.odds, liability: preview.liability, potentialWin: preview.potentialWin, replayed: false, outcomeName: worst.name });
    const after = await exposureOf(priya);
    expect(after.atShare).toBe(preview.exposureAfter);
    expect(after.gross).toBe(preview.grossExposureAfter);

    // The self account: a player beside priya, under vikram, tied to her.
    const [self] = await rows<{ id: string; username: string; display_name: string; role: string; parent_id: string; path: string; credit_limit: string; commission_bps: number }>(sql`
      select id, username, display_name, role, parent_id, path, credit_limit, commission_bps from accounts where self_of = ${ids.priya}`);
    expect(self).toMatchObject({ id: placed.selfAccountId, username: 'priya.self', display_name: 'Priya Nair (self)', role: 'player', parent_id: ids.vikram, commission_bps: 0 });
    expect(self!.path).toBe(`${(await rows<{ path: string }>(sql`select path from accounts where id = ${ids.vikram}`))[0]!.path}.${self!.id}`);
    expect(Number(self!.credit_limit)).toBe(Number((await rows<{ c: string }>(sql`select credit_limit as c from accounts where id = ${ids.priya}`))[0]!.c));
    const [bet] = await rows<{ player_id: string; odds: number; stake: string; status: string }>(sql`select player_id, odds, stake, status from bets where id = ${placed.betId}`);
    expect(bet).toMatchObject({ player_id: self!.id, odds: preview.odds, status: 'open' });

    // The audit row in priya's chain.
    const [audit] = await rows<{ actor_id: string; action: string; target_id: string }>(sql`select actor_id, action, target_id from audit_log where idempotency_key = ${key}`);
    expect(audit).toEqual({ actor_id: ids.priya, action: 'hedge.place', target_id: placed.betId });

    // The same key again: the first answer, nothing placed.
    const bets = await count(sql`select count(*) as n from bets`);
    const replay = await priya.hedge.place.mutate({ ...input, idempotencyKey: key, expectedOdds: preview.odds });
    expect(replay).toEqual({ ...placed, replayed: true });
    expect(await count(sql`select count(*) as n from bets`)).toBe(bets);
    // The same key for another stake is refused.
    expect((await failure(priya.hedge.place.mutate({ ...input, stake: 2_000_00, idempotencyKey: key, expectedOdds: preview.odds }))).data.code).toBe('CONFLICT');

    // A second hedge uses the same self account, and the preview starts from the exposure the first left.
    const second = await priya.hedge.preview.query({ ...input, stake: 500_00 });
    expect(second.exposureBefore).toBe(after.atShare);
    const placed2 = await priya.hedge.place.mutate({ ...input, stake: 500_00, idempotencyKey: newKey(), expectedOdds: second.odds });
    expect(placed2.selfAccountId).toBe(placed.selfAccountId);
    expect(await count(sql`select count(*) as n from accounts where self_of = ${ids.priya}`)).toBe(1);
    expect((await exposureOf(priya)).atShare).toBe(second.exposureAfter);

    // In the upline's book the hedge is an ordinary bet of its player: vikram's exposure counts it.
    const vikramScope = (await vikram.agent.getLiveExposure.query({ marketId: target.marketId })).scopes[0]!;
    expect(vikramScope.openBets).toBeGreaterThanOrEqual(2);
  });

  it('refuses a moved price, a platform admin, and a guardrail, writing nothing', async () => {
    const input = { fixtureId: target.fixtureId, marketId: target.marketId, outcomeId: target.outcomes[0]!.id, side: 'lay' as const, stake: 100_00 };
    const preview = await priya.hedge.preview.query(input);
    const bets = await count(sql`select count(*) as n from bets`);
    const moved = await failure(priya.hedge.place.mutate({ ...input, idempotencyKey: newKey(), expectedOdds: preview.odds + 5 }));
    expect(moved.data.code).toBe('PRECONDITION_FAILED');
    expect(moved.message).toContain('moved from');

    const adminPreview = await admin.hedge.preview.query(input);
    expect(adminPreview.refusal).toMatch(/no upline/);
    expect(adminPreview.exposureAfter).toBe(adminPreview.exposureBefore);
    const adminPlace = await failure(admin.hedge.place.mutate({ ...input, idempotencyKey: newKey(), expectedOdds: preview.odds }));
    expect(adminPlace.data.code).toBe('FORBIDDEN');
    expect(adminPlace.message).toMatch(/no upline/);
    expect(await count(sql`select count(*) as n from accounts where self_of = ${ids.admin}`)).toBe(0);

    // Below the self account's minimum stake (1.00): the one acceptance rule, in words.
    const tiny = await priya.hedge.preview.query({ ...input, stake: 50 });
    expect(tiny.refusal).toMatch(/below .*minimum stake of 1\.00/);
    const refused = await failure(priya.hedge.place.mutate({ ...input, stake: 50, idempotencyKey: newKey(), expectedOdds: tiny.odds }));
    expect(refused.data.code).toBe('BAD_REQUEST');
    expect(refused.message).toMatch(/minimum stake/);
    expect(await count(sql`select count(*) as n from bets`)).toBe(bets);
  });

  it('tells the upline of a large hedge, marked as a hedge', async () => {
    const since = (await rows<{ m: string | null }>(sql`select max(id)::text as m from events`))[0]!.m ?? '0';
    const input = { fixtureId: target.fixtureId, marketId: target.marketId, outcomeId: target.outcomes[1]!.id, side: 'back' as const, stake: 1_000_000 };
    const preview = await priya.hedge.preview.query({ ...input, stake: 1_000_000 });
    const placed = await priya.hedge.place.mutate({ ...input, stake: 1_000_000, idempotencyKey: newKey(), expectedOdds: preview.odds });
    const events = await rows<{ recipient_id: string; payload: { hedge: boolean; betId: string } }>(sql`
      select recipient_id, payload from events where id > ${since}::bigint and kind = 'large_bet'`);
    // Above the self account: vikram only (the admin is no agent); priya placed it herself.
    expect(events.map((e) => e.recipient_id)).toEqual([ids.vikram]);
    expect(events[0]!.payload).toMatchObject({ hedge: true, betId: placed.betId });
  });

  it('gives markets.prices and lets only the platform settle a market', async () => {
    // Another in-play market: the other tests hedge on India vs Australia.
    const [m] = await rows<{ id: string; fixture_id: string }>(sql`
      select m.id, m.fixture_id from markets m join fixtures f on f.id = m.fixture_id where f.name = 'Djokovic vs Alcaraz' and m.name = 'Match Odds'`);
    const outcomes = await rows<{ id: string; name: string }>(sql`select id, name from outcomes where market_id = ${m!.id} order by ordinal`);
    const prices = await priya.markets.prices.query({ marketId: m!.id });
    expect(prices).toMatchObject({ open: true, refusal: null, status: 'open', marketName: 'Match Odds' });
    expect(prices.outcomes.map((o) => o.outcomeId)).toEqual(outcomes.map((o) => o.id));
    const refused = await failure(priya.markets.settle.mutate({ marketId: m!.id, winnerOutcomeId: outcomes[0]!.id, idempotencyKey: newKey() }));
    expect(refused.data.code).toBe('FORBIDDEN');
    const key = newKey();
    const settled = await admin.markets.settle.mutate({ marketId: m!.id, winnerOutcomeId: outcomes[0]!.id, idempotencyKey: key });
    expect(settled).toMatchObject({ winnerName: outcomes[0]!.name, replayed: false });
    expect(settled.bets).toBeGreaterThan(0);
    expect(await admin.markets.settle.mutate({ marketId: m!.id, winnerOutcomeId: outcomes[0]!.id, idempotencyKey: key })).toEqual({ ...settled, replayed: true });
    expect((await priya.markets.prices.query({ marketId: m!.id })).refusal).toMatch(/already settled/);
    // Once settled, a hedge on it is refused with the reason.
    const late = await priya.hedge.preview.query({ fixtureId: m!.fixture_id, marketId: m!.id, outcomeId: outcomes[0]!.id, side: 'back', stake: 100_00 });
    expect(late.refusal).toMatch(/already settled/);
  });
});
