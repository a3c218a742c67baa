import { formatPoints } from '../src/shared/money.js';
import { ask } from './assistant.js';
import { type AppUnderTest, expect, test } from './fixtures.js';

/**
 * A hedge from the chat, as a person sees it: the slip says what the bet does to the worst case
 * on the market (before, after, and a warning when it adds to the risk), and once confirmed the
 * Audit page says it in a sentence with the fixture, market and outcome by name.
 */
test.describe('a hedge in the slip and the audit log', () => {
  /** priya's positions on India vs Australia's match odds, the side the book does best on last, and the worst case. */
  async function book(direct: Awaited<ReturnType<AppUnderTest['direct']>>) {
    const { fixtures } = await direct.match.searchFixtures.query({ query: 'India vs Australia', limit: 5 });
    const fixture = fixtures.find((f) => f.name === 'India vs Australia')!;
    const market = fixture.markets.find((m) => m.name === 'Match Odds')!;
    const scope = (await direct.agent.getLiveExposure.query({ fixtureId: fixture.id, marketId: market.id })).scopes.find((s) => s.marketId === market.id)!;
    return { outcomes: [...scope.outcomes].sort((x, y) => x.positionAtShare - y.positionAtShare), worst: scope.exposureAtShare };
  }

  test('backing the long side: the slip warns it raises the worst case; confirmed, the Audit page names the match, market and outcome', async ({ page, app }) => {
    const direct = await app.direct();
    const { outcomes, worst } = await book(direct);
    const long = outcomes.at(-1)!;
    expect(long.positionAtShare).toBeGreaterThan(outcomes[0]!.positionAtShare);
    // Backing the side the book already wins on loses the stake everywhere the book loses most.
    const after = worst + 200_000;
    await app.open();
    await app.signIn();

    const answer = await ask(page, `back ${long.name} 2k in India vs Australia`);
    const slip = answer.getByTestId('card-bet_slip');
    await expect(slip.getByTestId('slip-exposure-before')).toHaveText(formatPoints(worst));
    await expect(slip.getByTestId('slip-exposure-after')).toHaveText(formatPoints(after));
    await expect(slip.getByTestId('slip-exposure')).toHaveAttribute('data-change', 'increases');
    await expect(slip.getByTestId('slip-risk')).toContainText('up 2,000.00');
    await expect(slip.getByTestId('slip-risk-warning')).toContainText(`this bet increases your worst case on the market instead of hedging it: backing ${long.name} loses the 2,000.00 stake`);
    await expect(answer).toContainText('Warning: this bet increases your worst case');
    await app.screenshot('hedge-slip-warning');

    await slip.getByTestId('card-action-confirm').click();
    await expect(slip.getByTestId('proposal-state')).toHaveAttribute('data-state', 'confirmed');
    // Placed, the warning has done its work: the slip states the figures.
    await expect(slip.getByTestId('slip-risk-warning')).toHaveCount(0);

    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Audit', exact: true }).click();
    await expect(page.getByTestId('audit-status')).toHaveAttribute('data-ok', 'true');
    const row = page.getByTestId('audit-row').first();
    await expect(row).toHaveAttribute('data-outcome', 'executed');
    await expect(row.getByTestId('audit-tool')).toHaveText('Hedge bet');
    await expect(row.getByTestId('audit-summary')).toHaveText(new RegExp(
      `^Backed ${long.name} for 2,000\\.00 at \\d+\\.\\d\\d in India vs Australia \\(Match Odds\\); the worst case on the market went from ${formatPoints(worst).replaceAll('.', '\\.')} to ${formatPoints(after).replaceAll('.', '\\.')} \\(the bet added to the risk\\)\\.$`,
    ));
    await app.screenshot('audit-hedge');
  });

  test('backing the short side: the slip shows the worst case coming down, with no warning', async ({ page, app }) => {
    const direct = await app.direct();
    const { outcomes, worst } = await book(direct);
    const short = outcomes[0]!;
    expect(outcomes.at(-1)!.positionAtShare - short.positionAtShare).toBeGreaterThan(100_000);
    await app.open();
    await app.signIn();

    const answer = await ask(page, `back ${short.name} 1k in India vs Australia`);
    const slip = answer.getByTestId('card-bet_slip');
    await expect(slip.getByTestId('slip-exposure-before')).toHaveText(formatPoints(worst));
    await expect(slip.getByTestId('slip-exposure')).toHaveAttribute('data-change', 'reduces');
    await expect(slip.getByTestId('slip-risk')).toContainText('down');
    await expect(slip.getByTestId('slip-risk-warning')).toHaveCount(0);
    await expect(answer).not.toContainText('Warning');
    await slip.getByTestId('card-action-cancel').click();
    await expect(slip.getByTestId('proposal-state')).toHaveAttribute('data-state', 'cancelled');
  });
});
