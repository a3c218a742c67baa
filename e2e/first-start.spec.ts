import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { browserShellUrl } from '../scripts/lib/processes.js';
import { AGENT, expect, test } from './fixtures.js';

const WEB_ENTRY = resolve('out/main/web.js');

/**
 * The browser shell as `npm start` runs it (its bundle), on an empty data folder: the login page
 * shows the demo book being written, step by step from the seeding code, and a sign-in made
 * meanwhile goes through once the book is there.
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

  test('the login page shows the demo book being created, and signing in meanwhile waits for it', async ({ shellBrowser }) => {
    // The default demo book: seconds on a quiet machine, a minute or more on a loaded one.
    test.setTimeout(300_000);
    if (!existsSync(WEB_ENTRY)) throw new Error('out/main is not built: run `npm run test:e2e`');
    dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-first-start-'));
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'ANTHROPIC_API_KEY' && key !== 'CLOCK') env[key] = value;
    child = spawn(process.execPath, [WEB_ENTRY], {
      env: { ...env, WEB_PORT: '0', PGLITE_DIR: join(dataDir, 'pglite'), DESK_DATA_DIR: dataDir, BACKEND_URL: '', LOG_LEVEL: 'warn' },
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
