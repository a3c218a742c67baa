import { type SQL, sql } from 'drizzle-orm';
import type { LedgerKind } from '../db/schema.js';
import type { Period } from './caller.js';
import { coverPeriod } from './period-cover.js';

/** An instant as SQL: a timestamptz parameter. */
export const at = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;
const dateSql = (date: string) => sql`${date}::date`;
const kindList = (kinds: readonly LedgerKind[]) => sql.join(kinds.map((k) => sql`${k}`), sql`, `);

/** A column of a piece's rows, negated when the piece counts against the period. */
export const signed = (column: SQL, negate: boolean): SQL => (negate ? sql`(-(${column}))` : column);

/**
 * One rollup family's reads, each giving rows whose money and counts the period sums: whole UTC
 * months (when the family keeps them) and days as dates [first, after), raw rows as instants
 * [from, to), each with its columns negated when `negate`.
 */
export interface RollupReads {
  months?: (first: SQL, after: SQL, negate: boolean) => SQL;
  days: (first: SQL, after: SQL, negate: boolean) => SQL;
  raw: (from: Date, to: Date, negate: boolean) => SQL;
}

/** The rows of a period read through its cover (period-cover.ts): they add up to exactly the period's. */
export function coveredRows(reads: RollupReads, period: Pick<Period, 'start' | 'end'>): SQL {
  const cover = coverPeriod(period.start, period.end, { months: reads.months !== undefined });
  const parts = [
    ...cover.months.map((m) => reads.months!(dateSql(m.first), dateSql(m.after), m.times < 0)),
    ...cover.days.map((d) => reads.days(dateSql(d.first), dateSql(d.after), d.times < 0)),
    ...cover.raw.map((r) => reads.raw(r.from, r.to, r.times < 0)),
  ];
  // An empty period: raw rows of no time, which are none.
  return parts.length > 0 ? sql.join(parts, sql` union all `) : reads.raw(period.start, period.start, false);
}

/**
 * The postings of `account` (an SQL expression: a column of the outer query or a parameter) of
 * these kinds in the period, as rows (kind, amount, postings) — one per posting, or one per
 * rollup day summing many, some counted against the period — that add up to exactly what the
 * ledger holds for the period: its UTC days from ledger_daily, what is finer than a day (a period
 * in the caller's timezone seldom starts at UTC midnight) from the ledger itself. With `byMarket`
 * the rows carry their market_id, the days coming from ledger_market_daily, and postings without a
 * market are left out.
 */
export function periodPostings(account: SQL, kinds: readonly LedgerKind[], period: Pick<Period, 'start' | 'end'>, options: { byMarket?: boolean } = {}): SQL {
  const market = options.byMarket ? sql`, market_id` : sql``;
  const rollup = options.byMarket ? sql`ledger_market_daily` : sql`ledger_daily`;
  return coveredRows({
    days: (first, after, negate) => sql`
      select kind, ${signed(sql`amount`, negate)} as amount, ${signed(sql`postings`, negate)} as postings ${market} from ${rollup}
      where account_id = ${account} and kind in (${kindList(kinds)}) and day >= ${first} and day < ${after}`,
    raw: (from, to, negate) => sql`
      select kind, ${signed(sql`amount`, negate)} as amount, ${negate ? sql`-1` : sql`1`} as postings ${market} from ledger
      where account_id = ${account} and kind in (${kindList(kinds)}) and occurred_at >= ${at(from)} and occurred_at < ${at(to)}
        ${options.byMarket ? sql`and market_id is not null` : sql``}`,
  }, period);
}

/**
 * What each player of `agents` (an SQL uuid[]: the players whose parent is one of them) posted of
 * these kinds with its agent in the period, as rows (player_id, kind, amount, postings) on the
 * player's side that add up to exactly the players' own ledger: UTC months and days from
 * player_monthly_by_agent and player_daily_by_agent, a range per agent, and what is finer than a
 * day from the agents' side of the ledger (the same postings, the other sign). Only kinds booked
 * between a player and its agent (bet results, commission) are kept there.
 */
export function agentsPlayerPostings(agents: SQL, kinds: ReadonlyArray<'bet_result' | 'commission'>, period: Pick<Period, 'start' | 'end'>): SQL {
  const rollup = (table: SQL, column: SQL) => (first: SQL, after: SQL, negate: boolean) => sql`
    select player_id, kind, ${signed(sql`amount`, negate)} as amount, ${signed(sql`postings`, negate)} as postings from ${table}
    where agent_id = any(${agents}) and kind in (${kindList(kinds)}) and ${column} >= ${first} and ${column} < ${after}`;
  return coveredRows({
    months: rollup(sql`player_monthly_by_agent`, sql`month`),
    days: rollup(sql`player_daily_by_agent`, sql`day`),
    raw: (from, to, negate) => sql`
      select counterparty_id as player_id, kind, ${signed(sql`-amount`, negate)} as amount, ${negate ? sql`-1` : sql`1`} as postings from ledger
      where account_id = any(${agents}) and kind in (${kindList(kinds)}) and occurred_at >= ${at(from)} and occurred_at < ${at(to)}`,
  }, period);
}
