/**
 * The fixtures every spec uses, so one spec set runs on both targets:
 * - `desk`: the app under test for this worker: a backend on a small deterministic book with a
 *   fixed clock, and (browser shell) the shell serving out/renderer on 127.0.0.1, port 0.
 * - `page`: the browser page at the shell, or the Electron app's first window.
 * - `app`: what a spec may do besides driving the page: open the app, read the backend directly,
 *   end the session behind the UI's back, record outside requests, save screenshots.
 * - `model`: the worker's fake Anthropic Messages API (tests/fakes/messages-api.ts), which the
 *   desk's Claude planner calls once a key is saved in Settings. Every test starts with no key
 *   stored, default Claude settings, no usage, an empty script and no recorded requests.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { type Browser, type ElectronApplication, test as base, _electron } from '@playwright/test';
import type { ClaudeBrain } from '../src/main/assistant/claude/brain.js';
import { createAgentRuntime } from '../src/main/assistant/create.js';
import { type BackendConnection, connectBackend } from '../src/main/backend/connection.js';
import { DeskSessions } from '../src/main/desk/sessions.js';
import { browserShellStores } from '../src/main/secrets/secret-store.js';
import { slotFromCookie } from '../src/main/desk/senders.js';
import { type BrowserShell, startBrowserShell } from '../src/main/web/server.js';
import { openBackend } from '../src/server/backend.js';
import { createBackendHandler } from '../src/server/http.js';
import { silentLogger } from '../src/infra/log.js';
import { type FakeMessagesApi, type RecordedRequest, type ScriptedReply, startFakeMessagesApi, textReply } from '../tests/fakes/messages-api.js';

export interface TargetOptions {
  target: 'browser-shell' | 'electron';
}

/** The book's own moment; "today" on the dashboard is this day in the agent's timezone. */
export const BOOK_NOW = new Date('2026-11-20T12:00:00+05:30');
// 12,000 bets: the platform admin's bet list holds more than the 10,000 rows the scroll spec needs.
export const E2E_BOOK = { seed: 'e2e-book', players: 40, bets: 12_000, days: 90 };
export const RENDERER_DIR = resolve('out/renderer');
export const MAIN_ENTRY = resolve('out/main/index.js');

export const AGENT = { username: 'priya', password: 'demo-priya' };

interface DeskServer {
  backend: BackendConnection;
  /** Browser shell: its URL and the sessions main holds (in this process). */
  shell: BrowserShell | null;
  sessions: DeskSessions | null;
  /** Electron: the backend's HTTP address the app is pointed at, and the last token the app sent. */
  backendUrl: string | null;
  lastBearer: { token: string | null };
  /** Tokens of the specs' own backend clients, which are not the app's. */
  ownTokens: Set<string>;
  /** Browser shell: the Claude planner of the runtime in this process, and the data folder it keeps its settings and usage in. */
  claude: { brain: ClaudeBrain; dataDir: string } | null;
  close(): Promise<void>;
}

/** How long a model call may go silent in the e2e runs: a broken stream fails in seconds, not the default 20. */
const MODEL_IDLE_TIMEOUT_MS = 2_000;

/** The worker's fake Messages API as a spec drives it. */
export interface ScriptedModel {
  /** What ANTHROPIC_BASE_URL points the desk at. */
  url: string;
  /** Requests of this test, in order (messages, models, refused ones). */
  readonly requests: readonly RecordedRequest[];
  /** How many /v1/messages requests this test has made: the model calls. */
  messageCalls(): number;
  /** Queues replies for the next /v1/messages calls, FIFO; an unscripted call gets "(no scripted reply)". */
  script(...replies: ScriptedReply[]): void;
}

interface WorkerModel {
  fake: FakeMessagesApi;
  model: ScriptedModel;
  /** Forgets this test's script and requests. */
  reset(): void;
}

/**
 * The fake's own queue cannot be emptied from outside, so replies are queued here and handed out
 * by its responder: a test that scripted more than it used leaves nothing for the next one.
 */
async function startWorkerModel(): Promise<WorkerModel> {
  const fake = await startFakeMessagesApi();
  const queue: ScriptedReply[] = [];
  fake.respond(() => queue.shift() ?? textReply('(no scripted reply)'));
  return {
    fake,
    model: {
      url: fake.url,
      get requests() { return fake.requests; },
      messageCalls: () => fake.requests.filter((r) => r.path === '/v1/messages').length,
      script: (...replies) => void queue.push(...replies),
    },
    reset() {
      queue.length = 0;
      fake.requests.length = 0;
    },
  };
}

/**
 * Where Electron's binary is, or why it is not there (the electron project is then skipped).
 * Read the way the electron package does, without `require('electron')`: that would try to
 * download the binary on the spot.
 */
export function electronBinary(): { path: string } | { missing: string } {
  if (process.env.ELECTRON_PATH) {
    return existsSync(process.env.ELECTRON_PATH) ? { path: process.env.ELECTRON_PATH } : { missing: `ELECTRON_PATH=${process.env.ELECTRON_PATH} does not exist` };
  }
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { missing: `${pathFile} is absent (installed with ELECTRON_SKIP_BINARY_DOWNLOAD?)` };
  const relative = readFileSync(pathFile, 'utf8').trim();
  const binary = process.env.ELECTRON_OVERRIDE_DIST_PATH ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, relative) : join(packageDir, 'dist', relative);
  return existsSync(binary) ? { path: binary } : { missing: `no binary at ${binary}` };
}

const inspectChecks = new Map<string, Promise<string | null>>();

/**
 * Why Playwright cannot drive this binary, or null. `_electron.launch` connects through
 * `--inspect`, which a packaged production build has fused off (scripts/after-pack.mjs): without
 * this check such a build only times out. The stock binary in node_modules has no fuse flipped.
 */
function inspectFusedOff(path: string): Promise<string | null> {
  let check = inspectChecks.get(path);
  if (!check) {
    check = getCurrentFuseWire(path).then(
      (wire) => wire[FuseV1Options.EnableNodeCliInspectArguments] === FuseState.DISABLE
        ? `${path} is a production-flavour build (the EnableNodeCliInspectArguments fuse is off), which Playwright cannot connect to: package the test flavour with \`AGENT_DESK_FUSES=test npm run dist\` (docs/packaging.md)`
        : null,
      (error: Error) => {
        // No fuse wire at all (an Electron before v12): nothing is fused off.
        if (/Could not find sentinel/.test(error.message)) return null;
        throw error;
      },
    );
    inspectChecks.set(path, check);
  }
  return check;
}

async function startDesk(target: TargetOptions['target'], modelUrl: string): Promise<DeskServer> {
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('out/renderer is not built: run `npm run test:e2e` (electron-vite build, then playwright test)');
  }
  const lastBearer: { token: string | null } = { token: null };
  const ownTokens = new Set<string>();
  if (target === 'browser-shell') {
    const backend = await connectBackend({ mode: 'embedded', dataDir: 'memory://', book: E2E_BOOK, now: () => new Date(BOOK_NOW) }, silentLogger);
    const sessions = new DeskSessions();
    // Conversations are kept in a folder of this worker's own, as the app keeps them in its data folder.
    const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-'));
    // As `npm run web` on a machine with no keychain: a key saved in Settings lives in this run's
    // memory. The env is built here, never process.env: a developer's own ANTHROPIC_API_KEY must
    // neither answer for the specs nor be sent to the fake.
    const runtime = createAgentRuntime({
      dataDir, log: silentLogger, secrets: browserShellStores(null, {}), env: { ANTHROPIC_BASE_URL: modelUrl }, modelIdleTimeoutMs: MODEL_IDLE_TIMEOUT_MS,
      clock: backend.clock,
    });
    const shell = await startBrowserShell({ backend, sessions, ...runtime, log: silentLogger, rendererDir: RENDERER_DIR });
    return {
      backend, shell, sessions, backendUrl: null, lastBearer, ownTokens, claude: { brain: runtime.models, dataDir },
      close: async () => { await shell.close(); await backend.close(); },
    };
  }
  // Electron holds its sessions in its own main process; it is pointed at a backend served from
  // here (BACKEND_URL) so the specs can read the same book and see the token main sends.
  const embedded = await openBackend({ database: { engine: 'pglite' }, seedDemoIfEmpty: true, book: E2E_BOOK, now: () => new Date(BOOK_NOW) });
  const handler = createBackendHandler(embedded.deps, silentLogger);
  const server = http.createServer((req, res) => {
    const auth = req.headers.authorization;
    const token = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7).trim() : null;
    if (token && !ownTokens.has(token)) lastBearer.token = token;
    handler(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const backendUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const backend = await connectBackend({ mode: 'remote', url: backendUrl }, silentLogger);
  return {
    backend, shell: null, sessions: null, backendUrl, lastBearer, ownTokens, claude: null,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await embedded.database.close();
    },
  };
}

export interface AppUnderTest {
  target: TargetOptions['target'];
  /** The app's start page (browser shell: its URL; Electron: the window is already there). */
  open(): Promise<void>;
  /** Signs in through the login form. */
  signIn(username?: string, password?: string): Promise<void>;
  /** A backend client signed in as `username`, independent of the UI. */
  direct(username?: string, password?: string): Promise<ReturnType<BackendConnection['client']>>;
  /** Ends the UI's backend session at the backend, as an expiry or a sign-out elsewhere would. */
  endSessionBehindTheUi(): Promise<void>;
  /** Requests to anything but loopback or the app's own scheme (they are aborted). */
  outsideRequests: string[];
  /** Saves test-results/screenshots/<target>-<name>.png. */
  screenshot(name: string): Promise<void>;
  shellUrl: string | null;
  electronApp: ElectronApplication | null;
}

const SCREENSHOTS = resolve('test-results/screenshots');

function isOutside(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === 'app:' || u.protocol === 'data:' || u.protocol === 'devtools:' || u.protocol === 'about:') return false;
    return !(u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]');
  } catch {
    return true;
  }
}

export const test = base.extend<
  { app: AppUnderTest; electronApp: ElectronApplication | null; model: ScriptedModel },
  TargetOptions & { desk: DeskServer; shellBrowser: Browser | null; workerModel: WorkerModel }
>({
  target: ['browser-shell', { option: true, scope: 'worker' }],

  // In this process for both targets: cheap, and the Electron app is pointed at it too.
  // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none.
  // eslint-disable-next-line no-empty-pattern
  workerModel: [async ({}, use) => {
    const model = await startWorkerModel();
    await use(model);
    await model.fake.close();
  }, { scope: 'worker' }],

  desk: [async ({ target, workerModel }, use) => {
    const binary = electronBinary();
    if (target === 'electron' && 'missing' in binary) {
      // Nothing to serve: every test of this worker skips itself (see `electronApp`); say why once.
      process.stdout.write(`[electron] every test skipped: Electron binary not installed: ${binary.missing}\n`);
      await use({ backend: null as never, shell: null, sessions: null, backendUrl: null, lastBearer: { token: null }, ownTokens: new Set(), claude: null, close: async () => {} });
      return;
    }
    const desk = await startDesk(target, workerModel.fake.url);
    await use(desk);
    await desk.close();
  }, { scope: 'worker', timeout: 120_000 }],

  // Chromium is launched only for the browser shell (the electron project never needs it).
  shellBrowser: [async ({ target, playwright, launchOptions }, use) => {
    if (target !== 'browser-shell') {
      await use(null);
      return;
    }
    const browser = await playwright.chromium.launch(launchOptions);
    await use(browser);
    await browser.close();
  }, { scope: 'worker', timeout: 60_000 }],

  electronApp: async ({ target, desk, workerModel }, use) => {
    if (target !== 'electron') {
      await use(null);
      return;
    }
    const binary = electronBinary();
    if ('missing' in binary) {
      test.skip(true, `Electron binary not installed: ${binary.missing}`);
      return;
    }
    if (!existsSync(MAIN_ENTRY)) throw new Error('out/main is not built: run `npm run test:e2e`');
    const fusedOff = await inspectFusedOff(binary.path);
    if (fusedOff) throw new Error(fusedOff);
    // The built app, on app://desk (no dev server), against the backend served by this worker.
    const env: Record<string, string> = {};
    // No ANTHROPIC_API_KEY of the developer's: with it the app would send unsure turns to a model.
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'ELECTRON_RENDERER_URL' && key !== 'ANTHROPIC_API_KEY') env[key] = value;
    // Chromium's OS sandbox cannot start as root (containers, CI): only then is it turned off.
    const args = [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), MAIN_ENTRY];
    // A data folder of its own per launch: the audit log and conversations of an earlier run (or
    // of the person's own app in the user-data folder) would otherwise meet this worker's backend.
    const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-electron-'));
    // ANTHROPIC_BASE_URL: should a key reach the app after all, its model calls stay on this machine.
    const electronApp = await _electron.launch({
      executablePath: binary.path, args, env: { ...env, BACKEND_URL: desk.backendUrl!, DESK_DATA_DIR: dataDir, ANTHROPIC_BASE_URL: workerModel.fake.url },
    });
    await use(electronApp);
    await electronApp.close();
  },

  // Automatic, not only for the specs that ask for it: a key saved by one test would otherwise send
  // the next test's unsure turns (any spec's) to the model.
  model: [async ({ desk, workerModel }, use) => {
    const fresh = async () => {
      workerModel.reset();
      if (!desk.claude) return;
      await desk.claude.brain.deleteApiKey('UTC');
      // Settings (budgets, models) and today's usage: the brain reads both from these files on every use.
      await rm(join(desk.claude.dataDir, 'claude'), { recursive: true, force: true });
    };
    await fresh();
    await use(workerModel.model);
    await fresh();
  }, { auto: true }],

  page: async ({ target, desk, shellBrowser, electronApp }, use) => {
    if (target === 'browser-shell') {
      const context = await shellBrowser!.newContext({ baseURL: desk.shell!.url });
      const page = await context.newPage();
      await use(page);
      await context.close();
      return;
    }
    const window = await electronApp!.firstWindow();
    await window.waitForLoadState('domcontentloaded');
    await use(window);
  },

  app: async ({ target, desk, page, electronApp }, use, testInfo) => {
    const outsideRequests: string[] = [];
    // Nothing may leave the machine: outside requests are recorded and aborted.
    await page.context().route(() => true, async (route) => {
      const url = route.request().url();
      if (isOutside(url)) {
        outsideRequests.push(url);
        await route.abort('blockedbyclient');
      } else {
        await route.fallback();
      }
    });
    const app: AppUnderTest = {
      target,
      outsideRequests,
      shellUrl: desk.shell?.url ?? null,
      electronApp,
      async open() {
        if (target === 'browser-shell') await page.goto('/');
        await page.locator('main').first().waitFor();
      },
      async signIn(username = AGENT.username, password = AGENT.password) {
        await page.getByLabel('Username').fill(username);
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Sign in' }).click();
      },
      async direct(username = AGENT.username, password = AGENT.password) {
        const { token } = await desk.backend.client(null).auth.login.mutate({ username, password });
        desk.ownTokens.add(token);
        return desk.backend.client(token);
      },
      async endSessionBehindTheUi() {
        let token: string | null;
        if (target === 'browser-shell') {
          const cookies = await page.context().cookies(desk.shell!.url);
          const slot = slotFromCookie(cookies.map((c) => `${c.name}=${c.value}`).join('; '));
          token = slot ? desk.sessions!.get(slot)?.token ?? null : null;
        } else {
          token = desk.lastBearer.token;
        }
        if (!token) throw new Error('the UI holds no backend session');
        await desk.backend.client(token).auth.logout.mutate();
      },
      async screenshot(name) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        const path = resolve(SCREENSHOTS, `${target}-${name}.png`);
        await page.screenshot({ path, fullPage: true });
        await testInfo.attach(name, { path, contentType: 'image/png' });
      },
    };
    await use(app);
  },
});

export { expect } from '@playwright/test';
