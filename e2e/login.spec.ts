import { AGENT, expect, test } from './fixtures.js';

test.describe('login', () => {
  test('a wrong password is refused with the error shown, and nothing else opens', async ({ page, app }) => {
    await app.open();
    await expect(page.getByRole('heading', { name: 'Agent Desk' })).toBeVisible();
    await app.screenshot('login');
    await app.signIn(AGENT.username, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText(/invalid username or password/);
    await expect(page.getByRole('navigation', { name: 'Panel' })).toHaveCount(0);
    await app.screenshot('login-error');
  });

  test('the right password opens the dashboard with the user\'s name', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    const me = await (await app.direct()).auth.me.query();
    await expect(page.getByRole('navigation', { name: 'Panel' })).toContainText(me.name);
    // The token stays in main: nothing the page can read holds it.
    const readable = await page.evaluate(() => JSON.stringify({ cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(readable).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });
});
