import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../src/infra/log.js';
import { copyTestBook } from '../helpers/backend.js';
import { createAgentRuntime } from '../../src/main/assistant/create.js';
import { backendConfigFromEnv } from '../../src/main/backend/connection.js';
import { browserShellDataDirs, deskDataDirsFromEnv } from '../../src/main/data-dirs.js';
import type { DeskRouter } from '../../src/main/desk/router.js';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));

describe('where the desk keeps its data', () => {
  it('defaults to ./.data for the browser shell, its database in ./.data/desk', () => {
    expect(browserShellDataDirs({})).toEqual({
      dataDir: resolve('.data'),
      auditFile: resolve('.data', 'audit', 'audit.jsonl'),
      conversationsDir: resolve('.data', 'conversations'),
      pgliteDir: resolve('.data', 'desk'),
    });
    // Blank counts as unset.
    expect(browserShellDataDirs({ DESK_DATA_DIR: '  ', PGLITE_DIR: '' })).toEqual(browserShellDataDirs({}));
  });

  it('follows DESK_DATA_DIR and PGLITE_DIR, each on its own', () => {
    expect(browserShellDataDirs({ DESK_DATA_DIR: '/srv/desk' })).toMatchObject({
      dataDir: '/srv/desk', auditFile: '/srv/desk/audit/audit.jsonl', conversationsDir: '/srv/desk/conversations', pgliteDir: '/srv/desk/desk',
    });
    expect(browserShellDataDirs({ PGLITE_DIR: 'db' })).toMatchObject({ dataDir: resolve('.data'), pgliteDir: resolve('db') });
    expect(browserShellDataDirs({ DESK_DATA_DIR: 'd', PGLITE_DIR: '/var/pg' })).toMatchObject({ dataDir: resolve('d'), pgliteDir: '/var/pg' });
    expect(browserShellDataDirs({ PGLITE_DIR: 'memory://' }).pgliteDir).toBe('memory://');
    // The desktop app: the user-data folder, its database in pglite/ there.
    expect(deskDataDirsFromEnv({}, '/home/u/.config/agent-desk', 'pglite')).toMatchObject({ dataDir: '/home/u/.config/agent-desk', pgliteDir: '/home/u/.config/agent-desk/pglite' });
    expect(deskDataDirsFromEnv({ PGLITE_DIR: '/p' }, '/home/u/.config/agent-desk', 'pglite').pgliteDir).toBe('/p');
  });

  it('is where the runtime and the backend connection then write', () => {
    const dirs = browserShellDataDirs({ DESK_DATA_DIR: '/srv/desk', PGLITE_DIR: '/var/pg' });
    expect(createAgentRuntime({ dataDir: dirs.dataDir, log: silentLogger }).audit.file).toBe(dirs.auditFile);
    expect(backendConfigFromEnv({}, dirs.pgliteDir)).toMatchObject({ mode: 'embedded', dataDir: '/var/pg' });
    // BACKEND_URL: no embedded database at all.
    expect(backendConfigFromEnv({ BACKEND_URL: 'http://127.0.0.1:4100' }, dirs.pgliteDir)).toEqual({ mode: 'remote', url: 'http://127.0.0.1:4100' });
  });
});

describe('npm run web', () => {
  const children: ChildProcess[] = [];
  const folders: string[] = [];
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((done) => child.once('exit', done));
      }
    }
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('keeps its database in PGLITE_DIR and its conversations in DESK_DATA_DIR, nothing in ./.data', async () => {
    const root = mkdtempSync(join(tmpdir(), 'desk-web-dirs-'));
    folders.push(root);
    const cwd = join(root, 'cwd');
    const pgliteDir = join(root, 'pg');
    // The test book copied into PGLITE_DIR first, so that the shell starts without writing the demo book (~15 s).
    copyTestBook(pgliteDir);
    mkdirSync(cwd);

    // As `npm run web` runs it (tsx src/main/web/main.ts), from another working directory; DESK_DATA_DIR relative to it.
    const child = spawn(process.execPath, [join(repo, 'node_modules/tsx/dist/cli.mjs'), join(repo, 'src/main/web/main.ts')], {
      cwd,
      env: { ...process.env, WEB_PORT: '0', PGLITE_DIR: pgliteDir, DESK_DATA_DIR: 'desk-data', BACKEND_URL: '', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    const url = await new Promise<string>((done, fail) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Agent Desk \(browser shell\): (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) done(match[1]!);
      });
      child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
      child.once('exit', (code) => fail(new Error(`npm run web exited (${code}):\n${output}`)));
    });
    // The address comes first (the page is served before the runtime loads); the runtime says where it keeps things once loaded.
    const readyLine = () => output.split('\n').find((line) => line.includes('"browser shell ready"'));
    await expect.poll(readyLine, { timeout: 60_000 }).toBeDefined();
    expect(JSON.parse(readyLine()!)).toMatchObject({ backend: 'embedded', dataDir: join(cwd, 'desk-data'), pgliteDir });

    // A signed-in turn writes the conversation where DESK_DATA_DIR says.
    const page = await fetch(url);
    const ws = createWSClient({
      url: `${url.replace('http', 'ws')}/desk`,
      WebSocket: class extends WebSocket {
        constructor(target: string) { super(target, { headers: { cookie: page.headers.get('set-cookie')!.split(';')[0]!, origin: url } }); }
      } as unknown as typeof globalThis.WebSocket,
      retryDelayMs: () => 60_000,
    });
    try {
      const desk = createTRPCClient<DeskRouter>({ links: [wsLink({ client: ws })] });
      const user = await desk.session.login.mutate({ username: 'priya', password: 'demo-priya' });
      for await (const event of desk.chat.turn.subscribe({ kind: 'message', text: 'hello', page: { path: '/agent/dashboard', query: {} } })) {
        if (event.type === 'done') break;
      }
      await expect.poll(() => existsSync(join(cwd, 'desk-data', 'conversations', user.id))).toBe(true);
    } finally {
      ws.close();
    }
    expect(existsSync(join(pgliteDir, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(cwd)).toEqual(['desk-data']);

    child.kill('SIGTERM');
    expect(await new Promise((done) => child.once('exit', done))).toBe(0);
  }, 120_000);
});
