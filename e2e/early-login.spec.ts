import type { DeskServices } from '../src/main/desk/router.js';
import { DeskSessions } from '../src/main/desk/sessions.js';
import { serveBrowserShell } from '../src/main/web/server.js';
import { silentLogger } from '../src/infra/log.js';
import { RENDERER_DIR, expect, test } from './fixtures.js';

/**
 * `npm start` serves the page before the shell's runtime has loaded, and the desk cannot answer
 * until it has. The login page must not wait for it: the shell itself says the page has no
 * session (`GET /startup`), so the form is there to type into while the runtime loads.
 */
test.describe('the login page before the runtime has loaded', () => {
  test.skip(({ target }) => target !== 'browser-shell', 'the desktop app opens its window once its runtime is loaded');

  test('shows the form to type into while the desk cannot answer yet', async ({ shellBrowser }) => {
    // A runtime that never loads: every desk call waits, so only the shell's own answer can show the form.
    const services = new Promise<DeskServices>(() => {});
    const shell = await serveBrowserShell({
      sessions: new DeskSessions(), log: silentLogger, services, rendererDir: RENDERER_DIR, port: 0, startup: () => ({ phase: 'opening' }),
    });
    const context = await shellBrowser!.newContext({ baseURL: shell.url });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      await expect(page.getByRole('status')).toHaveText('Opening the book…');
      await page.getByLabel('Username').fill('priya');
      await expect(page.getByLabel('Username')).toHaveValue('priya');
    } finally {
      await context.close();
      await shell.close();
    }
  });
});
