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
});
