import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/**
 * A player id that names nobody in the user's downline — malformed, unknown, or another agent's
 * player — opens a not-found page with a way back, never the validation error behind it.
 */

/** Moves the panel to `href` the way a pasted link would, on both targets (no reload). */
async function visit(page: Page, href: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, href);
}

/** What no user should ever read: a zod issue list, tRPC or transport internals, a stack. */
const RAW = /[{}[\]]|"code"|invalid_string|invalid_format|ZodError|TRPC|INTERNAL_SERVER_ERROR|BAD_REQUEST|\bat \S+ \(/;

async function expectPlayerNotFound(page: Page) {
  const notFound = page.getByTestId('not-found');
  await expect(notFound.getByRole('heading', { level: 1 })).toHaveText('No such player in your downline');
  await expect(page.getByText('Loading…')).toHaveCount(0);
  expect(await page.locator('main.content').innerText()).not.toMatch(RAW);
}

test.describe('a player that is not there', () => {
  test.beforeEach(async ({ page, app }) => {
    await app.open();
    await app.signIn();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('a malformed id, in either form of the link, gets the not-found page and a way back to the downline', async ({ page, app }) => {
    for (const href of ['/agent/players/not-a-uuid', '/agent/player?id=not-a-uuid', '/agent/players/%7B%22code%22%3A1%7D']) {
      await visit(page, href);
      await expectPlayerNotFound(page);
    }
    await page.getByTestId('not-found-back').click();
    await expect(page).toHaveURL(/\/agent\/downline$/);
    await expect(page.getByRole('heading', { level: 1, name: /^Downline$/ })).toBeVisible();
    expect(app.outsideRequests).toEqual([]);
  });

  test('a well-formed id that names nobody reads the same', async ({ page }) => {
    await visit(page, '/agent/players/00000000-0000-4000-8000-000000000000');
    await expectPlayerNotFound(page);
  });

  test('another agent\'s player reads the same as a missing one', async ({ page, app }) => {
    const mine = await app.direct();
    // A player of another agent's book: one that the signed-in agent's own client cannot see.
    let foreign: string | null = null;
    for (const [user, password] of [['meera', 'demo-meera'], ['arjun', 'demo-arjun']] as const) {
      const other = await app.direct(user, password);
      for (const row of (await other.agent.getTake.query({})).rows) {
        const visible = await mine.agent.getCreditLimit.query({ playerId: row.accountId }).then(() => true, () => false);
        if (!visible) { foreign = row.accountId; break; }
      }
      if (foreign) break;
    }
    expect(foreign, 'a player outside the signed-in agent\'s downline').not.toBeNull();
    await visit(page, `/agent/players/${foreign}`);
    await expectPlayerNotFound(page);
  });
});
