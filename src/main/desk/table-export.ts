/**
 * A page's table as a file: the page's read, asked again with the page's own filters, search
 * and order, paged through to the last row as the signed-in user (so the backend scopes and
 * refuses exactly as it does for the page), laid out as report lines and written by the
 * reports' own writers (src/server/services/report-writers.ts). The bytes then go to the
 * shell's FileSaver like a saved report's.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { STATEMENT_KIND_LABELS, type DownlineNode } from '../../shared/contracts/agent-api.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';
import { PDF_TABLES, type exportTableInput } from '../../shared/contracts/table-export.js';
import { formatDateTime, formatPeriod } from '../../shared/format.js';
import { nameMatcher } from '../../shared/text.js';
import { COMMISSION_SORTS, PNL_SORTS, type SortDir, type SortValue, settlementSorts, sortRows } from '../../shared/table-sort.js';
import {
  BETS_BY_MATCH_COLUMNS, type Cell, type Column, type Line, PNL_COLUMNS, PNL_LEGEND, BETS_LEGEND, SETTLEMENT_LEGEND, SETTLEMENT_LOG_COLUMNS, pnlCells, pnlTotals, settlementTotals,
} from '../../server/services/report-rows.js';
import { CONTENT_TYPES, openWriter } from '../../server/services/report-writers.js';
import { REPORT_MAX_ROWS } from '../../server/services/reports.js';
import type { AuditLog } from '../audit/audit-log.js';
import { verifyAuditLog } from '../audit/verify.js';
import type { BackendClient } from '../backend/connection.js';
import { toolLabel } from '../tools/index.js';

type Input = z.output<typeof exportTableInput>;
type Of<T extends Input['table']> = Extract<Input, { table: T }>;

export interface ExportedTable {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
  /** Data rows written (totals not counted). */
  rows: number;
}

/** One table's layout and rows: `count` before anything is written, then the lines a page at a time. */
interface TableSource {
  title: string;
  /** The filters in words, for the file's subtitle. */
  filters: string[];
  columns: Column[];
  /** What the signs of its amounts mean, as the reports say it; absent for a table with no signed amounts. */
  legend?: string;
  count: number;
  lines(): AsyncGenerator<Line[]>;
}

interface Reader {
  api: BackendClient;
  me: { id: string; name: string; timezone: string };
  /** Main's audit log, the Audit page's rows; none: that table is refused. */
  audit?: AuditLog | undefined;
}

/** Writes the table the input names, as the caller sees it; refuses (and writes nothing) when the read refuses or it is too long. */
export async function exportTable(reader: Reader, input: Input): Promise<ExportedTable> {
  if (input.format === 'pdf' && !PDF_TABLES.includes(input.table)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `the ${input.table} table has no pdf layout: export it as Excel or CSV` });
  }
  const source = await openSource(reader, input);
  if (source.count > REPORT_MAX_ROWS) {
    throw new TRPCError({
      code: 'PAYLOAD_TOO_LARGE',
      message: `${source.count.toLocaleString('en-US')} rows is more than an export holds (${REPORT_MAX_ROWS.toLocaleString('en-US')}): narrow the filters`,
    });
  }
  const { now } = await reader.api.auth.me.query();
  const tz = reader.me.timezone;
  const heading = {
    title: `${source.title} · ${reader.me.name}`,
    sheetName: source.title.slice(0, 31),
    subtitle: [...source.filters, `Generated ${formatDateTime(now, tz)} (${tz})`].join(' · '),
    legend: source.legend ?? '',
    timezone: tz,
  };
  const dir = await mkdtemp(join(tmpdir(), 'agent-desk-export-'));
  try {
    const path = join(dir, `table.${input.format}`);
    const writer = await openWriter(input.format, path, heading, source.columns);
    let rows = 0;
    for await (const lines of source.lines()) {
      writer.write(lines);
      rows += lines.filter((l) => l.type === 'row').length;
    }
    await writer.finish();
    const day = now.slice(0, 10);
    return { fileName: `${input.table}-${day}.${input.format}`, contentType: CONTENT_TYPES[input.format], bytes: await readFile(path), rows };
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

function openSource(r: Reader, input: Input): Promise<TableSource> {
  switch (input.table) {
    case 'bets': return betsSource(r, input);
    case 'pnl': return pnlSource(r, input);
    case 'commission': return commissionSource(r, input);
    case 'settlements': return settlementsSource(r, input);
    case 'statement': return statementSource(r, input);
    case 'exposure': return exposureSource(r, input);
    case 'downline': return downlineSource(r, input);
    case 'topMarkets': return topMarketsSource(r, input);
    case 'audit': return auditSource(r);
    case 'reports': return reportsSource(r, input);
  }
}

interface PagedRead<P> { first: P; pages(): AsyncGenerator<P> }

/** A keyset-paged read to its last page: the first page is read at once (its count and totals), the rest when written. */
async function paged<P extends { nextCursor: string | null }>(read: (cursor: string | undefined) => Promise<P>): Promise<PagedRead<P>> {
  const first = await read(undefined);
  async function* pages(): AsyncGenerator<P> {
    let page = first;
    yield page;
    while (page.nextCursor) {
      page = await read(page.nextCursor);
      yield page;
    }
  }
  return { first, pages };
}

/** The words of the filters an input holds, in the order a person reads them. */
function filterWords(q: { from?: string | undefined; to?: string | undefined }, more: Array<string | false | undefined>): string[] {
  const period = q.from || q.to ? `Period: ${formatPeriod({ from: q.from ?? q.to!, to: q.to ?? q.from! })}` : null;
  return [period, ...more].filter((w): w is string => typeof w === 'string' && w !== '');
}
const orderWords = (o: { by: string; dir: string } | undefined) => o && `Sorted by ${o.by}, ${o.dir === 'asc' ? 'ascending' : 'descending'}`;
const namesWords = (names: string | undefined) => names?.trim() && `Names: "${names.trim()}"`;
const whereWords = (where: ReadonlyArray<{ column: string; op: string; value: number }> | undefined) =>
  where?.length ? `Where: ${where.map((w) => `${w.column} ${w.op} ${w.value}`).join(', ')}` : undefined;

/**
 * The rows of every page in the order the page's table shows: the read's own order, or, when the
 * page sorts its rows by a column, every row sorted by that column's key (so all of them are read first).
 */
async function* inPageOrder<P, R>(pages: AsyncGenerator<P>, rows: (page: P) => R[], sort: { key: (row: R) => SortValue; dir: SortDir } | undefined): AsyncGenerator<R[]> {
  if (!sort) {
    for await (const page of pages) yield rows(page);
    return;
  }
  const all: R[] = [];
  for await (const page of pages) all.push(...rows(page));
  yield sortRows(all, sort.key, sort.dir);
}
const sortWords = (sort: { id: string; dir: SortDir } | undefined) => sort && `Sorted by ${sort.id}, ${sort.dir === 'asc' ? 'ascending' : 'descending'}`;

/** The name search the page applies to the rows it holds, applied to every row. */
function byNames<R>(names: string | undefined, of: (row: R) => Array<string | null>): (rows: R[]) => R[] {
  const match = nameMatcher(names ?? '');
  return match ? (rows) => rows.filter((row) => match(...of(row))) : (rows) => rows;
}

const BET_COLUMNS: Column[] = [
  BETS_BY_MATCH_COLUMNS[0]!, BETS_BY_MATCH_COLUMNS[1]!, { header: 'Fixture', kind: 'text', width: 26 }, ...BETS_BY_MATCH_COLUMNS.slice(2, 7),
  { header: 'Liability', kind: 'points', width: 14 }, ...BETS_BY_MATCH_COLUMNS.slice(7),
];

async function betsSource({ api }: Reader, { query }: Of<'bets'>): Promise<TableSource> {
  const { first, pages } = await paged((cursor) => api.agent.getBetHistory.query({ ...query, limit: PAGE_SIZE_MAX.bets, ...(cursor && { cursor }) }));
  const s = first.summary;
  return {
    title: 'Bets',
    filters: filterWords(query, [
      query.status && `Status: ${query.status.join(', ')}`, query.side && `Side: ${query.side}`, query.search && `Search: "${query.search}"`,
      whereWords(query.where), orderWords(query.sort) ?? 'Newest first',
    ]),
    columns: BET_COLUMNS,
    legend: BETS_LEGEND,
    count: s.count,
    async *lines() {
      for await (const page of pages()) {
        yield page.bets.map((b): Line => ({
          type: 'row',
          cells: [b.placedAt, b.playerName, b.fixtureName, b.marketName, b.outcomeName, b.side, b.stake, b.odds, b.liability, b.status, b.result],
        }));
      }
      yield [{ type: 'total', cells: [`Total, ${s.count.toLocaleString('en-US')} bets`, null, null, null, null, null, s.stake, null, s.openLiability, null, s.settledResult] }];
    },
  };
}

type PlayerListQuery = { where?: ReadonlyArray<{ column: string; op: string; value: number }> | undefined; orderBy?: { by: string; dir: string } | undefined };

/**
 * The PnL page's tables, a player a row: every page of the read, with the page's name search and
 * column sort, and the read's totals unless a name search narrowed the rows (the totals are of
 * every matched row, so they would not add up).
 */
function playerList<R extends { name: string; agentName: string }, K extends string>(
  { first, pages }: PagedRead<{ rows: R[]; matched: number; period: { from: string; to: string } }>,
  { query, names, sort }: { query: PlayerListQuery; names?: string | undefined; sort?: { id: K; dir: SortDir } | undefined },
  layout: { title: string; columns: Column[]; legend?: string; sorts: Record<K, (row: R) => SortValue>; cells(row: R): Cell[]; totals: Line[] },
): TableSource {
  const keep = byNames(names, (r: R) => [r.name, r.agentName]);
  return {
    title: layout.title,
    filters: filterWords(first.period, [whereWords(query.where), sortWords(sort) ?? orderWords(query.orderBy), namesWords(names)]),
    columns: layout.columns,
    ...(layout.legend !== undefined && { legend: layout.legend }),
    count: first.matched,
    async *lines() {
      const order = sort && { key: layout.sorts[sort.id], dir: sort.dir };
      for await (const rows of inPageOrder(pages(), (p) => keep(p.rows), order)) yield rows.map((r): Line => ({ type: 'row', cells: layout.cells(r) }));
      if (!nameMatcher(names ?? '')) yield layout.totals;
    },
  };
}

async function pnlSource({ api }: Reader, input: Of<'pnl'>): Promise<TableSource> {
  const read = await paged((cursor) => api.agent.getPnL.query({ ...input.query, limit: PAGE_SIZE_MAX.rows, ...(cursor && { cursor }) }));
  return playerList(read, input, { title: 'Profit and loss', columns: PNL_COLUMNS, legend: PNL_LEGEND, sorts: PNL_SORTS, cells: pnlCells, totals: pnlTotals(read.first.total) });
}

const COMMISSION_COLUMNS: Column[] = [
  PNL_COLUMNS[0]!, PNL_COLUMNS[1]!, { header: 'Rate (bps)', kind: 'count', width: 10 },
  { header: 'Winning markets', kind: 'count', width: 14 }, { header: 'Commission', kind: 'points', width: 14 },
];

async function commissionSource({ api }: Reader, input: Of<'commission'>): Promise<TableSource> {
  const read = await paged((cursor) => api.agent.getCommission.query({ ...input.query, limit: PAGE_SIZE_MAX.rows, ...(cursor && { cursor }) }));
  return playerList(read, input, {
    title: 'Commission', columns: COMMISSION_COLUMNS, sorts: COMMISSION_SORTS,
    cells: (r) => [r.name, r.agentName, r.commissionBps, r.markets, r.commission],
    totals: [{ type: 'total', cells: ['Total', null, null, null, read.first.total] }],
  });
}

async function settlementsSource({ api, me }: Reader, { query, names, sort }: Of<'settlements'>): Promise<TableSource> {
  const { first, pages } = await paged((cursor) => api.agent.getSettlementHistory.query({ ...query, limit: PAGE_SIZE_MAX.settlements, ...(cursor && { cursor }) }));
  const keep = byNames(names, (r: (typeof first)['rows'][number]) => [r.childName, r.parentName, r.createdByName]);
  return {
    title: 'Settlements',
    filters: filterWords(query, [whereWords(query.where), sortWords(sort) ?? orderWords(query.orderBy), namesWords(names)]),
    columns: SETTLEMENT_LOG_COLUMNS,
    legend: SETTLEMENT_LEGEND,
    count: first.matched,
    async *lines() {
      const totals = settlementTotals(me.id);
      const order = sort && { key: settlementSorts(me.id)[sort.id], dir: sort.dir };
      for await (const rows of inPageOrder(pages(), (p) => keep(p.rows), order)) yield rows.map((r) => totals.add(r));
      yield totals.lines();
    },
  };
}

const STATEMENT_COLUMNS: Column[] = [
  { header: 'When', kind: 'datetime', width: 18 }, { header: 'Kind', kind: 'text', width: 14 },
  { header: 'Fixture', kind: 'text', width: 24 }, { header: 'Market', kind: 'text', width: 18 }, { header: 'Selection', kind: 'text', width: 18 },
  { header: 'Side', kind: 'text', width: 6 }, { header: 'Week', kind: 'text', width: 10 },
  { header: 'Counterparty', kind: 'text', width: 20 }, { header: 'By', kind: 'text', width: 20 },
  { header: 'Amount', kind: 'points', width: 14 }, { header: 'Balance', kind: 'points', width: 14 },
  { header: 'Limit before', kind: 'points', width: 14 }, { header: 'Limit after', kind: 'points', width: 14 },
];

async function statementSource({ api }: Reader, { query }: Of<'statement'>): Promise<TableSource> {
  const { first, pages } = await paged((cursor) => api.agent.getStatement.query({ ...query, limit: PAGE_SIZE_MAX.statement, ...(cursor && { cursor }) }));
  return {
    title: `Statement of ${first.account.name}`.slice(0, 80),
    filters: filterWords(query, [query.kinds && `Kinds: ${query.kinds.map((k) => STATEMENT_KIND_LABELS[k]).join(', ')}`]),
    columns: STATEMENT_COLUMNS,
    count: first.matched,
    async *lines() {
      for await (const page of pages()) {
        yield page.lines.map((l): Line => ({
          type: 'row',
          cells: [l.at, STATEMENT_KIND_LABELS[l.kind], l.fixtureName, l.marketName, l.outcomeName, l.side, l.periodId, l.counterpartyName,
            l.madeByName ?? (l.kind === 'adjustment' ? null : 'market result'), l.amount, l.balanceAfter, l.creditLimitBefore, l.creditLimitAfter],
        }));
      }
      const under = (label: string, column: string, value: number): Line => ({
        type: 'total', cells: STATEMENT_COLUMNS.map((c, i): Cell => (i === 0 ? label : c.header === column ? value : null)),
      });
      yield [under('Net of these lines', 'Amount', first.net), under('Balance now', 'Balance', first.account.take)];
    },
  };
}

const EXPOSURE_COLUMNS: Column[] = [
  { header: 'Fixture', kind: 'text', width: 26 }, { header: 'Market', kind: 'text', width: 20 }, { header: 'Open bets', kind: 'count', width: 10 },
  { header: 'If this wins', kind: 'text', width: 22 }, { header: 'Book position (gross)', kind: 'points', width: 18 },
  { header: 'At your share', kind: 'points', width: 16 },
];

async function exposureSource({ api }: Reader, { query }: Of<'exposure'>): Promise<TableSource> {
  const d = await api.agent.getLiveExposure.query(query);
  // As the page lays it out: fixture by fixture, each market's outcomes in the read's order.
  const rows = d.fixtures.flatMap((f) => d.scopes.filter((s) => s.fixtureId === f.fixtureId)
    .flatMap((m) => m.outcomes.map((o): Cell[] => [f.fixtureName, m.marketName, m.openBets, o.name, o.position, o.positionAtShare])));
  return {
    title: 'Live exposure',
    filters: query.fixtureId ? ['One fixture'] : [],
    columns: EXPOSURE_COLUMNS,
    count: rows.length,
    async *lines() {
      yield rows.map((cells): Line => ({ type: 'row', cells }));
      yield [{ type: 'total', cells: ['Worst case', null, null, null, d.total.exposure, d.total.exposureAtShare] }];
    },
  };
}

const DOWNLINE_COLUMNS: Column[] = [
  { header: 'Name', kind: 'text', width: 26 }, { header: 'Username', kind: 'text', width: 16 }, { header: 'Role', kind: 'text', width: 8 },
  { header: 'Upline', kind: 'text', width: 22 }, { header: 'Share or commission (bps)', kind: 'count', width: 12 },
  { header: 'Credit limit', kind: 'points', width: 16 }, { header: 'Take', kind: 'points', width: 16 }, { header: 'Available', kind: 'points', width: 16 },
];

async function downlineSource({ api, me }: Reader, { query, names }: Of<'downline'>): Promise<TableSource> {
  const d = await api.agent.getDownline.query(query);
  // Every account with the tree opened all the way: each below its upline, as the page lists them.
  const flat: Array<{ node: DownlineNode; upline: string }> = [];
  const walk = (nodes: DownlineNode[], upline: string) => {
    for (const node of nodes) {
      flat.push({ node, upline });
      walk(node.children, node.name);
    }
  };
  walk(d.tree, me.name);
  const rows = byNames(names, (r: (typeof flat)[number]) => [r.node.name, r.node.username])(flat);
  return {
    title: 'Downline',
    filters: [namesWords(names), d.truncated && 'Cut at the largest tree one answer holds'].filter((w): w is string => typeof w === 'string' && w !== ''),
    columns: DOWNLINE_COLUMNS,
    count: rows.length,
    async *lines() {
      yield rows.map(({ node: n, upline }): Line => ({
        type: 'row',
        cells: [n.name, n.username, n.role, upline, n.role === 'agent' ? n.shareBps : n.commissionBps, n.creditLimit, n.take, n.available],
      }));
    },
  };
}

const METRIC_HEADERS = { pnl: 'Your result', volume: 'Volume', exposure: 'Exposure' } as const;

async function topMarketsSource({ api }: Reader, { query }: Of<'topMarkets'>): Promise<TableSource> {
  const d = await api.agent.getTopMarkets.query(query);
  return {
    title: `Top markets by ${query.metric}`,
    filters: [`Period: ${formatPeriod(d.period)}`, `Top ${query.limit}`],
    columns: [
      { header: 'Fixture', kind: 'text', width: 26 }, { header: 'Market', kind: 'text', width: 20 },
      { header: METRIC_HEADERS[query.metric], kind: 'points', width: 16 }, { header: 'Bets', kind: 'count', width: 8 },
    ],
    count: d.rows.length,
    async *lines() {
      yield d.rows.map((m): Line => ({ type: 'row', cells: [m.fixtureName, m.marketName, m.value, m.bets] }));
    },
  };
}

const AUDIT_COLUMNS: Column[] = [
  { header: '#', kind: 'count', width: 6 }, { header: 'When', kind: 'datetime', width: 18 }, { header: 'Action', kind: 'text', width: 24 },
  { header: 'Outcome', kind: 'text', width: 10 }, { header: 'Asked from', kind: 'text', width: 10 }, { header: 'Arguments', kind: 'text', width: 40 },
  { header: 'Reason', kind: 'text', width: 24 }, { header: 'Password asked again', kind: 'text', width: 10 }, { header: 'Hash', kind: 'text', width: 20 },
];

/**
 * The Audit page's rows: the user's entries of main's log as audit.list reads them (the file's
 * lines that parse), newest first. Their arguments go as JSON text, which the page words.
 */
async function auditSource({ me, audit }: Reader): Promise<TableSource> {
  if (!audit) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'this desk keeps no audit log' });
  const { text, head } = await audit.snapshot();
  const entries = verifyAuditLog(text, { user: me.id, localHead: head }).entries.filter((e) => e.user === me.id).reverse();
  return {
    title: 'Audit',
    filters: [],
    columns: AUDIT_COLUMNS,
    count: entries.length,
    async *lines() {
      yield entries.map((e): Line => ({
        type: 'row',
        cells: [e.seq, e.ts, toolLabel(e.tool), e.outcome, e.channel === 'mcp' ? 'MCP client' : 'desk', JSON.stringify(e.args),
          e.reason ?? null, e.stepUp ? 'yes' : null, e.hash],
      }));
    },
  };
}

const REPORT_COLUMNS: Column[] = [
  { header: 'Report', kind: 'text', width: 40 }, { header: 'Format', kind: 'text', width: 8 }, { header: 'Status', kind: 'text', width: 10 },
  { header: 'Rows', kind: 'count', width: 10 }, { header: 'Size (bytes)', kind: 'count', width: 12 }, { header: 'Made', kind: 'datetime', width: 18 },
  { header: 'Kept until', kind: 'datetime', width: 18 }, { header: 'Owner', kind: 'text', width: 20 }, { header: 'Shared by', kind: 'text', width: 20 },
];

async function reportsSource({ api }: Reader, { query }: Of<'reports'>): Promise<TableSource> {
  const { reports } = await api.reports.list.query(query);
  return {
    title: 'Reports',
    filters: ['The last 30 days'],
    columns: REPORT_COLUMNS,
    count: reports.length,
    async *lines() {
      yield reports.map((r): Line => ({
        type: 'row',
        cells: [r.title, r.format, r.status, r.rowsTotal, r.sizeBytes, r.createdAt, r.expiresAt, r.owner.name, r.sharedBy?.name ?? null],
      }));
    },
  };
}
