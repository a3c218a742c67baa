import { formatPoints } from '../src/shared/money.js';
import { ask } from './assistant.js';
import { BOOK_NOW, expect, test } from './fixtures.js';

/**
 * The confirm step of a proposal card, driven as a person would (keyboard included): a value
 * changed on the card becomes a new preview and the old one can no longer be confirmed; a decline
 * carries a reason into the audit log as inert text; a large change asks for the password again
 * before anyone clicks, refuses a wrong one and goes through with the right one.
 */
test.describe('the confirm step', () => {
  test('a value edited on the card: a new preview to confirm, the old card ended as edited', async ({ page, app }) => {
    const direct = await app.direct();
    const [neha] = (await direct.agent.searchPlayers.query({ query: 'Neha Gupta' })).players;
    const before = (await direct.agent.getCreditLimit.query({ playerId: neha!.id })).rows[0]!.creditLimit;
    const first = before + 100_000;
    const second = before + 250_000;
    await app.open();
    await app.signIn();

    const answer = await ask(page, `set CL for Neha Gupta to ${formatPoints(first)}`);
    const old = answer.getByTestId('card-diff_card');
    await expect(old.getByTestId('diff-after')).toHaveText(formatPoints(first));
    await old.getByTestId('card-action-edit').click();
    const field = old.getByLabel('New credit limit (points)');
    await expect(field).toHaveValue(formatPoints(first));
    // A value that is no amount is caught on the card, before anything is sent.
    await field.fill('-5');
    await page.keyboard.press('Enter');
    await expect(old.getByTestId('edit-error')).toContainText("can't be negative");
    await field.fill(formatPoints(second));
    await page.keyboard.press('Enter');

    await expect(old.getByTestId('proposal-state')).toHaveAttribute('data-state', 'edited');
    await expect(old.getByTestId('proposal-edited')).toBeVisible();
    await expect(old.getByTestId('card-action-confirm')).toBeDisabled();
    const fresh = page.locator('[data-testid=chat-message][data-resolves=edited]').getByTestId('card-diff_card');
    await expect(fresh.getByTestId('diff-after')).toHaveText(formatPoints(second));
    await expect(fresh.getByTestId('proposal-state')).toHaveAttribute('data-state', 'pending');
    expect((await direct.agent.getCreditLimit.query({ playerId: neha!.id })).rows[0]!.creditLimit).toBe(before);

    await fresh.getByTestId('card-action-confirm').click();
    await expect(fresh.getByTestId('proposal-state')).toHaveAttribute('data-state', 'confirmed');
    expect((await direct.agent.getCreditLimit.query({ playerId: neha!.id })).rows[0]!.creditLimit).toBe(second);

    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Audit', exact: true }).click();
    await expect(page.getByTestId('audit-status')).toHaveAttribute('data-ok', 'true');
    const rows = page.getByTestId('audit-row');
    await expect(rows.nth(0)).toHaveAttribute('data-outcome', 'executed');
    await expect(rows.nth(1)).toHaveAttribute('data-outcome', 'edited');
    await expect(rows.nth(1)).toContainText(`Changed on the card to ${formatPoints(second)}`);
    await app.screenshot('confirm-step-edited');
  });

  test('declined with a reason: nothing moves, and the reason is kept as plain text on the card and in the audit log', async ({ page, app }) => {
    const direct = await app.direct();
    const [lakshmi] = (await direct.agent.searchPlayers.query({ query: 'Lakshmi Menon' })).players;
    const before = (await direct.agent.getCreditLimit.query({ playerId: lakshmi!.id })).rows[0]!.creditLimit;
    await app.open();
    await app.signIn();

    const answer = await ask(page, `set CL for Lakshmi Menon to ${formatPoints(before + 150_000)}`);
    const card = answer.getByTestId('card-diff_card');
    await card.getByTestId('card-action-decline').click();
    const reason = 'Waiting for <b>her</b> payment first';
    await card.getByLabel('Why are you declining? (optional)').fill(reason);
    await page.keyboard.press('Enter');
    await expect(card.getByTestId('proposal-state')).toHaveAttribute('data-state', 'cancelled');
    await expect(card.getByTestId('proposal-decline-reason')).toHaveText(`Your reason: “${reason}”`);
    // Inert text, never markup.
    await expect(card.getByTestId('proposal-decline-reason').locator('b')).toHaveCount(0);
    expect((await direct.agent.getCreditLimit.query({ playerId: lakshmi!.id })).rows[0]!.creditLimit).toBe(before);

    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Audit', exact: true }).click();
    await expect(page.getByTestId('audit-status')).toHaveAttribute('data-ok', 'true');
    const row = page.getByTestId('audit-row').first();
    await expect(row).toHaveAttribute('data-outcome', 'cancelled');
    await expect(row).toContainText(`Your reason: “${reason}”`);
    await expect(row.locator('b')).toHaveCount(0);
  });

  test('a large change asks for the password before anyone clicks; a wrong one changes nothing, the right one confirms', async ({ page, app }) => {
    const direct = await app.direct();
    const [anita] = (await direct.agent.searchPlayers.query({ query: 'Anita Desai' })).players;
    const before = (await direct.agent.getCreditLimit.query({ playerId: anita!.id })).rows[0]!.creditLimit;
    // Above the 100,000-point threshold for a limit.
    const target = Math.max(before, 10_000_000) + 2_000_000;
    await app.open();
    await app.signIn();

    const answer = await ask(page, `set CL for Anita Desai to ${formatPoints(target)}`);
    const card = answer.getByTestId('card-diff_card');
    await expect(card.getByTestId('proposal-step-up-note')).toContainText(/Large change — your password is needed to confirm; expires in (?:60|59|58|57) s/);
    const expiresAt = Date.parse((await card.getByTestId('proposal-expiry').getAttribute('data-expires-at'))!);
    // Stamped by the book's clock (held at BOOK_NOW here), as every time the desk shows.
    expect(expiresAt - BOOK_NOW.getTime()).toBeLessThanOrEqual(60_000);
    expect(expiresAt - BOOK_NOW.getTime()).toBeGreaterThan(30_000);
    const confirm = card.getByTestId('card-action-confirm');
    await expect(confirm).toBeDisabled();

    const password = card.getByLabel('Your password');
    await password.fill('not-my-password');
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(card.getByTestId('proposal-turned-down')).toContainText('That password is not right. Nothing was changed');
    await expect(card.getByTestId('proposal-state')).toHaveAttribute('data-state', 'pending');
    await expect(password).toHaveValue('');
    expect((await direct.agent.getCreditLimit.query({ playerId: anita!.id })).rows[0]!.creditLimit).toBe(before);

    await password.fill('demo-priya');
    await page.keyboard.press('Enter');
    await expect(card.getByTestId('proposal-state')).toHaveAttribute('data-state', 'confirmed');
    await expect(card.getByTestId('step-up-password')).toHaveCount(0);
    expect((await direct.agent.getCreditLimit.query({ playerId: anita!.id })).rows[0]!.creditLimit).toBe(target);

    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Audit', exact: true }).click();
    const row = page.getByTestId('audit-row').first();
    await expect(row).toHaveAttribute('data-outcome', 'executed');
    await expect(row.getByTestId('audit-step-up')).toHaveText('with your password');
    await app.screenshot('confirm-step-password');
  });
});
