import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { createAgentRuntime } from '../src/main/assistant/create.js';
import { type BackendConnection, connectBackend } from '../src/main/backend/connection.js';
import { DeskSessions } from '../src/main/desk/sessions.js';
import { type BrowserShell, startBrowserShell } from '../src/main/web/server.js';
import { silentLogger } from '../src/infra/log.js';
import { formatPoints } from '../src/shared/money.js';
import { ask } from './assistant.js';
import { ControlledBackend } from './controlled-backend.js';
import { AGENT, RENDERER_DIR, expect, test } from './fixtures.js';


let rig: { backend: ControlledBackend; connection: BackendConnection; shell: BrowserShell } | null = null;

test.describe('the desk while the backend is down', () => {
  test.skip(({ target }) => target !== 'browser-shell', 'staged against the browser shell');
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async () => {
    const backend = await ControlledBackend.open('degraded');
    const connection = await connectBackend({ mode: 'remote', url: backend.url, timeoutMs: 2_000 }, silentLogger);
    const runtime = createAgentRuntime({ dataDir: mkdtempSync(join(tmpdir(), 'desk-degraded-')), log: silentLogger });
    const shell = await startBrowserShell({ backend: connection, sessions: new DeskSessions(), ...runtime, log: silentLogger, rendererDir: RENDERER_DIR });
    rig = { backend, connection, shell };
  });

  test.afterAll(async () => {
    await rig?.shell.close();
    await rig?.backend.close();
    rig = null;
  });

  let context: BrowserContext | null = null;
  test.afterEach(async () => {
    await context?.close();
    context = null;
    await rig!.backend.set('up');
  });

  const banner = (page: Page) => page.getByTestId('backend-banner');
  const asOf = (page: Page) => page.locator('main.content').getByTestId('stale-as-of');
  const AS_OF = /^as of \d{2}:\d{2} \(\d+ (s|min) ago\)$/;
  const REASON = 'The backend is unreachable — this can\'t be confirmed until it\'s back.';

  test('figures stay with their age, Confirm waits with the reason, the chat answers from its cache, a reload still shows data, and all returns', async ({ shellBrowser }) => {
    // A change the backend would accept: a little above Karan's limit now.
    const { token } = await rig!.connection.client(null).auth.login.mutate({ username: AGENT.username, password: AGENT.password });
    const direct = rig!.connection.client(token);
    const [karan] = (await direct.agent.searchPlayers.query({ query: 'Karan Malhotra' })).players;
    const before = (await direct.agent.getCreditLimit.query({ playerId: karan!.id })).rows[0]!.creditLimit;

    context = await shellBrowser!.newContext({ baseURL: rig!.shell.url });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Username').fill(AGENT.username);
    await page.getByLabel('Password').fill(AGENT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const tile = page.getByTestId('tile-downline-take');
    await expect(tile).toBeVisible();
    const take = (await tile.textContent())!;
    await expect(asOf(page)).toHaveCount(0);

    // Asked while the backend answers: the read the chat will remember, and a change left pending.
    const read = await ask(page, 'What is my live exposure?');
    await expect(read.getByTestId('card-exposure_card')).toBeVisible();
    const proposal = await ask(page, `set CL for Karan Malhotra to ${formatPoints(before + 1_000)}`);
    const card = proposal.getByTestId('card-diff_card');
    await expect(card.getByTestId('proposal-state')).toHaveAttribute('data-state', 'pending');
    await expect(card.getByTestId('card-action-confirm')).toBeEnabled();
    await expect(card.getByTestId('proposal-blocked')).toHaveCount(0);
    await page.getByTestId('chat-close').click();

    await rig!.backend.set('down');
    await expect(banner(page)).toBeVisible({ timeout: 20_000 });
    // The dashboard keeps its figures, marked with when they were read.
    await expect(tile).toHaveText(take);
    await expect(asOf(page).first()).toHaveText(AS_OF);

    await page.getByTestId('chat-open').click();
    await expect(card.getByTestId('card-action-confirm')).toBeDisabled();
    await expect(card.getByTestId('proposal-blocked')).toHaveText(REASON);
    // Cancelling changes nothing at the backend: it stays possible.
    await expect(card.getByTestId('card-action-cancel')).toBeEnabled();

    const cached = await ask(page, 'What is my live exposure?');
    await expect(cached).toContainText(/The backend is unreachable; this is from \d{2}:\d{2} \(\d+ (s|min) ago\)\./);
    await expect(cached.getByTestId('card-exposure_card')).toBeVisible();
    // A change is not previewed against remembered figures.
    const refused = await ask(page, `set CL for Karan Malhotra to ${formatPoints(before + 2_000)}`);
    await expect(refused).toContainText('The backend is unreachable — this change can\'t be made until it\'s back.');
    await expect(refused.getByTestId('card-diff_card')).toHaveCount(0);

    // Back: the banner goes, the figures are fresh (no age), and Confirm works again by itself.
    await rig!.backend.set('up');
    await expect(banner(page)).toBeHidden({ timeout: 45_000 });
    await expect(card.getByTestId('card-action-confirm')).toBeEnabled();
    await expect(card.getByTestId('proposal-blocked')).toHaveCount(0);
    await page.getByTestId('chat-close').click();
    await expect(asOf(page)).toHaveCount(0);

    // A reload while down opens on the last figures of this session, marked stale.
    await rig!.backend.set('down');
    await expect(banner(page)).toBeVisible({ timeout: 20_000 });
    await page.reload();
    await expect(banner(page)).toBeVisible({ timeout: 20_000 });
    await expect(tile).toHaveText(take);
    await expect(asOf(page).first()).toHaveText(AS_OF);
    await expect(page.getByText('Waiting for the backend…')).toHaveCount(0);

    await rig!.backend.set('up');
    await expect(banner(page)).toBeHidden({ timeout: 45_000 });
    await expect(asOf(page)).toHaveCount(0);
    await expect(tile).toBeVisible();
  });
});
