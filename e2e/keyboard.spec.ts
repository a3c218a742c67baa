import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/** Tabs until `target` has focus (at most `max` presses); fails if it never does. */
async function tabTo(page: Page, target: Locator, max = 30): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.describe('keyboard', () => {
  test('signs in, follows a nav link and signs out with the keyboard only', async ({ page, app }) => {
    await app.open();
    // The username field has focus on arrival; Tab moves to the password, Enter submits.
    await expect(page.getByLabel('Username')).toBeFocused();
    await page.keyboard.type('priya');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password')).toBeFocused();
    await page.keyboard.type('demo-priya');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Panel' });
    const dashboardLink = nav.getByRole('link', { name: 'Dashboard' });
    await tabTo(page, dashboardLink);
    await page.keyboard.press('Enter');
    await expect(dashboardLink).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

    const signOut = nav.getByRole('button', { name: 'Sign out' });
    await tabTo(page, signOut);
    await app.screenshot('keyboard-sign-out-focused');
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Username')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
