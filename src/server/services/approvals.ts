/**
 * Approvals (src/shared/contracts/approvals.ts): a change asked for over MCP waits here
 * for its owner. Creating one writes the `approval_pending` event in the same transaction, so the
 * owner hears of exactly the approvals that exist. Answering one is a single conditional update
 * from `pending`, made only by a desk session: whichever of the user's desks wins it carries the
 * change out, and every other attempt — a second click, a replay, a late answer — is refused with
 * the reason. Expiry is wall-clock time (`realNow`): a human's minutes, not the demo book's clock.
 */
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  APPROVAL_TTL_MS, type ApprovalView, type approvalsCreateInput, type approvalsDecideInput, type approvalsFinishInput, type approvalsListInput, approvalView,
} from '../../shared/contracts/approvals.js';
import { type Db, queryRows } from '../db/client.js';
import type { Caller, ServiceDeps } from './caller.js';
import { emitEvents } from './event-outbox.js';

interface ApprovalRow {
  id: string;
  tool: string;
  args: unknown;
  snapshot: unknown;
  card: unknown;
  summary: string;
  channel: string;
  client: string | null;
  status: string;
  created_at: Date | string;
  expires_at: Date | string;
  decided_at: Date | string | null;
  decided_via: string | null;
  result: unknown;
}

const iso = (value: Date | string) => new Date(value).toISOString();
/** PGlite hands jsonb back parsed, node-postgres too; a string here would be a double encoding. */
const json = (value: unknown) => (value === undefined ? null : value);

function view(row: ApprovalRow, now: Date): ApprovalView {
  // An unanswered approval past its time reads as expired, whether or not a sweep has written it.
  const status = row.status === 'pending' && new Date(row.expires_at).getTime() <= now.getTime() ? 'expired' : row.status;
  return approvalView.parse({
    id: row.id, tool: row.tool, args: json(row.args), snapshot: json(row.snapshot), card: json(row.card), summary: row.summary,
    channel: row.channel, client: row.client, status, createdAt: iso(row.created_at), expiresAt: iso(row.expires_at),
    decidedAt: row.decided_at === null ? null : iso(row.decided_at), decidedVia: row.decided_via, result: json(row.result),
  });
}

export async function createApproval(deps: ServiceDeps, caller: Caller, input: z.infer<typeof approvalsCreateInput>): Promise<{ id: string; expiresAt: string }> {
  const id = randomUUID();
  const created = deps.realNow();
  const expires = new Date(created.getTime() + APPROVAL_TTL_MS);
  await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await db.execute(sql`insert into approvals (id, owner_id, tool, args, snapshot, card, summary, channel, client, status, created_at, expires_at)
      values (${id}, ${caller.id}, ${input.tool}, ${JSON.stringify(input.args)}::jsonb, ${JSON.stringify(input.snapshot ?? null)}::jsonb,
        ${JSON.stringify(input.card)}::jsonb, ${input.summary}, ${input.channel}, ${input.client}, 'pending', ${created.toISOString()}, ${expires.toISOString()})`);
    await emitEvents(db, [{ kind: 'approval_pending', recipientId: caller.id, payload: { approvalId: id, tool: input.tool, summary: input.summary } }], deps.now());
  });
  return { id, expiresAt: expires.toISOString() };
}

export async function listApprovals(deps: ServiceDeps, caller: Caller, input: z.infer<typeof approvalsListInput>): Promise<{ approvals: ApprovalView[] }> {
  const now = deps.realNow();
  const pendingOnly = input.status === 'pending'
    ? sql`and status = 'pending' and expires_at > ${now.toISOString()}`
    : sql``;
  const rows = await queryRows<ApprovalRow>(deps.db, sql`select * from approvals where owner_id = ${caller.id} ${pendingOnly}
    order by created_at desc, id limit ${input.limit}`);
  return { approvals: rows.map((r) => view(r, now)) };
}

export async function getApproval(deps: ServiceDeps, caller: Caller, id: string): Promise<ApprovalView> {
  const [row] = await queryRows<ApprovalRow>(deps.db, sql`select * from approvals where id = ${id} and owner_id = ${caller.id}`);
  // Someone else's approval and a missing one get the same answer: ids cannot be probed.
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'approval not found' });
  return view(row, deps.realNow());
}

/** Why an approval can no longer be answered, in the owner's words. */
function closedReason(row: ApprovalView): string {
  switch (row.status) {
    case 'expired': return `this approval expired at ${row.expiresAt}: nothing was changed; ask again for a fresh preview`;
    case 'rejected': return 'this approval was declined: nothing was changed';
    default: return `this approval was already answered (${row.status.replace('_', ' ')}): nothing more will change`;
  }
}

/**
 * The owner confirms: the approval moves from pending to claimed, once, and comes back with the
 * frozen call for the caller to carry out (then `finish`). Anything but a live pending approval
 * of the caller's is refused with the reason.
 */
export async function claimApproval(deps: ServiceDeps, caller: Caller, input: z.infer<typeof approvalsDecideInput>): Promise<ApprovalView> {
  return decide(deps, caller, input, 'claimed');
}

export async function rejectApproval(deps: ServiceDeps, caller: Caller, input: z.infer<typeof approvalsDecideInput>): Promise<ApprovalView> {
  return decide(deps, caller, input, 'rejected');
}

async function decide(deps: ServiceDeps, caller: Caller, input: z.infer<typeof approvalsDecideInput>, to: 'claimed' | 'rejected'): Promise<ApprovalView> {
  const now = deps.realNow();
  const [row] = await queryRows<ApprovalRow>(deps.db, sql`update approvals
    set status = ${to}, decided_at = ${now.toISOString()}, decided_via = 'desk'
    where id = ${input.id} and owner_id = ${caller.id} and status = 'pending' and expires_at > ${now.toISOString()}
    returning *`);
  if (row) return view(row, now);
  const current = await getApproval(deps, caller, input.id);
  if (current.status === 'expired') {
    // Written down, so the list and any later attempt say the same.
    await deps.db.execute(sql`update approvals set status = 'expired' where id = ${input.id} and status = 'pending'`);
  }
  throw new TRPCError({ code: current.status === 'expired' ? 'PRECONDITION_FAILED' : 'CONFLICT', message: closedReason(current) });
}

/** How a claimed approval ended; only its claimer's call (the owner's) may say so, and only once. */
export async function finishApproval(deps: ServiceDeps, caller: Caller, input: z.infer<typeof approvalsFinishInput>): Promise<ApprovalView> {
  const [row] = await queryRows<ApprovalRow>(deps.db, sql`update approvals set status = ${input.ending}, result = ${JSON.stringify(input.result)}::jsonb
    where id = ${input.id} and owner_id = ${caller.id} and status = 'claimed'
    returning *`);
  if (row) return view(row, deps.realNow());
  const current = await getApproval(deps, caller, input.id);
  throw new TRPCError({ code: 'CONFLICT', message: `this approval is ${current.status.replace('_', ' ')}, not being carried out` });
}
