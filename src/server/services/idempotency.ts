import { createHash } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { and, eq, lt, lte } from 'drizzle-orm';
import { canonicalJson } from '../../shared/canonical-json.js';
import type { Db } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import type { Caller, ServiceDeps } from './caller.js';

/** How long a key and its stored answer are kept: a retry within this window replays. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Rows expired for longer than this are purged, now and then. */
const PURGE_AFTER_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export const paramsHash = (params: unknown) => createHash('sha256').update(canonicalJson(params)).digest('hex');

const lastPurge = new WeakMap<ServiceDeps, number>();

/** Deletes keys expired for more than a day, at most once an hour of wall-clock time per backend. */
async function purgeNowAndThen(deps: ServiceDeps): Promise<void> {
  const now = deps.realNow().getTime();
  const last = lastPurge.get(deps);
  if (last !== undefined && Math.abs(now - last) < PURGE_EVERY_MS) return;
  lastPurge.set(deps, now);
  await deps.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date(now - PURGE_AFTER_MS)));
}

/**
 * Runs a write at most once per (caller, procedure, key), Stripe-style, in ONE transaction:
 * the key is claimed (insert … on conflict do nothing), then `work` runs and its answer is
 * stored with the key. A later call with the same key and the same params gets the stored
 * answer with `replayed: true` and moves nothing; other params are refused (CONFLICT). A
 * refusal thrown by `work` rolls everything back, the key included, so a corrected retry may
 * reuse it. On PostgreSQL a concurrent duplicate's insert waits on the first one's unique key;
 * once that commits, the duplicate's next statement (read committed: a fresh snapshot) reads
 * the stored answer.
 */
export async function withIdempotency<T extends object>(
  deps: ServiceDeps,
  caller: Pick<Caller, 'id'>,
  procedure: string,
  key: string,
  params: unknown,
  work: (tx: Db) => Promise<T>,
): Promise<T & { replayed: boolean }> {
  await purgeNowAndThen(deps);
  const hash = paramsHash(params);
  return deps.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    // Retention is a security time: it follows the wall clock, never a demo book's clock.
    const now = deps.realNow();
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    const thisKey = and(eq(idempotencyKeys.accountId, caller.id), eq(idempotencyKeys.procedure, procedure), eq(idempotencyKeys.key, key));
    const claim = async (): Promise<boolean> => {
      const inserted = await tx.insert(idempotencyKeys)
        .values({ accountId: caller.id, procedure, key, paramsHash: hash, response: null, createdAt: now, expiresAt })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length > 0) return true;
      // Taken: by a committed call (read it below), or an expired one, which may be replaced.
      const replaced = await tx.update(idempotencyKeys)
        .set({ paramsHash: hash, response: null, createdAt: now, expiresAt })
        .where(and(thisKey, lte(idempotencyKeys.expiresAt, now)))
        .returning({ key: idempotencyKeys.key });
      return replaced.length > 0;
    };

    // A few rounds: between a conflict and the read, the row may have been purged or replaced.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claim()) {
        const response = await work(tx);
        await tx.update(idempotencyKeys).set({ response }).where(thisKey);
        return { ...response, replayed: false };
      }
      const [stored] = await tx.select().from(idempotencyKeys).where(thisKey);
      if (!stored) continue;
      if (stored.paramsHash !== hash) {
        throw new TRPCError({ code: 'CONFLICT', message: 'this idempotency key was used with other parameters' });
      }
      if (stored.response === null) break;
      return { ...(stored.response as T), replayed: true };
    }
    throw new TRPCError({ code: 'CONFLICT', message: 'a call with this idempotency key is still in progress: try again' });
  });
}
