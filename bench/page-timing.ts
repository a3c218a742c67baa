import type { Locator, Page } from '@playwright/test';

/**
 * Clicks `button` and measures, on the page's own clock, from the click to the first frame drawn
 * with an element matching `selector` in the document.
 *
 * Not Playwright's own waiting: a locator's wait polls the page with growing pauses (up to
 * 500 ms between looks), which would be the measure's error on a figure whose target is 1 s. The
 * page watches its own mutations instead, and the time is taken at the animation frame after the
 * element arrives, the frame that draws it.
 */
export async function clickUntilDrawn(page: Page, button: Locator, selector: string, timeoutMs = 120_000): Promise<number> {
  const watching = page.evaluate<number>(`(${WATCH_IN_PAGE})(${JSON.stringify({ sel: selector, timeout: timeoutMs })})`);
  // `evaluate` starts its function before the next one runs; a turn of the page's loop makes sure.
  await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
  await button.click();
  return watching;
}

/* Source text: tsx would compile a function with helpers (`__name`) that exist only in Node. */
const WATCH_IN_PAGE = `({ sel, timeout }) => new Promise((resolve, reject) => {
  let clickedAt = null;
  document.addEventListener('click', () => { clickedAt ??= performance.now(); }, { capture: true });
  const observer = new MutationObserver(() => {
    if (clickedAt === null || !document.querySelector(sel)) return;
    observer.disconnect();
    const from = clickedAt;
    requestAnimationFrame(() => resolve(performance.now() - from));
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
  setTimeout(() => { observer.disconnect(); reject(new Error(sel + ' was not drawn within ' + timeout + ' ms of the click')); }, timeout);
})`;
