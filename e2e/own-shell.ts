/**
 * A browser shell a spec serves itself, over a backend connection the spec controls (its own
 * book, a child process it kills), and a page signed in to it as the agent: what the alerts,
 * approvals and live-events specs share.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { createAgentRuntime } from '../src/main/assistant/create.js';
import type { BackendConnection } from '../src/main/backend/connection.js';
import { DeskAlerts, type DeskAlertsOptions } from '../src/main/desk/alerts.js';
import { DeskSessions } from '../src/main/desk/sessions.js';
import { type BrowserShell, startBrowserShell } from '../src/main/web/server.js';
import { silentLogger } from '../src/infra/log.js';
import { AGENT, RENDERER_DIR, expect } from './fixtures.js';

export interface OwnShell {
  sessions: DeskSessions;
  alerts: DeskAlerts;
  shell: BrowserShell;
}

/** The shell over `backend`, with a data folder of its own; `alerts` adds to the feed's options. */
export async function startOwnShell(backend: BackendConnection, alerts: Partial<DeskAlertsOptions> = {}): Promise<OwnShell> {
  const sessions = new DeskSessions();
  const feed = new DeskAlerts({ sessions, backend, log: silentLogger, ...alerts });
  const runtime = createAgentRuntime({ dataDir: mkdtempSync(join(tmpdir(), 'desk-own-shell-')), log: silentLogger });
  const shell = await startBrowserShell({ backend, sessions, alerts: feed, ...runtime, log: silentLogger, rendererDir: RENDERER_DIR });
  return { sessions, alerts: feed, shell };
}

/** A new browser context on the shell, signed in as the agent, with the bell showing nothing unread. */
export async function signedInPage(browser: Browser, shell: BrowserShell): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: shell.url });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Username').fill(AGENT.username);
  await page.getByLabel('Password').fill(AGENT.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('bell')).toHaveAttribute('data-unread', '0');
  return { context, page };
}
