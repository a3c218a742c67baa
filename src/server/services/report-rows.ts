/**
 * A report's rows, per template: the read tools' own answers (getPnL, getBetHistory and its rows
 * and summaries per match, getSettlementHistory) read as the requester, laid out as table lines. No money is
 * computed here: every figure, totals included, is one a read tool gave for the same filters.
 */
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { reportTemplate } from '../../shared/contracts/agent-actions.js';
import { formatDate, formatPoints } from '../../shared/format.js';
import { TAKE_SIGN_LEGEND, owesPhrase, paidPhrase } from '../../shared/sentences.js';
import type { Caller, ServiceDeps } from './caller.js';
import { betRowsOfFixtures, betSummariesByFixture, countSettlementRows, getBetHistory, getSettlementHistory } from './history.js';
import { countPnLRows, getPnL } from './pnl.js';

/** Rows per read-tool page, and so per progress step. */
export const REPORT_PAGE_ROWS = 1_000;

/** How a column's values are written: money is paisa in, points out; datetimes are ISO instants. */
export type ColumnKind = 'text' | 'count' | 'points' | 'odds' | 'datetime';
export interface Column {
  header: string;
  kind: ColumnKind;
  /** In characters, as a spreadsheet measures; the pdf shares the page out in proportion. */
  width: number;
}
/**
 * A signed amount the pdf says in words (who owes or paid whom, from the requester's side:
 * `owesPhrase`, `paidPhrase`) and the spreadsheet keeps as the signed number, which the
 * report's legend explains.
 */
export interface PhrasedAmount {
  paisa: number;
  words: string;
}
export type Cell = string | number | PhrasedAmount | null;

export type Line =
  /** A data row: what rowsDone counts. */
  | { type: 'row'; cells: Cell[] }
  /** A group's heading (one per match). */
  | { type: 'group'; label: string }
  | { type: 'subtotal' | 'total'; cells: Cell[] };

export interface ReportFilters {
  from: string;
  to: string;
  playerId?: string | undefined;
  fixtureId?: string | undefined;
}

export interface RowSource {
  columns: Column[];
  /** What the signs of its amounts mean, under the heading of both files. */
  legend: string;
  /** Data rows the read tools hold for these filters now. */
  rowsTotal: number;
  /** The lines in order, in batches of about a page. */
  batches(): AsyncGenerator<Line[]>;
}

type Template = z.infer<typeof reportTemplate>;

/** Counts first (the job's rowsTotal), then pages lazily when the job asks for batches. */
export async function openRowSource(deps: ServiceDeps, caller: Caller, template: Template, filters: ReportFilters): Promise<RowSource> {
  switch (template) {
    case 'per_player_pnl': return pnlSource(deps, caller, filters);
    case 'bets_by_match': return betsSource(deps, caller, filters);
    case 'settlement_log': return settlementSource(deps, caller, filters);
  }
}

type PnLPage = Awaited<ReturnType<typeof getPnL>>;

/** The per-player PnL table as a report and the PnL page's export lay it out. */
export const PNL_COLUMNS: Column[] = [
  { header: 'Player', kind: 'text', width: 28 }, { header: 'Agent', kind: 'text', width: 24 },
  { header: 'Bets', kind: 'count', width: 8 }, { header: 'Player PnL', kind: 'points', width: 16 },
  { header: 'Commission', kind: 'points', width: 14 }, { header: 'Book result', kind: 'points', width: 16 },
];
export const pnlCells = (r: PnLPage['rows'][number]): Cell[] => [r.name, r.agentName, r.bets, r.pnl, r.commission, r.bookResult];
export function pnlTotals(total: PnLPage['total']): Line[] {
  const lines: Line[] = [{ type: 'total', cells: ['Total', null, total.bets, total.pnl, total.commission, total.bookResult] }];
  if (total.yourShare !== null) lines.push({ type: 'total', cells: ['Your share', null, null, null, null, total.yourShare] });
  return lines;
}

async function pnlSource(deps: ServiceDeps, caller: Caller, f: ReportFilters): Promise<RowSource> {
  const query = { from: f.from, to: f.to, playerId: f.playerId, fixtureId: f.fixtureId };
  return {
    columns: PNL_COLUMNS,
    legend: PNL_LEGEND,
    rowsTotal: await countPnLRows(deps, caller, query),
    async *batches() {
      let cursor: string | undefined;
      let total: Awaited<ReturnType<typeof getPnL>>['total'] | undefined;
      do {
        const page = await getPnL(deps, caller, { ...query, limit: REPORT_PAGE_ROWS, cursor });
        // Every page carries the totals over all rows; the first one's are the report's.
        total ??= page.total;
        cursor = page.nextCursor ?? undefined;
        yield page.rows.map((r): Line => ({ type: 'row', cells: pnlCells(r) }));
      } while (cursor);
      if (total) yield pnlTotals(total);
    },
  };
}

export const PNL_LEGEND = 'Player PnL is the players\' result: a positive amount is their winnings, the book\'s loss. '
  + 'Book result is the book\'s: a positive amount is the book\'s winnings.';
export const BETS_LEGEND = 'Result is the player\'s: a positive amount is their winnings, the book\'s loss.';
export const SETTLEMENT_LEGEND = 'Amount: a positive amount was paid by the account to its upline; a negative one, by the upline to the account. '
  + TAKE_SIGN_LEGEND;

/** Exported for bench/reports.ts, which writes rows of this shape without a book. */
export const BETS_BY_MATCH_COLUMNS: Column[] = [
  { header: 'Placed', kind: 'datetime', width: 18 }, { header: 'Player', kind: 'text', width: 22 },
  { header: 'Market', kind: 'text', width: 20 }, { header: 'Selection', kind: 'text', width: 20 },
  { header: 'Side', kind: 'text', width: 6 }, { header: 'Stake', kind: 'points', width: 14 },
  { header: 'Odds', kind: 'odds', width: 8 }, { header: 'Status', kind: 'text', width: 9 },
  { header: 'Result', kind: 'points', width: 14 },
];

async function betsSource(deps: ServiceDeps, caller: Caller, f: ReportFilters): Promise<RowSource> {
  const query = { from: f.from, to: f.to, playerId: f.playerId, fixtureId: f.fixtureId };
  const overall = await getBetHistory(deps, caller, { ...query, limit: 0 });
  return {
    columns: BETS_BY_MATCH_COLUMNS,
    legend: BETS_LEGEND,
    rowsTotal: overall.summary.count,
    async *batches() {
      // Each match's subtotal is its getBetHistory summary, all read at once; the rows are then read
      // in batches of whole matches rather than paged per match, each page re-summing its match.
      const fixtures = await betSummariesByFixture(deps, caller, query);
      const byId = new Map(fixtures.map((x) => [x.fixtureId, x]));
      const sizes = fixtures.map((x) => ({ fixtureId: x.fixtureId, count: x.summary.count }));
      let current: (typeof fixtures)[number] | undefined;
      const subtotal = (summary: (typeof fixtures)[number]['summary']): Line => (
        { type: 'subtotal', cells: [`Match total, ${betCount(summary.count)}`, null, null, null, null, summary.stake, null, null, summary.settledResult] });
      for await (const bets of betRowsOfFixtures(deps, caller, query, sizes, REPORT_PAGE_ROWS)) {
        const lines: Line[] = [];
        for (const b of bets) {
          if (b.fixtureId !== current?.fixtureId) {
            if (current) lines.push(subtotal(current.summary));
            current = byId.get(b.fixtureId);
            if (!current) throw new Error(`bet ${b.id} is on a match the report did not list`);
            lines.push({ type: 'group', label: `${current.fixtureName} (${formatDate(current.startsAt, caller.timezone)})` });
          }
          lines.push({ type: 'row', cells: [b.placedAt, b.playerName, b.marketName, b.outcomeName, b.side, b.stake, b.odds, b.status, b.result] });
        }
        yield lines;
      }
      if (current) yield [subtotal(current.summary)];
      const s = overall.summary;
      yield [{ type: 'total', cells: [`Total, ${betCount(s.count)}`, null, null, null, null, s.stake, null, null, s.settledResult] }];
    },
  };
}

const netWords = (net: number) => (net === 0 ? 'square' : `${formatPoints(net)} to ${net > 0 ? 'uplines' : 'accounts'}`);

const betCount = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'bet' : 'bets'}`;

type SettlementRow = Awaited<ReturnType<typeof getSettlementHistory>>['rows'][number];

/** The settlement log as a report and the Settlements page's export lay it out. */
export const SETTLEMENT_LOG_COLUMNS: Column[] = [
  { header: 'Date', kind: 'datetime', width: 18 }, { header: 'Account', kind: 'text', width: 16 },
  { header: 'Upline', kind: 'text', width: 16 }, { header: 'Payment', kind: 'points', width: 34 },
  { header: 'Take before', kind: 'points', width: 34 }, { header: 'Take after', kind: 'points', width: 34 },
  { header: 'Mode', kind: 'text', width: 7 }, { header: 'Week', kind: 'text', width: 10 }, { header: 'By', kind: 'text', width: 14 },
];

/**
 * Each settlement's line, its direction in words from the caller's side, and the totals of those
 * lines: sums of the read's own amounts, split by who paid, no other arithmetic.
 */
export function settlementTotals(callerId: string) {
  let toUpline = 0;
  let toAccount = 0;
  return {
    add(r: SettlementRow): Line {
      if (r.amount >= 0) toUpline += r.amount;
      else toAccount -= r.amount;
      // Between two other accounts, whose names are in the row already, the words name them by role: the amount must fit.
      const theirs = r.childId !== callerId && r.parentId !== callerId;
      const child = { id: r.childId, name: theirs ? 'account' : r.childName };
      const parent = { id: r.parentId, name: theirs ? 'upline' : r.parentName };
      return {
        type: 'row',
        cells: [r.createdAt, r.childName, r.parentName,
          { paisa: r.amount, words: paidPhrase(r.amount, child, parent, callerId) },
          { paisa: r.takeBefore, words: owesPhrase(r.takeBefore, child, parent, callerId) },
          { paisa: r.takeAfter, words: owesPhrase(r.takeAfter, child, parent, callerId) },
          r.mode, r.periodId, r.createdByName],
      };
    },
    lines(): Line[] {
      return [
        { type: 'total', cells: ['Paid to uplines', null, null, { paisa: toUpline, words: formatPoints(toUpline) }, null, null, null, null, null] },
        { type: 'total', cells: ['Paid to accounts', null, null, { paisa: -toAccount, words: formatPoints(toAccount) }, null, null, null, null, null] },
        { type: 'total', cells: ['Net', null, null, { paisa: toUpline - toAccount, words: netWords(toUpline - toAccount) }, null, null, null, null, null] },
      ];
    },
  };
}

async function settlementSource(deps: ServiceDeps, caller: Caller, f: ReportFilters): Promise<RowSource> {
  if (f.fixtureId) throw new TRPCError({ code: 'BAD_REQUEST', message: 'a settlement log is not per match: leave the match out' });
  const query = { from: f.from, to: f.to, counterpartyId: f.playerId };
  return {
    columns: SETTLEMENT_LOG_COLUMNS,
    legend: SETTLEMENT_LEGEND,
    rowsTotal: await countSettlementRows(deps, caller, query),
    async *batches() {
      let cursor: string | undefined;
      const totals = settlementTotals(caller.id);
      do {
        const page = await getSettlementHistory(deps, caller, { ...query, limit: REPORT_PAGE_ROWS, cursor });
        cursor = page.nextCursor ?? undefined;
        yield page.rows.map((r): Line => totals.add(r));
      } while (cursor);
      yield totals.lines();
    },
  };
}
