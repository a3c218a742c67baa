import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { formatPoints, paisaFromSql } from '../../shared/money.js';
import { dayRangeToInstants, isoWeekRange } from '../../shared/dates.js';
import { type Db, queryRows } from '../db/client.js';
import { type Role, settlements } from '../db/schema.js';
import { appendAudited } from './audit.js';
import { type Caller, type ServiceDeps, inDownline } from './caller.js';
import { withIdempotency } from './idempotency.js';
import { recordMovements } from './ledger.js';
import type { WriteMeta } from './limits.js';

export interface SettleParams {
  playerId: string;
  periodId?: string | undefined;
  mode: 'auto' | 'amount';
  amount?: number | undefined;
}

type Direction = 'player_pays' | 'agent_pays';

interface Pair {
  childId: string;
  childName: string;
  role: Role;
  parentId: string;
  parentName: string;
  /** What the child owes the parent now (balances.take). */
  take: number;
}

interface Plan {
  pair: Pair;
  /** Positive when the child pays the parent, negative when the parent pays: the settlements row's sign. */
  signed: number;
  refusal: string | null;
}

const direction = (take: number): Direction => (take > 0 ? 'player_pays' : 'agent_pays');

/**
 * The pair (account → its upline) if the account is in the caller's downline; else NOT_FOUND,
 * as the reads answer. With `lock`, the account row and the pair's balance are locked for the
 * rest of the transaction, so two settlements of one pair run one after the other.
 */
async function loadPair(db: Db, caller: Caller, accountId: string, lock: boolean): Promise<Pair> {
  const [a] = await queryRows<{ id: string; name: string; role: Role; parent_id: string; parent_name: string }>(db, sql`
    select a.id, a.display_name as name, a.role, a.parent_id, p.display_name as parent_name
    from accounts a join accounts p on p.id = a.parent_id
    where a.id = ${accountId} and ${inDownline(caller, 'a')}
    ${lock ? sql`for no key update of a` : sql``}`);
  if (!a) throw new TRPCError({ code: 'NOT_FOUND', message: 'player not found' });
  const [bal] = await queryRows<{ take: string | number }>(db, sql`
    select take from balances where child_id = ${a.id} ${lock ? sql`for update` : sql``}`);
  return { childId: a.id, childName: a.name, role: a.role, parentId: a.parent_id, parentName: a.parent_name, take: paisaFromSql(bal?.take) };
}

/** Agents settle with their direct downline only; the platform admin any pair. */
function authorizationRefusal(caller: Caller, pair: Pair): string | null {
  if (caller.role === 'platform_admin') return null;
  if (caller.role !== 'agent' || pair.parentId !== caller.id) {
    return `${pair.childName} settles with ${pair.parentName}, not with you: only the direct upline settles an account`;
  }
  return null;
}

/**
 * What is still outstanding for an ISO week (in the caller's timezone): the pair's take at the
 * end of the week (the ledger sum of the parent's postings before that instant), less what
 * settlements since then have paid, never more than the take then nor past zero. So a week
 * settled once (or squared up by a later whole-take settlement) has nothing left to settle.
 */
async function outstandingForWeek(db: Db, caller: Caller, pair: Pair, periodId: string, now: Date): Promise<{ signed: number; refusal: string | null }> {
  let week: { from: string; to: string };
  try {
    week = isoWeekRange(periodId);
  } catch {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `${periodId} is not an ISO week` });
  }
  const { end } = dayRangeToInstants(week.from, week.to, caller.timezone);
  if (end.getTime() > now.getTime()) {
    return { signed: 0, refusal: `${periodId} has not ended yet (it ends on ${week.to}): settle the whole take or an amount instead` };
  }
  const [row] = await queryRows<{ at_end: string | null; settled_since: string | null }>(db, sql`
    select sum(amount) filter (where occurred_at < ${end.toISOString()}::timestamptz) as at_end,
      sum(amount) filter (where occurred_at >= ${end.toISOString()}::timestamptz and kind = 'settlement') as settled_since
    from ledger where account_id = ${pair.parentId} and counterparty_id = ${pair.childId}`);
  const atEnd = paisaFromSql(row?.at_end);
  const sign = Math.sign(atEnd);
  const left = sign === 0 ? 0 : sign * Math.min(Math.abs(atEnd), Math.max(0, sign * (atEnd + paisaFromSql(row?.settled_since))));
  if (left === 0) return { signed: 0, refusal: `nothing is outstanding for ${periodId}` };
  return { signed: left, refusal: null };
}

/** How much moves which way, or why nothing may: the one computation behind preview and write. */
async function planSettlement(db: Db, caller: Caller, input: SettleParams, now: Date, lock: boolean): Promise<Plan> {
  const pair = await loadPair(db, caller, input.playerId, lock);
  const take = pair.take;
  const denied = authorizationRefusal(caller, pair);
  if (denied) return { pair, signed: 0, refusal: denied };
  if (input.periodId !== undefined && input.mode === 'amount') {
    // In amount mode the week only labels the settlement; it must still be a real week.
    try {
      isoWeekRange(input.periodId);
    } catch {
      throw new TRPCError({ code: 'BAD_REQUEST', message: `${input.periodId} is not an ISO week` });
    }
  }
  if (take === 0) return { pair, signed: 0, refusal: 'nothing is outstanding' };
  const sign = Math.sign(take);
  const outstanding = Math.abs(take);
  if (input.mode === 'amount') {
    const amount = input.amount ?? 0;
    if (amount <= 0) return { pair, signed: 0, refusal: 'the amount must be positive' };
    if (amount > outstanding) return { pair, signed: 0, refusal: `${formatPoints(amount)} is more than the ${formatPoints(outstanding)} outstanding` };
    return { pair, signed: sign * amount, refusal: null };
  }
  if (input.periodId === undefined) return { pair, signed: take, refusal: null };
  const week = await outstandingForWeek(db, caller, pair, input.periodId, now);
  if (week.refusal) return { pair, signed: 0, refusal: week.refusal };
  // A settlement never turns the take round: the week's part must fit in what is owed now, the same way.
  if (Math.sign(week.signed) !== sign || Math.abs(week.signed) > outstanding) {
    const left = `${formatPoints(Math.abs(week.signed))} is left of what ${week.signed > 0 ? pair.childName : pair.parentName} owed at the end of ${input.periodId}`;
    const now = Math.sign(week.signed) !== sign
      ? `but now ${take > 0 ? pair.childName : pair.parentName} owes ${take > 0 ? pair.parentName : pair.childName} ${formatPoints(outstanding)}`
      : `more than the ${formatPoints(outstanding)} outstanding now`;
    return { pair, signed: 0, refusal: `${left}, ${now}: settle the whole take or an amount instead` };
  }
  return { pair, signed: week.signed, refusal: null };
}

/** The dry run: what the settlement would move and leave, or why it would be refused. Never writes. */
export async function previewSettlement(deps: ServiceDeps, caller: Caller, input: SettleParams) {
  const plan = await planSettlement(deps.db, caller, input, deps.now(), false);
  const { pair } = plan;
  const amount = plan.refusal === null ? Math.abs(plan.signed) : (input.mode === 'amount' ? input.amount ?? 0 : 0);
  return {
    playerId: pair.childId, playerName: pair.childName, mode: input.mode, periodId: input.periodId ?? null,
    amount, takeBefore: pair.take, takeAfter: pair.take - plan.signed,
    direction: direction(plan.signed !== 0 ? plan.signed : pair.take), refusal: plan.refusal,
  };
}

/**
 * The write: in one transaction with its idempotency key, locks the pair, re-plans from the
 * current take, refuses a stale preview, then writes the settlement row, its two ledger postings
 * (with the pair's running take) and the audit row.
 */
export async function settlePlayer(
  deps: ServiceDeps, caller: Caller,
  input: SettleParams & { idempotencyKey: string; expectedTakeBefore?: number | undefined },
  meta: WriteMeta,
) {
  const { idempotencyKey, ...params } = input;
  return withIdempotency(deps, caller, 'settlements.settle', idempotencyKey, params, async (tx) => {
    const now = deps.now();
    const plan = await planSettlement(tx, caller, input, now, true);
    const { pair } = plan;
    if (authorizationRefusal(caller, pair)) throw new TRPCError({ code: 'FORBIDDEN', message: plan.refusal! });
    if (input.expectedTakeBefore !== undefined && input.expectedTakeBefore !== pair.take) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: `the take changed since the preview: it is now ${formatPoints(pair.take)}` });
    }
    if (plan.refusal) throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: plan.refusal });

    const settlementId = randomUUID();
    const takeAfter = pair.take - plan.signed;
    await tx.insert(settlements).values({
      id: settlementId, childId: pair.childId, parentId: pair.parentId, amount: plan.signed, takeBefore: pair.take, takeAfter,
      mode: input.mode, periodId: input.periodId ?? null, createdBy: caller.id, idempotencyKey, createdAt: now,
    });
    // The child paying moves what it owes down: the movement is the negation of what was paid.
    await recordMovements(tx, [{ kind: 'settlement', childId: pair.childId, parentId: pair.parentId, amount: -plan.signed, settlementId }], now);
    const dir = direction(plan.signed);
    const audit = await appendAudited(tx, deps, caller.id, {
      action: 'settlements.settle', targetId: pair.childId,
      before: { take: pair.take },
      after: { take: takeAfter, settlementId, amount: Math.abs(plan.signed), direction: dir, mode: input.mode, periodId: input.periodId ?? null },
      requestId: meta.requestId, idempotencyKey,
    });
    return {
      settlementId, playerId: pair.childId, playerName: pair.childName, amount: Math.abs(plan.signed),
      takeBefore: pair.take, takeAfter, direction: dir, auditId: audit.id, anchor: audit.anchor,
    };
  });
}
