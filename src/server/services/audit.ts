import { TRPCError } from '@trpc/server';
import { eq, sql } from 'drizzle-orm';
import { auditHeads } from '../db/schema.js';
import type { Caller, ServiceDeps } from './caller.js';

export interface AuditHead {
  seq: number;
  hash: string;
  recordedAt: string;
}

const toHead = (row: { seq: number; hash: string; recordedAt: Date }): AuditHead => ({
  seq: row.seq, hash: row.hash, recordedAt: row.recordedAt.toISOString(),
});

/**
 * Records the head of the caller's local audit chain. A head only moves forward: a lower seq, or
 * the same seq with another hash, means the local file was truncated or rewritten (CONFLICT).
 * Sending the stored head again is a no-op. One statement moves it, so two concurrent calls
 * cannot move it backwards.
 */
export async function recordAuditHead(deps: ServiceDeps, caller: Pick<Caller, 'id'>, input: { seq: number; hash: string }): Promise<AuditHead> {
  const [moved] = await deps.db.insert(auditHeads)
    .values({ accountId: caller.id, seq: input.seq, hash: input.hash, recordedAt: deps.now() })
    .onConflictDoUpdate({
      target: auditHeads.accountId,
      set: { seq: sql`excluded.seq`, hash: sql`excluded.hash`, recordedAt: sql`excluded.recorded_at` },
      setWhere: sql`${auditHeads.seq} < excluded.seq`,
    })
    .returning();
  if (moved) return toHead(moved);
  const [stored] = await deps.db.select().from(auditHeads).where(eq(auditHeads.accountId, caller.id));
  if (!stored) throw new Error('audit head vanished between its upsert and its read');
  if (input.seq < stored.seq) throw new TRPCError({ code: 'CONFLICT', message: 'the audit chain went backwards' });
  if (stored.hash !== input.hash) {
    throw new TRPCError({ code: 'CONFLICT', message: `the audit chain forked: entry ${input.seq} was recorded with another hash` });
  }
  return toHead(stored);
}

export async function auditHead(deps: ServiceDeps, caller: Pick<Caller, 'id'>): Promise<AuditHead | null> {
  const [row] = await deps.db.select().from(auditHeads).where(eq(auditHeads.accountId, caller.id));
  return row ? toHead(row) : null;
}
