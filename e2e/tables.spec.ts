import { formatPoints } from '../src/shared/money.js';
import { ask } from './assistant.js';
import { expect, test } from './fixtures.js';

/** Page tables search and sort; the chat panel resizes, docks beside a usable page, and opens wide cards full width. */
test.describe('tables and the chat panel', () => {
  test('Settlements: a search keeps the rows of that name, and a column header sorts', async ({ page, app }) => {
    const direct = await app.direct();
    const rows = (await direct.agent.getSettlementHistory.query({ limit: 200 })).rows;
    test.skip(rows.length < 2, 'the book has fewer than two settlements');
    const name = rows[rows.length - 1]!.childName;
    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Settlements', exact: true }).click();
    const shown = page.getByTestId('settlement-row');
    await expect(shown.first()).toBeVisible();

    await page.getByTestId('settlements-search').fill(name.toLowerCase());
    const expected = rows.filter((r) => [r.childName, r.parentName, r.createdByName].some((n) => n.toLowerCase().includes(name.toLowerCase()))).length;
    await expect(shown).toHaveCount(Math.min(expected, 50));
    for (const text of await shown.allInnerTexts()) expect(text.toLowerCase()).toContain(name.toLowerCase());
    await page.getByTestId('settlements-search').fill('');

    await page.getByTestId('sort-amount').click();
    await expect(page.locator('th[aria-sort=descending]')).toContainText('Amount');
    const amounts = rows.map((r) => Math.abs(r.amount)).sort((a, b) => b - a);
    await expect(shown.first().locator('td').nth(2)).toHaveText(formatPoints(amounts[0]!));
    await page.getByTestId('sort-amount').click();
    await expect(shown.first().locator('td').nth(2)).toHaveText(formatPoints(amounts[amounts.length - 1]!));
  });

  test('Downline: a search shows the matching accounts with the way down to them', async ({ page, app }) => {
    const direct = await app.direct();
    const [karan] = (await direct.agent.searchPlayers.query({ query: 'Karan Malhotra' })).players;
    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Downline', exact: true }).click();
    const nodes = page.getByTestId('downline-node');
    await expect(nodes.first()).toBeVisible();
    const before = await nodes.count();
    await page.getByTestId('downline-search').fill('karan malh');
    await expect(page.locator(`[data-node-id="${karan!.id}"]`)).toBeVisible();
    expect(await nodes.count()).toBeLessThan(before);
    await expect(page.getByTestId('downline-search-count')).toHaveText(/^1 of \d+$/);
    await page.getByTestId('downline-search').fill('');
    await expect(nodes).toHaveCount(before);
  });

  test('the chat panel resizes from the keyboard, remembers it, keeps the page usable when docked, and opens a wide card full width', async ({ page, app }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await app.open();
    await app.signIn();
    const answer = await ask(page, 'who owes me the most?');
    const panel = page.getByTestId('chat-panel');
    const narrow = (await panel.boundingBox())!.width;
    const handle = page.getByTestId('chat-resize');
    await handle.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await panel.boundingBox())!.width).toBe(narrow + 120);
    await expect(handle).toHaveAttribute('aria-valuenow', String(narrow + 120));

    // Docked: the page keeps at least 640px however wide the panel is asked to be.
    await page.getByTestId('chat-dock-toggle').click();
    await handle.focus();
    await page.keyboard.press('End');
    const content = (await page.locator('main.content').boundingBox())!;
    expect(content.width).toBeGreaterThanOrEqual(640);
    expect(content.x + content.width).toBeLessThanOrEqual((await panel.boundingBox())!.x + 1);

    // A wide card opens across the window and Esc brings it back.
    const card = answer.getByTestId('card-take_table');
    await card.getByTestId('card-full-width').click();
    await expect(card).toHaveAttribute('data-expanded', 'true');
    expect((await card.boundingBox())!.width).toBeGreaterThan(1200);
    await page.keyboard.press('Escape');
    await expect(card).toHaveAttribute('data-expanded', 'false');
    await expect(panel).toBeVisible();

    // Remembered across a reload.
    await handle.focus();
    await page.keyboard.press('Home');
    await page.reload();
    await page.getByTestId('chat-open').click();
    await expect(page.getByTestId('chat-resize')).toHaveAttribute('aria-valuenow', '360');
  });

  test('a Confirm that can no longer be pressed looks disabled', async ({ page, app }) => {
    const direct = await app.direct();
    const [sneha] = (await direct.agent.searchPlayers.query({ query: 'Sneha Iyer' })).players;
    const minStake = (await direct.agent.getCreditLimit.query({ playerId: sneha!.id })).rows[0]!.minStake;
    await app.open();
    await app.signIn();
    const answer = await ask(page, `set min stake for Sneha Iyer to ${formatPoints((minStake ?? 10_000) + 100)}`);
    const confirm = answer.getByTestId('card-action-confirm');
    await expect(confirm).toBeEnabled();
    const live = await confirm.evaluate((b) => getComputedStyle(b).backgroundColor);
    await answer.getByTestId('card-action-cancel').click();
    await expect(answer.getByTestId('proposal-state')).toHaveAttribute('data-state', 'cancelled');
    await expect(confirm).toBeDisabled();
    const dead = await confirm.evaluate((b) => ({ bg: getComputedStyle(b).backgroundColor, cursor: getComputedStyle(b).cursor }));
    expect(dead.bg).not.toBe(live);
    expect(dead.cursor).toBe('not-allowed');
  });
});
