import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../../src/infra/log.js';
import type { ChatService } from '../../../src/main/assistant/chat-service.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type BackendConnection, embeddedConnection, openingConnection } from '../../../src/main/backend/connection.js';
import type { DeskRouter, DeskServices } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { type BrowserShell, serveBrowserShell } from '../../../src/main/web/server.js';
import { SLOT_CLAIM_HEADER, SLOT_CLAIM_PATH } from '../../../src/shared/contracts/slot-claim.js';
import type { StartupState } from '../../../src/shared/contracts/startup.js';
import { DEMO_PASSWORDS, openTestBookBackend } from '../../helpers/backend.js';
import { keylessModels } from '../../helpers/model-settings.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The shell as `npm start` serves it: the page at once, the runtime (`load`) later. */
async function earlyShell(startup: () => StartupState) {
  const sessions = new DeskSessions();
  let load!: (services: DeskServices) => void;
  const services = new Promise<DeskServices>((resolve) => { load = resolve; });
  const shell: BrowserShell = await serveBrowserShell({ sessions, log: silentLogger, services, rendererDir: '/nonexistent-renderer', startup });
  cleanups.push(() => shell.close());
  const runtime = (backend: BackendConnection): DeskServices => ({
    sessions, backend, log: silentLogger, chat: {} as ChatService, models: keylessModels(),
    audit: new AuditLog(join(mkdtempSync(join(tmpdir(), 'desk-early-')), 'audit.jsonl')),
  });
  const connectWithCookie = async () => {
    const cookie = (await fetch(shell.url)).headers.get('set-cookie')!.split(';')[0]!;
    const ws = createWSClient({
      url: `${shell.url.replace('http', 'ws')}/desk`,
      WebSocket: class extends WebSocket { constructor(url: string) { super(url, { headers: { cookie, origin: shell.url } }); } } as unknown as typeof globalThis.WebSocket,
      retryDelayMs: () => 60_000,
    });
    cleanups.push(() => ws.close());
    return { desk: createTRPCClient<DeskRouter>({ links: [wsLink({ client: ws })] }), cookie };
  };
  const connect = async () => (await connectWithCookie()).desk;
  return { shell, load: (backend: BackendConnection) => load(runtime(backend)), connect, connectWithCookie };
}

const settled = <T>(promise: Promise<T>) => {
  const state = { done: false };
  promise.then(() => { state.done = true; }, () => { state.done = true; });
  return state;
};

describe('the browser shell before its runtime has loaded', () => {
  it('serves the page and says how far the backend has got; desk calls wait for the runtime, then run', async () => {
    let state: StartupState = { phase: 'creating', stage: 'writing', percent: 57 };
    const { shell, load, connect } = await earlyShell(() => state);
    expect((await fetch(shell.url)).headers.get('set-cookie')).toMatch(/^desk_slot=/);
    const startup = await fetch(`${shell.url}/startup`);
    expect(startup.headers.get('cache-control')).toBe('no-store');
    expect(await startup.json()).toEqual({ phase: 'creating', stage: 'writing', percent: 57, signedIn: false });

    const desk = await connect();
    const me = desk.session.me.query();
    const answered = settled(me);
    await delay(300);
    expect(answered.done).toBe(false);
    load(embeddedConnection(await openTestBookBackend(), silentLogger));
    await expect(me).resolves.toBeNull();

    state = { phase: 'ready' };
    expect(await (await fetch(`${shell.url}/startup`)).json()).toEqual({ phase: 'ready', signedIn: false });
  }, 60_000);

  it('a sign-in sent while the book is still opening waits for it, then succeeds', async () => {
    const { shell, load, connectWithCookie } = await earlyShell(() => ({ phase: 'opening' }));
    let open!: (connection: BackendConnection) => void;
    const opening = new Promise<BackendConnection>((resolve) => { open = resolve; });
    const backend = openingConnection({ mode: 'embedded', dataDir: 'unused' }, opening);
    load(backend);
    cleanups.push(() => backend.close());

    const { desk, cookie } = await connectWithCookie();
    const startup = async () => (await fetch(`${shell.url}/startup`, { headers: { cookie } })).json() as Promise<unknown>;
    // Said before the desk itself could answer: the login page need not wait for the runtime.
    expect(await startup()).toEqual({ phase: 'opening', signedIn: false });
    const login = desk.session.login.mutate({ username: 'priya', password: DEMO_PASSWORDS.priya! });
    const answered = settled(login);
    await delay(300);
    expect(answered.done).toBe(false);
    open(embeddedConnection(await openTestBookBackend(), silentLogger));
    await expect(login).resolves.toMatchObject({ username: 'priya' });
    await expect(desk.session.me.query()).resolves.toMatchObject({ username: 'priya' });
    // The sign-in moved to a new slot, whose cookie the page trades a claim for; the old cookie is signed out.
    expect(await startup()).toEqual({ phase: 'opening', signedIn: false });
    const claim = (await desk.session.cookieClaim.mutate())!;
    const traded = await fetch(`${shell.url}${SLOT_CLAIM_PATH}`, { method: 'POST', headers: { origin: shell.url, [SLOT_CLAIM_HEADER]: claim } });
    const signedIn = traded.headers.get('set-cookie')!.split(';')[0]!;
    expect(await (await fetch(`${shell.url}/startup`, { headers: { cookie: signedIn } })).json()).toEqual({ phase: 'opening', signedIn: true });
  }, 60_000);
});
