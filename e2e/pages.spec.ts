import { expect, test } from './fixtures.js';

/**
 * The panel's other pages (src/renderer/src/pages/index.ts): each opens from the navigation with
 * its heading and without an error, and a player opens from the downline. Their figures are
 * checked by the page's own specs, not here.
 */
const NAV_PAGES: Array<{ nav: string; heading: RegExp; path: string }> = [
  { nav: 'Downline', heading: /^Downline$/, path: '/agent/downline' },
  { nav: 'Bets', heading: /^Bets$/, path: '/agent/bets' },
  { nav: 'Exposure', heading: /exposure/i, path: '/agent/exposure' },
  { nav: 'PnL', heading: /Profit and loss|PnL/, path: '/agent/pnl' },
  { nav: 'Settlements', heading: /^Settlements$/, path: '/agent/settlements' },
  { nav: 'Statement', heading: /^Statement$/, path: '/agent/statement' },
];

test.describe('pages', () => {
  for (const p of NAV_PAGES) {
    test(`${p.nav} opens from the navigation with its heading and no error`, async ({ page, app }) => {
      await app.open();
      await app.signIn();
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      const link = page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: p.nav, exact: true });
      await link.click();
      await expect(link).toHaveAttribute('aria-current', 'page');
      expect(new URL(page.url()).pathname).toBe(p.path);
      await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);
      await app.screenshot(`page-${p.nav.toLowerCase()}`);
      await expect(page.locator('main.content .state.error, main.content [role="alert"]')).toHaveCount(0, { timeout: 2_000 });
      expect(app.outsideRequests).toEqual([]);
    });
  }

  test('a player of the downline opens on the player page', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Downline', exact: true }).click();
    const player = page.getByTestId('downline-player-link').first();
    await expect(player).toBeVisible();
    const name = (await player.textContent())!.trim();
    await player.click();
    await expect(page).toHaveURL(/\/agent\/players\/[0-9a-f-]{36}/);
    await expect(page.getByTestId('player-name')).toHaveText(name);
    await expect(page.locator('main.content .state.error, main.content [role="alert"]')).toHaveCount(0);
    await app.screenshot('page-player');
  });
});
