import { formatPoints } from '../src/shared/money.js';
import { takePhrase } from '../src/shared/sentences.js';
import { expect, test } from './fixtures.js';

/**
 * Each panel page shows the book's figures: every number here is fetched from the backend
 * directly (a session of the specs' own) and compared with what the page shows.
 */
test.describe('figures', () => {
  test('PnL today: your share, the book result and commission', async ({ page, app }) => {
    const direct = await app.direct();
    const { total } = await direct.agent.getPnL.query({});
    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'PnL', exact: true }).click();
    await expect(page.getByTestId('pnl-total-your-share')).toContainText(formatPoints(total.yourShare ?? 0));
    await expect(page.getByTestId('pnl-total-book-result')).toContainText(formatPoints(total.bookResult));
    await expect(page.getByTestId('pnl-total-commission')).toContainText(formatPoints(total.commission));
    await app.screenshot('figures-pnl');
  });

  test('exposure: the worst case in total', async ({ page, app }) => {
    const direct = await app.direct();
    const { total } = await direct.agent.getLiveExposure.query({});
    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Exposure', exact: true }).click();
    await expect(page.getByTestId('exposure-total')).toContainText(formatPoints(total.exposure));
    await expect(page.getByTestId('exposure-total-at-share')).toContainText(formatPoints(total.exposureAtShare));
  });

  test('a player: take and credit limit', async ({ page, app }) => {
    const direct = await app.direct();
    const [anita] = (await direct.agent.searchPlayers.query({ query: 'Anita Desai' })).players;
    const { rows } = await direct.agent.getCreditLimit.query({ playerId: anita!.id });
    await app.open();
    await app.signIn();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.evaluate((id) => { window.history.pushState(null, '', `/agent/players/${id}`); window.dispatchEvent(new PopStateEvent('popstate')); }, anita!.id);
    await expect(page.getByTestId('player-name')).toHaveText('Anita Desai');
    // The amount without a sign, its direction in words.
    await expect(page.getByTestId('player-take')).toContainText(takePhrase(rows[0]!.take));
    await expect(page.getByTestId('player-cl')).toContainText(formatPoints(rows[0]!.creditLimit));
    await app.screenshot('figures-player');
  });

  test('downline: each direct account\'s take, in words and figures', async ({ page, app }) => {
    const direct = await app.direct();
    const { rows } = await direct.agent.getTake.query({ limit: 500 });
    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Downline', exact: true }).click();
    for (const row of rows.slice(0, 8)) {
      const cell = page.locator(`[data-testid="downline-node"][data-node-id="${row.accountId}"] [data-testid="downline-take"]`);
      await expect(cell).toContainText(row.take === 0 ? 'square' : formatPoints(Math.abs(row.take)));
      await expect(cell).toContainText(row.take > 0 ? 'owes you' : row.take < 0 ? 'you owe' : 'square');
    }
  });

  test('settlements: the newest settlements, amounts as the backend has them', async ({ page, app }) => {
    const direct = await app.direct();
    const { rows } = await direct.agent.getSettlementHistory.query({ limit: 5 });
    expect(rows.length).toBeGreaterThan(0);
    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Settlements', exact: true }).click();
    const shown = page.getByTestId('settlement-row');
    for (const [i, row] of rows.entries()) {
      await expect(shown.nth(i)).toContainText(row.childName);
      await expect(shown.nth(i)).toContainText(formatPoints(Math.abs(row.amount)));
    }
  });

  test('bets: a list of more than 10,000 rows scrolls to its end, rendering only what is visible', async ({ page, app }) => {
    test.setTimeout(120_000);
    const admin = await app.direct('admin', 'demo-admin');
    const { summary } = await admin.agent.getBetHistory.query({ limit: 1 });
    expect(summary.count).toBeGreaterThan(10_000);
    await app.open();
    await app.signIn('admin', 'demo-admin');
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Bets', exact: true }).click();
    await expect(page.getByTestId('bets-summary-count')).toContainText(summary.count.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ','));
    const scroller = page.getByTestId('bets-scroll');
    const lastIndex = summary.count - 1;
    // Scroll to the end until every page is loaded and the last row is on screen.
    const started = Date.now();
    await expect(async () => {
      await scroller.evaluate((el) => { el.scrollTop = el.scrollHeight; });
      await expect(page.locator(`[data-testid="bet-row"][data-index="${lastIndex}"]`)).toBeVisible({ timeout: 200 });
    }).toPass({ intervals: [100], timeout: 100_000 });
    test.info().annotations.push({ type: 'scrolled', description: `${summary.count} rows in ${Date.now() - started} ms` });
    expect(await page.getByTestId('bet-row').count()).toBeLessThan(100);
    await app.screenshot('figures-bets-end');
  });
});
