import { formatPoints } from '../src/shared/money.js';
import { takePhrase } from '../src/shared/sentences.js';
import { expect, test } from './fixtures.js';

test.describe('dashboard', () => {
  test('shows the backend\'s own figures for the signed-in agent', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

    // The same figures, straight from the backend with a session of its own.
    const backend = await app.direct();
    const [take, upline, exposure, pnl] = await Promise.all([
      backend.agent.getTake.query({}),
      backend.agent.getUpline.query({}),
      backend.agent.getLiveExposure.query({}),
      backend.agent.getPnL.query({}),
    ]);
    const tile = (id: string) => page.getByTestId(id).locator('.tile-value');
    await expect(tile('tile-downline-take')).toHaveText(takePhrase(take.totals.take, 'your downline'));
    await expect(tile('tile-cl')).toHaveText(formatPoints(upline.cl));
    await expect(tile('tile-available')).toHaveText(formatPoints(upline.available));
    await expect(tile('tile-owed')).toHaveText(takePhrase(-upline.owed, upline.uplineName));
    await expect(tile('tile-today')).toHaveText(formatPoints(pnl.total.yourShare ?? 0));
    await expect(tile('tile-exposure')).toHaveText(formatPoints(exposure.total.exposure));
    await expect(page.getByTestId('tile-exposure')).toContainText(`${formatPoints(exposure.total.exposureAtShare)} at your share`);
    await expect(page.getByTestId('tile-cl')).toContainText(`from ${upline.uplineName}`);

    // A book with live figures: the comparison above is not a comparison of zeros.
    expect([take.totals.take, upline.cl, exposure.total.exposure].some((n) => n !== 0)).toBe(true);
    await app.screenshot('dashboard');
  });
});
