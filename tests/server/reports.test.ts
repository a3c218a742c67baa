import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_LINK_TTL_SECONDS, type ReportArtifact, type ReportLink } from '../../src/shared/contracts/reports.js';
import { formatPoints } from '../../src/shared/format.js';
import { queryRows } from '../../src/server/db/client.js';
import { resolveSession } from '../../src/server/services/auth.js';
import { betRowsOfFixtures, betSummariesByFixture, getBetHistory } from '../../src/server/services/history.js';
import { generateReport, pruneReports, reportJobHooks, reportJobsSettled } from '../../src/server/services/reports.js';
import { ENGINES, type TestBackend, accountId, startTestBackend } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;

const FROM = '2026-10-01';
const TO = '2026-11-20';

describe.each(ENGINES)('reports on %s', (engine) => {
  let b: TestBackend;
  let priyaToken: string;
  let priya: Client;
  let arjunToken: string;
  let arjun: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priyaToken = await b.login('priya');
    priya = b.client(priyaToken);
    arjunToken = await b.login('arjun');
    arjun = b.client(arjunToken);
    for (const u of ['priya', 'arjun', 'anita', 'imran', 'rahul.sharma2', 'meera']) ids[u] = await accountId(b, u);
  });
  afterAll(async () => b?.close());
  afterEach(async () => {
    reportJobHooks.beforeBatch = undefined;
    await reportJobsSettled(b.deps);
  });

  async function finished(client: Client, artifactId: string): Promise<ReportArtifact> {
    for (let i = 0; i < 400; i++) {
      const a = await client.reports.get.query({ artifactId });
      if (a.status !== 'running') return a;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the report never finished');
  }

  async function make(client: Client, input: Parameters<Client['reports']['generate']['mutate']>[0]): Promise<ReportArtifact> {
    const started = await client.reports.generate.mutate(input);
    expect(started.status).toBe('running');
    expect(started.rowsDone).toBe(0);
    const done = await finished(client, started.artifactId);
    expect(done).toMatchObject({ status: 'ready', error: null });
    return done;
  }

  async function download(link: NonNullable<ReportArtifact['link']>, token = priyaToken): Promise<Response> {
    return fetch(`${b.server.url}${link.url}`, { headers: { authorization: `Bearer ${token}` } });
  }

  /** The whole file through `reports.read`, chunk by chunk. */
  async function readAll(client: Client, link: ReportLink): Promise<Buffer> {
    const parts: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const chunk = await client.reports.read.query({ link, offset });
      const bytes = Buffer.from(chunk.data, 'base64');
      parts.push(bytes);
      offset += bytes.length;
      if (offset >= chunk.totalBytes) return Buffer.concat(parts);
    }
  }

  async function sheetOf(bytes: Buffer): Promise<ExcelJS.Worksheet> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    return workbook.worksheets[0]!;
  }

  /** Data and totals rows below the header (row 4, under the legend), as cell values. */
  function body(sheet: ExcelJS.Worksheet): ExcelJS.Row[] {
    const rows: ExcelJS.Row[] = [];
    sheet.eachRow((row, n) => { if (n > 4) rows.push(row); });
    return rows;
  }

  const points = (paisa: number) => paisa / 100;

  it('per_player_pnl as xlsx: every row and the totals are getPnL\'s, as numbers in points', async () => {
    const a = await make(priya, { template: 'per_player_pnl', format: 'xlsx', filters: { from: FROM, to: TO } });
    expect(a.fileName).toBe(`pnl-per-player_${FROM}_${TO}.xlsx`);
    expect(a.title).toBe('PnL per player, 1 Oct 2026 – 20 Nov 2026, Priya Nair');
    expect(a.owner).toEqual({ id: ids.priya, name: 'Priya Nair' });

    const pnl = await priya.agent.getPnL.query({ from: FROM, to: TO, limit: 500 });
    expect(pnl.nextCursor).toBeNull();
    expect(pnl.rows.length).toBeGreaterThan(5);
    expect(a.rowsTotal).toBe(pnl.rows.length);
    expect(a.rowsDone).toBe(a.rowsTotal);

    const res = await download(a.link!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${a.fileName}"`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(a.sizeBytes);
    expect(bytes.equals(await readAll(priya, a.link!.parts))).toBe(true);

    const sheet = await sheetOf(bytes);
    expect(sheet.name).toBe('PnL per player');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 4 });
    expect(sheet.getCell('A1').value).toBe(a.title);
    // The file's stamp and the list's "Made …" are one instant, on the book's clock (not the wall clock, days later here).
    expect(String(sheet.getCell('A2').value)).toMatch(/Generated 20 Nov 2026, 12:00 \(Asia\/Kolkata\)/);
    expect(a.createdAt).toBe(b.clock.now.toISOString());
    expect(b.clock.real.getTime()).not.toBe(b.clock.now.getTime());
    expect(String(sheet.getCell('A3').value)).toBe('Player PnL is the players\' result: a positive amount is their winnings, the book\'s loss. '
      + 'Book result is the book\'s: a positive amount is the book\'s winnings.');
    expect(sheet.getRow(4).values).toEqual([undefined, 'Player', 'Agent', 'Bets', 'Player PnL', 'Commission', 'Book result']);
    expect(sheet.getColumn(1).width).toBeGreaterThan(10);

    const rows = body(sheet);
    expect(rows).toHaveLength(pnl.rows.length + 1 + (pnl.total.yourShare === null ? 0 : 1));
    pnl.rows.forEach((r, i) => {
      const row = rows[i]!;
      expect([row.getCell(1).value, row.getCell(2).value, row.getCell(3).value, row.getCell(4).value, row.getCell(5).value, row.getCell(6).value])
        .toEqual([r.name, r.agentName, r.bets, points(r.pnl), points(r.commission), points(r.bookResult)]);
      for (const c of [4, 5, 6]) {
        expect(typeof row.getCell(c).value).toBe('number');
        expect(row.getCell(c).numFmt).toBe('#,##0.00');
      }
    });
    const totals = rows[pnl.rows.length]!;
    expect([totals.getCell(1).value, totals.getCell(3).value, totals.getCell(4).value, totals.getCell(5).value, totals.getCell(6).value])
      .toEqual(['Total', pnl.total.bets, points(pnl.total.pnl), points(pnl.total.commission), points(pnl.total.bookResult)]);
    expect(totals.getCell(6).numFmt).toBe('#,##0.00');
    if (pnl.total.yourShare !== null) expect(rows[pnl.rows.length + 1]!.getCell(6).value).toBe(points(pnl.total.yourShare));
  });

  it('per_player_pnl as pdf: title with the agent and period, page numbers, totals as formatPoints writes them, the time zone', async () => {
    const a = await make(priya, { template: 'per_player_pnl', format: 'pdf', filters: { from: FROM, to: TO } });
    expect(a.fileName).toBe(`pnl-per-player_${FROM}_${TO}.pdf`);
    const res = await download(a.link!);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const { text } = await parser.getText();
    await parser.destroy();
    const pnl = await priya.agent.getPnL.query({ from: FROM, to: TO, limit: 500 });
    expect(text).toContain('PnL per player, 1 Oct 2026 – 20 Nov 2026, Priya Nair');
    expect(text).toMatch(/Page 1 of \d+/);
    expect(text).toContain('Generated 20 Nov 2026, 12:00 (Asia/Kolkata)');
    expect(a.createdAt).toBe(b.clock.now.toISOString());
    expect(text).toContain('a positive amount is their winnings, the book\'s loss');
    for (const figure of [pnl.total.pnl, pnl.total.commission, pnl.total.bookResult]) expect(text).toContain(formatPoints(figure));
    expect(text).toContain(pnl.rows[0]!.name);
  });

  it('bets_by_match: a group per match with getBetHistory\'s totals per match and overall', async () => {
    const filters = { from: '2026-11-10', to: '2026-11-20' };
    const a = await make(priya, { template: 'bets_by_match', format: 'xlsx', filters });
    const all = await priya.agent.getBetHistory.query({ ...filters, limit: 1 });
    expect(all.summary.count).toBeGreaterThan(0);
    expect(a.rowsTotal).toBe(all.summary.count);
    expect(a.rowsDone).toBe(all.summary.count);
    const rows = body(await sheetOf(await readAll(priya, a.link!.parts)));
    const last = rows[rows.length - 1]!;
    expect(last.getCell(1).value).toBe(`Total, ${all.summary.count.toLocaleString('en-US')} bets`);
    expect(last.getCell(6).value).toBe(points(all.summary.stake));
    expect(last.getCell(9).value).toBe(points(all.summary.settledResult));

    let dataRows = 0;
    let groups = 0;
    for (const row of rows.slice(0, -1)) {
      const first = row.getCell(1).value;
      if (typeof first === 'string' && first.startsWith('Match total')) {
        expect(row.getCell(6).value).toBeTypeOf('number');
        expect(row.getCell(6).numFmt).toBe('#,##0.00');
        groups++;
      } else if (first instanceof Date) {
        dataRows++;
        expect(row.getCell(6).numFmt).toBe('#,##0.00');
        expect(row.getCell(6).value).toBeTypeOf('number');
        expect(row.getCell(7).value).toBeTypeOf('number');
      }
    }
    expect(dataRows).toBe(all.summary.count);
    expect(groups).toBeGreaterThan(0);

    // One match: its subtotal is getBetHistory's summary for that fixture.
    const someBet = all.bets[0]!;
    const one = await make(priya, { template: 'bets_by_match', format: 'xlsx', filters: { ...filters, fixtureId: someBet.fixtureId } });
    const ofFixture = await priya.agent.getBetHistory.query({ ...filters, fixtureId: someBet.fixtureId, limit: 1 });
    const oneRows = body(await sheetOf(await readAll(priya, one.link!.parts)));
    expect(String(oneRows[0]!.getCell(1).value)).toContain(someBet.fixtureName);
    const subtotal = oneRows[oneRows.length - 2]!;
    expect(subtotal.getCell(6).value).toBe(points(ofFixture.summary.stake));
    expect(subtotal.getCell(9).value).toBe(points(ofFixture.summary.settledResult));
    expect(one.rowsTotal).toBe(ofFixture.summary.count);
  });

  it('settlement_log: getSettlementHistory\'s rows with signed amounts and takes under a legend, and their sums', async () => {
    const filters = { from: '2026-08-01', to: TO };
    const a = await make(priya, { template: 'settlement_log', format: 'xlsx', filters });
    const history: Array<{ amount: number; childName: string; takeBefore: number; takeAfter: number }> = [];
    let cursor: string | undefined;
    do {
      const page = await priya.agent.getSettlementHistory.query({ ...filters, limit: 200, ...(cursor && { cursor }) });
      history.push(...page.rows);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(a.rowsTotal).toBe(history.length);
    const sheet = await sheetOf(await readAll(priya, a.link!.parts));
    expect(String(sheet.getCell('A2').value)).toMatch(/Generated 20 Nov 2026, 12:00 \(Asia\/Kolkata\)/);
    expect(String(sheet.getCell('A3').value)).toBe('Amount: a positive amount was paid by the account to its upline; a negative one, by the upline to the account. '
      + 'Take: a positive amount is what the account owes its upline; a negative one, what the upline owes the account.');
    const rows = body(sheet);
    expect(rows).toHaveLength(history.length + 3);
    expect(history.some((h) => h.amount < 0) || history.some((h) => h.takeBefore < 0)).toBe(true);
    history.forEach((h, i) => {
      expect(rows[i]!.getCell(2).value).toBe(h.childName);
      expect([rows[i]!.getCell(4).value, rows[i]!.getCell(5).value, rows[i]!.getCell(6).value])
        .toEqual([points(h.amount), points(h.takeBefore), points(h.takeAfter)]);
    });
    const up = history.filter((h) => h.amount >= 0).reduce((s, h) => s + h.amount, 0);
    const down = history.filter((h) => h.amount < 0).reduce((s, h) => s - h.amount, 0);
    expect(rows.slice(-3).map((r) => [r.getCell(1).value, r.getCell(4).value])).toEqual([
      ['Paid to uplines', points(up)], ['Paid to accounts', points(-down)], ['Net', points(up - down)],
    ]);
    const [fixture] = await queryRows<{ id: string }>(b.deps.db, sql`select id from fixtures limit 1`);
    await expect(priya.reports.generate.mutate({ template: 'settlement_log', format: 'pdf', filters: { fixtureId: fixture!.id } }))
      .rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });

  it('settlement_log as pdf: who paid and who owes whom in words from the requester\'s side, the legend, the book\'s clock', async () => {
    const filters = { from: '2026-08-01', to: TO };
    const a = await make(priya, { template: 'settlement_log', format: 'pdf', filters });
    const page = await priya.agent.getSettlementHistory.query({ ...filters, limit: 5 });
    const mine = page.rows.find((r) => r.parentId === ids.priya && r.takeBefore !== 0);
    expect(mine).toBeDefined();
    const parser = new PDFParse({ data: new Uint8Array(await readAll(priya, a.link!.parts)) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain('Generated 20 Nov 2026, 12:00 (Asia/Kolkata)');
    expect(text).toContain('Take: a positive amount is what the account owes its upline');
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(mine!.takeBefore > 0 ? `${mine!.childName} owes you ${formatPoints(mine!.takeBefore)}` : `you owe ${mine!.childName} ${formatPoints(-mine!.takeBefore)}`);
    expect(flat).toContain(mine!.amount >= 0 ? `${mine!.childName} paid you ${formatPoints(mine!.amount)}` : `you paid ${mine!.childName} ${formatPoints(-mine!.amount)}`);
    expect(flat).not.toMatch(/Paid (?:to|by) upline\b/);
    // Between two others (Arjun's players): by role, so the amount is not cut off.
    expect(flat).toMatch(/(?:account owes upline|upline owes account|account paid upline|upline paid account) \d[\d,]*\.\d\d/);
  });

  it('refuses a player outside the downline like the read tool, and creates nothing', async () => {
    const before = await queryRows<{ n: string | number }>(b.deps.db, sql`select count(*) as n from report_artifacts`);
    for (const outsider of [ids['rahul.sharma2']!, randomUUID()]) {
      const read = await priya.agent.getPnL.query({ playerId: outsider, limit: 10 }).catch((e: unknown) => e);
      const report = await priya.reports.generate.mutate({ template: 'per_player_pnl', format: 'xlsx', filters: { playerId: outsider } }).catch((e: unknown) => e);
      expect(report).toMatchObject({ data: { code: 'NOT_FOUND' }, message: (read as Error).message });
    }
    const after = await queryRows<{ n: string | number }>(b.deps.db, sql`select count(*) as n from report_artifacts`);
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));
    // Arjun's report holds only his downline, whatever he asks for.
    const own = await make(arjun, { template: 'per_player_pnl', format: 'xlsx', filters: { from: FROM, to: TO } });
    const names = body(await sheetOf(await readAll(arjun, own.link!.parts))).map((r) => r.getCell(1).value);
    const arjunPnl = await arjun.agent.getPnL.query({ from: FROM, to: TO, limit: 500 });
    expect(names.slice(0, -2)).toEqual(arjunPnl.rows.map((r) => r.name));
  });

  it('refuses links that are expired, altered, or presented by another user', async () => {
    const a = await make(priya, { template: 'per_player_pnl', format: 'xlsx', filters: { from: FROM, to: TO } });
    const link = a.link!.parts;
    expect(a.link!.url).toBe(`/reports/${a.artifactId}?u=${ids.priya}&exp=${link.exp}&sig=${link.sig}`);
    await expect(priya.reports.read.query({ link })).resolves.toMatchObject({ totalBytes: a.sizeBytes });

    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    const refusals: Array<[ReportLink, string, Client, string]> = [
      [{ ...link, sig: flip(link.sig) }, 'FORBIDDEN', priya, priyaToken],
      [{ ...link, exp: link.exp + 3600 }, 'FORBIDDEN', priya, priyaToken],
      [{ ...link, artifactId: randomUUID() }, 'FORBIDDEN', priya, priyaToken],
      [{ ...link, userId: ids.arjun! }, 'FORBIDDEN', arjun, arjunToken],
      [link, 'FORBIDDEN', arjun, arjunToken],
    ];
    for (const [bad, code, client, token] of refusals) {
      await expect(client.reports.read.query({ link: bad })).rejects.toMatchObject({ data: { code } });
      const res = await fetch(`${b.server.url}/reports/${bad.artifactId}?u=${bad.userId}&exp=${bad.exp}&sig=${bad.sig}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-disposition')).toBeNull();
    }
    // No session, or a link missing its parts.
    expect((await fetch(`${b.server.url}${a.link!.url}`)).status).toBe(401);
    expect((await fetch(`${b.server.url}/reports/${a.artifactId}?u=${ids.priya}`, { headers: { authorization: `Bearer ${priyaToken}` } })).status).toBe(400);

    const real = b.clock.real;
    try {
      b.clock.real = new Date(real.getTime() + (REPORT_LINK_TTL_SECONDS + 1) * 1000);
      await expect(priya.reports.read.query({ link })).rejects.toMatchObject({ data: { code: 'PRECONDITION_FAILED' }, message: 'link expired' });
      expect((await download(a.link!)).status).toBe(412);
      // A fresh link from get works again.
      const again = await priya.reports.get.query({ artifactId: a.artifactId });
      expect((await download(again.link!)).status).toBe(200);
    } finally {
      b.clock.real = real;
    }
    // A deleted artifact: its still-fresh link finds nothing.
    await priya.reports.delete.mutate({ artifactId: a.artifactId });
    await expect(priya.reports.read.query({ link })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    expect((await download(a.link!)).status).toBe(404);
  });

  it('cancels a running report: cancelled, no content, the job stops', async () => {
    let entered!: (id: string) => void;
    const inJob = new Promise<string>((resolve) => { entered = resolve; });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    reportJobHooks.beforeBatch = async (id) => {
      entered(id);
      await gate;
    };
    const started = await priya.reports.generate.mutate({ template: 'bets_by_match', format: 'pdf', filters: { from: FROM, to: TO } });
    expect(await inJob).toBe(started.artifactId);
    // The backend keeps answering while the job is held.
    await expect(priya.reports.list.query({})).resolves.toBeDefined();
    const cancelled = await priya.reports.cancel.mutate({ artifactId: started.artifactId });
    expect(cancelled).toMatchObject({ status: 'cancelled', link: null, sizeBytes: null });
    release();
    await reportJobsSettled(b.deps);
    const [row] = await queryRows<{ status: string; content: unknown }>(b.deps.db, sql`select status, content from report_artifacts where id = ${started.artifactId}`);
    expect(row).toEqual({ status: 'cancelled', content: null });
    await expect(arjun.reports.cancel.mutate({ artifactId: started.artifactId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });

  it('reads a report\'s bets in batches of whole matches, a big match in pages of its own, in the bet list\'s order', async () => {
    const caller = await resolveSession(b.deps, priyaToken);
    const filters = { from: '2026-09-01', to: TO };
    const fixtures = await betSummariesByFixture(b.deps, caller, filters);
    const sizes = fixtures.map((f) => ({ fixtureId: f.fixtureId, count: f.summary.count }));
    // A batch size between the smallest match and the biggest, whatever the book's seed made them.
    const counts = sizes.map((f) => f.count).sort((x, y) => x - y);
    const batchRows = counts[0]! + 1;
    expect(sizes.some((f) => f.count > batchRows) && sizes.some((f) => f.count < batchRows)).toBe(true);
    const batches: string[][] = [];
    for await (const batch of betRowsOfFixtures(b.deps, caller, filters, sizes, batchRows)) batches.push(batch.map((r) => r.id));
    // What the bet list answers, match by match and page by page, is exactly what the batches hold.
    const expected: string[] = [];
    for (const f of fixtures) {
      let cursor: string | undefined;
      do {
        const page = await getBetHistory(b.deps, caller, { ...filters, fixtureId: f.fixtureId, limit: 100, cursor });
        expected.push(...page.bets.map((r) => r.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(f.summary).toEqual((await getBetHistory(b.deps, caller, { ...filters, fixtureId: f.fixtureId, limit: 0 })).summary);
    }
    expect(batches.flat()).toEqual(expected);
    expect(batches.every((batch) => batch.length > 0 && batch.length < 2 * batchRows)).toBe(true);
  });

  it('reports progress up to rowsTotal while it writes', async () => {
    const seen: number[] = [];
    reportJobHooks.beforeBatch = async (id) => {
      const [row] = await queryRows<{ rows_done: number }>(b.deps.db, sql`select rows_done from report_artifacts where id = ${id}`);
      seen.push(Number(row!.rows_done));
    };
    const a = await make(priya, { template: 'bets_by_match', format: 'xlsx', filters: { from: '2026-09-01', to: TO } });
    expect(a.rowsTotal).toBeGreaterThan(1_000);
    expect(a.rowsDone).toBe(a.rowsTotal);
    expect(seen[0]).toBe(0);
    // Written along the way (every ~1,000 rows), not only at the end.
    expect(seen.some((n) => n > 0 && n < a.rowsTotal)).toBe(true);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
  });

  it('prunes only expired artifacts, by the wall clock', async () => {
    const real = b.clock.real;
    const caller = await resolveSession(b.deps, priyaToken);
    try {
      const old = await generateReport(b.deps, caller, { template: 'per_player_pnl', format: 'xlsx', filters: { from: FROM, to: TO } });
      await reportJobsSettled(b.deps);
      b.clock.real = new Date(real.getTime() + 20 * 86_400_000);
      const recent = await generateReport(b.deps, caller, { template: 'per_player_pnl', format: 'xlsx', filters: { from: FROM, to: TO } });
      await reportJobsSettled(b.deps);
      // Kept until is said on the business clock the report was made by; pruning goes by the wall clock.
      expect(old.expiresAt).toBe(new Date(Date.parse(old.createdAt) + 30 * 86_400_000).toISOString());
      await expect(pruneReports(b.deps)).resolves.toMatchObject({ deleted: 0 });
      b.clock.real = new Date(real.getTime() + 31 * 86_400_000);
      const pruned = await pruneReports(b.deps);
      expect(pruned.deleted).toBeGreaterThanOrEqual(1);
      const left = await queryRows<{ id: string }>(b.deps.db, sql`select id from report_artifacts where id in (${old.artifactId}, ${recent.artifactId})`);
      expect(left.map((r) => r.id)).toEqual([recent.artifactId]);
    } finally {
      b.clock.real = real;
    }
  });

  it('shares through preview and confirm: idempotent, audited, visible to the recipient, gone with the report', async () => {
    const a = await make(priya, { template: 'per_player_pnl', format: 'xlsx', filters: { from: FROM, to: TO } });
    const input = { artifactId: a.artifactId, recipient: ids.arjun! };
    const preview = await priya.reports.sharePreview.query(input);
    expect(preview).toEqual({ artifactId: a.artifactId, title: a.title, recipientId: ids.arjun, recipientName: 'Arjun Mehta', alreadyShared: false, refusal: null });
    // Someone outside the downline: refused, and their name not given away.
    const outside = await priya.reports.sharePreview.query({ artifactId: a.artifactId, recipient: ids.meera! });
    expect(outside.refusal).toMatch(/yourself or someone in your downline/);
    expect(outside.recipientName).toBe('');
    await expect(priya.reports.share.mutate({ artifactId: a.artifactId, recipient: ids.meera!, idempotencyKey: randomUUID() }))
      .rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    // Arjun cannot see it yet.
    await expect(arjun.reports.get.query({ artifactId: a.artifactId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });

    const key = randomUUID();
    const shared = await priya.reports.share.mutate({ ...input, idempotencyKey: key });
    expect(shared).toMatchObject({ ok: true, artifactId: a.artifactId, recipientId: ids.arjun, recipientName: 'Arjun Mehta', replayed: false, noOp: false });
    expect(shared.anchor).not.toBeNull();
    const replay = await priya.reports.share.mutate({ ...input, idempotencyKey: key });
    expect(replay).toEqual({ ...shared, replayed: true });
    const audit = await queryRows<{ action: string; target_id: string }>(b.deps.db, sql`
      select action, target_id from audit_log where actor_id = ${ids.priya} and idempotency_key = ${key}`);
    expect(audit).toEqual([{ action: 'reports.share', target_id: a.artifactId }]);
    await expect(priya.reports.sharePreview.query(input)).resolves.toMatchObject({ alreadyShared: true, refusal: null });

    const listed = (await arjun.reports.list.query({})).reports.find((r) => r.artifactId === a.artifactId);
    expect(listed).toMatchObject({ owner: { id: ids.priya, name: 'Priya Nair' }, sharedBy: { id: ids.priya, name: 'Priya Nair', at: shared.sharedAt } });
    expect(listed!.link!.parts.userId).toBe(ids.arjun);
    expect((await download(listed!.link!, arjunToken)).status).toBe(200);
    // Priya's own link is hers, not Arjun's.
    expect((await download(a.link!, arjunToken)).status).toBe(403);
    // A recipient neither reshares nor deletes.
    await expect(arjun.reports.sharePreview.query({ artifactId: a.artifactId, recipient: 'self' })).resolves.toMatchObject({ refusal: "only the report's owner can share it" });
    await expect(arjun.reports.delete.mutate({ artifactId: a.artifactId })).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });

    await priya.reports.delete.mutate({ artifactId: a.artifactId });
    const shares = await queryRows(b.deps.db, sql`select 1 from report_shares where artifact_id = ${a.artifactId}`);
    expect(shares).toHaveLength(0);
    expect((await arjun.reports.list.query({})).reports.some((r) => r.artifactId === a.artifactId)).toBe(false);
  });
});
