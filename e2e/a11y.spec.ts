import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ask } from './assistant.js';
import { expect, test } from './fixtures.js';

/**
 * Every page of the panel with the assistant open beside it, and an answer with a card in the
 * conversation: axe (WCAG 2.x A and AA, and its best practices) finds nothing serious or critical.
 */
const PAGES: Array<{ nav: string | null; path: string; heading: RegExp }> = [
  { nav: 'Dashboard', path: '/agent/dashboard', heading: /^Dashboard$/ },
  { nav: 'Downline', path: '/agent/downline', heading: /^Downline$/ },
  { nav: 'Bets', path: '/agent/bets', heading: /^Bets$/ },
  { nav: 'Exposure', path: '/agent/exposure', heading: /exposure/i },
  { nav: 'PnL', path: '/agent/pnl', heading: /Profit and loss|PnL/ },
  { nav: 'Settlements', path: '/agent/settlements', heading: /^Settlements$/ },
  { nav: 'Statement', path: '/agent/statement', heading: /^Statement$/ },
  { nav: 'Reports', path: '/agent/reports', heading: /^Reports$/ },
  { nav: 'Approvals', path: '/agent/approvals', heading: /^Approvals$/ },
  { nav: 'Audit', path: '/agent/audit', heading: /^Audit/ },
  { nav: 'Settings', path: '/agent/settings', heading: /^Settings$/ },
  { nav: null, path: 'player', heading: /.+/ },
];

/** Serious and critical violations, each with the rule, what it says and where, for a readable failure. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${v.help} — ${n.target.join(' ')}`));
}

test.describe('accessibility with the assistant open', () => {
  // Sign-in, a page, an answer with its card and axe over all of it: 18-30 s each on a busy two-core
  // machine, against the default 30 s a test. A hang still fails, at three times that.
  test.describe.configure({ timeout: 90_000 });
  for (const p of PAGES) {
    test(`${p.nav ?? 'Player'}: no serious or critical axe violations`, async ({ page, app }) => {
      await app.open();
      await app.signIn();
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      if (p.nav) {
        await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: p.nav, exact: true }).click();
      } else {
        await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Downline', exact: true }).click();
        await page.getByTestId('downline-player-link').first().click();
      }
      await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);
      const answer = await ask(page, 'who owes me money');
      await expect(answer.getByTestId('card-take_table')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test('the conversation list: no serious or critical axe violations; the bell is drawn, not an emoji', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    // An emoji needs a colour-emoji font, and without one it shows as an empty box.
    const bell = page.locator('.bell-button');
    await expect(bell.locator('svg')).toBeVisible();
    expect(await bell.textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
    await ask(page, 'show my downline');
    await page.getByTestId('chat-conversations').click();
    await expect(page.getByTestId('chat-list')).toHaveAttribute('data-state', 'ready');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
