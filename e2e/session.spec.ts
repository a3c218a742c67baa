import { expect, test } from './fixtures.js';

test.describe('session', () => {
  test('a session ended at the backend brings back the login page with the reason', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

    // Behind the UI's back: the backend session main holds for this page is signed out there.
    await app.endSessionBehindTheUi();
    if (app.target === 'browser-shell') await page.reload();
    else await page.evaluate(() => window.location.reload());

    await expect(page.getByRole('alert')).toHaveText('Your session has ended. Sign in again.');
    await expect(page.getByLabel('Username')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Panel' })).toHaveCount(0);
    await app.screenshot('session-ended');

    // Signing in again works, in the same slot.
    await app.signIn();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });
});
