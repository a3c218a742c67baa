import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { formatPoints } from '../src/shared/money.js';
import { csvRecords } from '../tests/helpers/csv.js';
import { expect, test } from './fixtures.js';

/**
 * Export on the table pages, in the browser shell: the page's filters and order go with the
 * export, main reads every row and the shell hands the file over as a real browser download,
 * whose rows are checked against the backend's own read with the same filters and order. The
 * desktop app saves through the native save dialog, which a test cannot drive.
 */
test.skip(({ target }) => target === 'electron', 'the desktop app saves through the native save dialog, which Playwright cannot answer');

/** Presses an Export button and answers the downloaded file's bytes and suggested name. */
async function download(page: Page, testId: string): Promise<{ name: string; bytes: Buffer }> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  const file = await downloading;
  return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) };
}

const plain = (paisa: number) => formatPoints(paisa).replaceAll(',', '');

test.describe('export', () => {
  test('the Bets page exports every bet its status filter and stake sort keep, as csv and as Excel', async ({ page, app }) => {
    const direct = await app.direct();
    const query = { status: ['settled' as const], sort: { by: 'stake' as const, dir: 'desc' as const } };
    const bets: Awaited<ReturnType<typeof direct.agent.getBetHistory.query>>['bets'] = [];
    let cursor: string | undefined;
    do {
      const page = await direct.agent.getBetHistory.query({ ...query, limit: 200, ...(cursor && { cursor }) });
      bets.push(...page.bets);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(bets.length).toBeGreaterThan(1);

    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Bets', exact: true }).click();
    await expect(page.getByTestId('bet-row').first()).toBeVisible();
    await page.getByTestId('bets-status-open').uncheck();
    await page.getByTestId('bets-status-void').uncheck();
    await page.getByTestId('sort-stake').click();
    await expect(page).toHaveURL(/[?&]status=settled/);
    await expect(page).toHaveURL(/[?&]sort=stake&dir=desc/);
    await expect(page.locator('th[aria-sort=descending]')).toHaveText(/Stake/);

    const csv = await download(page, 'export-bets-csv');
    expect(csv.name).toMatch(/^bets-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...records] = csvRecords(csv.bytes.toString('utf8'));
    expect(header).toEqual(['Placed', 'Player', 'Fixture', 'Market', 'Selection', 'Side', 'Stake', 'Odds', 'Liability', 'Status', 'Result']);
    // Every row, not only the page's loaded ones, in the page's order.
    expect(records.map((r) => [r[1], r[2], r[4], r[6], r[9], r[10]])).toEqual(bets.map((b) => [
      b.playerName, b.fixtureName, b.outcomeName, plain(b.stake), b.status, plain(b.result!),
    ]));

    const xlsx = await download(page, 'export-bets-xlsx');
    expect(xlsx.name).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(2).getCell(1).value).toMatch(/Status: settled · Sorted by stake, descending/);
    // The legend says what the signs mean, as a report's does; the header is under it.
    expect(sheet.getRow(3).getCell(1).value).toMatch(/Result is the player's/);
    expect(sheet.getRow(4).getCell(7).value).toBe('Stake');
    const stakes = bets.map((_, i) => sheet.getRow(5 + i).getCell(7).value);
    expect(stakes).toEqual(bets.map((b) => b.stake / 100));
    expect(sheet.getRow(5 + bets.length).getCell(1).value).toMatch(/^Total, /);
    await expect(page.getByTestId('export-bets-save-error')).toHaveCount(0);
    expect(app.outsideRequests).toEqual([]);
  });

  test('the Statement page exports the account\'s lines its kind filter keeps', async ({ page, app }) => {
    const direct = await app.direct();
    const [anita] = (await direct.agent.searchPlayers.query({ query: 'Anita Desai' })).players;
    const read = await direct.agent.getStatement.query({ accountId: anita!.id, kinds: ['bet_result'], limit: 200 });
    expect(read.nextCursor).toBeNull();
    expect(read.lines.length).toBeGreaterThan(0);

    await app.open();
    await app.signIn();
    await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Statement', exact: true }).click();
    await page.getByTestId('statement-account-search').fill('Anita');
    await page.getByTestId('statement-accounts').getByRole('link', { name: 'Anita Desai' }).click();
    await page.getByTestId('statement-kind-bet_result').check();
    await expect(page).toHaveURL(/[?&]kind=bet_result/);
    await expect(page.getByTestId('statement-row').first()).toBeVisible();
    // A statement has no report layout: Excel and CSV only.
    await expect(page.getByTestId('export-statement-pdf')).toHaveCount(0);

    const xlsx = await download(page, 'export-statement-xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Statement of Anita Desai · Priya Nair');
    const rows = read.lines.map((_, i) => sheet.getRow(4 + i));
    expect(rows.map((r) => [r.getCell(2).value, r.getCell(10).value, r.getCell(11).value]))
      .toEqual(read.lines.map((l) => ['Bet result', l.amount! / 100, l.balanceAfter / 100]));
    expect(sheet.getRow(4 + read.lines.length).getCell(1).value).toBe('Net of these lines');
  });
});
