/**
 * Report writers benchmark: our xlsx writer on 100,000 bets_by_match rows
 * beside bare exceljs (stream.xlsx.WorkbookWriter) writing the same rows with the same columns
 * and number formats, and our pdf writer on 10,000 rows beside bare pdfkit writing them as a
 * plain table; then one real `reports.generate` of each format end to end on a demo book of
 * --e2e-bets bets, each beside the bare library writing as many rows in a child process: the
 * whole report (its rows read from the book, the job, the read back) ≤ 1.5× the bare writer.
 *
 * Each write runs in a child process of its own, so its peak memory is its own: the child reads
 * VmRSS before writing and VmHWM (the kernel's high-water mark) after, and samples the heap every
 * 20 ms. Rounds alternate which side goes first, so the load of a shared machine falls on both;
 * the figures are medians. Targets: ours/bare ≤ 1.3× in time, ≤ 200 MB extra for 100k rows.
 * Timings live here, never in tests.
 *
 *   npm run bench            (all the benches; this one is `tsx bench/reports.ts`)
 *   tsx bench/reports.ts [--rounds 3] [--xlsx-rows 100000] [--pdf-rows 10000] [--e2e-bets 100000] [--no-e2e]
 *                        [--e2e-engines pglite,postgres]
 *
 * The end-to-end reports run on each engine: PGlite in memory (the desk's embedded book, which
 * reads its rows on the thread that writes the file) and PostgreSQL (the issue's big-book target;
 * BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, in a schema of its own
 * dropped at the end; skipped with a note when it cannot be reached).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { BETS_BY_MATCH_COLUMNS, type Line, REPORT_PAGE_ROWS } from '../src/server/services/report-rows.js';
import { openWriter } from '../src/server/services/report-writers.js';

const TARGET_RATIO = 1.3;
const TARGET_EXTRA_MB = 200;
/** A whole report, rows read from the book and all, against the bare library writing as many rows. */
const TARGET_E2E_RATIO = 1.5;
const TIMEZONE = 'Asia/Kolkata';
const E2E_USER = 'admin';
const HEADING = {
  title: 'Bets by match, 1 Aug 2026 – 20 Nov 2026, Priya Nair', sheetName: 'Bets by match',
  subtitle: 'Generated 20 Nov 2026, 12:00 (Asia/Kolkata)', legend: 'Result is the player\'s: a positive amount is their winnings, the book\'s loss.', timezone: TIMEZONE,
};

type CaseName = 'xlsx-ours' | 'xlsx-bare' | 'pdf-ours' | 'pdf-bare';
interface CaseResult { case: CaseName; rows: number; ms: number; bytes: number; baseRssMb: number; peakRssMb: number; extraRssMb: number; peakHeapMb: number }

const { values: flags } = parseArgs({
  options: {
    case: { type: 'string' }, rows: { type: 'string' },
    rounds: { type: 'string', default: '3' }, 'xlsx-rows': { type: 'string', default: '100000' }, 'pdf-rows': { type: 'string', default: '10000' },
    'no-e2e': { type: 'boolean', default: false },
    'e2e-bets': { type: 'string', default: '100000' },
    'e2e-engines': { type: 'string', default: 'pglite,postgres' },
  },
  // Last in `npm run bench`'s chain, so `npm run bench -- <flags>` lands here: others' flags are ignored.
  strict: false,
  allowPositionals: true,
});

// ── rows: the bets_by_match shape, made up, deterministic ────────────────────────────────────
const PLAYERS = ['Rahul Sharma', 'Anita Desai', 'Karan Malhotra', 'Sneha Iyer', 'Mohammed Irfan', 'Deepak Kulkarni', 'Zoë Ñúñez', "Sam O'Brien"];
const MARKETS = ['Match Odds', 'Innings Runs 1st', 'Top Batsman', 'Over/Under 320.5'];
const SELECTIONS = ['India', 'Australia', 'Over', 'Under', 'Virat Kohli', 'The Draw'];
const STATUSES = ['won', 'lost', 'open', 'void'];
const BETS_PER_MATCH = 400;

/** Lines in batches of about a page, as openRowSource's batches() yields them: a group per match, its subtotal, a total. */
function* lines(rows: number): Generator<Line[]> {
  const start = Date.parse('2026-08-01T04:00:00Z');
  let stake = 0;
  let batch: Line[] = [];
  for (let i = 0; i < rows; i++) {
    if (i % BETS_PER_MATCH === 0) batch.push({ type: 'group', label: `India vs Australia ${i / BETS_PER_MATCH + 1} (20 Nov 2026)` });
    const status = STATUSES[i % 4]!;
    const s = 10_000 + ((i * 7919) % 500_000);
    stake += s;
    batch.push({
      type: 'row',
      cells: [new Date(start + i * 61_000).toISOString(), PLAYERS[i % PLAYERS.length]!, MARKETS[i % MARKETS.length]!, SELECTIONS[i % SELECTIONS.length]!,
        i % 3 === 0 ? 'lay' : 'back', s, 150 + (i % 400), status, status === 'open' ? null : status === 'won' ? s : -s],
    });
    if ((i + 1) % BETS_PER_MATCH === 0 || i === rows - 1) {
      batch.push({ type: 'subtotal', cells: ['Match total', null, null, null, null, stake, null, null, 0] });
    }
    if (batch.length >= REPORT_PAGE_ROWS) {
      yield batch;
      batch = [];
    }
  }
  batch.push({ type: 'total', cells: [`Total, ${rows} bets`, null, null, null, null, stake, null, null, 0] });
  yield batch;
}

// ── the bare writers: the library used plainly, no wall clock, no styling of totals ─────────
const columns = BETS_BY_MATCH_COLUMNS;
const NUM_FMT: Partial<Record<string, string>> = { points: '#,##0.00', odds: '0.00', count: '#,##0', datetime: 'd mmm yyyy hh:mm' };

function bareXlsx(path: string) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(HEADING.sheetName, { views: [{ state: 'frozen', xSplit: 0, ySplit: 3 }] });
  sheet.columns = columns.map((c, i) => ({ key: `c${i}`, width: c.width }));
  sheet.addRow([HEADING.title]).commit();
  sheet.addRow([HEADING.subtitle]).commit();
  sheet.addRow(columns.map((c) => c.header)).commit();
  return {
    write(batch: Line[]) {
      for (const line of batch) {
        if (line.type === 'group') {
          sheet.addRow([line.label]).commit();
          continue;
        }
        const row = sheet.addRow(line.cells.map((v, i) => {
          if (v === null) return null;
          const kind = columns[i]!.kind;
          if (typeof v === 'string') return kind === 'datetime' && v.includes('T') ? new Date(v) : v;
          if (typeof v === 'object') return v.paisa / 100;
          return kind === 'points' || kind === 'odds' ? v / 100 : v;
        }));
        line.cells.forEach((v, i) => {
          const fmt = NUM_FMT[columns[i]!.kind];
          if (fmt && v !== null && (typeof v === 'number' || columns[i]!.kind === 'datetime')) row.getCell(i + 1).numFmt = fmt;
        });
        row.commit();
      }
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
      return (await stat(path)).size;
    },
  };
}

function barePdf(path: string) {
  const MARGIN = 36;
  const ROW = 14;
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN });
  const out = createWriteStream(path);
  doc.pipe(out);
  const finished = once(out, 'finish');
  const usable = doc.page.width - 2 * MARGIN;
  const total = columns.reduce((s, c) => s + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * usable);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((s, w) => s + w, 0));
  let y = MARGIN;
  const cell = (text: string, i: number) => doc.text(text, xs[i]! + 2, y + 3, {
    width: widths[i]! - 4, lineBreak: false, align: columns[i]!.kind === 'text' || columns[i]!.kind === 'datetime' ? 'left' : 'right',
  });
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(8);
    columns.forEach((c, i) => cell(c.header, i));
    doc.font('Helvetica');
    y += ROW;
  };
  doc.font('Helvetica-Bold').fontSize(14).text(HEADING.title, MARGIN, y);
  y = doc.y + 8;
  header();
  return {
    write(batch: Line[]) {
      for (const line of batch) {
        if (y + ROW > doc.page.height - MARGIN - 24) {
          doc.addPage();
          y = MARGIN;
          header();
        }
        if (line.type === 'group') cell(line.label, 0);
        else {
          line.cells.forEach((v, i) => {
            const kind = columns[i]!.kind;
            cell(v === null ? '' : typeof v === 'string' ? (kind === 'datetime' ? v.slice(0, 16).replace('T', ' ') : v)
              : typeof v === 'object' ? v.words : kind === 'points' || kind === 'odds' ? (v / 100).toFixed(2) : String(v), i);
          });
        }
        y += ROW;
      }
    },
    async finish() {
      doc.end();
      await finished;
      return (await stat(path)).size;
    },
  };
}

// ── one case, in this (child) process ────────────────────────────────────────────────────────
function statusMb(field: 'VmRSS' | 'VmHWM', status: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

async function runCase(name: CaseName, rows: number): Promise<CaseResult> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-desk-bench-report-'));
  try {
    const path = join(dir, name.startsWith('xlsx') ? 'r.xlsx' : 'r.pdf');
    const baseRssMb = statusMb('VmRSS', await readFile('/proc/self/status', 'utf8'));
    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => { peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed); }, 20);
    const started = performance.now();
    const writer = name === 'xlsx-ours' ? await openWriter('xlsx', path, HEADING, columns)
      : name === 'pdf-ours' ? await openWriter('pdf', path, HEADING, columns)
        : name === 'xlsx-bare' ? bareXlsx(path) : barePdf(path);
    for (const batch of lines(rows)) {
      writer.write(batch);
      // As the report job does: the file stream drains (and the sampler runs) between batches.
      await yieldToEventLoop();
    }
    const bytes = await writer.finish();
    const ms = performance.now() - started;
    clearInterval(sampler);
    const peakRssMb = statusMb('VmHWM', await readFile('/proc/self/status', 'utf8'));
    return { case: name, rows, ms, bytes, baseRssMb, peakRssMb, extraRssMb: peakRssMb - baseRssMb, peakHeapMb: peakHeap / 1024 / 1024 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (flags.case) {
  const result = await runCase(String(flags.case) as CaseName, Number(flags.rows));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

// ── the parent: rounds of child processes, then the end-to-end run ───────────────────────────
const self = fileURLToPath(import.meta.url);
const run = promisify(execFile);
async function inChild(name: CaseName, rows: number): Promise<CaseResult> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', self, '--case', name, '--rows', String(rows)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as CaseResult;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const rounds = Number(flags.rounds);
const xlsxRows = Number(flags['xlsx-rows']);
const pdfRows = Number(flags['pdf-rows']);
console.log(`Report writers: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, load average ${load()} at start`);
console.log(`${rounds} rounds, each case in a child process of its own, order alternating; medians below`);

const results: Record<CaseName, CaseResult[]> = { 'xlsx-ours': [], 'xlsx-bare': [], 'pdf-ours': [], 'pdf-bare': [] };
for (let r = 0; r < rounds; r++) {
  const pairs: Array<[CaseName, CaseName, number]> = [['xlsx-ours', 'xlsx-bare', xlsxRows], ['pdf-ours', 'pdf-bare', pdfRows]];
  for (const [ours, bare, rows] of pairs) {
    for (const name of r % 2 === 0 ? [ours, bare] : [bare, ours]) {
      const res = await inChild(name, rows);
      results[name].push(res);
      console.log(`  round ${r + 1} ${name.padEnd(9)} ${fmt(rows)} rows in ${fmt(res.ms)} ms, +${fmt(res.extraRssMb, 1)} MB RSS (peak ${fmt(res.peakRssMb, 1)} MB), heap peak ${fmt(res.peakHeapMb, 1)} MB, load ${load()}`);
    }
  }
}

const misses: string[] = [];
console.log('');
console.log('| writer | rows | median ms | rows/s | ratio ours/bare | extra RSS (MB, median / max) | heap peak (MB) | file |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [ours, bare] of [['xlsx-ours', 'xlsx-bare'], ['pdf-ours', 'pdf-bare']] as const) {
  const oursMs = median(results[ours].map((x) => x.ms));
  const bareMs = median(results[bare].map((x) => x.ms));
  const ratio = oursMs / bareMs;
  for (const name of [ours, bare]) {
    const rs = results[name];
    const ms = median(rs.map((x) => x.ms));
    const extra = rs.map((x) => x.extraRssMb);
    console.log(`| ${name} | ${fmt(rs[0]!.rows)} | ${fmt(ms)} | ${fmt(rs[0]!.rows / (ms / 1000))} | ${name === ours ? `${ratio.toFixed(2)}×` : ''} `
      + `| ${fmt(median(extra), 1)} / ${fmt(Math.max(...extra), 1)} | ${fmt(median(rs.map((x) => x.peakHeapMb)), 1)} | ${fmt(rs[0]!.bytes / 1024 / 1024, 1)} MB |`);
  }
  if (ratio > TARGET_RATIO) misses.push(`${ours} is ${ratio.toFixed(2)}× bare (target ≤ ${TARGET_RATIO}×)`);
  const worstExtra = Math.max(...results[ours].map((x) => x.extraRssMb));
  if (worstExtra > TARGET_EXTRA_MB) misses.push(`${ours} took +${fmt(worstExtra, 1)} MB (target ≤ ${TARGET_EXTRA_MB} MB)`);
}

// ── one real report, end to end through the router, on the demo book ─────────────────────────
if (!flags['no-e2e']) {
  const { openBackend } = await import('../src/server/backend.js');
  const { reportJobsSettled } = await import('../src/server/services/reports.js');
  const { embeddedConnection } = await import('../src/main/backend/connection.js');
  const { silentLogger } = await import('../src/infra/log.js');
  const { DEFAULT_BOOK } = await import('../src/server/seed/generate.js');
  const pg = (await import('pg')).default;
  const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const engines = String(flags['e2e-engines']).split(',').map((e) => e.trim()).filter(Boolean);
  for (const engine of engines) {
    if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`--e2e-engines: unknown engine ${engine} (pglite, postgres)`);
    console.log('');
    const schema = `bench_reports_${process.pid}`;
    if (engine === 'postgres') {
      const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
      try {
        await probe.connect();
      } catch (error) {
        console.log(`End to end on postgres: skipped, cannot connect (${error instanceof Error ? error.message : String(error)})`);
        continue;
      } finally {
        await probe.end().catch(() => {});
      }
    }
    const seedStarted = performance.now();
    // The demo book's shape, scaled to the bets asked for: a 100,000-row report needs twice its bets.
    const bets = Number(flags['e2e-bets']);
    const book = { players: Math.max(DEFAULT_BOOK.players, Math.round((DEFAULT_BOOK.players * bets) / DEFAULT_BOOK.bets)), bets };
    const backend = await openBackend({
      database: engine === 'pglite' ? { engine: 'pglite' } : { engine: 'postgres', url: pgUrl, schema }, seedDemoIfEmpty: true, book,
    });
    console.log(`End to end on ${engine}: demo book (${backend.book?.players} players, ${fmt(backend.book?.bets ?? 0)} bets) written in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);
    const connection = embeddedConnection(backend, silentLogger);
    try {
      // The platform admin sees the whole book: the largest report the demo book can make.
      const token = (await connection.client(null).auth.login.mutate({ username: E2E_USER, password: `demo-${E2E_USER}` })).token;
      const client = connection.client(token);
      const to = backend.deps.now().toISOString().slice(0, 10);
      let rowsDone = 0;
      // The whole report and the bare writer on as many rows, taking turns which goes first, each
      // `--rounds` times: medians, so one slow moment of a shared machine does not decide the ratio.
      const whole = async (format: 'xlsx' | 'pdf') => {
        const started = performance.now();
        const job = await client.reports.generate.mutate({ template: 'bets_by_match', format, filters: { from: '2026-08-01', to } });
        // The job's own end, not a poll's: polling as often as a timing needs would take the
        // backend's thread from the job it measures (the desk's card asks once a second).
        await reportJobsSettled(backend.deps);
        const a = await client.reports.get.query({ artifactId: job.artifactId });
        const generated = performance.now() - started;
        if (a.status !== 'ready') throw new Error(`the ${format} report ended ${a.status}: ${a.error}`);
        let offset = 0;
        while (offset < (a.sizeBytes ?? 0)) offset += Buffer.from((await client.reports.read.query({ link: a.link!.parts, offset })).data, 'base64').length;
        return { ms: performance.now() - started, generated, rows: a.rowsDone, bytes: a.sizeBytes! };
      };
      for (const format of ['xlsx', 'pdf'] as const) {
        const ours: number[] = [];
        const bare: number[] = [];
        for (let r = 0; r < rounds; r++) {
          const first = r % 2 === 0 ? 'ours' : 'bare';
          for (const side of first === 'ours' ? ['ours', 'bare'] as const : ['bare', 'ours'] as const) {
            if (side === 'ours') {
              const w = await whole(format);
              ours.push(w.ms);
              console.log(`  round ${r + 1} reports.generate bets_by_match ${format} as ${E2E_USER}, 1 Aug – ${to}: ${fmt(w.rows)} rows, ${fmt(w.bytes / 1024, 0)} KB; `
                + `ready in ${fmt(w.generated)} ms, read back in ${fmt(w.ms - w.generated)} ms; load ${load()}`);
              rowsDone = w.rows;
            } else {
              // Round 1 starts with the whole report, which gives the bare side its row count.
              const b = await inChild(`${format}-bare`, rowsDone);
              bare.push(b.ms);
              console.log(`  round ${r + 1} bare ${format === 'xlsx' ? 'exceljs' : 'pdfkit'} on as many rows (${fmt(b.rows)}): ${fmt(b.ms)} ms; load ${load()}`);
            }
          }
        }
        const ratio = median(ours) / median(bare);
        console.log(`  ${format}: the whole report ${fmt(median(ours))} ms, the bare writer ${fmt(median(bare))} ms (medians of ${rounds}): ${ratio.toFixed(2)}× (target ≤ ${TARGET_E2E_RATIO}×)`);
        if (ratio > TARGET_E2E_RATIO) misses.push(`the ${format} report end to end on ${engine} is ${ratio.toFixed(2)}× the bare writer on its ${fmt(rowsDone)} rows (target ≤ ${TARGET_E2E_RATIO}×)`);
        rowsDone = 0;
      }
    } finally {
      await connection.close();
      if (engine === 'postgres') {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
      }
    }
  }
}

console.log('');
console.log(`load average ${load()} at the end`);
if (misses.length > 0) {
  console.log(`Targets MISSED: ${misses.join('; ')}`);
  process.exit(1);
}
console.log(`Targets met: ours/bare ≤ ${TARGET_RATIO}× for both writers, ≤ ${TARGET_EXTRA_MB} MB extra for ${fmt(xlsxRows)} xlsx rows`
  + `${flags['no-e2e'] ? '' : `, whole reports ≤ ${TARGET_E2E_RATIO}× the bare writer`}`);
process.exit(0);
