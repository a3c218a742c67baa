import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type BackendConnection, embeddedConnection } from '../../../src/main/backend/connection.js';
import type { ChatService } from '../../../src/main/assistant/chat-service.js';
import { MAX_SUBSCRIPTIONS_PER_WINDOW, handleDeskMessage, stopDeskSubscriptions } from '../../../src/main/desk/ipc.js';
import { type IpcSenderEvent, slotForIpcSender } from '../../../src/main/desk/senders.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { APP_ORIGIN, allowsPermission, isAllowedExternal, isAppUrl } from '../../../src/main/electron/security.js';
import type { ChatMessage, TurnEvent } from '../../../src/shared/contracts/chat.js';
import type { DeskCallId, DeskResponse } from '../../../src/shared/contracts/desk-bridge.js';
import { MAX_DESK_MESSAGE_BYTES, deskResponseSchema } from '../../../src/shared/contracts/desk-transport.js';
import { silentLogger } from '../../../src/infra/log.js';
import { openTestBookBackend } from '../../helpers/backend.js';
import { keylessModels } from '../../helpers/model-settings.js';

/** A fake IpcMainEvent: only what the check reads. */
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
    history: async () => ({ messages: [], earlier: false }),
    clear: async () => undefined,
    listConversations: async () => [],
    open: async () => false,
    start: async () => undefined,
    remove: async () => false,
    // Proposals are not under test here: answering one says so.
    confirm: async () => message('assistant', 'no proposal'),
    cancel: async () => message('assistant', 'no proposal'),
    edit: async () => message('assistant', 'no proposal'),
    stop: () => false,
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

describe('allowsPermission', () => {
  it("grants writing to the clipboard to the app's own pages, and nothing else to anyone", () => {
    expect(allowsPermission('clipboard-sanitized-write', `${APP_ORIGIN}/agent/dashboard`, undefined)).toBe(true);
    expect(allowsPermission('clipboard-sanitized-write', APP_ORIGIN, undefined)).toBe(true);
    expect(allowsPermission('clipboard-sanitized-write', 'http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(allowsPermission('clipboard-sanitized-write', 'https://evil.example/', undefined)).toBe(false);
    expect(allowsPermission('clipboard-sanitized-write', undefined, undefined)).toBe(false);
    for (const other of ['clipboard-read', 'notifications', 'media', 'geolocation', 'openExternal']) {
      expect(allowsPermission(other, `${APP_ORIGIN}/agent/dashboard`, undefined)).toBe(false);
    }
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

describe('handleDeskMessage', () => {
  let backend: BackendConnection;
  const sessions = new DeskSessions();
  const audit = new AuditLog(join(mkdtempSync(join(tmpdir(), 'ipc-')), 'audit.jsonl'));
  const { chat, state } = fakeChat();
  const models = keylessModels();
  const deps = () => ({ backend, sessions, log: silentLogger, chat, audit, models });
  const isOwn = (url: string | undefined) => isAppUrl(url, undefined);
  const app = (id: number) => event('app://desk/', id);
  const turn = (text: string) => ({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } });
  const login = (id: number, password = 'demo-priya') => ({ id, method: 'mutation', params: { path: 'session.login', input: { username: 'priya', password } } });
  const query = (id: DeskCallId, path: string, input?: unknown) => ({ id, method: 'query', params: { path, input } });
  const subscribe = (id: number, text: string) => ({ id, method: 'subscription', params: { path: 'chat.turn', input: turn(text) } });

  /** What main answered, as the preload would hand it on: cloned, and read through the contract. */
  function answers() {
    const messages: DeskResponse[] = [];
    const waiters: Array<() => void> = [];
    return {
      messages,
      reply: (response: DeskResponse) => {
        messages.push(deskResponseSchema.parse(structuredClone(response)));
        for (const wake of waiters.splice(0)) wake();
      },
      /** Resolves once `count` answers have arrived. */
      until: (count: number) => new Promise<void>((resolve) => {
        const check = () => (messages.length >= count ? resolve() : waiters.push(check));
        check();
      }),
    };
  }
  async function send(raw: unknown, sender: IpcSenderEvent) {
    const a = answers();
    await handleDeskMessage(raw, sender, isOwn, deps(), a.reply);
    return a.messages;
  }
  const errorOf = (messages: DeskResponse[]) => {
    expect(messages).toHaveLength(1);
    const [only] = messages;
    if (!only || !('error' in only)) throw new Error(`not an error: ${JSON.stringify(messages)}`);
    return { id: only.id, code: only.error.data.code, message: only.error.message };
  };

  beforeAll(async () => {
    backend = embeddedConnection(await openTestBookBackend(), silentLogger);
    expect(await send(login(1), app(21))).toEqual([{ id: 1, result: { type: 'data', data: expect.objectContaining({ username: 'priya' }) } }]);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('refuses malformed messages with PARSE_ERROR, unread, and never runs a procedure', async () => {
    const before = state.turns;
    const cyclic: Record<string, unknown> = { kind: 'message' };
    cyclic.self = cyclic;
    const malformed: unknown[] = [
      null, undefined, 'session.me', 42, [], {},
      // A batch: the link sends one call a message, so an array can only be a page gone wrong.
      [query(1, 'session.me'), query(2, 'session.me')],
      { id: 1, method: 'query' },
      { id: 1, method: 'query', params: { path: 'session.me' }, extra: true },
      { id: 1, method: 'query', params: { path: 'session.me', input: null, lastEventId: 'x' } },
      { id: 1, method: 'delete', params: { path: 'session.me', input: null } },
      { id: 1, method: 'query', params: { path: 42, input: null } },
      { id: 1, method: 'query', params: { path: 'x'.repeat(201), input: null } },
      { id: -1, method: 'query', params: { path: 'session.me', input: null } },
      { id: 1.5, method: 'query', params: { path: 'session.me', input: null } },
      { id: '', method: 'query', params: { path: 'session.me', input: null } },
      { id: 'x'.repeat(65), method: 'query', params: { path: 'session.me', input: null } },
      { id: 1, method: 'subscription.stop', params: {} },
      subscribe(1, 'x'.repeat(MAX_DESK_MESSAGE_BYTES)),
      { ...subscribe(1, 'hi'), params: { path: 'chat.turn', input: cyclic } },
      { ...subscribe(1, 'hi'), params: { path: 'chat.turn', input: 10n } },
    ];
    for (const [i, raw] of malformed.entries()) {
      expect(errorOf(await send(raw, app(21))), `malformed[${i}]`)
        .toEqual({ id: null, code: 'PARSE_ERROR', message: 'malformed desk request' });
    }
    expect(state.turns).toBe(before);
    // No session came of it: window 30 never signed in.
    expect(await send(query(1, 'session.me'), app(30))).toEqual([{ id: 1, result: { type: 'data', data: null } }]);
  });

  it('answers queries and mutations per window slot, with the router\'s error codes', async () => {
    expect(await send(query(1, 'session.me'), app(31))).toEqual([{ id: 1, result: { type: 'data', data: null } }]);
    expect(errorOf(await send(login(2, 'nope'), app(31)))).toMatchObject({ id: 2, code: 'UNAUTHORIZED' });
    const [signedIn] = await send(login(3), app(31));
    expect(signedIn).toEqual({ id: 3, result: { type: 'data', data: expect.objectContaining({ username: 'priya', role: 'agent' }) } });
    expect(JSON.stringify(signedIn)).not.toMatch(/token/i);
    expect(await send(query('me', 'session.me'), app(31))).toEqual([{ id: 'me', result: { type: 'data', data: expect.objectContaining({ username: 'priya' }) } }]);
    // Another window's slot is another session.
    expect(await send(query(4, 'session.me'), app(32))).toEqual([{ id: 4, result: { type: 'data', data: null } }]);
    expect(errorOf(await send(query(5, 'panel.dashboard'), app(32)))).toEqual({ id: 5, code: 'UNAUTHORIZED', message: 'sign in first' });
    // The router's own refusals: bad input, a path it does not have, a mutation asked as a query.
    expect(errorOf(await send(query(6, 'panel.bets', { playerId: 'not-an-id' }), app(31)))).toMatchObject({ id: 6, code: 'BAD_REQUEST' });
    expect(errorOf(await send(query(7, 'panel.nope'), app(31)))).toMatchObject({ id: 7, code: 'NOT_FOUND' });
    expect(errorOf(await send(query(8, 'session.login', { username: 'priya', password: 'demo-priya' }), app(33)))).toMatchObject({ id: 8, code: 'NOT_FOUND' });
    expect(sessions.get('window-33')).toBeNull();
  });

  it('refuses, in createContext, a call from a frame that is not the app window, before any procedure runs', async () => {
    const before = state.turns;
    for (const sender of [event('https://evil.example/', 3), event(null, 3), event('http://localhost:5173/', 3), event('file:///etc/passwd', 3)]) {
      expect(errorOf(await send(login(1), sender))).toEqual({ id: 1, code: 'FORBIDDEN', message: 'refused: not the app window' });
      expect(errorOf(await send(subscribe(2, 'hi'), sender))).toEqual({ id: 2, code: 'FORBIDDEN', message: 'refused: not the app window' });
    }
    // Nothing was signed in for that window, and no turn ran.
    expect(sessions.get('window-3')).toBeNull();
    expect(state.turns).toBe(before);
  });

  it('streams a turn\'s events: started, data…, stopped', async () => {
    const messages = await send(subscribe(40, 'hi'), app(21));
    expect(messages.map((m) => ('result' in m ? m.result.type : 'error'))).toEqual(['started', 'data', 'data', 'data', 'data', 'stopped']);
    expect(messages.every((m) => m.id === 40)).toBe(true);
    const events = messages.flatMap((m) => ('result' in m && m.result.type === 'data' ? [m.result.data as TurnEvent] : []));
    expect(events.map((e) => e.type)).toEqual(['start', 'text', 'text', 'done']);
    // The procedure ran as the window's signed-in user.
    expect(events[2]).toEqual({ type: 'text', requestId: 'req-1', delta: 'priya' });
    expect(state.finished).toBe(state.turns);
    expect(state.signals.at(-1)?.aborted).toBe(false);
  });

  it('keeps the procedure\'s own refusals: bad input, and no session for the window', async () => {
    const bad = { id: 41, method: 'subscription', params: { path: 'chat.turn', input: { kind: 'message', text: '   ', page: { path: '/', query: {} } } } };
    expect(errorOf(await send(bad, app(21)))).toMatchObject({ id: 41, code: 'BAD_REQUEST' });
    expect(errorOf(await send(subscribe(42, 'hi'), app(22)))).toEqual({ id: 42, code: 'UNAUTHORIZED', message: 'sign in first' });
  });

  it('reports a failing procedure as a generic internal error', async () => {
    const failing: ChatService = {
      ...chat,
      // eslint-disable-next-line require-yield
      async *turn() { throw new Error('model key sk-secret rejected'); },
    };
    const a = answers();
    await handleDeskMessage(subscribe(43, 'hi'), app(21), isOwn, { ...deps(), chat: failing }, a.reply);
    // The generator fails on its first step, after the stream has started (as on the WebSocket).
    expect(a.messages[0]).toEqual({ id: 43, result: { type: 'started' } });
    expect(errorOf(a.messages.slice(1))).toEqual({ id: 43, code: 'INTERNAL_SERVER_ERROR', message: 'internal error' });
  });

  it('stops on subscription.stop from its own window only: the signal is aborted, the stream ends with stopped', async () => {
    const a = answers();
    const aborted = state.aborted;
    const running = handleDeskMessage(subscribe(50, 'wait'), app(21), isOwn, deps(), a.reply);
    await a.until(3);
    // The same id twice from one window is refused; the live one is untouched.
    expect(errorOf(await send(subscribe(50, 'hi'), app(21)))).toEqual({ id: 50, code: 'BAD_REQUEST', message: 'Duplicate id 50' });
    // Another window, or a foreign frame, cannot stop it; neither can another id.
    for (const [raw, sender] of [[{ id: 50, method: 'subscription.stop' }, app(99)], [{ id: 50, method: 'subscription.stop' }, event('https://evil.example/', 21)], [{ id: '50', method: 'subscription.stop' }, app(21)]] as const) {
      expect(await send(raw, sender)).toEqual([]);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state.aborted).toBe(aborted);

    expect(await send({ id: 50, method: 'subscription.stop' }, app(21))).toEqual([]);
    await running;
    await expect.poll(() => state.aborted).toBe(aborted + 1);
    expect(a.messages.map((m) => ('result' in m ? m.result.type : 'error'))).toEqual(['started', 'data', 'data', 'stopped']);
    expect(state.finished).toBe(state.turns);
  });

  it(`holds at most ${MAX_SUBSCRIPTIONS_PER_WINDOW} live subscriptions a window, and stops them all when its contents is destroyed`, async () => {
    const streams = Array.from({ length: MAX_SUBSCRIPTIONS_PER_WINDOW }, () => answers());
    const aborted = state.aborted;
    const runs = streams.map((a, i) => handleDeskMessage(subscribe(60 + i, 'wait'), app(21), isOwn, deps(), a.reply));
    await Promise.all(streams.map((a) => a.until(3)));
    expect(errorOf(await send(subscribe(99, 'hi'), app(21)))).toEqual({ id: 99, code: 'TOO_MANY_REQUESTS', message: 'too many live subscriptions' });
    // Another window has its own allowance.
    expect((await send(subscribe(99, 'hi'), app(21 + 1000))).length).toBe(1);

    stopDeskSubscriptions(21);
    await Promise.all(runs);
    await expect.poll(() => state.aborted).toBe(aborted + MAX_SUBSCRIPTIONS_PER_WINDOW);
    expect(streams.every((a) => a.messages.length === 4)).toBe(true);
    // The window's subscriptions are forgotten: its ids are free again.
    expect((await send(subscribe(60, 'hi'), app(21))).at(-1)).toEqual({ id: 60, result: { type: 'stopped' } });
  });

  it('stops the procedure when the stream cannot be delivered', async () => {
    let sent = 0;
    await handleDeskMessage(subscribe(70, 'hi'), app(21), isOwn, deps(), () => {
      sent += 1;
      if (sent === 2) throw new Error('render frame disposed');
    });
    // Nothing more was tried after the failed send; the turn's signal is aborted and its generator closed.
    expect(sent).toBe(2);
    expect(state.signals.at(-1)?.aborted).toBe(true);
    await expect.poll(() => state.finished).toBe(state.turns);
  });
});
