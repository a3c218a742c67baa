import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { type BackendConnection, embeddedConnection } from '../src/main/backend/connection.js';
import type { DeskAlerts } from '../src/main/desk/alerts.js';
import type { BrowserShell } from '../src/main/web/server.js';
import { type Backend, openBackend } from '../src/server/backend.js';
import { type Db, queryRows } from '../src/server/db/client.js';
import { emitEvents } from '../src/server/services/event-outbox.js';
import { silentLogger } from '../src/infra/log.js';
import { AGENT, BOOK_NOW, expect, test } from './fixtures.js';
import { signedInPage, startOwnShell } from './own-shell.js';

/**
 * Alerts in the browser shell: a large bet committed on the backend raises the bell's
 * count and shows a toast (no desktop alerts allowed in this browser); the toast opens the
 * player's bets; once large bets are muted in Settings, the next one is in the bell, marked
 * muted, and no toast. The shell is this spec's own, so the spec can write to its book's outbox.
 */
test.describe('alerts', () => {
  test.skip(({ target }) => target !== 'browser-shell', 'the page-side toast is the browser shell\'s; Electron notifies from main');
  test.describe.configure({ timeout: 60_000 });

  let raw: Backend | null = null;
  let connection: BackendConnection | null = null;
  let alerts: DeskAlerts | null = null;
  let shell: BrowserShell | null = null;
  let context: BrowserContext | null = null;

  test.afterEach(async () => {
    await context?.close();
    alerts?.close();
    await shell?.close();
    await connection?.close();
  });

  async function largeBet(recipientId: string, playerId: string, playerName: string): Promise<void> {
    await raw!.deps.db.transaction(async (tx) => emitEvents(tx as unknown as Db, [{
      kind: 'large_bet', recipientId,
      payload: {
        betId: randomUUID(), playerId, playerName, fixtureId: randomUUID(), fixtureName: 'India v Australia', marketName: 'Match Odds',
        outcomeName: 'India', side: 'back', stake: 2_500_000, odds: 185, liability: 2_500_000, hedge: false,
      },
    }], new Date(BOOK_NOW)));
  }

  async function bellItems(page: Page) {
    await page.getByTestId('bell').click();
    const items = page.getByTestId('bell-item');
    return items;
  }

  test('a large bet rings the bell and toasts; muted, it only rings', async ({ shellBrowser }) => {
    raw = await openBackend({ database: { engine: 'pglite' }, seedDemoIfEmpty: true, book: { seed: 'alerts-e2e', players: 8, bets: 200, days: 10 }, now: () => new Date(BOOK_NOW) });
    connection = embeddedConnection(raw, silentLogger);
    ({ alerts, shell } = await startOwnShell(connection));
    const [priya] = await queryRows<{ id: string }>(raw.deps.db, sql`select id from accounts where username = ${AGENT.username}`);
    const [player] = await queryRows<{ id: string; name: string }>(raw.deps.db, sql`select id, display_name as name from accounts where role = 'player' limit 1`);

    const signedIn = await signedInPage(shellBrowser!, shell);
    context = signedIn.context;
    const page = signedIn.page;
    const bell = page.getByTestId('bell');

    await largeBet(priya!.id, player!.id, player!.name);
    await expect(bell).toHaveAttribute('data-unread', '1');
    await expect(bell).toHaveAccessibleName('Alerts, 1 unread');
    const toast = page.getByTestId('toast');
    await expect(toast).toHaveCount(1);
    await expect(toast).toContainText(`Large bet: 25,000.00 pts by ${player!.name}`);
    await expect(page.getByTestId('toasts')).toHaveAttribute('aria-live', 'polite');
    await toast.getByRole('button', { name: /Large bet/ }).click();
    await expect(page).toHaveURL(new RegExp(`/agent/bets\\?playerId=${player!.id}$`));
    await expect(toast).toHaveCount(0);

    // The panel lists it; opening the panel reads it.
    const items = await bellItems(page);
    await expect(items).toHaveCount(1);
    await expect(bell).toHaveAttribute('data-unread', '0');
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Settings' }).click();
    const section = page.getByTestId('settings-alerts');
    // A click, not check(): the box shows the backend's answer, a moment after the click.
    await section.getByTestId('alerts-mute-toggle-large_bet').click();
    await expect(section.getByTestId('alerts-mute-state-large_bet')).toHaveText('Muted');
    await expect(section.getByTestId('alerts-mute-toggle-large_bet')).toBeChecked();

    await largeBet(priya!.id, player!.id, player!.name);
    const again = await bellItems(page);
    await expect(again).toHaveCount(2);
    await expect(again.first()).toHaveAttribute('data-muted', 'true');
    await expect(again.first().getByTestId('bell-muted')).toHaveText('Muted');
    // Give a toast every chance to appear before saying there is none.
    await page.waitForTimeout(1_000);
    await expect(page.getByTestId('toast')).toHaveCount(0);

    // A click on an item opens its page.
    await again.last().click();
    await expect(page).toHaveURL(new RegExp(`/agent/bets\\?playerId=${player!.id}$`));
  });
});
