import { TRPCError } from '@trpc/server';
import { eq, sql } from 'drizzle-orm';
import { type LimitType, PLATFORM_MAX_CREDIT_LIMIT } from '../../shared/contracts/agent-actions.js';
import { formatPoints, paisaFromSql } from '../../shared/money.js';
import { type Db, queryRows } from '../db/client.js';
import { type Role, accounts, playerLimits } from '../db/schema.js';
import { appendAudited } from './audit.js';
import { type Caller, type ServiceDeps, inDownline } from './caller.js';
import { withIdempotency } from './idempotency.js';

/** The smallest minimum stake there is, in paisa (1.00 point). */
export const MIN_STAKE_FLOOR = 100;

export interface EditLimitParams {
  playerId: string;
  limitType: LimitType;
  newValue: number;
}

/** Who acts, and the request it came with (for the audit row). */
export interface WriteMeta {
  requestId: string;
}

interface LimitTarget {
  id: string;
  name: string;
  role: Role;
  parentId: string;
  parentName: string;
  creditLimit: number;
  /**
   * The caller's own credit limit, read with the target: a caller comes from the session cache
   * and may be a notification behind an upline's change to it, and the guardrail must not be.
   */
  callerCreditLimit: number;
  /** Null when the account has no betting limits (an agent). */
  limits: { perClickWin: number; aggregateDailyWin: number; minStake: number } | null;
}

/**
 * The account, if it is in the caller's downline; else NOT_FOUND, word for word what the reads
 * answer, so ids cannot be probed. With `lock`, its rows are locked for the rest of the
 * transaction (no key update: ledger and bet inserts that only reference the account still pass).
 */
async function loadTarget(db: Db, caller: Caller, playerId: string, lock: boolean): Promise<LimitTarget> {
  const [a] = await queryRows<{ id: string; name: string; role: Role; parent_id: string; parent_name: string; credit_limit: string | number; caller_credit_limit: string | number }>(db, sql`
    select a.id, a.display_name as name, a.role, a.parent_id, p.display_name as parent_name, a.credit_limit,
      (select credit_limit from accounts where id = ${caller.id}) as caller_credit_limit
    from accounts a join accounts p on p.id = a.parent_id
    where a.id = ${playerId} and ${inDownline(caller, 'a')}
    ${lock ? sql`for no key update of a` : sql``}`);
  if (!a) throw new TRPCError({ code: 'NOT_FOUND', message: 'player not found' });
  const [l] = await queryRows<{ per_click_win: string | number; aggregate_daily_win: string | number; min_stake: string | number }>(db, sql`
    select per_click_win, aggregate_daily_win, min_stake from player_limits where account_id = ${playerId}
    ${lock ? sql`for no key update` : sql``}`);
  return {
    id: a.id, name: a.name, role: a.role, parentId: a.parent_id, parentName: a.parent_name, creditLimit: paisaFromSql(a.credit_limit),
    callerCreditLimit: paisaFromSql(a.caller_credit_limit),
    limits: l ? { perClickWin: paisaFromSql(l.per_click_win), aggregateDailyWin: paisaFromSql(l.aggregate_daily_win), minStake: paisaFromSql(l.min_stake) } : null,
  };
}

function currentValue(target: LimitTarget, limitType: LimitType): number {
  if (limitType === 'creditLimit') return target.creditLimit;
  return target.limits?.[limitType] ?? 0;
}

/** Agents edit their direct players only; the platform admin any player (DOMAIN.md, Accounts). */
function authorizationRefusal(caller: Caller, target: LimitTarget): string | null {
  if (target.role !== 'player') return `${target.name} is an agent, not a player: limits are set per player`;
  if (caller.role === 'platform_admin') return null;
  if (caller.role !== 'agent' || target.parentId !== caller.id) {
    return `${target.name} is ${target.parentName}'s player, not yours: only a player's own agent can change their limits`;
  }
  return null;
}

/** The guardrails of DOMAIN.md, Limits; the reason in points when they refuse. */
function guardrailRefusal(caller: Caller, target: LimitTarget, limitType: LimitType, value: number): string | null {
  const points = formatPoints(value);
  if (value < 0) return `${points} is negative: a limit must be zero or more`;
  if (limitType === 'creditLimit') {
    if (value > PLATFORM_MAX_CREDIT_LIMIT) return `${points} is above the platform maximum of ${formatPoints(PLATFORM_MAX_CREDIT_LIMIT)}`;
    if (caller.role !== 'platform_admin' && value > target.callerCreditLimit) return `${points} is above your own credit limit of ${formatPoints(target.callerCreditLimit)}`;
    return null;
  }
  if (!target.limits) return `${target.name} has no betting limits to change`;
  if (limitType === 'minStake') {
    if (value < MIN_STAKE_FLOOR) return `${points} is below the smallest minimum stake of ${formatPoints(MIN_STAKE_FLOOR)}`;
    if (value > target.limits.perClickWin) return `${points} is above the per-click win limit of ${formatPoints(target.limits.perClickWin)}: the minimum stake may not exceed it`;
  }
  if (limitType === 'perClickWin' && value < target.limits.minStake) {
    return `${points} is below the minimum stake of ${formatPoints(target.limits.minStake)}: the per-click win limit must be at least that`;
  }
  return null;
}

const LIMIT_WORDS: Record<LimitType, string> = {
  creditLimit: 'credit limit', perClickWin: 'per-click win limit', aggregateDailyWin: 'aggregate daily win limit', minStake: 'minimum stake',
};

/** Setting a limit to the value it has changes nothing: said in words, and nothing is written for it. */
function noOpNote(limitType: LimitType, value: number): string {
  return `the ${LIMIT_WORDS[limitType]} is already ${formatPoints(value)}: nothing to change`;
}

/** The dry run: what the edit would change, or why it would be refused, or that it changes nothing. Never writes. */
export async function previewEditLimit(deps: ServiceDeps, caller: Caller, input: EditLimitParams) {
  const target = await loadTarget(deps.db, caller, input.playerId, false);
  const before = currentValue(target, input.limitType);
  const denied = authorizationRefusal(caller, target);
  const noOp = denied === null && before === input.newValue ? noOpNote(input.limitType, before) : null;
  const refusal = denied ?? (noOp === null ? guardrailRefusal(caller, target, input.limitType, input.newValue) : null);
  return { playerId: target.id, playerName: target.name, limitType: input.limitType, before, after: input.newValue, refusal, noOp };
}

/**
 * The write: in one transaction with its idempotency key, re-reads and locks the player's row,
 * re-checks scope and guardrails, refuses a stale preview, updates the one column and appends the
 * audit row to the caller's chain. A value the limit already has is a no-op (checked before the
 * stale preview: two proposals to set the same value end in one change and one no-op): nothing is
 * written but the idempotency key's answer.
 */
export async function editLimit(
  deps: ServiceDeps, caller: Caller,
  input: EditLimitParams & { idempotencyKey: string; expectedBefore?: number | undefined },
  meta: WriteMeta,
) {
  const { idempotencyKey, ...params } = input;
  return withIdempotency(deps, caller, 'limits.edit', idempotencyKey, params, async (tx) => {
    const target = await loadTarget(tx, caller, input.playerId, true);
    const denied = authorizationRefusal(caller, target);
    if (denied) throw new TRPCError({ code: 'FORBIDDEN', message: denied });
    const before = currentValue(target, input.limitType);
    if (before === input.newValue) {
      return {
        playerId: target.id, playerName: target.name, limitType: input.limitType, before, after: before,
        auditId: null, anchor: null, noOp: true,
      };
    }
    if (input.expectedBefore !== undefined && input.expectedBefore !== before) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: `the limit changed since the preview: it is now ${formatPoints(before)}` });
    }
    const refusal = guardrailRefusal(caller, target, input.limitType, input.newValue);
    if (refusal) throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: refusal });

    if (input.limitType === 'creditLimit') {
      await tx.update(accounts).set({ creditLimit: input.newValue }).where(eq(accounts.id, target.id));
    } else {
      await tx.update(playerLimits).set({ [input.limitType]: input.newValue }).where(eq(playerLimits.accountId, target.id));
    }
    const audit = await appendAudited(tx, deps, caller.id, {
      action: 'limits.edit', targetId: target.id,
      before: { limitType: input.limitType, value: before }, after: { limitType: input.limitType, value: input.newValue },
      requestId: meta.requestId, idempotencyKey,
    });
    return {
      playerId: target.id, playerName: target.name, limitType: input.limitType, before, after: input.newValue,
      auditId: audit.id, anchor: audit.anchor, noOp: false,
    };
  });
}
