// `npm run report` (scripts/report.ts) as a user runs it: a child process on a PGlite folder
// holding the test book, its file read back and checked against getPnL for the same filters.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/infra/log.js';
import { type BackendClient, embeddedConnection } from '../../src/main/backend/connection.js';
import type { Backend } from '../../src/server/backend.js';
import { copyTestBook, openTestBookBackend } from '../helpers/backend.js';

const root = new URL('../..', import.meta.url).pathname;
const FROM = '2026-10-01';
const TO = '2026-11-20';

interface Run { code: number | null; stdout: string; stderr: string }

describe('npm run report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-report-cli-'));
  const pgliteDir = join(dir, 'pglite');
  const outDir = join(dir, 'out');
  let backend: Backend;
  let priya: BackendClient;

  function report(args: string[]): Promise<Run> {
    // DATABASE_URL blank: the script must take the PGlite folder, never a server a CI job set.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/report.ts', ...args], {
      cwd: root, env: { ...process.env, PGLITE_DIR: pgliteDir, DATABASE_URL: '', CLOCK: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  }

  beforeAll(async () => {
    // The global setup's test book, unpacked into a folder as the script opens one.
    copyTestBook(pgliteDir);
    backend = await openTestBookBackend();
    const connection = embeddedConnection(backend, silentLogger);
    const token = (await connection.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' })).token;
    priya = connection.client(token);
  });
  afterAll(async () => {
    await backend?.database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function sheetOf(path: string): Promise<ExcelJS.Worksheet> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    return workbook.worksheets[0]!;
  }

  /** Rows below the header (row 4, under the title, subtitle and legend) as arrays of cell values, column A first. */
  function body(sheet: ExcelJS.Worksheet): ExcelJS.CellValue[][] {
    const rows: ExcelJS.CellValue[][] = [];
    sheet.eachRow((row, n) => { if (n > 4) rows.push((row.values as ExcelJS.CellValue[]).slice(1)); });
    return rows;
  }

  it.each([
    { name: 'the whole downline', extra: [] as string[], player: null as string | null },
    { name: 'one player named', extra: ['--player', 'rahul sharma'], player: 'rahul.sharma' },
  ])('writes per_player_pnl as xlsx for $name, its totals getPnL\'s for the same filters', async ({ extra, player }) => {
    const out = join(outDir, `pnl-${player ?? 'all'}.xlsx`);
    const run = await report(['--user', 'priya', '--template', 'per_player_pnl', '--format', 'xlsx', '--from', FROM, '--to', TO, '--out', out, ...extra]);
    expect(run.stderr).toMatch(/\d+ of \d+ rows/);
    expect(run.code, run.stderr).toBe(0);

    const playerId = player ? (await priya.agent.searchPlayers.query({ query: player })).players.find((p) => p.username === player)!.id : undefined;
    const pnl = await priya.agent.getPnL.query({ from: FROM, to: TO, limit: 500, ...(playerId && { playerId }) });
    expect(pnl.nextCursor).toBeNull();
    expect(pnl.rows.length).toBeGreaterThan(0);
    expect(run.stdout).toBe(`report: PnL per player, 1 Oct 2026 – 20 Nov 2026, Priya Nair — ${pnl.rows.length} rows, ${run.stdout.match(/rows, (.+) →/)![1]} → ${out}\n`);

    const sheet = await sheetOf(out);
    expect(sheet.getCell('A1').value).toBe('PnL per player, 1 Oct 2026 – 20 Nov 2026, Priya Nair');
    const rows = body(sheet);
    const data = rows.filter((r) => r[0] !== 'Total' && r[0] !== 'Your share');
    expect(data).toHaveLength(pnl.rows.length);
    const total = rows.find((r) => r[0] === 'Total')!;
    const t = pnl.total;
    expect(total.slice(2, 6)).toEqual([t.bets, t.pnl / 100, t.commission / 100, t.bookResult / 100]);
    // The rows add up to the total the read tool gave: nothing lost or doubled on the way.
    const sum = (i: number) => Math.round(data.reduce((s, r) => s + Number(r[i] ?? 0) * 100, 0));
    expect(sum(3)).toBe(t.pnl);
    expect(rows.some((r) => r[0] === 'Your share')).toBe(t.yourShare !== null);
    // Written in place at the end: no temp file is left beside it.
    expect(readdirSync(outDir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('refuses a template it does not know with exit 2 and the usage, before opening any book', async () => {
    const run = await report(['--user', 'priya', '--template', 'pnl', '--format', 'xlsx', '--from', FROM, '--to', TO, '--out', join(outDir, 'x.xlsx')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--template: .*per_player_pnl.*bets_by_match.*settlement_log/);
    expect(run.stderr).toMatch(/usage: npm run report/);
    expect(run.stderr).not.toMatch(/opening the book/);
    expect(run.stdout).toBe('');
  });

  it('refuses a date that is no date and a range that runs backwards, each by its flag', async () => {
    const run = await report(['--user', 'priya', '--template', 'bets_by_match', '--format', 'pdf', '--from', '2026-11-31', '--to', TO, '--out', join(outDir, 'x.pdf')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--from: must be a calendar date/);
    const backwards = await report(['--user', 'priya', '--template', 'bets_by_match', '--format', 'pdf', '--from', TO, '--to', FROM, '--out', join(outDir, 'x.pdf')]);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/--from must not be after --to/);
  });

  it('refuses a user the book does not have, and a player outside the user\'s downline, writing no file', async () => {
    const out = join(outDir, 'refused.xlsx');
    const unknown = await report(['--user', 'nobody', '--template', 'per_player_pnl', '--format', 'xlsx', '--from', FROM, '--to', TO, '--out', out]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/cannot sign in as "nobody": invalid username or password/);
    // Anita is Priya's player: not below Arjun, so to him she does not exist.
    const outside = await report(['--user', 'arjun', '--template', 'per_player_pnl', '--format', 'xlsx', '--from', FROM, '--to', TO, '--out', out, '--player', 'Anita Desai']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/no player in your downline matches "Anita Desai"/);
    expect(() => readFileSync(out)).toThrow();
  });
});
