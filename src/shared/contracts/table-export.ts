/**
 * Exporting a page's table: which table, in which format, with the very input the page's read
 * was given (its filters, search and order) minus the paging, which the exporter does itself.
 * Each table's query is its read's own input schema, so a filter the read refuses is refused here
 * the same way, before anything is read or written.
 */
import { z } from 'zod';
import {
  getBetHistoryInput, getCommissionInput, getDownlineInput, getLiveExposureInput, getPnLInput, getSettlementHistoryInput, getStatementInput,
  getTopMarketsInput,
} from './agent-api.js';
import { boundedText } from './bounds.js';
import { reportsListInput } from './reports.js';
import { COMMISSION_SORT_IDS, PNL_SORT_IDS, SETTLEMENT_SORT_IDS } from '../table-sort.js';

export const TABLE_EXPORT_FORMATS = ['xlsx', 'csv', 'pdf'] as const;
export type TableExportFormat = (typeof TABLE_EXPORT_FORMATS)[number];
const format = z.enum(TABLE_EXPORT_FORMATS);

/** The page's own name search over the rows it holds (components/TableSearch.tsx): the same words, applied to every row. */
const names = boundedText(200).optional();
const paging = { cursor: true, limit: true } as const;
/**
 * The column a page table is sorted by on the page (cards/shared.tsx's SortableTable sorts the
 * rows it holds): the export sorts every row by the same key (src/shared/table-sort.ts).
 */
const pageSort = <K extends string>(ids: readonly K[]) =>
  z.strictObject({ id: z.enum(ids as [K, ...K[]]), dir: z.enum(['asc', 'desc']) }).optional();

export const exportTableInput = z.discriminatedUnion('table', [
  z.strictObject({ table: z.literal('bets'), format, query: getBetHistoryInput.omit({ ...paging, groupBy: true }) }),
  z.strictObject({ table: z.literal('pnl'), format, query: getPnLInput.omit(paging), names, sort: pageSort(PNL_SORT_IDS) }),
  z.strictObject({ table: z.literal('commission'), format, query: getCommissionInput.omit(paging), names, sort: pageSort(COMMISSION_SORT_IDS) }),
  z.strictObject({ table: z.literal('settlements'), format, query: getSettlementHistoryInput.omit(paging), names, sort: pageSort(SETTLEMENT_SORT_IDS) }),
  z.strictObject({ table: z.literal('statement'), format, query: getStatementInput.omit(paging) }),
  z.strictObject({ table: z.literal('exposure'), format, query: getLiveExposureInput }),
  z.strictObject({ table: z.literal('downline'), format, query: getDownlineInput, names }),
  /** A top-N list: its `limit` is the N the page shows, not a page size. */
  z.strictObject({ table: z.literal('topMarkets'), format, query: getTopMarketsInput }),
  /** Main's audit log as the Audit page lists it: the user's entries, newest first. */
  z.strictObject({ table: z.literal('audit'), format, query: z.strictObject({}) }),
  /** The Reports page's list: the user's own and shared reports of the last 30 days. */
  z.strictObject({ table: z.literal('reports'), format, query: reportsListInput.unwrap() }),
]);
export type ExportTableInput = z.input<typeof exportTableInput>;
export type ExportTable = ExportTableInput['table'];

/** Tables a report template lays out (per_player_pnl, bets_by_match, settlement_log): these also come as a pdf. */
export const PDF_TABLES: readonly ExportTable[] = ['bets', 'pnl', 'settlements'];

/** The dashboard's top-markets table: the dashboard reads it and the page exports it with this one query. */
export const DASHBOARD_TOP_MARKETS = { period: 'today', metric: 'volume', limit: 5 } as const;
