/**
 * Callers by session token, so that a call does not pay a database round trip to learn who is
 * calling (on PGlite that lookup alone is about a third of a small read's time through tRPC).
 *
 * Kept true by the database, not by the services: triggers (migration 0007_auth_notify) notify
 * AUTH_CHANNEL on commit whenever a session is signed out or removed, or an account changes a
 * field a caller carries, and every backend listening on the database forgets what it holds for
 * it. While the listener's connection is lost nothing is kept or served (an invalidation could be
 * missed), and it starts empty once it is back; nothing is kept longer than MAX_AGE_MS, in case a
 * listener hangs without an error. Writes that guard on the caller's own figures read them again in their transaction
 * (limits.ts) rather than trust a caller that may be a notification behind.
 */
import type { Caller } from './caller.js';

/** The channel the triggers notify; payload `session:<token hash>` or `account:<id>`. */
export const AUTH_CHANNEL = 'desk_auth';

const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  caller: Caller;
  sessionExpiresAt: number;
  cachedAt: number;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * Bumped by every invalidation. A lookup that read the database before an invalidation and
   * stores after it would put back what was just forgotten; `put` refuses it (see `epoch`).
   */
  private generation = 0;
  /** False while the listener is lost: an invalidation could be missed, so nothing is kept or served. */
  private trusted = true;

  constructor(private readonly limits: { maxAgeMs: number; maxEntries: number } = { maxAgeMs: MAX_AGE_MS, maxEntries: MAX_ENTRIES }) {}

  /** Read before the database lookup and passed to `put` with its result. */
  epoch(): number {
    return this.generation;
  }

  get(tokenHash: string, nowMs: number): Caller | undefined {
    if (!this.trusted) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (nowMs >= entry.sessionExpiresAt || nowMs - entry.cachedAt >= this.limits.maxAgeMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.caller;
  }

  put(tokenHash: string, caller: Caller, sessionExpiresAt: number, nowMs: number, epoch: number): void {
    if (epoch !== this.generation || !this.trusted) return;
    // Oldest first: a Map iterates in insertion order, so the first key is the longest held.
    if (this.entries.size >= this.limits.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    // One object serves many calls: a service that changed it would change every later call's caller.
    this.entries.set(tokenHash, { caller: Object.freeze(caller), sessionExpiresAt, cachedAt: nowMs });
  }

  /** An AUTH_CHANNEL payload: forgets the session, or every session of the account. Anything else clears all. */
  invalidate(payload: string): void {
    this.generation++;
    const [kind, key] = splitOnce(payload);
    if (kind === 'session' && key) {
      this.entries.delete(key);
    } else if (kind === 'account' && key) {
      for (const [tokenHash, entry] of this.entries) if (entry.caller.id === key) this.entries.delete(tokenHash);
    } else {
      this.entries.clear();
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The listener is lost: forget everything and keep nothing until `resume`. */
  suspend(): void {
    this.trusted = false;
    this.clear();
  }

  /** Listening again: notifications sent meanwhile are gone, so start empty. */
  resume(): void {
    this.trusted = true;
    this.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

function splitOnce(payload: string): [string, string] {
  const at = payload.indexOf(':');
  return at < 0 ? [payload, ''] : [payload.slice(0, at), payload.slice(at + 1)];
}
