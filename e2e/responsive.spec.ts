import type { Page } from '@playwright/test';
import { type AppUnderTest, expect, test } from './fixtures.js';

/**
 * The panel at the three widths it is made for (docs/architecture.md, "Layout at every width"):
 * a desktop window, a small laptop or tablet, a phone. Every page, at each width: nothing makes
 * the page scroll sideways, no table cell's text is cut without its full text in a tooltip, the
 * chat button covers no table cell (at the top of the page and scrolled to its end), and the
 * sidebar is a menu button at phone width. Each page's full-page screenshot is attached.
 */
const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'laptop', width: 1024, height: 700 },
  { name: 'phone', width: 390, height: 844 },
] as const;

interface PageVisit {
  name: string;
  path: (ids: { player: string }) => string;
  /** What shows the page's data has arrived. */
  ready: string;
}

const PAGES: PageVisit[] = [
  { name: 'dashboard', path: () => '/agent/dashboard', ready: '[data-testid="tile-downline-take"]' },
  { name: 'downline', path: () => '/agent/downline', ready: '[data-testid="downline-node"]' },
  { name: 'player', path: ({ player }) => `/agent/players/${player}`, ready: '[data-testid="player-take"]' },
  { name: 'bets', path: () => '/agent/bets', ready: '[data-testid="bet-row"]' },
  { name: 'exposure', path: () => '/agent/exposure', ready: '[data-testid="exposure-total"]' },
  { name: 'pnl', path: () => '/agent/pnl?period=month', ready: '[data-testid="pnl-row"]' },
  { name: 'settlements', path: () => '/agent/settlements', ready: '[data-testid="settlement-row"]' },
  { name: 'statement', path: ({ player }) => `/agent/statement?account=${player}`, ready: '[data-testid="statement-row"]' },
  { name: 'reports', path: () => '/agent/reports', ready: 'main h1' },
  { name: 'approvals', path: () => '/agent/approvals', ready: 'main h1' },
  { name: 'audit', path: () => '/agent/audit', ready: 'main h1' },
  { name: 'settings', path: () => '/agent/settings', ready: 'main h1' },
];

/** In-app navigation, as a link does: no reload, so the session and the loaded bundle stay. */
async function go(page: Page, to: string): Promise<void> {
  await page.evaluate((href) => {
    window.history.pushState(null, '', href);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

/**
 * What is wrong with the layout as it is drawn now, one sentence a problem. Runs in the page:
 * - the document, or the page's content, is wider than its box (a page-level sideways scrollbar);
 * - a table cell's content is wider than the cell (cut, or spilling over) and neither the cell nor
 *   an element holding all its text has a title;
 * - the chat button lies over a point of a table cell where that cell would otherwise be seen (a
 *   cell scrolled out of its box, or under the top bar, is not seen there).
 */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) problems.push(`the page scrolls sideways: ${root.scrollWidth}px in a ${root.clientWidth}px viewport`);
  const main = document.querySelector('main')!;
  if (main.scrollWidth > main.clientWidth) problems.push(`the page's content scrolls sideways: ${main.scrollWidth}px in ${main.clientWidth}px`);
  const fab = document.querySelector<HTMLElement>('[data-testid="chat-open"]');
  const fabBox = fab?.getBoundingClientRect();
  const name = (cell: HTMLTableCellElement) => {
    const table = cell.closest('table');
    const header = table?.tHead?.rows[0]?.cells[cell.cellIndex]?.textContent?.trim() ?? '';
    return `${table?.dataset.testid ?? table?.className ?? 'table'} · ${header} · "${(cell.textContent ?? '').trim().slice(0, 60)}"`;
  };
  for (const cell of document.querySelectorAll<HTMLTableCellElement>('main td, main th')) {
    if (cell.closest('tr.spacer') || !cell.checkVisibility()) continue;
    if (cell.scrollWidth > cell.clientWidth) {
      const text = (cell.textContent ?? '').trim();
      const titled = cell.title !== '' || [...cell.querySelectorAll<HTMLElement>('[title]')].some((e) => e.title !== '' && (e.textContent ?? '').trim() === text);
      if (!titled) problems.push(`cut without a tooltip (${cell.scrollWidth}px in ${cell.clientWidth}px): ${name(cell)}`);
    }
    if (!fab || !fabBox) continue;
    const r = cell.getBoundingClientRect();
    const x1 = Math.max(r.left, fabBox.left);
    const x2 = Math.min(r.right, fabBox.right);
    const y1 = Math.max(r.top, fabBox.top);
    const y2 = Math.min(r.bottom, fabBox.bottom);
    if (x1 >= x2 || y1 >= y2) continue;
    const points: Array<[number, number]> = [[(x1 + x2) / 2, (y1 + y2) / 2], [x1 + 1, y1 + 1], [x2 - 1, y1 + 1], [x1 + 1, y2 - 1], [x2 - 1, y2 - 1]];
    const covered = points.some(([x, y]) => {
      const under = document.elementsFromPoint(x, y).find((e) => !fab.contains(e));
      return under !== undefined && cell.contains(under);
    });
    if (covered) problems.push(`the chat button covers ${name(cell)}`);
  }
  return problems;
}

/** The page, then scrolled to its end and every scroll box to its right edge: the last row and last column are reachable too. */
async function checkLayout(page: Page): Promise<string[]> {
  const atTop = await page.evaluate(layoutProblems);
  await page.evaluate(() => {
    for (const box of document.querySelectorAll<HTMLElement>('main *')) {
      if (box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX !== 'visible') box.scrollLeft = box.scrollWidth;
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  const atEnd = await page.evaluate(layoutProblems);
  await page.evaluate(() => {
    for (const box of document.querySelectorAll<HTMLElement>('main *')) box.scrollLeft = 0;
    window.scrollTo(0, 0);
  });
  return [...new Set([...atTop, ...atEnd])];
}

/** The header cells named, each wholly inside the viewport and its table's scroll box (not scrolled or clipped away). */
async function columnsInView(page: Page, table: string, headers: string[]): Promise<Record<string, boolean>> {
  return page.evaluate(({ table, headers }) => {
    const t = document.querySelector<HTMLTableElement>(table)!;
    const box = t.parentElement!.getBoundingClientRect();
    const seen: Record<string, boolean> = {};
    for (const h of headers) {
      const th = [...t.tHead!.rows[0]!.cells].find((c) => c.textContent?.replace(/[▲▼↕]/g, '').trim() === h);
      const r = th?.getBoundingClientRect();
      seen[h] = !!th && th.checkVisibility() && r!.width > 0 && r!.left >= Math.max(0, box.left) - 1 && r!.right <= Math.min(window.innerWidth, box.right) + 1;
    }
    return seen;
  }, { table, headers });
}

/** Every header named is in view (polled: a resize lays the page out again). */
async function expectInView(page: Page, table: string, headers: string[]): Promise<void> {
  await expect.poll(() => columnsInView(page, table, headers)).toEqual(Object.fromEntries(headers.map((h) => [h, true])));
}

async function signInAt(page: Page, app: AppUnderTest, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await app.open();
  await app.signIn();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

test.describe('responsive layout', () => {
  for (const size of WIDTHS) {
    test(`every page at ${size.width}×${size.height} (${size.name})`, async ({ page, app }, testInfo) => {
      test.setTimeout(180_000);
      const direct = await app.direct();
      const [player] = (await direct.agent.searchPlayers.query({ query: 'Karan Malhotra' })).players;
      await signInAt(page, app, size);
      await expect(page.getByTestId('chat-open')).toBeVisible();

      const found: string[] = [];
      for (const visit of PAGES) {
        await go(page, visit.path({ player: player!.id }));
        await expect(page.locator(visit.ready).first()).toBeVisible();
        await expect(page.getByText('Loading…')).toHaveCount(0);
        const shot = testInfo.outputPath(`${visit.name}-${size.width}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        await testInfo.attach(`${visit.name} at ${size.width}px`, { path: shot, contentType: 'image/png' });
        for (const problem of await checkLayout(page)) found.push(`${visit.name}: ${problem}`);
      }
      expect(found).toEqual([]);
    });
  }

  test('Bets keeps stake, liability, status and result in view at 1024 px, every column at 1440 px', async ({ page, app }) => {
    const money = ['Stake', 'Liability', 'Status', 'Result'];
    await signInAt(page, app, { width: 1024, height: 700 });
    await go(page, '/agent/bets');
    await expect(page.getByTestId('bet-row').first()).toBeVisible();
    await expectInView(page, '.bets-table', money);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expectInView(page, '.bets-table', ['Placed', 'Player', 'Fixture', 'Selection', 'Side', 'Odds', ...money]);
  });

  test('with the chat docked at 1024 px the page gives way, never scrolling sideways', async ({ page, app }) => {
    await signInAt(page, app, { width: 1024, height: 700 });
    await go(page, '/agent/bets');
    await expect(page.getByTestId('bet-row').first()).toBeVisible();
    await page.getByTestId('chat-open').click();
    await page.getByTestId('chat-dock-toggle').click();
    await expect(page.getByTestId('chat-panel')).toHaveAttribute('data-docked', 'true');
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    // What does not fit beside the panel scrolls inside the table's own box, the stake first in view.
    await expectInView(page, '.bets-table', ['Stake']);
  });

  test('Settlements shows all its columns at 1440 px', async ({ page, app }) => {
    await signInAt(page, app, { width: 1440, height: 900 });
    await go(page, '/agent/settlements');
    await expect(page.getByTestId('settlement-row').first()).toBeVisible();
    await expectInView(page, '[data-testid="settlements-table"]', ['Date', 'Counterparty', 'Amount', 'Payment', 'Take before', 'Take after', 'Mode', 'Period', 'By']);
  });

  test('at phone width the sidebar is a menu button that opens and closes by mouse and keyboard', async ({ page, app }, testInfo) => {
    await signInAt(page, app, { width: 390, height: 844 });
    const nav = page.getByRole('navigation', { name: 'Panel' });
    const menu = nav.getByRole('button', { name: 'Menu' });
    const bets = nav.getByRole('link', { name: 'Bets', exact: true });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(bets).toBeHidden();

    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(bets).toBeVisible();
    const shot = testInfo.outputPath('menu-open-390.png');
    await page.screenshot({ path: shot });
    await testInfo.attach('menu open at 390px', { path: shot, contentType: 'image/png' });
    await bets.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Bets' })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(bets).toBeHidden();

    // By keyboard: Enter opens it, Escape from inside closes it and gives the focus back; Enter on a link follows it.
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const dashboard = nav.getByRole('link', { name: 'Dashboard', exact: true });
    await dashboard.focus();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
    await page.keyboard.press('Enter');
    await dashboard.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    // A press outside the menu (beside it, on the page) closes it.
    await menu.click();
    await expect(bets).toBeVisible();
    await page.mouse.click(370, 600);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    // At desktop width the same navigation is a sidebar, always open, with no menu button.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(menu).toBeHidden();
    await expect(bets).toBeVisible();
  });
});
