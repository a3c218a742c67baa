import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/infra/log.js';
import { openBackend } from '../../src/server/backend.js';
import { startBackendServer } from '../../src/server/http.js';
import { formatPoints } from '../../src/shared/money.js';
import { logout, resolveSession } from '../../src/server/services/auth.js';
import type { Caller } from '../../src/server/services/caller.js';
import { editLimit, previewEditLimit } from '../../src/server/services/limits.js';
import { SessionCache } from '../../src/server/services/session-cache.js';
import type { AppRouter } from '../../src/server/trpc/router.js';
import { ENGINES, type TestBackend, accountId, startTestBackend } from '../helpers/backend.js';

const caller = (id: string, creditLimit = 100): Caller => ({
  id, username: id, name: id, role: 'agent', parentId: null, path: id, depth: 1, timezone: 'Asia/Kolkata', shareBps: 0, creditLimit, scope: 'desk',
});

describe('SessionCache', () => {
  const limits = { maxAgeMs: 1_000, maxEntries: 3 };

  it('keeps a caller until its session expires or it is MAX_AGE old, whichever is first', () => {
    const cache = new SessionCache(limits);
    cache.put('t1', caller('a'), 500, 0, cache.epoch());
    expect(cache.get('t1', 499)?.id).toBe('a');
    expect(cache.get('t1', 500)).toBeUndefined();
    cache.put('t2', caller('a'), 10_000, 0, cache.epoch());
    expect(cache.get('t2', 999)?.id).toBe('a');
    expect(cache.get('t2', 1_000)).toBeUndefined();
  });

  it('forgets one session, or every session of an account, or everything on a payload it does not know', () => {
    const cache = new SessionCache(limits);
    cache.put('t1', caller('a'), 10_000, 0, cache.epoch());
    cache.put('t2', caller('a'), 10_000, 0, cache.epoch());
    cache.put('t3', caller('b'), 10_000, 0, cache.epoch());
    cache.invalidate('session:t1');
    expect([cache.get('t1', 1), cache.get('t2', 1)?.id, cache.get('t3', 1)?.id]).toEqual([undefined, 'a', 'b']);
    cache.invalidate('account:a');
    expect([cache.get('t2', 1), cache.get('t3', 1)?.id]).toEqual([undefined, 'b']);
    cache.invalidate('something else');
    expect(cache.size).toBe(0);
  });

  it('does not store a lookup that read the database before an invalidation', () => {
    const cache = new SessionCache(limits);
    const epoch = cache.epoch();
    cache.invalidate('session:t1'); // the sign-out commits while the lookup is under way
    cache.put('t1', caller('a'), 10_000, 0, epoch);
    expect(cache.get('t1', 1)).toBeUndefined();
    cache.put('t1', caller('a'), 10_000, 0, cache.epoch());
    expect(cache.get('t1', 1)?.id).toBe('a');
  });

  it('keeps and serves nothing while its listener is lost, and starts empty when it is back', () => {
    const cache = new SessionCache(limits);
    cache.put('t1', caller('a'), 10_000, 0, cache.epoch());
    cache.suspend();
    expect(cache.get('t1', 1)).toBeUndefined();
    cache.put('t2', caller('b'), 10_000, 0, cache.epoch());
    expect(cache.get('t2', 1)).toBeUndefined();
    cache.resume();
    expect(cache.size).toBe(0);
    cache.put('t2', caller('b'), 10_000, 0, cache.epoch());
    expect(cache.get('t2', 1)?.id).toBe('b');
  });

  it('drops the longest-held entry when full, and hands out callers no one can change', () => {
    const cache = new SessionCache(limits);
    for (const t of ['t1', 't2', 't3', 't4']) cache.put(t, caller(t), 10_000, 0, cache.epoch());
    expect(cache.size).toBe(3);
    expect(cache.get('t1', 1)).toBeUndefined();
    const held = cache.get('t4', 1)!;
    expect(() => { (held as { creditLimit: number }).creditLimit = 1; }).toThrow(TypeError);
  });
});

describe.each(ENGINES)('the session cache on %s', (engine) => {
  let b: TestBackend;
  beforeAll(async () => { b = await startTestBackend(engine); });
  afterAll(async () => { await b?.close(); });

  it('answers the second call from the cache, and a signed-out token is refused on the very next call', async () => {
    const cache = b.deps.sessionCache!;
    const arjun = b.client(await b.login('arjun'));
    await arjun.auth.me.query();
    // A call answered from the cache stores nothing. Another test's change to arjun, or this
    // sign-in's own write, may be heard a moment later and evict the entry once; the next call
    // puts it back, and the one after is answered from the cache.
    const put = vi.spyOn(cache, 'put');
    try {
      await vi.waitFor(async () => {
        put.mockClear();
        await arjun.auth.me.query();
        expect(put).not.toHaveBeenCalled();
      }, { timeout: 10_000, interval: 20 });
    } finally {
      put.mockRestore();
    }
    await arjun.auth.logout.mutate();
    await expect(arjun.auth.me.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('signs out at once on the backend that signed out, without waiting for the notification', async () => {
    // A cache no listener feeds: only logout itself can make it forget.
    const deps = { ...b.deps, sessionCache: new SessionCache() };
    const token = await b.login('arjun');
    await resolveSession(deps, token);
    expect(deps.sessionCache.size).toBe(1);
    await logout(deps, token);
    await expect(resolveSession(deps, token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('hears of a change to a cached account made by any writer, even straight in SQL', async () => {
    const arjun = b.client(await b.login('arjun'));
    expect(await arjun.auth.me.query()).toMatchObject({ timezone: 'Asia/Kolkata' });
    await b.deps.db.execute(sql`update accounts set timezone = 'Asia/Dubai' where username = 'arjun'`);
    try {
      await vi.waitFor(async () => expect(await arjun.auth.me.query()).toMatchObject({ timezone: 'Asia/Dubai' }), { timeout: 10_000, interval: 20 });
    } finally {
      await b.deps.db.execute(sql`update accounts set timezone = 'Asia/Kolkata' where username = 'arjun'`);
    }
  });

  it('checks a credit limit against the caller\'s own limit as it is now, not as a cached caller remembers it', async () => {
    const priya = await resolveSession(b.deps, await b.login('priya'));
    // A caller one notification behind: it remembers ten times the limit priya has (2,000,000.00).
    const stale: Caller = { ...priya, creditLimit: priya.creditLimit * 10 };
    const input = { playerId: await accountId(b, 'anita'), limitType: 'creditLimit' as const, newValue: priya.creditLimit + 100 };
    const reason = `${formatPoints(input.newValue)} is above your own credit limit of ${formatPoints(priya.creditLimit)}`;
    expect((await previewEditLimit(b.deps, stale, input)).refusal).toBe(reason);
    await expect(editLimit(b.deps, stale, { ...input, idempotencyKey: 'stale-caller-guardrail-1' }, { requestId: 'r' }))
      .rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT', message: reason });
  });
});

describe.runIf(ENGINES.includes('postgres'))('the session cache across backends on one PostgreSQL database', () => {
  let b: TestBackend;
  beforeAll(async () => { b = await startTestBackend('postgres'); });
  afterAll(async () => { await b?.close(); });

  it('empties its cache when its listener connection is lost, and caches again once it listens again', async () => {
    const arjun = b.client(await b.login('arjun'));
    await arjun.auth.me.query();
    expect(b.deps.sessionCache!.size).toBeGreaterThan(0);
    const admin = new pg.Client({ connectionString: b.databaseUrl });
    await admin.connect();
    try {
      // The listener is the connection that LISTENs; the server ends it as a network fault would.
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`);
      await vi.waitFor(() => expect(b.deps.sessionCache!.size).toBe(0), { timeout: 10_000, interval: 20 });
      await arjun.auth.me.query();
      // Once listening again (reconnect 100 ms on), calls are cached again.
      await vi.waitFor(async () => {
        await arjun.auth.me.query();
        expect(b.deps.sessionCache!.size).toBeGreaterThan(0);
      }, { timeout: 10_000, interval: 50 });
    } finally {
      await admin.end();
    }
  });

  it('a sign-out on one backend is refused by another that had the caller cached', async () => {
    const other = await openBackend({ database: { engine: 'postgres', url: b.databaseUrl! }, realNow: () => new Date(b.clock.real) });
    const server = await startBackendServer(other.deps, silentLogger, { port: 0 });
    try {
      const token = await b.login('arjun');
      const there = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })] });
      await expect(there.auth.me.query()).resolves.toMatchObject({ username: 'arjun' });
      expect(other.deps.sessionCache!.size).toBe(1);
      await b.client(token).auth.logout.mutate();
      await vi.waitFor(async () => expect(there.auth.me.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } }), { timeout: 10_000, interval: 20 });
    } finally {
      await server.close();
      await other.database.close();
    }
  });
});
