import { defineConfig } from '@playwright/test';

/**
 * End-to-end: one spec set, two targets. `browser-shell` always runs (the desk over WebSocket on
 * loopback, in Debian's Chromium); `electron` runs the built app where Electron's binary exists
 * and is skipped with the reason where it does not. `npm run test:e2e` builds first.
 */
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig<{ target: 'browser-shell' | 'electron' }>({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'browser-shell', use: { target: 'browser-shell', browserName: 'chromium' } },
    { name: 'electron', use: { target: 'electron' } },
  ],
});
