import type { Envelope } from '../../shared/contracts/assistant.js';
import { BusinessClock } from '../../shared/business-clock.js';
import { formatReadAt } from '../../shared/format.js';
import type { KnownEntity } from './planner/types.js';

/**
 * The last good answer of each read tool, per user, so a chat turn can still answer a read while
 * the backend is away, saying how old the answer is. In memory only: it dies with the app, and
 * a user's entries are never handed to another user. Destructive tools are never kept: a change
 * must be previewed against the live book, never against a remembered one.
 */
export interface CachedRead {
  envelope: Envelope;
  /** Wall-clock ms when the envelope was read. */
  at: number;
}

interface UserCache {
  reads: Map<string, CachedRead>;
  /** Players and fixtures the user's turns named: without the backend's search, names resolve only to these. */
  entities: Map<string, KnownEntity>;
  /** The backend's business clock as last read, run on by the wall clock: "today" while it is away. */
  clock: BusinessClock | null;
}

export const READ_CACHE_ENTRIES = 200;
const ENTITIES = 200;

export class ReadCache {
  private readonly users = new Map<string, UserCache>();

  constructor(private readonly limits: { entries: number; entities: number } = { entries: READ_CACHE_ENTRIES, entities: ENTITIES }, /** The wall clock entries are stamped and aged by. */ readonly now: () => number = Date.now) {}

  remember(userId: string, tool: string, args: Record<string, unknown>, envelope: Envelope, at = this.now()): void {
    if (!envelope.ok) return;
    const reads = this.user(userId).reads;
    const key = keyOf(tool, args);
    // Deleted first so the insertion order is the recency order, for the eviction below.
    reads.delete(key);
    reads.set(key, { envelope, at });
    while (reads.size > this.limits.entries) reads.delete(reads.keys().next().value!);
  }

  recall(userId: string, tool: string, args: Record<string, unknown>): CachedRead | null {
    return this.users.get(userId)?.reads.get(keyOf(tool, args)) ?? null;
  }

  rememberEntity(userId: string, entity: KnownEntity | null): void {
    if (!entity || entity.name === '') return;
    const entities = this.user(userId).entities;
    entities.delete(entity.id);
    entities.set(entity.id, entity);
    while (entities.size > this.limits.entities) entities.delete(entities.keys().next().value!);
  }

  entities(userId: string): KnownEntity[] {
    return [...(this.users.get(userId)?.entities.values() ?? [])].reverse();
  }

  rememberClock(userId: string, businessNow: Date): void {
    const user = this.user(userId);
    user.clock ??= new BusinessClock(this.now);
    user.clock.read(businessNow.toISOString());
  }

  /** The business clock now, run on from its last reading; null if it was never read. */
  businessNow(userId: string): Date | null {
    return this.users.get(userId)?.clock?.now() ?? null;
  }

  size(userId: string): number {
    return this.users.get(userId)?.reads.size ?? 0;
  }

  forget(userId: string): void {
    this.users.delete(userId);
  }

  private user(userId: string): UserCache {
    let u = this.users.get(userId);
    if (!u) {
      u = { reads: new Map(), entities: new Map(), clock: null };
      this.users.set(userId, u);
    }
    return u;
  }
}

/** The chat's sentence before an answer from the cache: "The backend is unreachable; this is from 12:04 (3 min ago)." */
export function cachedSentence(at: number, now: number, timeZone: string): string {
  return `The backend is unreachable; this is from ${formatReadAt(at, now, timeZone)}.`;
}

/** The chat's answer to a change asked for while the backend is away. */
export const WRITE_UNREACHABLE_TEXT = 'The backend is unreachable — this change can\'t be made until it\'s back. Nothing was changed; ask again then.';

/** Arguments in a stable order, so `{a, b}` and `{b, a}` are one entry. */
function keyOf(tool: string, args: Record<string, unknown>): string {
  return `${tool}\u0000${JSON.stringify(args, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v))}`;
}
