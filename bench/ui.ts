/**
 * The UI benchmark (docs/benchmarks.md, "Where the user is"): Debian's Chromium drives
 * the browser shell on the default demo book the way a user does — Enter in the chat, a card on
 * screen — and the bench reports Enter → card p50/p95 for everyday read questions and for a
 * confirmation preview, with the time split by stage from the app's own timing marks under each
 * turn's request id: the page's (`chat:sent`, `chat:start`, `chat:card` in the performance
 * timeline) and main's (`turn` log line: `epoch_ms` and `timings_ms`).
 *
 *   keydown → sent         the page, from the key to the call leaving it
 *   transport in           the WebSocket and the desk router, to the turn's start in main
 *   plan, gate, tools      main: the planner, the policy gate (name searches), the backend calls
 *   compose                main: sentences, the number guard, to the first card leaving main
 *   transport out          main → the page's store
 *   render                 the store → the card in the DOM
 *
 * Then the same question after 500 earlier turns of the same conversation, against a first turn
 * (a fresh conversation on a second desk, asked beside each probe; target within 10%), and start-up: `npm start` on a book that exists to an
 * interactive login page (≤ 2 s), and Sign in to a dashboard with data (≤ 1 s).
 *
 *   npm run bench:ui [-- --rounds N] [--long N] [--probe-turns N] [--table-only]
 *
 * `--table-only`: the warm-up, then the 1,000-row table probe alone (bench/ui-table.ts), for work
 * on the table that needs its frames measured without the minutes the other probes take.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type Page, chromium } from '@playwright/test';
import { createAgentRuntime } from '../src/main/assistant/create.js';
import { clickUntilDrawn } from './page-timing.js';
import { embeddedConnection } from '../src/main/backend/connection.js';
import { DeskAlerts } from '../src/main/desk/alerts.js';
import { DeskSessions } from '../src/main/desk/sessions.js';
import { startBrowserShell } from '../src/main/web/server.js';
import { openBackend } from '../src/server/backend.js';
import { createLogger } from '../src/infra/log.js';
import { tableCardFrames } from './ui-table.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROUNDS = flag('rounds', 3);
const LONG = flag('long', 500);
/**
 * Pairs of the same question timed after the long conversation and as a first turn. With a core
 * busy, fifteen pairs still gave 1.04x in one run and 1.30x in the next; thirty cost about three
 * seconds more.
 */
const PROBE_TURNS = flag('probe-turns', 30);
const TABLE_ONLY = args.includes('--table-only');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RENDERER_DIR = resolve('out/renderer');

/** Ten everyday read questions, in words the demo book answers. */
export const READ_QUESTIONS = [
  'show my downline',
  'pnl today',
  'exposure on India vs Australia',
  "Karan Malhotra's take",
  'commission this month',
  'top markets this week',
  'bets of Rahul Sharma',
  'my upline balance',
  'credit limit of Anita Desai',
  'settlements with Deepak Kulkarni',
] as const;
const PREVIEW_QUESTIONS = ['set CL for Karan Malhotra to 45k', 'settle Deepak Kulkarni'] as const;

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');

interface PageTiming { requestId: string; keydown: number; card: number; frame: number; sent: number | null; start: number | null; cardEvent: number | null }
interface MainTiming { start: number; card: number | null; plan: number; gate: number; tools: number }
interface Turn { text: string; enterToCard: number; enterToFrame: number; stages: Record<string, number> }

if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
  process.stdout.write('ui bench: building the renderer (electron-vite build)…\n');
  execFileSync(process.execPath, [resolve('node_modules/electron-vite/bin/electron-vite.js'), 'build'], { stdio: 'inherit' });
}

const mainTimings = new Map<string, MainTiming>();
const log = createLogger({
  level: 'info',
  write: (line) => {
    if (!line.includes('"msg":"turn"')) return;
    const entry = JSON.parse(line) as { requestId: string; epoch_ms: { start: number; card: number | null }; timings_ms: { plan: number; gate: number; tools: number } };
    mainTimings.set(entry.requestId, { ...entry.epoch_ms, ...entry.timings_ms });
  },
});

const work = mkdtempSync(join(tmpdir(), 'agent-desk-ui-bench-'));
const pgliteDir = join(work, 'desk');
process.stdout.write('ui bench: writing the default demo book (PGlite)…\n');
const backend = await openBackend({ database: { engine: 'pglite', dataDir: pgliteDir }, seedDemoIfEmpty: true });
const connection = embeddedConnection(backend, log);
const sessions = new DeskSessions();
const alerts = new DeskAlerts({ sessions, backend: connection, log });
// No per-minute turn limit here: the bench types faster than a person.
const runtime = createAgentRuntime({ dataDir: join(work, 'data'), log, turnsPerMinute: 1_000_000 });
const shell = await startBrowserShell({ backend: connection, sessions, alerts, ...runtime, log, rendererDir: RENDERER_DIR });
/**
 * A second desk beside the first, on the same book and in the same process, with its own
 * conversations: the long conversation's probe turns are timed against first turns asked here
 * between them, so a machine that gets busier or quieter meanwhile weighs on both alike.
 */
const freshSessions = new DeskSessions();
const freshAlerts = new DeskAlerts({ sessions: freshSessions, backend: connection, log });
const freshRuntime = createAgentRuntime({ dataDir: join(work, 'data-fresh'), log, turnsPerMinute: 1_000_000 });
const freshShell = await startBrowserShell({ backend: connection, sessions: freshSessions, alerts: freshAlerts, ...freshRuntime, log, rendererDir: RENDERER_DIR });

const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });

async function signIn(page: Page, url = shell.url): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Username').fill('priya');
  await page.getByLabel('Password').fill('demo-priya');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('chat-open').waitFor();
}

async function openChat(page: Page): Promise<void> {
  if (!(await page.getByTestId('chat-panel').isVisible())) await page.getByTestId('chat-open').click();
  await page.getByTestId('chat-panel').waitFor();
  await page.locator('[data-testid=chat-messages][data-history=ready]').waitFor({ state: 'attached' });
}

/*
 * What runs in the page, as source text: tsx would otherwise compile these functions with helpers
 * (`__name`) that exist only in Node.
 */
const ASK_IN_PAGE = `async (question) => {
  const input = document.querySelector('[data-testid=chat-input]');
  const list = document.querySelector('[data-testid=chat-messages]');
  const answers = () => list.querySelectorAll('[data-testid=chat-message][data-role=assistant]:not([data-pending])').length;
  const cardsBefore = list.querySelectorAll('[data-card-type]').length;
  const answersBefore = answers();
  // React's own setter, so the draft goes through its onChange as typing would.
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(input, question);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return new Promise((done) => {
    let keydown = 0;
    const seen = () => list.querySelectorAll('[data-card-type]').length > cardsBefore || answers() > answersBefore;
    const observer = new MutationObserver(() => {
      if (!seen()) return;
      const card = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => done({ keydown, card, frame: performance.now() }));
    });
    observer.observe(list, { childList: true, subtree: true });
    keydown = performance.now();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', bubbles: true, cancelable: true }));
  });
}`;

/** The turn's marks (lib: src/renderer/src/chat/store.ts, markTurn) for the last answer's request id. */
const MARKS_IN_PAGE = `() => {
  const last = [...document.querySelectorAll('[data-testid=chat-message][data-role=assistant]')].at(-1);
  const requestId = last ? last.dataset.requestId : '';
  const at = (name) => {
    const mark = performance.getEntriesByName(name).find((m) => m.detail && m.detail.requestId === requestId);
    return mark ? mark.startTime : null;
  };
  const out = { requestId, origin: performance.timeOrigin, sent: at('chat:sent'), start: at('chat:start'), cardEvent: at('chat:card') };
  performance.clearMarks();
  return out;
}`;

/** A fresh conversation, once main has forgotten the old one and the panel shows none. */
async function clearChat(page: Page): Promise<void> {
  await page.getByTestId('chat-clear').click();
  await page.locator('.chat-empty').waitFor();
}

/** One question as a user asks it: the text in the box, Enter, and the clock until its first card is on screen. */
async function ask(page: Page, text: string): Promise<PageTiming> {
  const timing = await page.evaluate<{ keydown: number; card: number; frame: number }>(`(${ASK_IN_PAGE})(${JSON.stringify(text)})`);
  // The turn ends (its `done`) before the next question, as a user reads the answer first.
  await page.locator('[data-testid=chat-message][data-pending]').waitFor({ state: 'detached' });
  await page.locator('[data-testid=chat-thinking]').waitFor({ state: 'detached' });
  const marks = await page.evaluate<{ requestId: string; origin: number; sent: number | null; start: number | null; cardEvent: number | null }>(`(${MARKS_IN_PAGE})()`);
  // The page's clock as epoch milliseconds, comparable with main's epoch_ms on the same machine.
  const epoch = (t: number | null) => (t === null ? null : marks.origin + t);
  return {
    requestId: marks.requestId, keydown: epoch(timing.keydown)!, card: epoch(timing.card)!, frame: epoch(timing.frame)!,
    sent: epoch(marks.sent), start: epoch(marks.start), cardEvent: epoch(marks.cardEvent),
  };
}

function turnOf(text: string, t: PageTiming): Turn {
  const m = mainTimings.get(t.requestId);
  const stages: Record<string, number> = {};
  if (t.sent !== null) stages['keydown → sent'] = t.sent - t.keydown;
  if (m && t.sent !== null) stages['transport in'] = m.start - t.sent;
  if (m) {
    stages.plan = m.plan;
    stages.gate = m.gate;
    stages.tools = m.tools;
    if (m.card !== null) stages.compose = Math.max(0, m.card - m.start - m.plan - m.gate - m.tools);
    if (m.card !== null && t.cardEvent !== null) stages['transport out'] = t.cardEvent - m.card;
  }
  if (t.cardEvent !== null) stages.render = t.card - t.cardEvent;
  return { text, enterToCard: t.card - t.keydown, enterToFrame: t.frame - t.keydown, stages };
}

function report(title: string, turns: Turn[], targetMs: number): boolean {
  const cards = turns.map((t) => t.enterToCard);
  const p95 = pct(cards, 0.95);
  const met = p95 < targetMs;
  const target = Number.isFinite(targetMs) ? ` (target < ${targetMs} ms: ${met ? 'met' : 'NOT met'})` : '';
  process.stdout.write(`\n${title}: ${turns.length} turns, Enter → card p50 ${f1(pct(cards, 0.5))} ms, p95 ${f1(p95)} ms${target}; to the next frame p95 ${f1(pct(turns.map((t) => t.enterToFrame), 0.95))} ms\n`);
  const names = [...new Set(turns.flatMap((t) => Object.keys(t.stages)))];
  process.stdout.write('  stage              p50 ms   p95 ms\n');
  for (const name of names) {
    const xs = turns.flatMap((t) => (name in t.stages ? [t.stages[name]!] : []));
    process.stdout.write(`  ${name.padEnd(18)} ${f1(pct(xs, 0.5)).padStart(6)}   ${f1(pct(xs, 0.95)).padStart(6)}\n`);
  }
  const slowest = [...turns].sort((a, b) => b.enterToCard - a.enterToCard).slice(0, 3);
  process.stdout.write(`  slowest: ${slowest.map((t) => `"${t.text}" ${f1(t.enterToCard)} ms`).join('; ')}\n`);
  return met;
}

const results: boolean[] = [];
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => process.stdout.write(`page error: ${error.message}\n`));
  page.on('crash', () => process.stdout.write('page crashed\n'));
  browser.on('disconnected', () => process.stdout.write('browser disconnected\n'));
  await signIn(page);
  await openChat(page);
  // Warm-up: the first of each kind pays for code loading, in the page and in main.
  for (const q of [...READ_QUESTIONS, ...PREVIEW_QUESTIONS]) await ask(page, q);
  await clearChat(page);

  const reads: Turn[] = [];
  const previews: Turn[] = [];
  for (let round = 0; round < (TABLE_ONLY ? 0 : ROUNDS); round++) {
    for (const q of READ_QUESTIONS) reads.push(turnOf(q, await ask(page, q)));
    for (const q of PREVIEW_QUESTIONS) previews.push(turnOf(q, await ask(page, q)));
  }
  if (!TABLE_ONLY) {
    results.push(report('read questions', reads, 100));
    results.push(report('confirmation previews', previews, 150));
  }

  results.push(await tableCardFrames(page));
  if (!TABLE_ONLY) await longConversation(page);
  await context.close();
} finally {
  await browser.close();
  alerts.close();
  freshAlerts.close();
  await shell.close();
  await freshShell.close();
  await connection.close();
}

async function longConversation(page: Page): Promise<void> {
  // ── a long conversation: the same question after LONG earlier turns, against a first turn ───
  // Each probe is paired with a first turn on the second desk, asked just before or just after it
  // (the order alternates): timed minutes apart, as the two ends of one conversation, the ratio
  // swung from 0.6x to 1.6x with what else the machine was doing.
  const freshContext = await browser.newContext();
  const freshPage = await freshContext.newPage();
  await signIn(freshPage, freshShell.url);
  await openChat(freshPage);
  const probe = "Karan Malhotra's take";
  // Warm-up on the second desk: its first turns pay for code loading, in the page and in main.
  for (let i = 0; i < 3; i++) await ask(freshPage, probe);
  await clearChat(page);
  for (let i = 0; i < LONG; i++) await ask(page, READ_QUESTIONS[i % READ_QUESTIONS.length]!);
  const first: Turn[] = [];
  const late: Turn[] = [];
  for (let i = 0; i < PROBE_TURNS; i++) {
    await clearChat(freshPage);
    const askFirst = async () => { first.push(turnOf(probe, await ask(freshPage, probe))); };
    const askLate = async () => { late.push(turnOf(probe, await ask(page, probe))); };
    if (i % 2 === 0) { await askFirst(); await askLate(); } else { await askLate(); await askFirst(); }
  }
  report(`long conversation, a first turn (${first.length} fresh conversations)`, first, Infinity);
  report(`long conversation, after ${LONG} earlier turns`, late, Infinity);
  const before = pct(first.map((t) => t.enterToCard), 0.5);
  const after = pct(late.map((t) => t.enterToCard), 0.5);
  // Judged by the pairs: the median of (late - first) within each pair, against the first turn's
  // median. A burst of other work on the machine lands on both turns of a pair, so it cancels
  // there, where a ratio of the two medians keeps it.
  const extra = pct(late.map((t, i) => t.enterToCard - first[i]!.enterToCard), 0.5);
  const ratio = 1 + extra / before;
  const flat = ratio <= 1.1;
  process.stdout.write(`\nlong conversation: "${probe}" p50 ${f1(before)} ms as a first turn, ${f1(after)} ms after ${LONG} earlier turns (${(after / before).toFixed(2)}x); `
    + `within the ${first.length} pairs, a late turn took ${extra >= 0 ? '+' : ''}${f1(extra)} ms at the median: ${ratio.toFixed(2)}x (target ≤ 1.10x: ${flat ? 'met' : 'NOT met'})\n`);
  results.push(flat);
  await freshContext.close();
}

// ── start-up on a book that exists: npm start → login page; Sign in → dashboard with data ──
/** Between keys of the credentials in the start-up runs: about 200 words a minute. */
const TYPING_MS = 60;
/** One `npm start` (scripts/start.mjs: Electron, or here the browser shell) to an interactive login page, then Sign in. */
async function startOnce(startupBrowser: Browser): Promise<{ loginMs: number; dashboardMs: number }> {
  let child: ChildProcess | null = null;
  try {
    const started = performance.now();
    child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, WEB_PORT: '0', PGLITE_DIR: pgliteDir, DESK_DATA_DIR: join(work, 'data'), BACKEND_URL: '', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { browserShellUrl } = await import('../scripts/lib/processes.js');
    const url = await browserShellUrl(child, 'npm start');
    const served = performance.now() - started;
    const page = await startupBrowser.newPage();
    let loaded = NaN;
    page.once('domcontentloaded', () => { loaded = performance.now() - started; });
    await page.goto(url);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const loginMs = performance.now() - started;
    // served: the shell printed its address; loaded: the page's scripts ran; login page: the desk answered it (its runtime had loaded).
    if (process.env.UI_BENCH_TRACE) process.stdout.write(`  start: served ${f1(served)} ms, page loaded ${f1(loaded)} ms, login page ${f1(loginMs)} ms\n`);
    // Typed as a fast typist types (TYPING_MS a key, 15 keys), not filled in at once: the page is
    // interactive before the shell's runtime has loaded, and a person's typing is what overlaps it.
    await page.getByLabel('Username').pressSequentially('priya', { delay: TYPING_MS });
    await page.getByLabel('Password').pressSequentially('demo-priya', { delay: TYPING_MS });
    // The dashboard with data: its tiles show figures, not their loading state.
    const dashboardMs = await clickUntilDrawn(page, page.getByRole('button', { name: 'Sign in' }), '.tile .tile-value');
    await page.close();
    return { loginMs, dashboardMs };
  } finally {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
  }
}

async function startup(): Promise<boolean> {
  const startupBrowser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    // The first start builds if the sources changed since the last build; the measured ones find it up to date.
    await startOnce(startupBrowser);
    const runs = [await startOnce(startupBrowser), await startOnce(startupBrowser), await startOnce(startupBrowser)];
    const loginMs = pct(runs.map((r) => r.loginMs), 0.5);
    const dashboardMs = pct(runs.map((r) => r.dashboardMs), 0.5);
    const ok = loginMs <= 2000 && dashboardMs <= 1000;
    process.stdout.write(`\nstart-up (a book that exists, the build up to date; median of ${runs.length}): npm start → interactive login page ${f1(loginMs)} ms (target ≤ 2000: ${loginMs <= 2000 ? 'met' : 'NOT met'}); Sign in (credentials typed at ${TYPING_MS} ms a key) → dashboard with data ${f1(dashboardMs)} ms (target ≤ 1000: ${dashboardMs <= 1000 ? 'met' : 'NOT met'})\n`);
    return ok;
  } finally {
    await startupBrowser.close();
  }
}
if (!TABLE_ONLY) results.push(await startup());

rmSync(work, { recursive: true, force: true });
const missed = results.filter((r) => !r).length;
process.stdout.write(`\nui bench: ${results.length - missed} of ${results.length} targets met\n`);
process.exitCode = missed === 0 ? 0 : 1;
