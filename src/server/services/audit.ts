/**
 * The backend's audit chain: every audited change (a limit edit, a settlement) is recorded in
 * audit_log in the transaction of the change itself, as the next link of its actor's hash chain.
 * The hash is computed here, from what the change wrote, never from anything a client sends;
 * the change's answer carries the link ({seq, hash}) so a desk can keep it beside its own entry,
 * and `audit.anchors` reads the chain back for the desk to check its log against.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AUDIT_SEQ_MAX, type AnchoredRowOutput } from '../../shared/contracts/agent-actions.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';
import { type Db, queryRows } from '../db/client.js';
import { auditHeads, auditLog } from '../db/schema.js';
import type { Caller, ServiceDeps } from './caller.js';

/** The prev_hash of an actor's first row. */
export const AUDIT_GENESIS = '0'.repeat(64);

/** Where a change sits in its actor's chain: what a desk records beside its own entry. */
export interface AuditAnchor {
  seq: number;
  hash: string;
}

/** One row of the chain as `audit.anchors` returns it; `at` is the wall-clock instant it was recorded. */
export type AnchoredRow = AnchoredRowOutput;

/**
 * The hash of one link: every column the row is written with, the actor and the link before it,
 * in canonical JSON. Exported so a verifier can recompute a row it was handed.
 */
export function anchorHash(actorId: string, row: Omit<AnchoredRow, 'hash' | 'before' | 'after'> & { before: unknown; after: unknown }): string {
  const body = {
    actor: actorId, seq: row.seq, prevHash: row.prevHash, action: row.action, targetId: row.targetId, requestId: row.requestId,
    idempotencyKey: row.idempotencyKey, before: row.before ?? null, after: row.after ?? null, at: row.at,
  };
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export interface AuditedChange {
  action: string;
  targetId: string;
  before: unknown;
  after: unknown;
  requestId: string;
  idempotencyKey: string;
}

/**
 * Appends the change to the actor's chain, inside `tx` (the change's own transaction: a change
 * rolled back takes its link with it). The actor's head row is created if missing and then
 * locked, so concurrent changes by one actor queue here and the chain stays one line; the unique
 * (actor, seq) index refuses a fork even if that were ever bypassed.
 */
export async function appendAudited(tx: Db, deps: ServiceDeps, actorId: string, change: AuditedChange): Promise<{ id: number; anchor: AuditAnchor }> {
  // The business clock, as every time the desk shows: the Statement sorts a limit change among the ledger's lines by it.
  const at = deps.now();
  await tx.insert(auditHeads).values({ accountId: actorId, seq: 0, hash: AUDIT_GENESIS, recordedAt: at }).onConflictDoNothing();
  const [head] = await queryRows<{ seq: number; hash: string }>(tx, sql`
    select seq, hash from audit_heads where account_id = ${actorId} for update`);
  if (!head) throw new Error('audit head vanished between its insert and its lock');
  const seq = Number(head.seq) + 1;
  if (seq > AUDIT_SEQ_MAX) throw new Error(`the audit chain of ${actorId} is full`);
  const row = {
    seq, prevHash: head.hash, action: change.action, targetId: change.targetId, requestId: change.requestId,
    idempotencyKey: change.idempotencyKey, before: change.before ?? null, after: change.after ?? null, at: at.toISOString(),
  };
  const hash = anchorHash(actorId, row);
  const [written] = await tx.insert(auditLog).values({
    actorId, action: row.action, targetId: row.targetId, before: row.before, after: row.after, requestId: row.requestId,
    idempotencyKey: row.idempotencyKey, createdAt: at, seq, prevHash: row.prevHash, hash,
  }).returning({ id: auditLog.id });
  await tx.update(auditHeads).set({ seq, hash, recordedAt: at }).where(sql`${auditHeads.accountId} = ${actorId}`);
  return { id: written!.id, anchor: { seq, hash } };
}

/** The caller's chain from `afterSeq` on, oldest first, a page at a time; `head` is the chain's last link. */
export async function auditAnchors(deps: ServiceDeps, caller: Pick<Caller, 'id'>, input: { afterSeq?: number | undefined; limit?: number | undefined }) {
  const afterSeq = input.afterSeq ?? 0;
  const limit = input.limit ?? PAGE_SIZE_MAX.auditRecords;
  const rows = await queryRows<{
    seq: number; hash: string; prev_hash: string; action: string; target_id: string | null; request_id: string | null;
    idempotency_key: string | null; before: AnchoredRow['before']; after: AnchoredRow['after']; created_at: Date | string;
  }>(deps.db, sql`
    select seq, hash, prev_hash, action, target_id, request_id, idempotency_key, before, after, created_at
    from audit_log where actor_id = ${caller.id} and seq > ${afterSeq} order by seq limit ${limit + 1}`);
  const [head] = await queryRows<{ seq: number; hash: string }>(deps.db, sql`
    select seq, hash from audit_heads where account_id = ${caller.id} and seq > 0`);
  const page = rows.slice(0, limit).map((r): AnchoredRow => ({
    seq: Number(r.seq), hash: r.hash, prevHash: r.prev_hash, action: r.action, targetId: r.target_id, requestId: r.request_id,
    idempotencyKey: r.idempotency_key, before: r.before, after: r.after, at: new Date(r.created_at).toISOString(),
  }));
  return {
    anchors: page,
    /** The afterSeq of the next page, or null at the end. */
    next: rows.length > limit ? page[page.length - 1]!.seq : null,
    head: head ? { seq: Number(head.seq), hash: head.hash } : null,
  };
}
