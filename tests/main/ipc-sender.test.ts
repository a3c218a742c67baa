import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/main/audit/audit-log.js';
import { type BackendConnection, embeddedConnection } from '../../src/main/backend/connection.js';
import type { ChatService } from '../../src/main/agent/chat-service.js';
import {
  type IpcSenderEvent, MAX_SUBSCRIPTION_INPUT, handleDeskIpc, handleDeskSubscription, handleDeskUnsubscribe, slotForIpcSender, stopDeskSubscriptions,
} from '../../src/main/desk/ipc.js';
import { DeskSessions } from '../../src/main/desk/sessions.js';
import { APP_ORIGIN, isAllowedExternal, isAppUrl } from '../../src/main/electron/security.js';
import type { ChatMessage, TurnEvent } from '../../src/shared/contracts/chat.js';
import type { DeskStreamMessage } from '../../src/shared/contracts/desk-bridge.js';
import { silentLogger } from '../../src/server/log.js';
import { openTestBookBackend } from '../helpers/backend.js';

/** A fake IpcMainInvokeEvent: only what the check reads. */
const event = (url: string | null, id = 7): IpcSenderEvent => ({ senderFrame: url === null ? null : { url }, sender: { id } });

/**
 * A ChatService test double (the assistant is not under test here): a turn streams start, text and
 * done, greeting the caller by name. The text "wait" makes it stop after the first text and wait
 * for its signal, as a turn waiting on a model would.
 */
function fakeChat() {
  const state = { turns: 0, aborted: 0, finished: 0, signals: [] as Array<AbortSignal | undefined> };
  const message = (role: ChatMessage['role'], text: string): ChatMessage => ({
    id: `${role}-1`, role, at: '2026-11-20T06:30:00.000Z', text, cards: [], requestId: 'req-1',
    ...(role === 'assistant' && { outcome: 'answered' as const }),
  });
  const chat: ChatService = {
    async *turn(input, caller, signal): AsyncGenerator<TurnEvent> {
      state.turns += 1;
      state.signals.push(signal);
      const text = input.kind === 'message' ? input.text : input.candidateId;
      try {
        yield { type: 'start', requestId: 'req-1', user: message('user', text) };
        yield { type: 'text', requestId: 'req-1', delta: 'Hello, ' };
        if (text === 'wait') {
          await new Promise<void>((resolve) => {
            if (signal?.aborted) resolve();
            signal?.addEventListener('abort', () => resolve(), { once: true });
          });
          if (signal?.aborted) state.aborted += 1;
          return;
        }
        yield { type: 'text', requestId: 'req-1', delta: caller.user.username };
        yield { type: 'done', requestId: 'req-1', message: message('assistant', `Hello, ${caller.user.username}`) };
      } finally {
        state.finished += 1;
      }
    },
    history: async () => [],
    clear: async () => undefined,
    // Proposals are not under test here: answering one says so.
    confirm: async () => message('assistant', 'no proposal'),
    cancel: async () => message('assistant', 'no proposal'),
  };
  return { chat, state };
}

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
  const audit = new AuditLog(join(mkdtempSync(join(tmpdir(), 'ipc-')), 'audit.jsonl'));
  const { chat } = fakeChat();
  const deps = () => ({ backend, sessions, log: silentLogger, chat, audit });

  beforeAll(async () => {
    backend = embeddedConnection(await openTestBookBackend(), silentLogger);
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

  it('refuses a batched request: the renderer sends one call a request', async () => {
    const inputs = encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [i, {}]))));
    const res = await handleDeskIpc(valid(`${Array(50).fill('session.me').join(',')}?batch=1&input=${inputs}`), frame('app://desk/', 1), isOwn, deps());
    expect(res.status).toBe(400);
    expect((JSON.parse(res.body) as { error: { message: string } }).error.message).toMatch(/batching is not enabled/i);
    expect((await handleDeskIpc(valid('session.me'), frame('app://desk/', 1), isOwn, deps())).status).toBe(200);
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

describe('handleDeskSubscription', () => {
  let backend: BackendConnection;
  const sessions = new DeskSessions();
  const audit = new AuditLog(join(mkdtempSync(join(tmpdir(), 'ipc-')), 'audit.jsonl'));
  const { chat, state } = fakeChat();
  const deps = () => ({ backend, sessions, log: silentLogger, chat, audit });
  const isOwn = (url: string | undefined) => isAppUrl(url, undefined);
  const app = (id: number) => event('app://desk/', id);
  const turn = (text: string) => ({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } });

  /** What main sent on the stream, as the preload's dispatcher would see it. */
  function stream() {
    const messages: DeskStreamMessage[] = [];
    const waiters: Array<() => void> = [];
    return {
      messages,
      send: (message: DeskStreamMessage) => {
        // Through IPC it is cloned; JSON is what the contract promises.
        messages.push(JSON.parse(JSON.stringify(message)) as DeskStreamMessage);
        for (const wake of waiters.splice(0)) wake();
      },
      /** Resolves once `count` messages have arrived. */
      until: (count: number) => new Promise<void>((resolve) => {
        const check = () => (messages.length >= count ? resolve() : waiters.push(check));
        check();
      }),
    };
  }

  async function signIn(window: number) {
    const res = await handleDeskIpc({
      url: 'desk://trpc/session.login', method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'priya', password: 'demo-priya' }),
    }, app(window), isOwn, deps());
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    backend = embeddedConnection(await openTestBookBackend(), silentLogger);
    await signIn(21);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('streams a turn\'s events as data, then complete', async () => {
    const s = stream();
    await handleDeskSubscription({ id: 'a1', path: 'chat.turn', input: turn('hi') }, app(21), isOwn, deps(), s.send);
    expect(s.messages.map((m) => m.type)).toEqual(['data', 'data', 'data', 'data', 'complete']);
    expect(s.messages.every((m) => m.id === 'a1')).toBe(true);
    const events = s.messages.flatMap((m) => (m.type === 'data' ? [m.data as TurnEvent] : []));
    expect(events.map((e) => e.type)).toEqual(['start', 'text', 'text', 'done']);
    // The procedure ran as the window's signed-in user.
    expect(events[2]).toEqual({ type: 'text', requestId: 'req-1', delta: 'priya' });
    expect(state.finished).toBe(state.turns);
    expect(state.signals.at(-1)?.aborted).toBe(false);
  });

  it('refuses a frame that is not the app window with an error on the stream, and never runs the procedure', async () => {
    const before = state.turns;
    for (const sender of [event('https://evil.example/', 21), event(null, 21), event('http://localhost:5173/', 21), event('file:///etc/passwd', 21)]) {
      const s = stream();
      await handleDeskSubscription({ id: 'f1', path: 'chat.turn', input: turn('hi') }, sender, isOwn, deps(), s.send);
      expect(s.messages).toEqual([{ id: 'f1', type: 'error', code: 'FORBIDDEN', message: 'refused: not the app window' }]);
    }
    expect(state.turns).toBe(before);
  });

  it('refuses malformed requests, unread, and never runs the procedure', async () => {
    const before = state.turns;
    const cyclic: Record<string, unknown> = { kind: 'message' };
    cyclic.self = cyclic;
    const malformed: unknown[] = [
      { id: 'm1', path: 'session.me', input: undefined }, // a query, not a subscription
      { id: 'm1', path: 'session.login', input: { username: 'priya', password: 'demo-priya' } },
      { id: 'm1', path: 'chat.nope', input: turn('hi') },
      { id: 'm1', path: 'chat.turn', input: turn('hi'), extra: true },
      { id: 'm1', path: 42, input: turn('hi') },
      { id: 'm1', path: 'chat.turn', input: { kind: 'message', text: 'x'.repeat(MAX_SUBSCRIPTION_INPUT), page: { path: '/', query: {} } } },
      { id: 'm1', path: 'chat.turn', input: cyclic },
      { id: 'm1', path: 'chat.turn', input: 10n },
    ];
    for (const raw of malformed) {
      const s = stream();
      await handleDeskSubscription(raw, app(21), isOwn, deps(), s.send);
      expect(s.messages, String((raw as { path: unknown }).path)).toEqual([{ id: 'm1', type: 'error', code: 'BAD_REQUEST', message: 'malformed desk subscription' }]);
    }
    // Without an id there is no stream to answer on: nothing is sent.
    for (const raw of [null, undefined, 'chat.turn', [], {}, { path: 'chat.turn', input: turn('hi') }, { id: '', path: 'chat.turn' }, { id: 'x'.repeat(65), path: 'chat.turn' }]) {
      const s = stream();
      await handleDeskSubscription(raw, app(21), isOwn, deps(), s.send);
      expect(s.messages).toEqual([]);
    }
    expect(state.turns).toBe(before);
  });

  it('keeps the procedure\'s own refusals: bad input, and no session for the window', async () => {
    const bad = stream();
    await handleDeskSubscription({ id: 'b1', path: 'chat.turn', input: { kind: 'message', text: '   ', page: { path: '/', query: {} } } }, app(21), isOwn, deps(), bad.send);
    expect(bad.messages).toEqual([expect.objectContaining({ id: 'b1', type: 'error', code: 'BAD_REQUEST' })]);

    const anonymous = stream();
    await handleDeskSubscription({ id: 'u1', path: 'chat.turn', input: turn('hi') }, app(22), isOwn, deps(), anonymous.send);
    expect(anonymous.messages).toEqual([{ id: 'u1', type: 'error', code: 'UNAUTHORIZED', message: 'sign in first' }]);
  });

  it('reports a failing procedure as a generic internal error', async () => {
    const failing: ChatService = {
      ...chat,
      // eslint-disable-next-line require-yield
      async *turn() { throw new Error('model key sk-secret rejected'); },
    };
    const s = stream();
    await handleDeskSubscription({ id: 'e1', path: 'chat.turn', input: turn('hi') }, app(21), isOwn, { ...deps(), chat: failing }, s.send);
    expect(s.messages).toEqual([{ id: 'e1', type: 'error', code: 'INTERNAL_SERVER_ERROR', message: 'internal error' }]);
  });

  it('stops on unsubscribe: the procedure\'s signal is aborted and nothing more is sent', async () => {
    const s = stream();
    const aborted = state.aborted;
    const running = handleDeskSubscription({ id: 'w1', path: 'chat.turn', input: turn('wait') }, app(21), isOwn, deps(), s.send);
    await s.until(2);
    // The same id twice from one window is refused; the live one is untouched.
    const dup = stream();
    await handleDeskSubscription({ id: 'w1', path: 'chat.turn', input: turn('hi') }, app(21), isOwn, deps(), dup.send);
    expect(dup.messages).toEqual([expect.objectContaining({ id: 'w1', type: 'error', code: 'BAD_REQUEST' })]);
    // Another window, or a foreign frame, cannot stop it.
    handleDeskUnsubscribe('w1', app(99), isOwn);
    handleDeskUnsubscribe('w1', event('https://evil.example/', 21), isOwn);
    handleDeskUnsubscribe({ id: 'w1' }, app(21), isOwn);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state.aborted).toBe(aborted);

    handleDeskUnsubscribe('w1', app(21), isOwn);
    await running;
    await expect.poll(() => state.aborted).toBe(aborted + 1);
    expect(s.messages.map((m) => m.type)).toEqual(['data', 'data']);
    expect(state.finished).toBe(state.turns);
  });

  it('stops every subscription of a window when its contents is destroyed', async () => {
    const a = stream();
    const b = stream();
    const aborted = state.aborted;
    const runs = [
      handleDeskSubscription({ id: 'd1', path: 'chat.turn', input: turn('wait') }, app(21), isOwn, deps(), a.send),
      handleDeskSubscription({ id: 'd2', path: 'chat.turn', input: turn('wait') }, app(21), isOwn, deps(), b.send),
    ];
    await Promise.all([a.until(2), b.until(2)]);
    stopDeskSubscriptions(21);
    await Promise.all(runs);
    await expect.poll(() => state.aborted).toBe(aborted + 2);
    expect([...a.messages, ...b.messages].map((m) => m.type)).toEqual(['data', 'data', 'data', 'data']);
  });

  it('stops the procedure when the stream cannot be delivered', async () => {
    let sent = 0;
    await handleDeskSubscription({ id: 'g1', path: 'chat.turn', input: turn('hi') }, app(21), isOwn, deps(), () => {
      sent += 1;
      if (sent === 2) throw new Error('render frame disposed');
    });
    // Nothing more was tried after the failed send; the turn's signal is aborted and its generator closed.
    expect(sent).toBe(2);
    expect(state.signals.at(-1)?.aborted).toBe(true);
    await expect.poll(() => state.finished).toBe(state.turns);
  });
});
