import { formatPoints } from '../src/shared/money.js';
import { ask } from './assistant.js';
import { expect, test } from './fixtures.js';

/**
 * What every answer offers (Copy, Retry), the conversations (new, list, switch, search, delete),
 * and the panel following the conversation to each new answer.
 */
test.describe('chat basics', () => {
  test('Copy puts the answer and its card on the clipboard as text, a long table whole', async ({ page, app }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const direct = await app.direct();
    const all = await direct.agent.getTake.query({ limit: 500 });
    await app.open();
    await app.signIn();

    const take = await ask(page, 'who owes me money');
    await take.getByTestId('chat-copy').click();
    await expect(take.getByTestId('chat-copied')).toHaveText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    // The words, then the card's table as tab-separated rows with the figures as shown.
    expect(copied).toContain(formatPoints(Math.abs(all.totals.take)));
    expect(copied).toMatch(/^Account\tTake\tCredit limit\tAvailable$/m);
    expect(copied).toMatch(/^Karan Malhotra\towes you [\d,.]+(\t-?[\d,.]+){2}$/m);
    expect(copied).not.toContain('Full width');

    // Over 50 rows a card draws only the rows in view; the copy has every one.
    const bets = await ask(page, 'show all bets today');
    await bets.getByTestId('card-bets-more').click();
    await expect(bets.getByTestId('card-bets-loaded')).toHaveAttribute('data-rows', /^[1-9]\d{2,}$/);
    const held = Number(await bets.getByTestId('card-bets-loaded').getAttribute('data-rows'));
    const drawn = await bets.getByTestId('card-row').count();
    expect(drawn).toBeLessThan(held);
    await bets.getByTestId('chat-copy').click();
    await expect(bets.getByTestId('chat-copied')).toHaveText('Copied');
    const lines = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
    // The header and every bet held, not only those drawn.
    expect(lines.filter((line) => line.includes('\t'))).toHaveLength(held + 1);
    expect(lines).toContain('Placed\tPlayer\tFixture\tSelection\tSide\tOdds\tStake\tLiability\tStatus\tResult');
    // Drawn again as before: only the rows in view.
    await expect(bets.getByTestId('card-row')).toHaveCount(drawn);
  });

  test('Retry asks the same question again, as a new turn', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    const panel = page.getByTestId('chat-panel');
    const question = panel.locator('[data-testid=chat-message][data-role=user]', { hasText: /^what is my live exposure\?$/ });
    const first = await ask(page, 'what is my live exposure?');
    const before = await question.count();
    const answers = panel.locator('[data-testid=chat-message][data-role=assistant]:not([data-pending])');
    const firstId = await first.getAttribute('data-message-id');
    await first.getByTestId('chat-retry').click();
    await expect(question).toHaveCount(before + 1);
    const again = answers.last();
    await expect(again).not.toHaveAttribute('data-message-id', firstId!);
    await expect(again.getByTestId('card-exposure_card')).toBeVisible();
  });

  test('a second conversation: listed with its title, switched to, searched and deleted', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    const panel = page.getByTestId('chat-panel');
    const list = page.getByTestId('chat-conversation');
    await page.getByTestId('chat-open').click();
    await page.getByTestId('chat-new').click();
    await ask(page, 'who owes me money');

    await page.getByTestId('chat-new').click();
    await expect(panel.locator('.chat-empty')).toBeVisible();
    await expect(panel.getByTestId('chat-message')).toHaveCount(0);
    await ask(page, 'exposure on India vs Australia');

    await page.getByTestId('chat-conversations').click();
    await expect(page.getByTestId('chat-list')).toHaveAttribute('data-state', 'ready');
    // Latest first, each named by its first message; the one shown is marked.
    await expect(list.nth(0).locator('.chat-conversation-title')).toHaveText('exposure on India vs Australia');
    await expect(list.nth(0)).toHaveAttribute('data-current', 'true');
    await expect(list.nth(1).locator('.chat-conversation-title')).toHaveText('who owes me money');
    await expect(list.nth(1)).toHaveAttribute('data-current', 'false');
    const second = (await list.nth(0).getAttribute('data-conversation-id'))!;
    const first = (await list.nth(1).getAttribute('data-conversation-id'))!;

    // Switched: the panel shows the first conversation, and the next question goes into it.
    await list.nth(1).getByTestId('chat-conversation-open').click();
    await expect(page.getByTestId('chat-list')).toHaveCount(0);
    await expect(panel.locator('[data-testid=chat-message][data-role=user]').last()).toHaveText('who owes me money');
    await expect(panel.getByTestId('card-take_table').last()).toBeVisible();
    await expect(panel.locator('[data-testid=chat-message][data-role=user]', { hasText: 'India vs Australia' })).toHaveCount(0);

    // A search looks at the messages too: these words are only in the second conversation's answer.
    await page.getByTestId('chat-conversations').click();
    await page.getByTestId('chat-search').fill('worst-case exposure on india');
    const found = page.locator(`[data-conversation-id="${second}"]`);
    await expect(found.locator('.chat-conversation-match')).toContainText('Worst-case exposure on India vs Australia');
    await expect(page.locator(`[data-conversation-id="${first}"]`)).toHaveCount(0);
    await page.getByTestId('chat-search').fill('no conversation says zzqx');
    await expect(list).toHaveCount(0);
    await expect(page.getByTestId('chat-list')).toContainText('No conversation holds those words.');

    // Deleted: gone from the list, and from main (a new list asks main again).
    await page.getByTestId('chat-search').fill('');
    await page.locator(`[data-conversation-id="${second}"]`).getByTestId('chat-conversation-delete').click();
    await expect(page.locator(`[data-conversation-id="${second}"]`)).toHaveCount(0);
    await page.getByTestId('chat-list-back').click();
    await page.getByTestId('chat-conversations').click();
    await expect(page.getByTestId('chat-list')).toHaveAttribute('data-state', 'ready');
    await expect(page.locator(`[data-conversation-id="${first}"]`)).toHaveAttribute('data-current', 'true');
    await expect(page.locator(`[data-conversation-id="${second}"]`)).toHaveCount(0);
  });

  test('after a large card the panel scrolls to the new answer', async ({ page, app }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await app.open();
    await app.signIn();
    await page.getByTestId('chat-open').click();
    await page.getByTestId('chat-new').click();
    const exposure = await ask(page, 'exposure on India vs Australia');
    // The card grows after it is drawn: its positions by market open below the table.
    await exposure.getByRole('button', { name: /positions by market/ }).click();
    const bets = await ask(page, 'show all bets today');
    await expect(bets.getByTestId('card-bet_table')).toBeInViewport();
    const take = await ask(page, 'who owes me money');
    await expect(take.locator('.chat-text')).toBeInViewport();
    await expect(take.getByTestId('card-take_table')).toBeInViewport();
  });
});
