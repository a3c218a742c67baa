import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type TestBackend, accountId, databaseFingerprint, startTestBackend } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;
/** Every procedure that takes an account id, called with that id. */
const byAccount: Record<string, (c: Client, id: string) => Promise<unknown>> = {
  getTake: (c, id) => c.agent.getTake.query({ playerId: id }),
  getCreditLimit: (c, id) => c.agent.getCreditLimit.query({ playerId: id }),
  getPnL: (c, id) => c.agent.getPnL.query({ playerId: id }),
  getCommission: (c, id) => c.agent.getCommission.query({ playerId: id }),
  getSettlementHistory: (c, id) => c.agent.getSettlementHistory.query({ counterpartyId: id }),
  getBetHistory: (c, id) => c.agent.getBetHistory.query({ playerId: id }),
  getStatement: (c, id) => c.agent.getStatement.query({ accountId: id }),
  // The dry runs read like the reads; for a sub-agent's player they answer with a refusal.
  'limits.preview': (c, id) => c.limits.preview.query({ playerId: id, limitType: 'creditLimit', newValue: 100_000 }),
  'settlements.preview': (c, id) => c.settlements.preview.query({ playerId: id, mode: 'auto' }),
};
/** The writes, with arguments that would pass every guardrail: only scope may refuse them here. */
const writeByAccount: Record<string, (c: Client, id: string) => Promise<unknown>> = {
  'limits.edit': (c, id) => c.limits.edit.mutate({ playerId: id, limitType: 'creditLimit', newValue: 100_000, idempotencyKey: `authz-${randomUUID()}` }),
  'settlements.settle': (c, id) => c.settlements.settle.mutate({ playerId: id, mode: 'amount', amount: 1, idempotencyKey: `authz-${randomUUID()}` }),
};
/** Every procedure, with arguments a caller may send. */
const everyProcedure: Record<string, (c: Client) => Promise<unknown>> = {
  searchPlayers: (c) => c.agent.searchPlayers.query({ query: 'Rahul' }),
  getDownline: (c) => c.agent.getDownline.query({}),
  getTake: (c) => c.agent.getTake.query({}),
  getCreditLimit: (c) => c.agent.getCreditLimit.query({}),
  getLiveExposure: (c) => c.agent.getLiveExposure.query({}),
  getPnL: (c) => c.agent.getPnL.query({}),
  getCommission: (c) => c.agent.getCommission.query({}),
  getSettlementHistory: (c) => c.agent.getSettlementHistory.query({}),
  getBetHistory: (c) => c.agent.getBetHistory.query({}),
  getStatement: (c) => c.agent.getStatement.query({ accountId: randomUUID() }),
  getUpline: (c) => c.agent.getUpline.query({}),
  getTopMarkets: (c) => c.agent.getTopMarkets.query({ period: 'month', metric: 'pnl' }),
  searchFixtures: (c) => c.match.searchFixtures.query({ query: 'India' }),
  me: (c) => c.auth.me.query(),
  'limits.preview': (c) => c.limits.preview.query({ playerId: randomUUID(), limitType: 'minStake', newValue: 100 }),
  'limits.edit': (c) => c.limits.edit.mutate({ playerId: randomUUID(), limitType: 'minStake', newValue: 100, idempotencyKey: `authz-${randomUUID()}` }),
  'settlements.preview': (c) => c.settlements.preview.query({ playerId: randomUUID(), mode: 'auto' }),
  'settlements.settle': (c) => c.settlements.settle.mutate({ playerId: randomUUID(), mode: 'auto', idempotencyKey: `authz-${randomUUID()}` }),
  'audit.anchors': (c) => c.audit.anchors.query({}),
};

describe.each(ENGINES)('authorization matrix on %s', (engine) => {
  let b: TestBackend;
  let priya: Client;
  let expiredClient: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priya = b.client(await b.login('priya'));
    for (const u of ['anita', 'imran', 'rahul.sharma2', 'farhan', 'priya', 'deepak']) ids[u] = await accountId(b, u);
    // A session whose time has run out: issued 13 hours of wall-clock time ago (sessions last 12).
    const real = b.clock.real;
    b.clock.real = new Date(real.getTime() - 13 * 3_600_000);
    expiredClient = b.client(await b.login('priya'));
    b.clock.real = real;
  });
  afterAll(async () => b?.close());

  describe.each(Object.entries(byAccount))('%s', (_name, call) => {
    it('answers for the own downline', async () => {
      await expect(call(priya, ids.anita!)).resolves.toBeDefined();
    });
    it('answers for a sub-agent\'s downline', async () => {
      await expect(call(priya, ids.imran!)).resolves.toBeDefined();
    });
    it('answers NOT_FOUND for another tree, exactly as for a missing id', async () => {
      const other = await call(priya, ids['rahul.sharma2']!).catch((e: unknown) => e);
      const missing = await call(priya, randomUUID()).catch((e: unknown) => e);
      expect(other).toMatchObject({ data: { code: 'NOT_FOUND', httpStatus: 404 } });
      expect((other as Error).message).toBe((missing as Error).message);
      expect(missing).toMatchObject({ data: { code: 'NOT_FOUND' } });
    });
    it('refuses an agent looking up its own upline tree', async () => {
      const arjun = b.client(await b.login('arjun'));
      await expect(call(arjun, ids.anita!)).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    });
  });

  describe.each(Object.entries(writeByAccount))('%s', (_name, call) => {
    it('refuses a sub-agent\'s player (only the direct upline writes), changing nothing', async () => {
      const before = await databaseFingerprint(b);
      await expect(call(priya, ids.imran!)).rejects.toMatchObject({ data: { code: 'FORBIDDEN', httpStatus: 403 } });
      expect(await databaseFingerprint(b)).toBe(before);
    });
    it('answers NOT_FOUND for another tree, exactly as for a missing id, changing nothing', async () => {
      const before = await databaseFingerprint(b);
      const other = await call(priya, ids['rahul.sharma2']!).catch((e: unknown) => e);
      const missing = await call(priya, randomUUID()).catch((e: unknown) => e);
      expect(other).toMatchObject({ data: { code: 'NOT_FOUND', httpStatus: 404 } });
      expect((other as Error).message).toBe((missing as Error).message);
      const arjun = b.client(await b.login('arjun'));
      await expect(call(arjun, ids.anita!)).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
      expect((await databaseFingerprint(b)).replace(/sessions:\S+/, '')).toBe(before.replace(/sessions:\S+/, ''));
    });
  });

  describe.each(Object.entries(everyProcedure))('%s', (_name, call) => {
    it('refuses a call with no token', async () => {
      await expect(call(b.client())).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    });
    it('refuses an expired token', async () => {
      await expect(call(expiredClient)).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' }, message: expect.stringMatching(/expired/) });
    });
    it('refuses a malformed token', async () => {
      await expect(call(b.client('not a token'))).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' }, message: 'malformed session token' });
    });
  });

  it('times sessions by the wall clock: a demo restarted on another data clock neither ends nor revives one', async () => {
    const now = b.clock.now;
    const live = b.client(await b.login('priya'));
    try {
      for (const days of [30, -30]) {
        b.clock.now = new Date(now.getTime() + days * 24 * 3_600_000);
        await expect(live.auth.me.query()).resolves.toMatchObject({ username: 'priya', now: b.clock.now.toISOString() });
        await expect(expiredClient.auth.me.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' }, message: expect.stringMatching(/expired/) });
      }
    } finally {
      b.clock.now = now;
    }
  });

  it('stamps a session\'s expiry in wall-clock time, twelve hours on', async () => {
    const { expiresAt } = await b.client().auth.login.mutate({ username: 'priya', password: 'demo-priya' });
    expect(expiresAt).toBe(new Date(b.clock.real.getTime() + 12 * 3_600_000).toISOString());
  });

  it('never shows priya meera\'s "Rahul Sharma" anywhere', async () => {
    const search = await priya.agent.searchPlayers.query({ query: 'Rahul Sharma' });
    expect(search.players.map((p) => p.id)).not.toContain(ids['rahul.sharma2']);
    // Every page of priya's bets, not only the first.
    const bets: Array<{ playerId: string }> = [];
    let cursor: string | undefined;
    do {
      const page = await priya.agent.getBetHistory.query({ limit: 200, ...(cursor && { cursor }) });
      bets.push(...page.bets);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(bets.length).toBeGreaterThan(200);
    expect(bets.some((x) => x.playerId === ids['rahul.sharma2'] || x.playerId === ids.farhan)).toBe(false);
    const pnl = await priya.agent.getPnL.query({ from: '2026-08-01', limit: 500 });
    expect(pnl.rows.some((r) => r.playerId === ids['rahul.sharma2'])).toBe(false);
  });

  it('lets meera see her own Rahul Sharma and not priya\'s', async () => {
    const meera = b.client(await b.login('meera'));
    const search = await meera.agent.searchPlayers.query({ query: 'Rahul Sharma' });
    expect(search.players.map((p) => p.id)).toEqual([ids['rahul.sharma2']]);
  });

  it('lets the platform admin see every tree; getUpline is for agents', async () => {
    const admin = b.client(await b.login('admin'));
    const search = await admin.agent.searchPlayers.query({ query: 'Rahul Sharma' });
    expect(search.players.filter((p) => p.match === 'exact').map((p) => p.id).sort()).toEqual([ids['rahul.sharma2'], await accountId(b, 'rahul.sharma')].sort());
    await expect(admin.agent.getTake.query({ playerId: ids.farhan! })).resolves.toBeDefined();
    await expect(admin.agent.getUpline.query({})).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    // Any player's limits and any pair's settlement, whichever tree.
    expect(await admin.limits.preview.query({ playerId: ids.farhan!, limitType: 'creditLimit', newValue: 100_000 })).toMatchObject({ refusal: null });
    expect(await admin.limits.preview.query({ playerId: ids.imran!, limitType: 'minStake', newValue: 200 })).toMatchObject({ refusal: null });
    expect(await admin.settlements.preview.query({ playerId: ids.imran!, mode: 'auto' })).toMatchObject({ refusal: null });
  });

  it('allows the own upline as a settlement counterparty, and nobody else above', async () => {
    const arjun = b.client(await b.login('arjun'));
    await expect(arjun.agent.getSettlementHistory.query({ counterpartyId: ids.priya! })).resolves.toBeDefined();
    await expect(arjun.agent.getSettlementHistory.query({ counterpartyId: await accountId(b, 'vikram') })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });
});
