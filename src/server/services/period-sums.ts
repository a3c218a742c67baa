import { type SQL, sql } from 'drizzle-orm';
import type { LedgerKind } from '../db/schema.js';
import type { Period } from './caller.js';

const DAY_MS = 86_400_000;

/** The whole UTC days inside [start, end), as the instants [first, after), or null when there is none. */
export function wholeUtcDays(start: Date, end: Date): { first: Date; after: Date } | null {
  const first = new Date(Math.ceil(start.getTime() / DAY_MS) * DAY_MS);
  const after = new Date(Math.floor(end.getTime() / DAY_MS) * DAY_MS);
  return first.getTime() < after.getTime() ? { first, after } : null;
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const dayOf = (d: Date) => sql`${d.toISOString().slice(0, 10)}::date`;
const kindList = (kinds: readonly LedgerKind[]) => sql.join(kinds.map((k) => sql`${k}`), sql`, `);

/**
 * The postings of `account` (an SQL expression: a column of the outer query or a parameter) of
 * these kinds in the period, as rows (kind, amount, postings) — one per posting, or one per
 * rollup day summing many — that add up to exactly what the ledger holds for the period: its
 * whole UTC days from ledger_daily, the part-days at either end (a period in the caller's
 * timezone seldom starts at UTC midnight) from the ledger itself. With `byMarket` the rows carry
 * their market_id, the whole days coming from ledger_market_daily, and postings without a market
 * are left out.
 */
export function periodPostings(account: SQL, kinds: readonly LedgerKind[], period: Pick<Period, 'start' | 'end'>, options: { byMarket?: boolean } = {}): SQL {
  const market = options.byMarket ? sql`, market_id` : sql``;
  const raw = (from: Date, to: Date) => sql`
    select kind, amount, 1 as postings ${market} from ledger
    where account_id = ${account} and kind in (${kindList(kinds)}) and occurred_at >= ${at(from)} and occurred_at < ${at(to)}
      ${options.byMarket ? sql`and market_id is not null` : sql``}`;
  const days = wholeUtcDays(period.start, period.end);
  if (!days) return raw(period.start, period.end);
  const rollup = options.byMarket ? sql`ledger_market_daily` : sql`ledger_daily`;
  const parts = [sql`
    select kind, amount, postings ${market} from ${rollup}
    where account_id = ${account} and kind in (${kindList(kinds)}) and day >= ${dayOf(days.first)} and day < ${dayOf(days.after)}`];
  if (period.start.getTime() < days.first.getTime()) parts.push(raw(period.start, days.first));
  if (days.after.getTime() < period.end.getTime()) parts.push(raw(days.after, period.end));
  return sql.join(parts, sql` union all `);
}

/**
 * What each player of `agents` (an SQL uuid[]: the players whose parent is one of them) posted of
 * these kinds with its agent in the period, as rows (player_id, kind, amount, postings) on the
 * player's side that add up to exactly the players' own ledger: the whole UTC days from
 * player_daily_by_agent, a range per agent, and the part-days at either end from the agents' side
 * of the ledger (the same postings, the other sign). Only kinds booked between a player and its
 * agent (bet results, commission) are kept there.
 */
export function agentsPlayerPostings(agents: SQL, kinds: ReadonlyArray<'bet_result' | 'commission'>, period: Pick<Period, 'start' | 'end'>): SQL {
  const raw = (from: Date, to: Date) => sql`
    select counterparty_id as player_id, kind, -amount as amount, 1 as postings from ledger
    where account_id = any(${agents}) and kind in (${kindList(kinds)}) and occurred_at >= ${at(from)} and occurred_at < ${at(to)}`;
  const days = wholeUtcDays(period.start, period.end);
  if (!days) return raw(period.start, period.end);
  const parts = [sql`
    select player_id, kind, amount, postings from player_daily_by_agent
    where agent_id = any(${agents}) and kind in (${kindList(kinds)}) and day >= ${dayOf(days.first)} and day < ${dayOf(days.after)}`];
  if (period.start.getTime() < days.first.getTime()) parts.push(raw(period.start, days.first));
  if (days.after.getTime() < period.end.getTime()) parts.push(raw(days.after, period.end));
  return sql.join(parts, sql` union all `);
}
