/**
 * Rows one call of a list procedure may ask for (the contracts' `pageSize`). A full page of the
 * widest rows (bets, about 560 bytes each) stays near 110 KB, so even a whole batch of full pages
 * stays near a megabyte. Plain constants, free of zod, so the renderer can page by them too.
 */
export const PAGE_SIZE_MAX = {
  bets: 200,
  settlements: 200,
  /** Statement lines: about the width of a settlement row. */
  statement: 200,
  /** Take, credit limits, PnL, commission: rows of about 200 bytes. */
  rows: 500,
  /** Search results and top-N lists: what a person picks from. */
  shortList: 50,
  /** The backend's audit records, each with its before and after (up to about 1 KB). */
  auditRecords: 200,
} as const;
