import { formatPoints } from '../src/shared/money.js';
import { expect, test } from './fixtures.js';

const count = (n: number) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The Bets page searches and sorts on the backend: the list is keyset-paged and can be far longer than what is loaded. */
test.describe('the Bets page', () => {
  test('a search narrows the whole list and a column header sorts it, both kept in the URL', async ({ page, app }) => {
    const direct = await app.direct();
    const newest = (await direct.agent.getBetHistory.query({ limit: 1 })).bets[0]!;
    const term = newest.fixtureName.split(' ')[0]!;
    const matching = await direct.agent.getBetHistory.query({ search: term, limit: 1 });
    const all = await direct.agent.getBetHistory.query({ limit: 1 });
    test.skip(matching.summary.count < 2 || matching.summary.count === all.summary.count, 'no fixture word narrows the book usefully');

    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Bets', exact: true }).click();
    const rows = page.getByTestId('bet-row');
    await expect(rows.first()).toBeVisible();
    await expect(page.getByTestId('bets-summary-count')).toHaveText(`${count(all.summary.count)} bets`);
    await expect(page.locator('th[aria-sort=descending]')).toHaveText(/Placed/);

    await page.getByTestId('bets-search').fill(term.toUpperCase());
    await expect(page.getByTestId('bets-summary-count')).toHaveText(`${count(matching.summary.count)} bets`);
    await expect(page).toHaveURL(new RegExp(`[?&]search=${term.toUpperCase()}`));
    for (const text of await rows.allInnerTexts()) expect(text.toLowerCase()).toContain(term.toLowerCase());

    await page.getByTestId('sort-stake').click();
    await expect(page.locator('th[aria-sort=descending]')).toHaveText(/Stake/);
    await expect(page.locator('th', { hasText: 'Placed' })).toHaveAttribute('aria-sort', 'none');
    await expect(page).toHaveURL(/[?&]sort=stake&dir=desc/);
    const biggest = (await direct.agent.getBetHistory.query({ search: term, sort: { by: 'stake', dir: 'desc' }, limit: 1 })).bets[0]!;
    await expect(rows.first().locator('td').nth(6)).toHaveText(formatPoints(biggest.stake));

    await page.getByTestId('sort-stake').click();
    await expect(page.locator('th[aria-sort=ascending]')).toHaveText(/Stake/);
    const smallest = (await direct.agent.getBetHistory.query({ search: term, sort: { by: 'stake', dir: 'asc' }, limit: 1 })).bets[0]!;
    await expect(rows.first().locator('td').nth(6)).toHaveText(formatPoints(smallest.stake));
    await app.screenshot('bets-search-sort');
    // The search stayed while the order changed.
    await expect(page.getByTestId('bets-summary-count')).toHaveText(`${count(matching.summary.count)} bets`);

    // Both survive a reload, read back from the URL.
    await page.reload();
    await expect(page.getByTestId('bets-search')).toHaveValue(term.toUpperCase());
    await expect(page.locator('th[aria-sort=ascending]')).toHaveText(/Stake/);
    await expect(rows.first().locator('td').nth(6)).toHaveText(formatPoints(smallest.stake));

    await page.getByTestId('bets-clear').click();
    await expect(page.getByTestId('bets-search')).toHaveValue('');
    await expect(page.getByTestId('bets-summary-count')).toHaveText(`${count(all.summary.count)} bets`);
    await expect(page.locator('th[aria-sort=descending]')).toHaveText(/Placed/);
  });
});
