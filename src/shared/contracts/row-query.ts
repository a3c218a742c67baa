/**
 * Row operators of the paged read procedures (take, credit limits, PnL, commission, bets,
 * settlements): conditions and an order the backend applies in SQL to the complete result, so a
 * condition is true of every row on every page, and a count (`matched`) or a total is of every
 * row that met it, never of one page.
 *
 * `where`: up to four conditions `{ column, op, value }`, all of which must hold (AND); two on
 * one column make a range. `value` is a whole number in the column's own unit
 * (ROW_COLUMN_UNITS): paisa for money columns (take, creditLimit, available, perClickWin,
 * aggregateDailyWin, minStake, pnl, commission, bookResult, stake, liability, potentialWin,
 * result, amount; "over 10k points" is `{ op: 'gt', value: 1000000 }`), hundredths for odds
 * (1.85 → 185), a plain count for bets and markets. A column a row has no value in (a player
 * limit on an agent, the result of an open bet) meets no condition.
 *
 * `orderBy`: `{ by, dir }`; rows that tie go by name, then id, so offset pages never overlap or
 * skip. Rows with no value in the column come last either way.
 */
import { z } from 'zod';

export const COMPARISONS = ['gt', 'gte', 'lt', 'lte', 'eq'] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const ORDER_DIRECTIONS = ['asc', 'desc'] as const;
export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];
/** Conditions one call may carry: enough for two ranges, few enough to keep each query simple. */
export const MAX_ROW_CONDITIONS = 4;

/** agent.getTake: conditions and order. */
export const TAKE_COLUMNS = ['take', 'creditLimit', 'available'] as const;
export const TAKE_ORDER_COLUMNS = ['name', ...TAKE_COLUMNS] as const;
/** agent.getCreditLimit: the take columns and the player limits (which agents do not have). */
export const CREDIT_LIMIT_COLUMNS = ['take', 'creditLimit', 'available', 'perClickWin', 'aggregateDailyWin', 'minStake'] as const;
export const CREDIT_LIMIT_ORDER_COLUMNS = ['name', ...CREDIT_LIMIT_COLUMNS] as const;
/** agent.getPnL. */
export const PNL_COLUMNS = ['pnl', 'commission', 'bookResult', 'bets'] as const;
export const PNL_ORDER_COLUMNS = ['name', ...PNL_COLUMNS] as const;
/** agent.getCommission. */
export const COMMISSION_COLUMNS = ['commission', 'markets'] as const;
export const COMMISSION_ORDER_COLUMNS = ['name', ...COMMISSION_COLUMNS] as const;
/** agent.getBetHistory: conditions only; its order is `sort` (BET_SORT_KEYS). */
export const BET_COLUMNS = ['stake', 'odds', 'liability', 'potentialWin', 'result'] as const;
/** agent.getSettlementHistory. `amount` is signed: positive, the child paid its upline. */
export const SETTLEMENT_COLUMNS = ['amount'] as const;
export const SETTLEMENT_ORDER_COLUMNS = ['createdAt', 'amount'] as const;

export type TakeColumn = (typeof TAKE_COLUMNS)[number];
export type TakeOrderColumn = (typeof TAKE_ORDER_COLUMNS)[number];
export type CreditLimitColumn = (typeof CREDIT_LIMIT_COLUMNS)[number];
export type CreditLimitOrderColumn = (typeof CREDIT_LIMIT_ORDER_COLUMNS)[number];
export type PnLColumn = (typeof PNL_COLUMNS)[number];
export type PnLOrderColumn = (typeof PNL_ORDER_COLUMNS)[number];
export type CommissionColumn = (typeof COMMISSION_COLUMNS)[number];
export type CommissionOrderColumn = (typeof COMMISSION_ORDER_COLUMNS)[number];
export type BetColumn = (typeof BET_COLUMNS)[number];
export type SettlementColumn = (typeof SETTLEMENT_COLUMNS)[number];
export type SettlementOrderColumn = (typeof SETTLEMENT_ORDER_COLUMNS)[number];

type FilterColumn = TakeColumn | CreditLimitColumn | PnLColumn | CommissionColumn | BetColumn | SettlementColumn;
/** The unit of each column's `value`, so a planner converts "10k" to paisa for money and leaves counts alone. */
export const ROW_COLUMN_UNITS: Record<FilterColumn, 'paisa' | 'hundredths' | 'count'> = {
  take: 'paisa', creditLimit: 'paisa', available: 'paisa', perClickWin: 'paisa', aggregateDailyWin: 'paisa', minStake: 'paisa',
  pnl: 'paisa', commission: 'paisa', bookResult: 'paisa', bets: 'count', markets: 'count',
  stake: 'paisa', odds: 'hundredths', liability: 'paisa', potentialWin: 'paisa', result: 'paisa', amount: 'paisa',
};

export interface RowCondition<C extends string> {
  column: C;
  op: Comparison;
  value: number;
}
export interface RowOrder<C extends string> {
  by: C;
  dir: OrderDirection;
}

type Columns = readonly [string, ...string[]];

/** `where` for a list whose filterable columns are `columns`. */
export function rowWhere<const C extends Columns>(columns: C) {
  return z.array(z.strictObject({
    column: z.enum(columns),
    op: z.enum(COMPARISONS),
    value: z.number().int('must be a whole number (paisa for money, hundredths for odds)').safe(),
  })).max(MAX_ROW_CONDITIONS, `at most ${MAX_ROW_CONDITIONS} conditions`).optional();
}

/** `orderBy` for a list that can be ordered by `columns`. */
export function rowOrderBy<const C extends Columns>(columns: C) {
  return z.strictObject({ by: z.enum(columns), dir: z.enum(ORDER_DIRECTIONS) }).optional();
}

/** Both fields, to spread into a procedure's input. */
export function rowQuery<const W extends Columns, const O extends Columns>(whereColumns: W, orderColumns: O) {
  return { where: rowWhere(whereColumns), orderBy: rowOrderBy(orderColumns) };
}
