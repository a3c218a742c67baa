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

  test('a run of wrong passwords is throttled, and the page says how long to wait', async ({ page, app }) => {
    await app.open();
    const alert = page.getByRole('alert');
    // An account name of this test's own. The waits grow from the sixth failure and the account
    // is locked out at the tenth, so the eleventh try is refused however slow the machine.
    for (let i = 1; i <= 11; i++) {
      await app.signIn(`intruder-${test.info().workerIndex}`, `guess-${i}`);
      await expect(alert).toHaveText(/invalid username or password|too many failed sign-ins/);
      if (/too many/.test(await alert.innerText())) break;
    }
    await expect(alert).toHaveText(/^too many failed sign-ins for this account: try again in \d+ s$/);
    await expect(page.getByRole('navigation', { name: 'Panel' })).toHaveCount(0);
  });

  test('the code signing in needs comes while the login page waits: Sign in fetches no script', async ({ page, app, target }) => {
    test.skip(target !== 'browser-shell', 'counted from the page\'s first load, which the Electron window has done before the test');
    const fetchedAhead = Promise.all([page.waitForRequest(/\/Dashboard-[^/]*\.js$/), page.waitForRequest(/\/ChatPanel-[^/]*\.js$/)]);
    await app.open();
    await fetchedAhead;
    // The rest of what the page fetches ahead (the cards' chunks) follows those two: counted from
    // before it is in, a slow machine would see it arrive after Sign in.
    await page.waitForLoadState('networkidle');
    const scripts: string[] = [];
    page.on('request', (request) => { if (request.resourceType() === 'script') scripts.push(request.url()); });
    await app.signIn();
    await expect(page.getByTestId('tile-downline-take')).toBeVisible();
    await expect(page.getByTestId('chat-open')).toBeVisible();
    expect(scripts).toEqual([]);
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
