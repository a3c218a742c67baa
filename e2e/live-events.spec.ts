import type { BrowserContext } from '@playwright/test';
import pg from 'pg';
import { type BackendConnection, connectBackend } from '../src/main/backend/connection.js';
import type { DeskAlerts } from '../src/main/desk/alerts.js';
import { slotFromCookie } from '../src/main/desk/senders.js';
import type { BrowserShell } from '../src/main/web/server.js';
import { silentLogger } from '../src/infra/log.js';
import { tapEventStream } from '../scripts/lib/event-tap.js';
import { type Child, freePort, healthy, killHard as stop, runTs as run } from '../scripts/lib/processes.js';
import { expect, test } from './fixtures.js';
import { signedInPage, startOwnShell } from './own-shell.js';

/**
 * The standalone backend is killed (SIGKILL, no goodbye to its streams) and started
 * again while `npm run simulate` keeps writing events straight into PostgreSQL; every event of
 * priya's must still reach her desk exactly once. Both processes must share one PostgreSQL, as
 * PGlite takes a single writer, hence the skip without TEST_DATABASE_URL.
 */
const SERVER_URL = process.env.TEST_DATABASE_URL;

/**
 * The simulation's length and pace: enough for a few dozen of priya's events (about 2.5 a second),
 * fewer than the bell's 100, and long enough that a restart slowed by a busy machine still has
 * events written after it (at 15 s one CI run's restart came after the last of them).
 */
const SIMULATE_SECONDS = 25;
const SIMULATE_RATE = 900;
/** Markets settled a minute: simulate's default (0.3) would settle none in 25 s, and market_settled would go untested. */
const SETTLE_PER_MINUTE = 8;
/** Priya's large-bet threshold for the run (500 points): at the default 10,000 she gets next to none in a short run. */
const THRESHOLD = 50_000;
/** How long the backend stays dead: simulate goes on writing meanwhile. */
const OUTAGE_MS = 2_000;
/** Events on the wire before the kill: about a third of priya's run. */
const KILL_AFTER = 8;

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function sql<T>(connectionString: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

test.describe('live events across a backend restart', () => {
  test.skip(({ target }) => target !== 'browser-shell', 'the backend is run and killed by this process for the browser shell it serves');
  test.skip(!SERVER_URL, 'TEST_DATABASE_URL is not set: simulate and the backend must share one PostgreSQL (PGlite takes one writer)');
  test.describe.configure({ timeout: 90_000 });

  const database = `live_events_${process.pid}_${Date.now()}`;
  let backend: Child | null = null;
  let simulation: Child | null = null;
  let connection: BackendConnection | null = null;
  let alerts: DeskAlerts | null = null;
  let shell: BrowserShell | null = null;
  let context: BrowserContext | null = null;

  test.afterAll(async () => {
    await context?.close();
    alerts?.close();
    await shell?.close();
    await connection?.close();
    await Promise.all([stop(simulation), stop(backend)]);
    if (SERVER_URL) await sql(SERVER_URL, (c) => c.query(`drop database if exists ${database} with (force)`));
  });

  // Playwright reads the fixtures a hook needs from its first parameter's pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status === testInfo.expectedStatus) return;
    if (backend) await testInfo.attach('backend output', { body: backend.output.join(''), contentType: 'text/plain' });
    if (simulation) await testInfo.attach('simulate output', { body: simulation.output.join(''), contentType: 'text/plain' });
  });

  test('every event simulate writes while the backend dies and returns reaches the desk once', async ({ shellBrowser }, testInfo) => {
    await sql(SERVER_URL!, (c) => c.query(`create database ${database}`));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: databaseUrl(database), SEED_DEMO: '1', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const startBackend = async (): Promise<number> => {
      const started = performance.now();
      backend = run('src/server/main.ts', [], env);
      // The first start writes the demo book (seconds); a restart finds it there.
      await expect.poll(() => healthy(url), { timeout: 45_000, intervals: [100], message: `backend on ${url} did not answer /health` }).toBe(true);
      return performance.now() - started;
    };
    const firstStartMs = await startBackend();

    // What the backend sent on the wire, before main's feed drops anything it saw already: a
    // duplicate sent after the restart would otherwise be invisible in the bell.
    const tap = tapEventStream();
    const { onWire, resumedFrom } = tap;
    connection = await connectBackend({ mode: 'remote', url, timeoutMs: 2_000 }, silentLogger);
    // Short waits between resumes: the default backoff could outlast the test after a few refused attempts.
    const own = await startOwnShell(connection, { backoffMs: () => 250, backendFor: tap.backendFor });
    ({ alerts, shell } = own);
    const { sessions } = own;
    const signedIn = await signedInPage(shellBrowser!, own.shell);
    context = signedIn.context;
    const page = signedIn.page;

    const cookies = await signedIn.context.cookies(own.shell.url);
    const slot = slotFromCookie(cookies.map((c) => `${c.name}=${c.value}`).join('; '));
    const session = slot ? sessions.get(slot) : null;
    if (!slot || !session) throw new Error('the shell holds no session for the page');
    const listed = () => alerts!.list(slot, session.user).alerts.map((a) => a.id);

    const api = connection.client(session.token);
    await api.alerts.update.mutate({ largeBetThreshold: THRESHOLD });
    const priyaEvents = () => sql(env.DATABASE_URL, async (c) => (await c.query<{ id: string }>(
      'select id::text as id from events where recipient_id = $1 order by events.id', [session.user.id])).rows.map((r) => r.id));
    expect(await priyaEvents()).toEqual([]);

    const simulateStarted = performance.now();
    simulation = run('scripts/simulate.ts', ['--seconds', String(SIMULATE_SECONDS), '--rate', String(SIMULATE_RATE), '--settle-per-minute', String(SETTLE_PER_MINUTE), '--seed', 'live-events'], { DATABASE_URL: databaseUrl(database) });

    // Killed a third of the way in, once events flow: some reach the desk before the outage, some
    // are written during it, and the rest stream live from the restarted backend.
    await expect.poll(() => onWire.length, { timeout: 20_000, message: 'too few events reached the desk before the kill' }).toBeGreaterThanOrEqual(KILL_AFTER);
    const beforeKill = onWire.length;
    const killedAtMs = performance.now() - simulateStarted;
    await stop(backend);
    const inDbAtKill = (await priyaEvents()).length;
    // The one fixed wait: the outage itself. Then, should simulate have written none of priya's
    // meanwhile (her events come about twice a second), down until it has: that is the case under test.
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await expect.poll(async () => (await priyaEvents()).length, { timeout: 10_000, message: 'simulate wrote none of priya\'s events during the outage' }).toBeGreaterThan(inDbAtKill);
    const inDbAtRestart = (await priyaEvents()).length;
    const outageMs = performance.now() - simulateStarted - killedAtMs;
    const restartMs = await startBackend();
    const upAgain = performance.now();
    const inDbWhenUp = (await priyaEvents()).length;
    // Events committed while it was down come first after the resume.
    await expect.poll(() => onWire.length, { timeout: 20_000, message: 'nothing reached the desk after the restart' }).toBeGreaterThan(beforeKill);
    const firstAfterRestartMs = performance.now() - upAgain;

    expect(await simulation.exited, simulation.output.join('')).toBe(0);
    const simulateMs = performance.now() - simulateStarted;
    const expected = await priyaEvents();
    // Some written after the restart, so the new backend's live path (LISTEN, watermark) is under test, not only its backlog.
    expect(expected.length, 'simulate wrote none of priya\'s events after the restart').toBeGreaterThan(inDbWhenUp);
    // Past 100 the bell drops the oldest, and the comparison below would mean nothing.
    expect(expected.length).toBeLessThanOrEqual(100);

    const settleStarted = performance.now();
    await expect.poll(() => onWire.slice().sort((a, b) => Number(a) - Number(b)), { timeout: 15_000 }).toEqual(expected);
    const settleMs = performance.now() - settleStarted;
    // Exactly once on the wire, in id order: no resend across the restart, nothing skipped.
    expect(onWire).toEqual(expected);
    expect(listed()).toEqual(expected);
    await expect(page.getByTestId('bell')).toHaveAttribute('data-unread', String(expected.length));
    await page.getByTestId('bell').click();
    await expect(page.getByTestId('bell-item')).toHaveCount(expected.length);

    const kinds = await sql(env.DATABASE_URL, async (c) => (await c.query<{ kind: string; n: string }>(
      'select kind, count(*)::text as n from events where recipient_id = $1 group by kind order by kind', [session.user.id])).rows);
    const total = simulation.output.join('').trim().split('\n').filter((l) => l.startsWith('total')).join('');
    const figures = [
      `simulate: ${total}`,
      `priya's events in the table: ${expected.length} (${kinds.map((k) => `${k.kind} ${k.n}`).join(', ')}); on the wire: ${onWire.length}, distinct ${new Set(onWire).size}; in the bell: ${listed().length}`,
      `backend first start (demo book written) ${Math.round(firstStartMs)} ms; killed ${Math.round(killedAtMs)} ms into simulate after ${beforeKill} events on the wire; `
        + `down ${Math.round(outageMs)} ms + restart to /health ${Math.round(restartMs)} ms; written meanwhile: ${inDbWhenUp - inDbAtKill} of priya's (${inDbAtRestart - inDbAtKill} during the dead gap); `
        + `first event after the restart ${Math.round(firstAfterRestartMs)} ms later; ${expected.length - inDbWhenUp} written after it`,
      `streams opened from: ${resumedFrom.map((id) => id ?? 'start').join(', ')}; simulate ran ${Math.round(simulateMs)} ms; all delivered ${Math.round(settleMs)} ms after it ended`,
    ].join('\n');
    process.stdout.write(`[live-events]\n${figures}\n`);
    await testInfo.attach('figures', { body: figures, contentType: 'text/plain' });
  });
});
