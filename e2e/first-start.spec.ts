import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { browserShellUrl } from '../scripts/lib/processes.js';
import { AGENT, expect, test } from './fixtures.js';

const WEB_ENTRY = resolve('out/main/web.js');

const SNAPSHOTS = resolve('out/demo-book');

/** The environment a started shell gets: this one's, less a developer's own key and clock. */
function shellEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'ANTHROPIC_API_KEY' && key !== 'CLOCK') env[key] = value;
  return { ...env, WEB_PORT: '0', PGLITE_DIR: join(dataDir, 'pglite'), DESK_DATA_DIR: dataDir, BACKEND_URL: '', LOG_LEVEL: 'info', ...extra };
}

/**
 * The browser shell as `npm start` runs it (its bundle), on an empty data folder: a first start
 * restores the demo book the build wrote (src/server/seed/snapshot.ts), and a sign-in made as soon
 * as the login page shows goes through once the book is open. Without a snapshot the login page
 * shows the book being written, step by step from the seeding code.
 */
test.describe('first start', () => {
  test.skip(({ target }) => target !== 'browser-shell', "the progress is the browser shell's login page; the desktop app opens its window once the book is open");

  let child: ChildProcess | null = null;
  let dataDir = '';
  test.afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('a first start restores the demo book and signs in within the restart\'s time plus 50%', async ({ shellBrowser }) => {
    // Four starts; each a few seconds on a quiet machine, up to a minute on a loaded one.
    test.setTimeout(480_000);
    if (!existsSync(WEB_ENTRY)) throw new Error('out/main is not built: run `npm run test:e2e`');
    if (!existsSync(SNAPSHOTS)) throw new Error('out/demo-book is not built: run `npm run build`');
    dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-first-start-'));

    /** Spawn → the login page → credentials in at once → Sign in → the dashboard's figures, in ms. */
    const startAndSignIn = async (folder: string): Promise<{ ms: number; restored: boolean }> => {
      const started = performance.now();
      child = spawn(process.execPath, [WEB_ENTRY], { env: shellEnv(folder), stdio: ['ignore', 'pipe', 'inherit'] });
      let log = '';
      child.stdout!.on('data', (chunk: Buffer) => { log += chunk.toString(); });
      const url = await browserShellUrl(child, 'the browser shell');
      const context = await shellBrowser!.newContext({ baseURL: url });
      const page = await context.newPage();
      await page.goto('/');
      await page.getByLabel('Username').fill(AGENT.username);
      await page.getByLabel('Password').fill(AGENT.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.locator('.tile .tile-value').first()).toBeVisible({ timeout: 240_000 });
      const ms = performance.now() - started;
      await expect(page.getByRole('alert')).toHaveCount(0);
      await context.close();
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
      return { ms, restored: log.includes('"msg":"demo book restored from its snapshot"') };
    };

    // Two pairs, each a first start on a new folder and a restart on the same folder, side by side.
    const firsts: number[] = [];
    const restarts: number[] = [];
    for (const round of ['a', 'b']) {
      const folder = join(dataDir, round);
      const first = await startAndSignIn(folder);
      expect(first.restored, 'the first start restored the build\'s snapshot').toBe(true);
      firsts.push(first.ms);
      const again = await startAndSignIn(folder);
      expect(again.restored).toBe(false);
      restarts.push(again.ms);
    }
    // The bound is the target itself (a first start within a restart plus 50%). What keeps it from
    // flaking on a machine others load: the load only ever adds time to a start, so the quickest of
    // each kind is the nearest to its own cost, and the pairs run side by side, so a busy minute
    // weighs on both. Measured with load average 15–20 on 2 cores: 1.29–1.34x on the medians of
    // bench/startup.ts; the extra work of a first start (copying a 110 MB folder) is a fifth of
    // the CPU a restart's book open takes.
    const ratio = Math.min(...firsts) / Math.min(...restarts);
    test.info().annotations.push({ type: 'first start / restart', description: `${ratio.toFixed(2)}x (${firsts.map((x) => x.toFixed(0)).join(', ')} ms / ${restarts.map((x) => x.toFixed(0)).join(', ')} ms)` });
    expect(ratio).toBeLessThanOrEqual(1.5);
  });

  test('without a snapshot, the login page shows the demo book being created, and signing in meanwhile waits for it', async ({ shellBrowser }) => {
    // The default demo book written: seconds on a quiet machine, a minute or more on a loaded one.
    test.setTimeout(300_000);
    if (!existsSync(WEB_ENTRY)) throw new Error('out/main is not built: run `npm run test:e2e`');
    dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-first-start-'));
    // An empty snapshot folder: the book is generated and written, as on a build that made none.
    child = spawn(process.execPath, [WEB_ENTRY], {
      env: shellEnv(dataDir, { LOG_LEVEL: 'warn', DEMO_BOOK_DIR: join(dataDir, 'no-snapshots') }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await browserShellUrl(child, 'the browser shell');

    const page = await (await shellBrowser!.newContext({ baseURL: url })).newPage();
    await page.goto('/');
    const status = page.getByRole('status').filter({ hasText: 'Creating the demo book' });
    await expect(status).toBeVisible({ timeout: 60_000 });
    const progress = status.getByRole('progressbar');

    // Sample the bar until the writing step: real steps from the seeding code, in order, the share only growing.
    const seen: Array<{ text: string; value: number }> = [];
    while (!seen.some((s) => /writing the bets and the ledger/.test(s.text))) {
      const sample = await status.evaluate((node) => ({ text: node.textContent ?? '', value: Number(node.querySelector('progress')?.value ?? NaN) }));
      expect(sample.text).toMatch(/^Creating the demo book \(first start\): (preparing the database|generating players, markets and bets|writing the bets and the ledger|indexing)… \d+%/);
      if (seen.at(-1)?.text !== sample.text) seen.push(sample);
      await page.waitForTimeout(100);
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.value).toBeGreaterThanOrEqual(seen[i - 1]!.value);
    expect(seen.length).toBeGreaterThan(1);
    await expect(progress).toHaveAttribute('value', /^\d+$/);

    // Signing in while the book is still being written: the button waits, then the dashboard opens with figures.
    await page.getByLabel('Username').fill(AGENT.username);
    await page.getByLabel('Password').fill(AGENT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('.tile .tile-value').first()).toBeVisible({ timeout: 240_000 });
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.context().close();
  });
});
