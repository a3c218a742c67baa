/**
 * How the page tables sort their rows by a column (cards/shared.tsx's SortableTable), in one
 * place for the page and for an export of that table, which sorts every row the same way.
 */
import type { CommissionRow, PnlRow, SettlementRow } from './contracts/agent-api.js';

export type SortValue = number | string | null;
export type SortDir = 'asc' | 'desc';

/** Numbers by value, text as a person reads it (any case, digits as numbers); nulls last. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { sensitivity: 'base', numeric: true });
}

/** The rows in a column's order (stable: ties keep the read's order), rows without a value last either way. */
export function sortRows<R>(rows: readonly R[], key: (row: R) => SortValue, dir: SortDir): R[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) return compareSortValues(ka, kb);
    return sign * compareSortValues(ka, kb);
  });
}

export const PNL_SORTS = {
  player: (r: PnlRow) => r.name, agent: (r: PnlRow) => r.agentName, bets: (r: PnlRow) => r.bets, pnl: (r: PnlRow) => r.pnl,
  commission: (r: PnlRow) => r.commission, book: (r: PnlRow) => r.bookResult,
} satisfies Record<string, (r: PnlRow) => SortValue>;

export const COMMISSION_SORTS = {
  player: (r: CommissionRow) => r.name, agent: (r: CommissionRow) => r.agentName, rate: (r: CommissionRow) => r.commissionBps,
  markets: (r: CommissionRow) => r.markets, commission: (r: CommissionRow) => r.commission,
} satisfies Record<string, (r: CommissionRow) => SortValue>;

export const PNL_SORT_IDS = Object.keys(PNL_SORTS) as Array<keyof typeof PNL_SORTS>;
export const COMMISSION_SORT_IDS = Object.keys(COMMISSION_SORTS) as Array<keyof typeof COMMISSION_SORTS>;

/** Whether `meId` is the upline of the settlement (the child is the counterparty), its downline, or neither. */
export function settlementSide(s: SettlementRow, meId: string): 'upline' | 'downline' | null {
  return s.parentId === meId ? 'upline' : s.childId === meId ? 'downline' : null;
}

export const SETTLEMENT_SORT_IDS = ['date', 'counterparty', 'amount', 'payment', 'before', 'after', 'mode', 'period', 'by'] as const;

/** The settlements' columns as `meId` sees them: money signed towards them, so a sort puts what they received apart from what they paid. */
export function settlementSorts(meId: string): Record<(typeof SETTLEMENT_SORT_IDS)[number], (s: SettlementRow) => SortValue> {
  const towardsMe = (n: number, s: SettlementRow) => (s.childId === meId ? -n : n);
  return {
    date: (s) => s.createdAt,
    counterparty: (s) => (settlementSide(s, meId) === 'downline' ? s.parentName : s.childName),
    amount: (s) => Math.abs(s.amount),
    payment: (s) => towardsMe(s.amount, s),
    before: (s) => towardsMe(s.takeBefore, s),
    after: (s) => towardsMe(s.takeAfter, s),
    mode: (s) => s.mode,
    period: (s) => s.periodId,
    by: (s) => s.createdByName,
  };
}
