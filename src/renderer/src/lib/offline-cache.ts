import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The last good answers of the panel's reads, kept in sessionStorage so that a reload while the
 * backend is away still shows the figures (marked with their age, not as fresh). sessionStorage,
 * not localStorage: the copy ends with the window, and nothing of the book lingers on the disk
 * after it. One entry per user, loaded only for that user and removed on sign-out. Only `panel`
 * reads are kept: proposals, confirmations and other money-moving state are never queries, and
 * nothing here could be confirmed from anyway.
 */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  readonly length: number;
  key(index: number): string | null;
}

export interface OfflineEntry {
  key: QueryKey;
  data: unknown;
  /** When the data was fetched (ms since the epoch): its age on screen, after a reload as before. */
  at: number;
}

const PREFIX = 'desk.offline.';

/** Bounded so one session cannot fill the origin's quota (about 5 MB) that other state shares. */
export const OFFLINE_LIMITS = { entries: 60, bytes: 1_500_000 };

export function persistable(key: QueryKey): boolean {
  return key[0] === 'panel';
}

export class OfflineCache {
  /** The signed-in user's entries by query key, newest last; written out after a short pause. */
  private entries = new Map<string, OfflineEntry>();
  private userId: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly storage: StorageLike | null, private readonly limits = OFFLINE_LIMITS, private readonly flushAfterMs = 300) {}

  /** The user's kept answers, oldest first; another user's are never read. */
  load(userId: string): OfflineEntry[] {
    this.use(userId);
    return [...this.entries.values()];
  }

  save(userId: string, key: QueryKey, data: unknown, at: number): void {
    if (!persistable(key) || data === undefined) return;
    this.use(userId);
    const id = JSON.stringify(key);
    this.entries.delete(id);
    this.entries.set(id, { key, data, at });
    while (this.entries.size > this.limits.entries) this.entries.delete(this.entries.keys().next().value!);
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), this.flushAfterMs);
  }

  /** Writes the user's entries now, dropping the oldest until they fit the bound (and the quota). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.storage || this.userId === null) return;
    const list = [...this.entries.values()];
    while (list.length > 0) {
      const text = JSON.stringify(list);
      if (text.length <= this.limits.bytes) {
        try {
          this.storage.setItem(PREFIX + this.userId, text);
          break;
        } catch {
          // Over the quota: fewer, newer answers rather than none.
        }
      }
      list.shift();
    }
    if (list.length === 0) this.storage.removeItem(PREFIX + this.userId);
    this.entries = new Map(list.map((e) => [JSON.stringify(e.key), e]));
  }

  /** Every user's kept answers, gone: on sign-out, so whoever signs in next sees none of them. */
  clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.entries = new Map();
    this.userId = null;
    if (!this.storage) return;
    const keys: string[] = [];
    for (let i = 0; i < this.storage.length; i++) {
      const k = this.storage.key(i);
      if (k?.startsWith(PREFIX)) keys.push(k);
    }
    for (const k of keys) this.storage.removeItem(k);
  }

  private use(userId: string): void {
    if (this.userId === userId) return;
    if (this.userId !== null) this.flush();
    this.userId = userId;
    this.entries = new Map();
    let raw: unknown;
    try {
      raw = JSON.parse(this.storage?.getItem(PREFIX + userId) ?? 'null');
    } catch {
      raw = null;
    }
    if (!Array.isArray(raw)) return;
    for (const e of raw as OfflineEntry[]) {
      if (e && Array.isArray(e.key) && typeof e.at === 'number' && persistable(e.key)) this.entries.set(JSON.stringify(e.key), e);
    }
  }
}

/** Keeps every panel read's good answer, for the user signed in at the time. */
export function keepAnswers(client: QueryClient, cache: OfflineCache, userId: () => string | null): () => void {
  return client.getQueryCache().subscribe((event) => {
    // A manual success is a restored answer (below), already kept with its own age.
    if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
    const user = userId();
    if (user !== null) cache.save(user, event.query.queryKey, event.query.state.data, event.query.state.dataUpdatedAt);
  });
}

/**
 * Puts the user's kept answers back into the query client with the time they were fetched, so
 * they are stale at once: each is fetched afresh when its page mounts, and while the backend is
 * away the page shows it with "as of …". Data already in the client is newer and stays.
 */
/**
 * A paged answer as TanStack Query keeps it: JSON turned the first page's `undefined` page
 * param into `null`, which a refetch would send as a cursor (and the backend refuses).
 */
function revived(data: unknown): unknown {
  if (!data || typeof data !== 'object' || !Array.isArray((data as { pageParams?: unknown }).pageParams)) return data;
  const paged = data as { pages: unknown[]; pageParams: unknown[] };
  return { ...paged, pageParams: paged.pageParams.map((p) => (p === null ? undefined : p)) };
}

export function restoreAnswers(client: QueryClient, cache: OfflineCache, userId: string): number {
  let restored = 0;
  for (const e of cache.load(userId)) {
    if (client.getQueryData(e.key) !== undefined) continue;
    client.setQueryData(e.key, revived(e.data), { updatedAt: e.at });
    restored++;
  }
  return restored;
}

function sessionStorageOrNull(): StorageLike | null {
  try {
    // globalThis, not window: main's tests compile this file without the DOM's types.
    return (globalThis as { sessionStorage?: StorageLike }).sessionStorage ?? null;
  } catch {
    return null;
  }
}

export const offlineCache = new OfflineCache(sessionStorageOrNull());
