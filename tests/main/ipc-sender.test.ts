import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackendConnection, connectBackend } from '../../src/main/backend/connection.js';
import { type IpcSenderEvent, handleDeskIpc, slotForIpcSender } from '../../src/main/desk/ipc.js';
import { DeskSessions } from '../../src/main/desk/sessions.js';
import { APP_ORIGIN, isAllowedExternal, isAppUrl } from '../../src/main/electron/security.js';
import { silentLogger } from '../../src/server/log.js';
import { BOOK_NOW, TEST_BOOK } from '../helpers/backend.js';

/** A fake IpcMainInvokeEvent: only what the check reads. */
const event = (url: string | null, id = 7): IpcSenderEvent => ({ senderFrame: url === null ? null : { url }, sender: { id } });

describe('isAppUrl', () => {
  it('accepts the app:// origin only, and the dev server only on loopback and only when given', () => {
    expect(APP_ORIGIN).toBe('app://desk');
    expect(isAppUrl('app://desk/', undefined)).toBe(true);
    expect(isAppUrl('app://desk/agent/dashboard?x=1', undefined)).toBe(true);
    expect(isAppUrl('app://desk.evil/', undefined)).toBe(false);
    expect(isAppUrl('app://evil/', undefined)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', undefined)).toBe(false);
    expect(isAppUrl('https://evil.example/', undefined)).toBe(false);
    expect(isAppUrl('about:blank', undefined)).toBe(false);
    expect(isAppUrl('', undefined)).toBe(false);
    expect(isAppUrl(undefined, undefined)).toBe(false);
    expect(isAppUrl('not a url', undefined)).toBe(false);

    expect(isAppUrl('http://localhost:5173/agent/dashboard', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://127.0.0.1:5173/', 'http://127.0.0.1:5173/')).toBe(true);
    // Another port, host or scheme than the dev server's is not the app.
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
    expect(isAppUrl('http://localhost.evil.example:5173/', 'http://localhost:5173')).toBe(false);
    expect(isAppUrl('https://localhost:5173/', 'http://localhost:5173')).toBe(false);
    // A dev-server URL that is not loopback is never trusted, even for its own origin.
    expect(isAppUrl('http://dev.example:5173/', 'http://dev.example:5173')).toBe(false);
    // Without a dev server, the dev server's URL is not the app.
    expect(isAppUrl('http://localhost:5173/', undefined)).toBe(false);
  });
});

describe('isAllowedExternal', () => {
  it('allows https to the listed hosts only, without credentials', () => {
    expect(isAllowedExternal('https://docs.agentdesk.app/guide')).toBe(true);
    expect(isAllowedExternal('https://support.agentdesk.app/')).toBe(true);
    expect(isAllowedExternal('http://docs.agentdesk.app/')).toBe(false);
    expect(isAllowedExternal('https://docs.agentdesk.app.evil.example/')).toBe(false);
    expect(isAllowedExternal('https://evil.example/?docs.agentdesk.app')).toBe(false);
    expect(isAllowedExternal('https://user:pw@docs.agentdesk.app/')).toBe(false);
    expect(isAllowedExternal('https://docs.agentdesk.app@evil.example/')).toBe(false);
    expect(isAllowedExternal('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternal('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternal('smb://docs.agentdesk.app/share')).toBe(false);
    expect(isAllowedExternal('not a url')).toBe(false);
  });
});

describe('slotForIpcSender', () => {
  const own = (url: string | undefined) => isAppUrl(url, undefined);
  const ownWithDev = (url: string | undefined) => isAppUrl(url, 'http://localhost:5173');

  it('names the window\'s slot for a frame of the app', () => {
    expect(slotForIpcSender(event('app://desk/'), own)).toBe('window-7');
    expect(slotForIpcSender(event('app://desk/agent/dashboard', 12), own)).toBe('window-12');
    expect(slotForIpcSender(event('http://localhost:5173/', 3), ownWithDev)).toBe('window-3');
  });

  it('refuses any other sender', () => {
    expect(slotForIpcSender(event('https://evil.example/'), own)).toBeNull();
    expect(slotForIpcSender(event(null), own)).toBeNull();
    expect(slotForIpcSender(event(''), own)).toBeNull();
    expect(slotForIpcSender(event('file:///tmp/x.html'), own)).toBeNull();
    // A dev-server lookalike: the same port on another host, or the dev URL when not in dev.
    expect(slotForIpcSender(event('http://evil.example:5173/'), ownWithDev)).toBeNull();
    expect(slotForIpcSender(event('http://localhost:5173/'), own)).toBeNull();
    expect(slotForIpcSender(event('http://127.0.0.1:5173/'), ownWithDev)).toBeNull();
  });
});

describe('handleDeskIpc', () => {
  let backend: BackendConnection;
  const sessions = new DeskSessions();
  const deps = () => ({ backend, sessions, log: silentLogger });

  beforeAll(async () => {
    backend = await connectBackend({ mode: 'embedded', dataDir: 'memory://', book: TEST_BOOK, now: () => new Date(BOOK_NOW) }, silentLogger);
  });
  afterAll(async () => {
    await backend?.close();
  });

  const isOwn = (url: string | undefined) => isAppUrl(url, undefined);
  const frame = (url: string | null, id: number) => event(url, id);

  const valid = (path: string, extra: Partial<{ method: string; body: string | null }> = {}) => ({
    url: `desk://trpc/${path}`, method: 'GET', headers: {}, body: null, ...extra,
  });

  it('refuses malformed payloads with 400, unread', async () => {
    const malformed: unknown[] = [
      null, undefined, 'desk://trpc/session.me', 42, [],
      {},
      { ...valid('session.me'), url: 'https://evil.example/trpc/session.me' },
      { ...valid('session.me'), url: 'desk://other/session.me' },
      { ...valid('session.me'), method: 'DELETE' },
      { ...valid('session.me'), headers: { a: 1 } },
      { ...valid('session.me'), body: 5 },
      { ...valid('session.me'), extra: true },
      { url: 'desk://trpc/session.me', method: 'GET', headers: {} },
      { ...valid('session.me'), url: `desk://trpc/${'a'.repeat(9000)}` },
      { ...valid('session.login', { method: 'POST' }), body: 'x'.repeat(256 * 1024 + 1) },
    ];
    for (const raw of malformed) {
      const res = await handleDeskIpc(raw, frame('app://desk/', 1), isOwn, deps());
      expect(res.status, JSON.stringify(raw)?.slice(0, 80)).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: 'malformed desk request' });
    }
  });

  it('answers session.me for a valid request, per slot', async () => {
    const me = await handleDeskIpc(valid('session.me'), frame('app://desk/', 1), isOwn, deps());
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body)).toEqual({ result: { data: null } });

    const login = await handleDeskIpc({ ...valid('session.login', { method: 'POST', body: JSON.stringify({ username: 'priya', password: 'demo-priya' }) }), headers: { 'content-type': 'application/json' } }, frame('app://desk/', 1), isOwn, deps());
    expect(login.status).toBe(200);
    expect(login.body).not.toMatch(/token/i);

    const after = JSON.parse((await handleDeskIpc(valid('session.me'), frame('app://desk/', 1), isOwn, deps())).body) as { result: { data: { username: string } | null } };
    expect(after.result.data).toMatchObject({ username: 'priya', role: 'agent' });
    // Another window's slot is another session.
    expect(JSON.parse((await handleDeskIpc(valid('session.me'), frame('app://desk/', 2), isOwn, deps())).body)).toEqual({ result: { data: null } });
    // A panel call without a session is UNAUTHORIZED, with the tRPC status.
    expect((await handleDeskIpc(valid('panel.dashboard'), frame('app://desk/', 2), isOwn, deps())).status).toBe(401);
  });

  it('refuses, in createContext, a call from a frame that is not the app window, before any procedure runs', async () => {
    for (const sender of [frame('https://evil.example/', 3), frame(null, 3), frame('http://localhost:5173/', 3), frame('file:///etc/passwd', 3)]) {
      const res = await handleDeskIpc({ ...valid('session.login', { method: 'POST', body: JSON.stringify({ username: 'priya', password: 'demo-priya' }) }), headers: { 'content-type': 'application/json' } }, sender, isOwn, deps());
      expect(res.status).toBe(403);
      expect(res.body).toMatch(/not the app window/);
    }
    // Nothing was signed in for that window.
    expect(sessions.get('window-3')).toBeNull();
  });
});
