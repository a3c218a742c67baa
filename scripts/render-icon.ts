/**
 * `npx tsx scripts/render-icon.ts`: renders resources/icon.svg to resources/icon.png (512×512,
 * transparent corners) in Chromium, the one SVG renderer the project already has (Playwright's,
 * at CHROMIUM_PATH or /usr/bin/chromium, as playwright.config.ts). Run it after editing the SVG and
 * commit both: the window (src/main/index.ts) and electron-builder (electron-builder.yml,
 * buildResources) read the PNG.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { chromium } from '@playwright/test';

const SIZE = 512;
const svgPath = new URL('../resources/icon.svg', import.meta.url);
const pngPath = new URL('../resources/icon.png', import.meta.url);

const svg = await readFile(svgPath, 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  const png = await page.locator('svg').screenshot({ omitBackground: true });
  await writeFile(pngPath, png);
  process.stdout.write(`render-icon: ${SIZE}×${SIZE} → ${pngPath.pathname} (${png.length} bytes)\n`);
} finally {
  await browser.close();
}
