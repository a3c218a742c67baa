import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/infra/log.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type BackendConnection, embeddedConnection } from '../../../src/main/backend/connection.js';
import type { FileSaver, SavedFile } from '../../../src/main/desk/file-saver.js';
import { deskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import type { Backend } from '../../../src/server/backend.js';
import { formatPoints } from '../../../src/shared/money.js';
import { accountId, openTestBookBackend } from '../../helpers/backend.js';
import { keylessModels } from '../../helpers/model-settings.js';
import { csvRecords } from '../../helpers/csv.js';
import type { ChatService } from '../../../src/main/assistant/chat-service.js';

/**
 * Exporting a page's table through the real desk router, on the embedded test backend: the file's
 * rows are the rows the page's read returns for the same filters and order, every page of them;
 * a read the backend refuses (another agent's account) or a bad input saves nothing.
 */
describe('exporting a table through the desk', () => {
  let book: Backend;
  let backend: BackendConnection;
  const sessions = new DeskSessions();
  const audit = new AuditLog(join(mkdtempSync(join(tmpdir(), 'table-export-')), 'audit.jsonl'));
  /** What the desk handed the saver: a test's file, or nothing when it refused. */
  const saved: SavedFile[] = [];
  const saver: FileSaver = {
    kind: 'download',
    async save(file) {
      saved.push(file);
      return { kind: 'download', url: '/downloads/x', fileName: file.fileName, expiresAt: new Date().toISOString() };
    },
  };

  beforeAll(async () => {
    book = await openTestBookBackend();
    backend = embeddedConnection(book, silentLogger);
  });
  afterAll(async () => {
    await backend?.close();
  });

  async function signIn(username: string) {
    const desk = deskRouter.createCaller({
      sessions, backend, log: silentLogger, chat: {} as ChatService, audit,
      models: keylessModels(), files: saver, slot: `slot-${username}`,
    });
    await desk.session.login({ username, password: `demo-${username}` });
    return { desk, api: backend.client(sessions.get(`slot-${username}`)!.token) };
  }

  /** The one file the call saved. */
  async function exported(call: () => Promise<unknown>): Promise<SavedFile> {
    const before = saved.length;
    await call();
    expect(saved.length).toBe(before + 1);
    return saved.at(-1)!;
  }

  /** The data rows of an exported sheet: below the title, subtitle, legend (when the table has signs to explain) and header, above the first totals row. */
  async function sheetRows(file: SavedFile, totalsStart: RegExp): Promise<{ header: unknown[]; rows: unknown[][] }> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(file.bytes) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    // The header is the first row of more than one cell.
    let headerAt = 3;
    while (values(headerAt).length <= 1) headerAt++;
    const rows: unknown[][] = [];
    for (let n = headerAt + 1; n <= sheet.rowCount; n++) {
      const row = values(n);
      if (typeof row[0] === 'string' && totalsStart.test(row[0])) break;
      rows.push(row);
    }
    return { header: values(headerAt), rows };
  }

  const csvOf = (file: SavedFile) => csvRecords(Buffer.from(file.bytes).toString('utf8'));

  /** Every page of a keyset-paged read, as the page would have loaded them. */
  async function all<P extends { nextCursor: string | null }, R>(read: (cursor?: string) => Promise<P>, rows: (p: P) => R[]): Promise<R[]> {
    const out: R[] = [];
    let cursor: string | undefined;
    do {
      const page = await read(cursor);
      out.push(...rows(page));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  }

  const points = (paisa: number) => paisa / 100;
  const plainPoints = (paisa: number) => formatPoints(paisa).replaceAll(',', '');

  it('writes every bet the Bets page reads, with its filters and its sort, as an xlsx', async () => {
    const { desk, api } = await signIn('priya');
    const query = { status: ['settled' as const], from: '2026-10-01', to: '2026-11-20', sort: { by: 'stake' as const, dir: 'asc' as const } };
    const file = await exported(() => desk.reports.exportTable({ table: 'bets', format: 'xlsx', query }));
    expect(file.fileName).toMatch(/^bets-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(file.contentType).toMatch(/spreadsheetml/);

    const bets = await all((cursor) => api.agent.getBetHistory.query({ ...query, limit: 200, ...(cursor && { cursor }) }), (p) => p.bets);
    // More than one page of the read: the export paged through them all.
    expect(bets.length).toBeGreaterThan(200);
    const { header, rows } = await sheetRows(file, /^Total, /);
    expect(header).toEqual(['Placed', 'Player', 'Fixture', 'Market', 'Selection', 'Side', 'Stake', 'Odds', 'Liability', 'Status', 'Result']);
    expect(rows.map((r) => [r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10]])).toEqual(bets.map((b) => [
      b.playerName, b.fixtureName, b.marketName, b.outcomeName, b.side, points(b.stake), b.odds / 100, points(b.liability), b.status, points(b.result!),
    ]));
    // The filter and the sort held: settled only, stakes ascending.
    expect(new Set(rows.map((r) => r[9]))).toEqual(new Set(['settled']));
    const stakes = rows.map((r) => r[6] as number);
    expect(stakes).toEqual([...stakes].sort((a, b) => a - b));
  }, 120_000);

  it('writes a statement as csv: the page read\'s lines, kinds filter included, money in points with two decimals', async () => {
    const { desk, api } = await signIn('priya');
    const accountIdOf = await accountId(book, 'rahul.sharma');
    const query = { accountId: accountIdOf, kinds: ['bet_result' as const, 'settlement' as const] };
    const file = await exported(() => desk.reports.exportTable({ table: 'statement', format: 'csv', query }));
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    const lines = await all((cursor) => api.agent.getStatement.query({ ...query, limit: 200, ...(cursor && { cursor }) }), (p) => p.lines);
    expect(lines.length).toBeGreaterThan(0);
    const [header, ...records] = csvOf(file);
    expect(header).toEqual(['When', 'Kind', 'Fixture', 'Market', 'Selection', 'Side', 'Week', 'Counterparty', 'By', 'Amount', 'Balance', 'Limit before', 'Limit after']);
    expect(records.map((r) => [r[1], r[9], r[10]])).toEqual(lines.map((l) => [
      l.kind === 'bet_result' ? 'Bet result' : 'Settlement', formatPoints(l.amount!).replaceAll(',', ''), formatPoints(l.balanceAfter).replaceAll(',', ''),
    ]));
    expect(records.every((r) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(r[0]!))).toBe(true);
  }, 60_000);

  it('applies the page\'s order and name search to settlements and PnL', async () => {
    const { desk, api } = await signIn('priya');
    const orderBy = { by: 'amount' as const, dir: 'asc' as const };
    const settlementsFile = await exported(() => desk.reports.exportTable({ table: 'settlements', format: 'csv', query: { orderBy } }));
    const settlements = await all((cursor) => api.agent.getSettlementHistory.query({ orderBy, limit: 200, ...(cursor && { cursor }) }), (p) => p.rows);
    const [, ...records] = csvOf(settlementsFile);
    // The payment column keeps the signed amount (positive: the account paid its upline), as the settlement log does.
    expect(records.map((r) => [r[1], r[3]])).toEqual(settlements.map((s) => [s.childName, formatPoints(s.amount).replaceAll(',', '')]));

    // The PnL page sorts the rows it holds by a column and searches their names: the export does both to every row.
    const pnlQuery = { from: '2026-10-01', to: '2026-11-20' };
    const pnlFile = await exported(() => desk.reports.exportTable({ table: 'pnl', format: 'xlsx', query: pnlQuery, names: 'rahul', sort: { id: 'book', dir: 'asc' } }));
    const pnl = await all((cursor) => api.agent.getPnL.query({ ...pnlQuery, limit: 500, ...(cursor && { cursor }) }), (p) => p.rows);
    const rahuls = pnl.filter((r) => /rahul/i.test(`${r.name} ${r.agentName}`)).sort((a, b) => a.bookResult - b.bookResult);
    expect(rahuls.length).toBeGreaterThan(1);
    expect(rahuls.length).toBeLessThan(pnl.length);
    const { rows } = await sheetRows(pnlFile, /^Total$/);
    expect(rows.map((r) => [r[0], r[5]])).toEqual(rahuls.map((r) => [r.name, points(r.bookResult)]));
    // A name search narrows the rows but not the read's totals, so the file carries none.
    expect(rows.length).toBe(rahuls.length);
  }, 60_000);

  it('refuses another agent\'s rows as the read does, and saves nothing', async () => {
    const meera = await signIn('meera');
    const arjun = await signIn('arjun');
    const priyasPlayer = await accountId(book, 'rahul.sharma');
    const before = saved.length;
    await expect(arjun.desk.reports.exportTable({ table: 'statement', format: 'xlsx', query: { accountId: priyasPlayer } }))
      .rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(meera.desk.reports.exportTable({ table: 'bets', format: 'csv', query: { playerId: priyasPlayer } }))
      .rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Meera's own export holds only her own book's bets: none of Priya's player's.
    const file = await exported(() => meera.desk.reports.exportTable({ table: 'bets', format: 'csv', query: { search: 'Rahul Sharma' } }));
    const players = new Set(csvOf(file).slice(1).map((r) => r[1]));
    expect(players.size).toBeGreaterThan(0);
    const mine = await all((cursor) => meera.api.agent.getBetHistory.query({ search: 'Rahul Sharma', limit: 200, ...(cursor && { cursor }) }), (p) => p.bets);
    expect(csvOf(file).length - 1).toBe(mine.length);
    expect(saved.length).toBe(before + 1);
  }, 60_000);

  it('refuses a bad input with a clear error and saves nothing', async () => {
    const { desk } = await signIn('priya');
    const before = saved.length;
    const call = (input: unknown) => desk.reports.exportTable(input as Parameters<typeof desk.reports.exportTable>[0]);
    await expect(call({ table: 'ledger', format: 'xlsx', query: {} })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(call({ table: 'bets', format: 'docx', query: {} })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(call({ table: 'bets', format: 'csv', query: { from: '2026-02-30' } })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(call({ table: 'bets', format: 'csv', query: { cursor: 'abc' } })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(call({ table: 'downline', format: 'pdf', query: {} })).rejects.toThrow(/no pdf layout: export it as Excel or CSV/);
    expect(saved.length).toBe(before);
  });

  it('writes the one-answer tables (exposure, downline, top markets) as their reads answer them', async () => {
    const { desk, api } = await signIn('priya');
    const exposure = await api.agent.getLiveExposure.query({});
    const outcomes = exposure.fixtures.flatMap((f) => exposure.scopes.filter((m) => m.fixtureId === f.fixtureId).flatMap((m) => m.outcomes));
    expect(outcomes.length).toBeGreaterThan(0);
    const exposureCsv = csvOf(await exported(() => desk.reports.exportTable({ table: 'exposure', format: 'csv', query: {} })));
    expect(exposureCsv.slice(1).map((r) => [r[3], r[4]])).toEqual(outcomes.map((o) => [o.name, plainPoints(o.position)]));

    const { tree } = await api.agent.getDownline.query({ depth: 10 });
    const arjun = tree.find((n) => n.username === 'arjun')!;
    const downline = csvOf(await exported(() => desk.reports.exportTable({ table: 'downline', format: 'csv', query: { depth: 10 }, names: 'arjun' })));
    // The search keeps Arjun himself; his players sit under him only by the upline column, which it does not search.
    expect(downline.slice(1).map((r) => [r[0], r[3], r[6]])).toEqual([[arjun.name, 'Priya Nair', plainPoints(arjun.take)]]);

    const query = { period: 'month' as const, metric: 'volume' as const, limit: 5 };
    const top = await api.agent.getTopMarkets.query(query);
    expect(top.rows.length).toBeGreaterThan(0);
    const topCsv = csvOf(await exported(() => desk.reports.exportTable({ table: 'topMarkets', format: 'csv', query })));
    expect(topCsv.slice(1).map((r) => [r[1], r[2]])).toEqual(top.rows.map((m) => [m.marketName, plainPoints(m.value)]));

    await api.reports.generate.mutate({ template: 'settlement_log', format: 'pdf', filters: { from: '2026-11-01', to: '2026-11-20' } });
    const { reports } = await api.reports.list.query({ limit: 100 });
    expect(reports.length).toBeGreaterThan(0);
    const reportsCsv = csvOf(await exported(() => desk.reports.exportTable({ table: 'reports', format: 'csv', query: { limit: 100 } })));
    expect(reportsCsv.slice(1).map((r) => [r[0], r[1], r[7]])).toEqual(reports.map((r) => [r.title, r.format, r.owner.name]));
  });

  it('writes the Audit page\'s rows: the user\'s own entries of main\'s log, newest first, their text never a formula', async () => {
    const { desk } = await signIn('priya');
    const priya = sessions.get('slot-priya')!.user.id;
    const entry = (user: string, i: number, reason?: string) => audit.append({
      requestId: `req-${i}`, user, tool: 'agent.setCreditLimit', args: { playerId: `p-${i}`, amount: 1_000 * i }, before: { limit: 0 },
      after: { limit: 1_000 * i }, nonce: `nonce-${i}-${'x'.repeat(30)}`, outcome: reason ? 'cancelled' : 'executed', ...(reason && { reason }),
    });
    await entry(priya, 1);
    await entry('someone-else', 2);
    await entry(priya, 3, '=HYPERLINK("https://attacker.invalid")');
    const [header, ...rows] = csvOf(await exported(() => desk.reports.exportTable({ table: 'audit', format: 'csv', query: {} })));
    expect(header!.slice(0, 4)).toEqual(['#', 'When', 'Action', 'Outcome']);
    expect(rows.map((r) => [r[0], r[3], r[5], r[6]])).toEqual([
      ['3', 'cancelled', '{"amount":3000,"playerId":"p-3"}', '\'=HYPERLINK("https://attacker.invalid")'],
      ['1', 'executed', '{"amount":1000,"playerId":"p-1"}', ''],
    ]);
  });

  it('writes a pdf where a report lays the table out', async () => {
    const { desk } = await signIn('priya');
    const file = await exported(() => desk.reports.exportTable({ table: 'settlements', format: 'pdf', query: { from: '2026-11-01', to: '2026-11-20' } }));
    expect(file.contentType).toBe('application/pdf');
    expect(Buffer.from(file.bytes).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
