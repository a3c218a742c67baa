import { formatPoints } from '../src/shared/money.js';
import { ask } from './assistant.js';
import { expect, test } from './fixtures.js';

/**
 * Money-moving actions in the panel: the assistant's proposal card, confirmed or cancelled by a
 * human (keyboard included), checked against the backend; then the Audit page's chain.
 */
test.describe('actions', () => {
  test('a limit change is proposed, confirmed from the keyboard once, and written', async ({ page, app }) => {
    const direct = await app.direct();
    const [karan] = (await direct.agent.searchPlayers.query({ query: 'Karan Malhotra' })).players;
    const before = (await direct.agent.getCreditLimit.query({ playerId: karan!.id })).rows[0]!.creditLimit;
    const target = before + 1_000_000;
    await app.open();
    await app.signIn();

    const answer = await ask(page, `set CL for Karan Malhotra to ${formatPoints(target)}`);
    const card = answer.getByTestId('card-diff_card');
    await expect(card).toContainText('Karan Malhotra');
    await expect(card).toContainText(formatPoints(before));
    await expect(card).toContainText(formatPoints(target));
    await expect(card.getByTestId('proposal-state')).toHaveAttribute('data-state', 'pending');
    await expect(card.getByTestId('proposal-expiry')).toBeVisible();
    // Nothing is written before the human confirms.
    expect((await direct.agent.getCreditLimit.query({ playerId: karan!.id })).rows[0]!.creditLimit).toBe(before);

    await card.getByTestId('card-action-confirm').focus();
    await page.keyboard.press('Enter');
    await expect(card.getByTestId('proposal-state')).toHaveAttribute('data-state', 'confirmed');
    await expect(card.getByTestId('card-action-confirm')).toBeDisabled();
    expect((await direct.agent.getCreditLimit.query({ playerId: karan!.id })).rows[0]!.creditLimit).toBe(target);
    await app.screenshot('action-confirmed');
  });

  test('a settlement is proposed and cancelled: nothing moves', async ({ page, app }) => {
    const direct = await app.direct();
    const [deepak] = (await direct.agent.searchPlayers.query({ query: 'Deepak Kulkarni' })).players;
    const take = (await direct.agent.getTake.query({ playerId: deepak!.id })).rows[0]!.take;
    await app.open();
    await app.signIn();
    const answer = await ask(page, 'settle Deepak');
    const card = answer.getByTestId('card-settlement_summary');
    if (take === 0) {
      await expect(card).toContainText('nothing is outstanding');
      return;
    }
    await expect(card).toContainText(formatPoints(Math.abs(take)));
    await expect(card).toContainText(take > 0 ? 'Deepak Kulkarni pays you' : 'You pay Deepak Kulkarni');
    await card.getByTestId('card-action-cancel').click();
    await expect(card.getByTestId('proposal-state')).toHaveAttribute('data-state', 'cancelled');
    expect((await direct.agent.getTake.query({ playerId: deepak!.id })).rows[0]!.take).toBe(take);
  });

  test('the Audit page lists the answered proposals and verifies the chain', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    const answer = await ask(page, 'set min stake for Sneha Iyer to 150');
    await answer.getByTestId('card-action-cancel').click();
    await expect(answer.getByTestId('proposal-state')).toHaveAttribute('data-state', 'cancelled');
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Audit', exact: true }).click();
    await expect(page.getByTestId('audit-status')).toHaveAttribute('data-ok', 'true');
    await expect(page.getByTestId('audit-row').first()).toContainText('Sneha Iyer');
    await app.screenshot('audit');
  });

  test('a limit set to the value it already has is a no-op: nothing to confirm, the card says no change', async ({ page, app }) => {
    const direct = await app.direct();
    const [sneha] = (await direct.agent.searchPlayers.query({ query: 'Sneha Iyer' })).players;
    const current = (await direct.agent.getCreditLimit.query({ playerId: sneha!.id })).rows[0]!.creditLimit;
    await app.open();
    await app.signIn();
    const answer = await ask(page, `set CL for Sneha Iyer to ${formatPoints(current)}`);
    const card = answer.getByTestId('card-diff_card');
    await expect(card.getByTestId('proposal-state')).toHaveAttribute('data-state', 'unchanged');
    await expect(card.getByTestId('card-unchanged')).toContainText(`the credit limit is already ${formatPoints(current)}: nothing to change`);
    await expect(card.getByTestId('card-action-confirm')).toHaveCount(0);
    await expect(answer).toContainText('No change');
  });

  test('the Audit page names a change the backend recorded that the log does not have', async ({ page, app }) => {
    // Meera changes a limit outside the desk (straight through the API): the backend records it,
    // this desk's log has no entry for it, and the page says which record and why.
    const meera = await app.direct('meera', 'demo-meera');
    const [farhan] = (await meera.agent.searchPlayers.query({ query: 'Farhan Ali' })).players;
    const before = (await meera.agent.getCreditLimit.query({ playerId: farhan!.id })).rows[0]!.creditLimit;
    const done = await meera.limits.edit.mutate({ playerId: farhan!.id, limitType: 'creditLimit', newValue: before + 100, idempotencyKey: `e2e-outside-${Date.now()}` });
    await app.open();
    await app.signIn('meera', 'demo-meera');
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Audit', exact: true }).click();
    const status = page.getByTestId('audit-status');
    await expect(status).toHaveAttribute('data-ok', 'false');
    await expect(status).toHaveAttribute('data-backend-checked', 'true');
    await expect(page.getByTestId('audit-finding').filter({ hasText: `the backend recorded a limit change (its record ${done.anchor!.seq}) that this log does not have` })).toHaveCount(1);
    await app.screenshot('audit-finding');
  });
});
