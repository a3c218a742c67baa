import { formatPoints } from '../src/shared/money.js';
import { takePhrase } from '../src/shared/sentences.js';
import { expect, test } from './fixtures.js';

/**
 * The Statement page: reached from the navigation (by a name search) and from the player page,
 * its balance and newest line are the backend's take, and the kind filter keeps those lines only.
 */
test.describe('statement', () => {
  test('from the navigation: find the player, the running balance ends at the take', async ({ page, app }) => {
    const direct = await app.direct();
    const [anita] = (await direct.agent.searchPlayers.query({ query: 'Anita Desai' })).players;
    const first = await direct.agent.getStatement.query({ accountId: anita!.id, limit: 5 });
    expect(first.lines.length).toBeGreaterThan(0);
    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Statement', exact: true }).click();
    await page.getByTestId('statement-account-search').fill('Anita');
    await page.getByTestId('statement-accounts').getByRole('link', { name: 'Anita Desai' }).click();
    await expect(page.getByTestId('statement-name')).toHaveText('Statement · Anita Desai');
    // The balance without a sign, its direction in words (Anita is priya's own player).
    await expect(page.getByTestId('statement-take')).toContainText(formatPoints(Math.abs(first.account.take)));
    await expect(page.getByTestId('statement-take')).toContainText(takePhrase(first.account.take));
    const rows = page.getByTestId('statement-row');
    await expect(rows.first()).toContainText(formatPoints(first.lines[0]!.balanceAfter));
    await app.screenshot('statement-anita');
    expect(app.outsideRequests).toEqual([]);
  });

  test('from the player page, filtered to settlements', async ({ page, app }) => {
    const direct = await app.direct();
    const [deepak] = (await direct.agent.searchPlayers.query({ query: 'Deepak Kulkarni' })).players;
    const settled = await direct.agent.getStatement.query({ accountId: deepak!.id, kinds: ['settlement'] });
    await app.open();
    await app.signIn();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.evaluate((id) => { window.history.pushState(null, '', `/agent/players/${id}`); window.dispatchEvent(new PopStateEvent('popstate')); }, deepak!.id);
    await page.getByTestId('player-statement').click();
    await expect(page.getByTestId('statement-name')).toHaveText('Statement · Deepak Kulkarni');
    await page.getByTestId('statement-kind-settlement').check();
    await expect(page).toHaveURL(/kind=settlement/);
    const rows = page.getByTestId('statement-row');
    if (settled.matched === 0) await expect(page.getByTestId('statement-empty')).toBeVisible();
    else {
      await expect(rows.first()).toContainText('Settlement');
      await expect(page.getByTestId('statement-lines')).toContainText(settled.matched.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ','));
      await expect(rows.filter({ hasNotText: 'Settlement' })).toHaveCount(0);
    }
  });
});
