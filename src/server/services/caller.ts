import { TRPCError } from '@trpc/server';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  FIRST_DAY, type IsoDate, LAST_DAY, dayRangeToInstants, isBookDay, localDate, startOfMonth, startOfWeek,
} from '../../shared/dates.js';
import type { SessionScope } from '../../shared/contracts/agent-api.js';
import { type Db, queryRows } from '../db/client.js';
import type { Role } from '../db/schema.js';
import type { SessionCache } from './session-cache.js';
import type { ClockKind } from '../../shared/business-clock.js';

/** The authenticated account a procedure acts for; every read is scoped by it. */
export interface Caller {
  id: string;
  username: string;
  name: string;
  role: Role;
  parentId: string | null;
  path: string;
  depth: number;
  timezone: string;
  shareBps: number;
  creditLimit: number;
  /** What the session it came with may do: a `requests` session never writes nor answers an approval. */
  scope: SessionScope;
}

export interface ServiceDeps {
  db: Db;
  /**
   * Business time: "today", periods and the dates of bets and settlements. A demo book runs on
   * its own clock, so this may be days away from the wall clock.
   */
  now: () => Date;
  /** Which clock `now` is (the page says when it is not the wall clock); unset: `real`. */
  clockKind?: ClockKind;
  /**
   * The wall clock, whatever the book's clock says: session expiry, login throttling,
   * idempotency-key retention, report and approval expiry. A security time must never move with a
   * demo restarted on another data clock. What is shown or recorded as when it happened is on `now`.
   */
  realNow: () => Date;
  /** Callers by session token (session-cache.ts); without it every call looks its session up. */
  sessionCache?: SessionCache;
}

/**
 * SQL uuid[]: the agents whose players are the downline of `top` (the caller, or an agent under
 * it): `top` itself and every agent below it. A player's parent is always one of them.
 */
export function downlineAgents(caller: Caller, top: { id: string; path: string } | null = null): SQL {
  const below = top ? sql`x.path like ${`${top.path}.%`}` : inDownline(caller, 'x');
  return sql`(array[${(top ?? caller).id}::uuid] || array(select x.id from accounts x where x.role = 'agent' and ${below}))`;
}

/** SQL condition: the account aliased `alias` is in the caller's downline (strictly below it). */
export function inDownline(caller: Caller, alias: string): SQL {
  if (caller.role === 'platform_admin') return sql`${sql.identifier(alias)}.role <> 'platform_admin'`;
  return sql`${sql.identifier(alias)}.path like ${`${caller.path}.%`}`;
}

const notFound = (what: string) => new TRPCError({ code: 'NOT_FOUND', message: `${what} not found` });

export interface ScopedAccount {
  id: string;
  name: string;
  role: Role;
  parentId: string;
  path: string;
  creditLimit: number;
}

/**
 * An account of the caller's downline, or NOT_FOUND — the same answer for a missing id and for
 * one in another tree, so ids cannot be probed.
 */
export async function accountInScope(deps: ServiceDeps, caller: Caller, accountId: string, what = 'player'): Promise<ScopedAccount> {
  const rows = await queryRows<{ id: string; name: string; role: Role; parent_id: string; path: string; credit_limit: string | number }>(deps.db, sql`
    select a.id, a.display_name as name, a.role, a.parent_id, a.path, a.credit_limit
    from accounts a where a.id = ${accountId} and ${inDownline(caller, 'a')}`);
  const row = rows[0];
  if (!row) throw notFound(what);
  return { id: row.id, name: row.name, role: row.role, parentId: row.parent_id, path: row.path, creditLimit: Number(row.credit_limit) };
}

export async function fixtureExists(deps: ServiceDeps, fixtureId: string): Promise<void> {
  const rows = await queryRows(deps.db, sql`select 1 from fixtures where id = ${fixtureId}`);
  if (rows.length === 0) throw notFound('fixture');
}

export async function marketExists(deps: ServiceDeps, marketId: string): Promise<void> {
  const rows = await queryRows(deps.db, sql`select 1 from markets where id = ${marketId}`);
  if (rows.length === 0) throw notFound('market');
}

export interface Period {
  from: IsoDate;
  to: IsoDate;
  timezone: string;
  start: Date;
  end: Date;
}

/** Inclusive local days in the caller's timezone; no date at all means today (seed 000). */
export function resolvePeriod(deps: ServiceDeps, caller: Caller, from?: IsoDate, to?: IsoDate): Period {
  const today = localDate(deps.now(), caller.timezone);
  const f = from ?? to ?? today;
  const t = to ?? (from ? today : f);
  // The contracts already refuse such days; this keeps any other caller from reaching date arithmetic with them.
  for (const day of [f, t]) {
    if (!isBookDay(day)) throw new TRPCError({ code: 'BAD_REQUEST', message: `${day} is not a calendar date from ${FIRST_DAY} to ${LAST_DAY}` });
  }
  if (f > t) throw new TRPCError({ code: 'BAD_REQUEST', message: `the period starts (${f}) after it ends (${t})` });
  const { start, end } = dayRangeToInstants(f, t, caller.timezone);
  return { from: f, to: t, timezone: caller.timezone, start, end };
}

export function namedPeriod(deps: ServiceDeps, caller: Caller, period: 'today' | 'week' | 'month'): Period {
  const today = localDate(deps.now(), caller.timezone);
  const from = period === 'today' ? today : period === 'week' ? startOfWeek(today) : startOfMonth(today);
  return resolvePeriod(deps, caller, from, today);
}

export function optionalDateRange(deps: ServiceDeps, caller: Caller, from?: IsoDate, to?: IsoDate): Period | null {
  if (!from && !to) return null;
  // No start: from the first day the book can hold, so nothing recorded is left out.
  return resolvePeriod(deps, caller, from ?? FIRST_DAY, to ?? localDate(deps.now(), caller.timezone));
}

// ── cursors ──────────────────────────────────────────────────────────────────────────────────
/** An offset, and `q`: the tag of the order and filters it was made for (absent without any). */
const offsetCursor = z.object({ o: z.number().int().min(0).max(1_000_000), q: z.string().max(20).optional() });

/** The offset a cursor carries; refused when it was made for another `tag` (another order or filter). */
export function decodeOffset(cursor: string | undefined, tag?: string): number {
  if (!cursor) return 0;
  return decodeCursor(cursor, offsetCursor.refine((c) => c.q === tag)).o;
}

export function encodeOffset(offset: number, pageSize: number, total: number, tag?: string): string | null {
  return offset + pageSize < total ? encodeCursor({ o: offset + pageSize, ...(tag !== undefined && { q: tag }) }) : null;
}

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  try {
    return schema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'not a cursor this API handed out' });
  }
}
