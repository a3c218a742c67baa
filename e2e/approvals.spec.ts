import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { BrowserContext } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { type BackendConnection, embeddedConnection } from '../src/main/backend/connection.js';
import type { DeskAlerts } from '../src/main/desk/alerts.js';
import { mcpChangeResult } from '../src/main/mcp/server.js';
import type { BrowserShell } from '../src/main/web/server.js';
import { type Backend, openBackend } from '../src/server/backend.js';
import { queryRows } from '../src/server/db/client.js';
import { type BackendServer, startBackendServer } from '../src/server/http.js';
import { silentLogger } from '../src/infra/log.js';
import { AGENT, BOOK_NOW, expect, test } from './fixtures.js';
import { signedInPage, startOwnShell } from './own-shell.js';

/**
 * A change asked for over MCP, end to end: an MCP client (`npm run mcp` over stdio,
 * on the same book as the desk) asks for a limit change; the desk shows "a change waits for your
 * confirmation"; its toast opens the Approvals page with the preview; Confirm makes the change
 * once, and a declined one changes nothing.
 */
test.describe('approvals from an MCP client', () => {
  test.skip(({ target }) => target !== 'browser-shell', 'the page-side toast is the browser shell\'s; Electron notifies from main');
  test.describe.configure({ timeout: 90_000 });

  let raw: Backend | null = null;
  let server: BackendServer | null = null;
  let connection: BackendConnection | null = null;
  let alerts: DeskAlerts | null = null;
  let shell: BrowserShell | null = null;
  let context: BrowserContext | null = null;
  let mcp: Client | null = null;

  test.afterEach(async () => {
    await mcp?.close();
    await context?.close();
    alerts?.close();
    await shell?.close();
    await server?.close();
    await connection?.close();
  });

  test('the toast opens the approval; confirm changes the limit once, decline changes nothing', async ({ shellBrowser }) => {
    raw = await openBackend({ database: { engine: 'pglite' }, seedDemoIfEmpty: true, book: { seed: 'approvals-e2e', players: 8, bets: 200, days: 10 }, now: () => new Date(BOOK_NOW) });
    server = await startBackendServer(raw.deps, silentLogger, { port: 0 });
    connection = embeddedConnection(raw, silentLogger);
    ({ alerts, shell } = await startOwnShell(connection));
    const players = await queryRows<{ name: string; cl: string | number }>(raw.deps.db, sql`
      select p.display_name as name, p.credit_limit as cl from accounts p join accounts a on a.id = p.parent_id
      where a.username = ${AGENT.username} and p.role = 'player' order by p.username limit 2`);
    const creditLimit = async (name: string) => Number((await queryRows<{ cl: string | number }>(raw!.deps.db, sql`select credit_limit as cl from accounts where display_name = ${name}`))[0]!.cl);

    const signedIn = await signedInPage(shellBrowser!, shell);
    context = signedIn.context;
    const page = signedIn.page;

    mcp = new Client({ name: 'e2e-assistant', version: '1.0.0' });
    await mcp.connect(new StdioClientTransport({
      command: process.execPath,
      args: [resolve('node_modules/tsx/dist/cli.mjs'), 'src/main/mcp/main.ts'],
      env: {
        PATH: process.env.PATH ?? '', BACKEND_URL: server.url, AGENT_DESK_USER: AGENT.username, AGENT_DESK_PASSWORD: AGENT.password,
        DESK_DATA_DIR: mkdtempSync(join(tmpdir(), 'mcp-approvals-e2e-')), LOG_LEVEL: 'warn',
      },
      stderr: 'pipe',
    }));
    const [first, second] = players as [{ name: string; cl: number }, { name: string; cl: number }];
    const raised = Number(first.cl) + 1_000_000;
    const asked = mcpChangeResult.parse((await mcp.callTool({ name: 'agent_editLimit', arguments: { player: first.name, limitType: 'creditLimit', newValue: raised } })).structuredContent);
    expect(asked.status).toBe('pending_approval');
    expect(await creditLimit(first.name)).toBe(Number(first.cl));

    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('A change waits for your confirmation');
    await expect(toast).toContainText(`${first.name}'s credit limit`);
    await toast.getByRole('button', { name: /A change waits/ }).click();
    // The notification opens the approval it is about.
    await expect(page).toHaveURL(new RegExp(`/agent/approvals\\?id=${asked.approvalId}$`));

    const item = page.getByTestId('approval');
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute('data-focused', 'true');
    await expect(item).toBeFocused();
    await expect(item.getByTestId('approval-summary')).toContainText(first.name);
    await expect(item).toContainText('Asked by e2e-assistant 1.0.0');
    await expect(item.getByTestId('diff-player')).toHaveText(first.name);
    await item.getByTestId('approval-confirm').click();
    await expect(page.getByTestId('approval-answer').first()).toHaveAttribute('data-state', 'confirmed');
    await expect(page.getByTestId('approvals-empty')).toBeVisible();
    expect(await creditLimit(first.name)).toBe(raised);

    const declined = mcpChangeResult.parse((await mcp.callTool({ name: 'agent_editLimit', arguments: { player: second.name, limitType: 'creditLimit', newValue: Number(second.cl) + 500_000 } })).structuredContent);
    expect(declined.status).toBe('pending_approval');
    await expect(item).toHaveCount(1, { timeout: 10_000 });
    await expect(item.getByTestId('approval-step-up')).toHaveCount(0);
    await item.getByTestId('approval-decline-reason').fill('not before he pays');
    await item.getByTestId('approval-reject').click();
    await expect(page.getByTestId('approval-answer').first()).toHaveAttribute('data-state', 'cancelled');
    await expect(page.getByTestId('approvals-empty')).toBeVisible();
    expect(await creditLimit(second.name)).toBe(Number(second.cl));

    // A large change (a limit over 100,000 points): the card says the password is needed before
    // any click; a wrong one changes nothing and leaves it waiting; the right one makes it.
    const large = 25_000_000;
    const big = mcpChangeResult.parse((await mcp.callTool({ name: 'agent_editLimit', arguments: { player: second.name, limitType: 'creditLimit', newValue: large } })).structuredContent);
    expect(big.status).toBe('pending_approval');
    await expect(item).toHaveCount(1, { timeout: 10_000 });
    await expect(item.getByTestId('approval-step-up')).toContainText('your password is needed');
    await expect(item.getByTestId('approval-confirm')).toBeDisabled();
    await item.getByLabel('Your password').fill('not-the-password');
    await item.getByTestId('approval-confirm').click();
    await expect(item.getByRole('alert')).toContainText('not right');
    expect(await creditLimit(second.name)).toBe(Number(second.cl));
    await item.getByLabel('Your password').fill(AGENT.password);
    await item.getByTestId('approval-confirm').click();
    await expect(page.getByTestId('approval-answer').first()).toHaveAttribute('data-state', 'confirmed');
    expect(await creditLimit(second.name)).toBe(large);
  });
});
