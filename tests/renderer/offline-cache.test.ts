import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_LIMITS, OfflineCache, type StorageLike, keepAnswers, restoreAnswers } from '../../src/renderer/src/lib/offline-cache.js';
import { formatReadAt } from '../../src/shared/format.js';

/** sessionStorage as the renderer sees it; `quota` makes it refuse a value past that many characters. */
function memoryStorage(quota = Infinity): StorageLike & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      if (v.length > quota) throw new DOMException('quota', 'QuotaExceededError');
      map.set(k, v);
    },
    removeItem: (k) => { map.delete(k); },
    get length() { return map.size; },
    key: (i) => [...map.keys()][i] ?? null,
  };
}

const clients: QueryClient[] = [];
function client(): QueryClient {
  const c = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  clients.push(c);
  return c;
}
afterEach(() => {
  for (const c of clients.splice(0)) c.clear();
});

const AT = Date.parse('2026-11-20T06:34:00.000Z');
const dashboard = ['panel', 'dashboard', null] as const;

describe('the last answers kept for a reload', () => {
  it('come back after a reload with the time they were fetched, stale, and shown "as of" that time', async () => {
    const storage = memoryStorage();
    const before = new OfflineCache(storage, OFFLINE_LIMITS, 0);
    before.save('u1', dashboard, { take: 1200 }, AT);
    before.flush();

    // The reload: a new cache on the same sessionStorage, a new query client.
    const qc = client();
    expect(restoreAnswers(qc, new OfflineCache(storage), 'u1')).toBe(1);
    const state = qc.getQueryState(dashboard)!;
    expect(state.data).toEqual({ take: 1200 });
    expect(state.dataUpdatedAt).toBe(AT);
    // Stale at once: the page fetches it afresh as soon as it mounts; its age is the page's `fetchedAt` (lib/useQuery.ts viewOf).
    expect(qc.getQueryCache().find({ queryKey: dashboard })!.isStaleByTime(0)).toBe(true);
    expect(`as of ${formatReadAt(AT, AT + 3 * 60_000, 'Asia/Kolkata')}`).toBe('as of 12:04 (3 min ago)');
  });

  it('bring a paged list back with its first page asked for without a cursor, as before the reload', async () => {
    const storage = memoryStorage();
    const before = new OfflineCache(storage, OFFLINE_LIMITS, 0);
    const bets = ['panel', 'bets', { sort: { by: 'stake', dir: 'asc' } }, 'pages'] as const;
    before.save('u1', bets, { pages: [{ bets: [1], nextCursor: 'c2' }, { bets: [2], nextCursor: null }], pageParams: [undefined, 'c2'] }, AT);
    before.flush();
    const qc = client();
    restoreAnswers(qc, new OfflineCache(storage), 'u1');
    // JSON made the first page's param null; a refetch would have sent `cursor: null`.
    const asked: unknown[] = [];
    await qc.fetchInfiniteQuery({
      queryKey: bets, initialPageParam: undefined as string | undefined, staleTime: 0,
      queryFn: ({ pageParam }) => { asked.push(pageParam); return { bets: [], nextCursor: null }; },
      getNextPageParam: (p: { nextCursor: string | null }) => p.nextCursor ?? undefined,
    });
    expect(asked[0]).toBeUndefined();
  });

  it('leave newer data in the client as it is', () => {
    const storage = memoryStorage();
    const cache = new OfflineCache(storage);
    cache.save('u1', dashboard, { take: 1 }, AT);
    const qc = client();
    qc.setQueryData(dashboard, { take: 2 }, { updatedAt: AT + 60_000 });
    expect(restoreAnswers(qc, cache, 'u1')).toBe(0);
    expect(qc.getQueryData(dashboard)).toEqual({ take: 2 });
  });

  it("are the signed-in user's own: another user loads none of them", () => {
    const storage = memoryStorage();
    const cache = new OfflineCache(storage);
    cache.save('u1', dashboard, { take: 1 }, AT);
    cache.flush();
    expect(new OfflineCache(storage).load('u2')).toEqual([]);
    expect(restoreAnswers(client(), new OfflineCache(storage), 'u2')).toBe(0);
    expect(new OfflineCache(storage).load('u1')).toHaveLength(1);
    // Switching users on one cache writes the first user's out and reads only the second's.
    cache.save('u2', dashboard, { take: 2 }, AT);
    expect(cache.load('u2').map((e) => e.data)).toEqual([{ take: 2 }]);
    cache.flush();
    expect(new OfflineCache(storage).load('u1').map((e) => e.data)).toEqual([{ take: 1 }]);
  });

  it('are bounded in count and size, the oldest going first, and survive a full quota', () => {
    const storage = memoryStorage();
    const cache = new OfflineCache(storage, { entries: 3, bytes: 10_000 });
    for (let i = 0; i < 5; i++) cache.save('u1', ['panel', 'player', { playerId: `p${i}` }], { i }, AT + i);
    cache.flush();
    expect(new OfflineCache(storage).load('u1').map((e) => e.data)).toEqual([{ i: 2 }, { i: 3 }, { i: 4 }]);

    const big = new OfflineCache(storage, { entries: 50, bytes: 2_500 });
    for (let i = 0; i < 5; i++) big.save('u2', ['panel', 'bets', { page: i }], { rows: 'x'.repeat(1000), i }, AT + i);
    big.flush();
    expect(storage.getItem('desk.offline.u2')!.length).toBeLessThanOrEqual(2_500);
    expect(new OfflineCache(storage).load('u2').map((e) => (e.data as { i: number }).i)).toEqual([3, 4]);

    const tight = memoryStorage(1_500);
    const full = new OfflineCache(tight, { entries: 50, bytes: 1_000_000 });
    for (let i = 0; i < 5; i++) full.save('u3', ['panel', 'bets', { page: i }], { rows: 'x'.repeat(1000), i }, AT + i);
    expect(() => full.flush()).not.toThrow();
    expect(new OfflineCache(tight).load('u3').map((e) => (e.data as { i: number }).i)).toEqual([4]);
  });

  it('are gone on sign-out, for every user', () => {
    const storage = memoryStorage();
    storage.setItem('desk.chat.dock', 'right');
    const cache = new OfflineCache(storage);
    cache.save('u1', dashboard, { take: 1 }, AT);
    cache.flush();
    cache.save('u2', dashboard, { take: 2 }, AT);
    cache.flush();
    cache.clear();
    expect([...storage.map.keys()]).toEqual(['desk.chat.dock']);
    expect(new OfflineCache(storage).load('u1')).toEqual([]);
    expect(new OfflineCache(storage).load('u2')).toEqual([]);
  });

  it("keep the panel's fetched reads for the user signed in, nothing else", async () => {
    const storage = memoryStorage();
    const cache = new OfflineCache(storage, OFFLINE_LIMITS, 0);
    const qc = client();
    let user: string | null = 'u1';
    const stop = keepAnswers(qc, cache, () => user);
    await qc.fetchQuery({ queryKey: dashboard, queryFn: async () => ({ take: 7 }) });
    // Main's audit log is not the backend's book, and answers from no one signed in are nobody's.
    await qc.fetchQuery({ queryKey: ['audit', 'list'], queryFn: async () => ({ rows: [] }) });
    user = null;
    await qc.fetchQuery({ queryKey: ['panel', 'exposure', null], queryFn: async () => ({ open: 1 }) });
    stop();
    cache.flush();
    const kept = new OfflineCache(storage).load('u1');
    expect(kept.map((e) => e.key)).toEqual([[...dashboard]]);
    expect(kept[0]!.at).toBe(qc.getQueryState(dashboard)!.dataUpdatedAt);
  });
});
