import type { Page } from '@playwright/test';
import { ask } from './assistant.js';
import { expect, test } from './fixtures.js';

/** The chat's latest bet card's scroll box, in page code. */
const BOX = `[...document.querySelectorAll('[data-testid=chat-panel] [data-testid=card-bet_table]')].at(-1).querySelector('.card-scroll')`;

/**
 * Rows drawn, counted in the page: formatting a bet's placing time calls
 * Intl.DateTimeFormat#formatToParts, so the calls in a stretch of time count the rows React drew.
 */
const COUNT_DRAWS = `(() => {
  if (window.__draws !== undefined) return;
  window.__draws = 0;
  const original = Intl.DateTimeFormat.prototype.formatToParts;
  Intl.DateTimeFormat.prototype.formatToParts = function (...args) { window.__draws++; return original.apply(this, args); };
})()`;

const FRAMES = 'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))';

/** Calls of formatToParts while `during` runs and the frame after it is drawn. */
async function drawsDuring(page: Page, during: string): Promise<number> {
  return page.evaluate<number>(`(async () => {
    const before = window.__draws;
    await (${during});
    await ${FRAMES};
    return window.__draws - before;
  })()`);
}

/** A long bet list in the chat: the card reads the next pages as it is scrolled, and scrolling it draws only what comes into view. */
test.describe('a long bet list in a chat card', () => {
  test('pages on to 1,000 rows in the backend\'s order as it is scrolled, drawing only the rows that come into view', async ({ page, app }) => {
    const direct = await app.direct();
    const bets: Array<{ playerName: string; fixtureName: string }> = [];
    let cursor: string | undefined;
    let total = 0;
    while (bets.length < 1000) {
      const pageOf = await direct.agent.getBetHistory.query({ limit: 200, ...(cursor && { cursor }) });
      bets.push(...pageOf.bets);
      total = pageOf.summary.count;
      if (pageOf.nextCursor === null) break;
      cursor = pageOf.nextCursor;
    }
    test.skip(total <= 1200, 'the book has no more than 1,200 bets in priya\'s downline');

    await app.open();
    await app.signIn();
    // The rows a long card holds when it first enters the page: none, so the frame it arrives in
    // lays out the answer alone; they follow in React's background render.
    await page.evaluate(`new MutationObserver((changes, observer) => {
      const card = document.querySelector('[data-testid=chat-panel] [data-testid=card-bet_table]');
      if (!card) return;
      window.__rowsOnArrival = card.querySelectorAll('[data-testid=card-row]').length;
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true })`);
    const answer = await ask(page, 'last 200 bets');
    const card = answer.getByTestId('card-bet_table');
    const loaded = card.getByTestId('card-bets-loaded');
    await expect(loaded).toHaveAttribute('data-rows', '200');
    expect(await page.evaluate('window.__rowsOnArrival')).toBe(0);
    await expect(card.getByTestId('card-row').first()).toBeVisible();

    await page.evaluate(COUNT_DRAWS);
    // Ten rows further down in one step: the block of ten coming into view is drawn (two calls each), not all thirty in view and overscan.
    const step = await drawsDuring(page, `${BOX}.scrollTop += 320`);
    expect(step).toBeGreaterThan(0);
    expect(step).toBeLessThanOrEqual(2 * 2 * 10);
    // Rows come and go in blocks of ten: one row further stays inside the rows drawn, and draws none.
    const within = await drawsDuring(page, `${BOX}.scrollTop += 32`);
    expect(within).toBe(0);
    // The header row stays at the top of the scrolled box (sticky on the row, not on each cell:
    // every sticky box is paint work on each frame of the whole conversation, in view or not).
    const pinned = await page.evaluate<{ head: number; box: number; scrolled: number }>(`(() => {
      const box = ${BOX};
      return { head: box.querySelector('thead th').getBoundingClientRect().top, box: box.getBoundingClientRect().top, scrolled: box.scrollTop };
    })()`);
    expect(pinned.scrolled).toBeGreaterThan(0);
    expect(Math.abs(pinned.head - pinned.box)).toBeLessThanOrEqual(2);

    for (const rows of [400, 600, 800, 1000]) {
      await page.evaluate(`${BOX}.scrollTop = ${BOX}.scrollHeight`);
      await expect(loaded).toHaveAttribute('data-rows', String(rows));
      await expect(loaded).not.toContainText('Loading');
    }
    await expect(loaded).toContainText(`1,000 of ${String(total).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} loaded`);
    await expect(card.locator('table')).toHaveAttribute('aria-rowcount', '1001');

    // A page arriving draws none of the rows in view again. (The jump's own drawing is done first: its scroll event comes with the next frame.)
    await page.evaluate(`(async () => { ${BOX}.scrollTop = ${BOX}.scrollHeight - ${BOX}.clientHeight - 2500; await ${FRAMES}; })()`);
    await expect(loaded).toHaveAttribute('data-rows', '1000');
    const arrival = await drawsDuring(page, `new Promise((done) => {
      const box = ${BOX};
      const line = box.closest('[data-testid=card-bet_table]').querySelector('[data-testid=card-bets-loaded]');
      new MutationObserver((_, o) => { if (line.dataset.rows === '1200') { o.disconnect(); done(); } }).observe(line, { attributes: true });
      line.querySelector('[data-testid=card-bets-more]').click();
    })`);
    expect(arrival).toBe(0);

    // The rows in the backend's own order, across the pages: the 1,000th row is the 1,000th bet.
    await page.evaluate(`${BOX}.scrollTop = 999 * 32 - 100`);
    const thousandth = bets[999]!;
    await expect(card.locator('tr[data-index="999"]')).toContainText(thousandth.playerName);
    await expect(card.locator('tr[data-index="999"]')).toContainText(thousandth.fixtureName);
  });
});
