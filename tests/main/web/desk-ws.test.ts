import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../../src/infra/log.js';
import type { ChatService } from '../../../src/main/assistant/chat-service.js';
import { pageOf } from '../../../src/main/assistant/history.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type ChatMessage, HISTORY_PAGE, MAX_HISTORY_PAGE, type TurnEvent } from '../../../src/shared/contracts/chat.js';
import { type BackendConnection, embeddedConnection } from '../../../src/main/backend/connection.js';
import type { DeskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { type BrowserShell, MAX_WS_BATCH, startBrowserShell } from '../../../src/main/web/server.js';
import { BOOK_NOW, openTestBookBackend } from '../../helpers/backend.js';
import { keylessModels } from '../../helpers/model-settings.js';

/** A conversation longer than two pages, as the history keeps it. */
const CONVERSATION: ChatMessage[] = Array.from({ length: 2 * HISTORY_PAGE + HISTORY_PAGE / 2 }, (_, i) => ({
  id: `m-${i}`, role: i % 2 === 0 ? 'user' : 'assistant', at: '2026-11-20T06:30:00.000Z', text: `message ${i}`, cards: [], requestId: `r-${i >> 1}`,
}));

/** A ChatService test double (the assistant is not under test here): greets the caller, then done; its history pages CONVERSATION. */
const chat: ChatService = {
  async *turn(input, caller): AsyncGenerator<TurnEvent> {
    const at = '2026-11-20T06:30:00.000Z';
    const text = input.kind === 'message' ? input.text : input.candidateId;
    yield { type: 'start', requestId: 'req-1', user: { id: 'u-1', role: 'user', at, text, cards: [], requestId: 'req-1' } };
    yield { type: 'text', requestId: 'req-1', delta: `Hello, ${caller.user.username}` };
    yield { type: 'done', requestId: 'req-1', message: { id: 'a-1', role: 'assistant', at, text: `Hello, ${caller.user.username}`, cards: [], requestId: 'req-1', outcome: 'answered' } };
  },
  history: async (_user, request) => pageOf(CONVERSATION, request),
  clear: async () => undefined,
  listConversations: async () => [],
  open: async () => false,
  start: async () => undefined,
  remove: async () => false,
  // Proposals are not under test here: answering one says so.
  confirm: async () => ({ id: 'a-2', role: 'assistant', at: '2026-11-20T06:30:00.000Z', text: 'no proposal', cards: [], requestId: 'req-2' }),
  cancel: async () => ({ id: 'a-3', role: 'assistant', at: '2026-11-20T06:30:00.000Z', text: 'no proposal', cards: [], requestId: 'req-3' }),
  edit: async () => ({ id: 'a-4', role: 'assistant', at: '2026-11-20T06:30:00.000Z', text: 'no proposal', cards: [], requestId: 'req-4' }),
  stop: () => false,
};

/** The desk router over the browser shell's real WebSocket, against the embedded backend. */
describe('desk router over the browser shell', () => {
  let backend: BackendConnection;
  let shell: BrowserShell;
  const opened: Array<{ close(): void }> = [];

  beforeAll(async () => {
    backend = embeddedConnection(await openTestBookBackend(), silentLogger);
    shell = await startBrowserShell({ backend, sessions: new DeskSessions(), log: silentLogger, chat, audit: new AuditLog(join(mkdtempSync(join(tmpdir(), 'desk-ws-')), 'audit.jsonl')), models: keylessModels(), rendererDir: '/nonexistent-renderer' });
  });
  afterAll(async () => {
    for (const c of opened) c.close();
    await shell?.close();
    await backend?.close();
  });

  async function cookie(): Promise<string> {
    const res = await fetch(shell.url);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  }

  function connect(headers: Record<string, string>) {
    const ws = createWSClient({
      url: `${shell.url.replace('http', 'ws')}/desk`,
      WebSocket: class extends WebSocket { constructor(url: string) { super(url, { headers }); } } as unknown as typeof globalThis.WebSocket,
      retryDelayMs: () => 60_000,
    });
    opened.push(ws);
    return createTRPCClient<DeskRouter>({ links: [wsLink({ client: ws })] });
  }

  it('serves the page with a strict CSP and a slot cookie, and says when the renderer is not built', async () => {
    const res = await fetch(shell.url);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'.*object-src 'none'/);
    expect(res.headers.get('set-cookie')).toMatch(/^desk_slot=[\w-]{43}; HttpOnly; SameSite=Strict/);
  });

  it('requires a login, keeps the token in main, and answers with the backend\'s numbers', async () => {
    const desk = connect({ cookie: await cookie(), origin: shell.url });
    expect(await desk.session.me.query()).toBeNull();
    await expect(desk.panel.dashboard.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    await expect(desk.session.login.mutate({ username: 'priya', password: 'nope' })).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });

    const user = await desk.session.login.mutate({ username: 'priya', password: 'demo-priya' });
    expect(user).toMatchObject({ username: 'priya', role: 'agent' });
    expect(JSON.stringify(user)).not.toMatch(/token/i);

    // "Today" is the backend's business day (the book's clock), not this machine's.
    expect(new Date((await desk.session.clock.query()).now).getTime()).toBe(BOOK_NOW.getTime());

    const dashboard = await desk.panel.dashboard.query();
    const direct = backend.client((await backend.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' })).token);
    expect(dashboard.downlineTake).toEqual((await direct.agent.getTake.query({})).totals);
    expect(dashboard.upline).toEqual(await direct.agent.getUpline.query({}));
    expect(dashboard.exposure).toEqual((await direct.agent.getLiveExposure.query({})).total);
    expect(dashboard.today.yourShare).toBe((await direct.agent.getPnL.query({})).total.yourShare);

    await desk.session.logout.mutate();
    await expect(desk.panel.dashboard.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('keeps browsers apart: another cookie is another session', async () => {
    const a = connect({ cookie: await cookie(), origin: shell.url });
    const b = connect({ cookie: await cookie(), origin: shell.url });
    await a.session.login.mutate({ username: 'arjun', password: 'demo-arjun' });
    expect((await a.session.me.query())?.username).toBe('arjun');
    expect(await b.session.me.query()).toBeNull();
  });

  it('refuses a connection from another origin, or without a cookie it issued', async () => {
    const refused = async (headers: Record<string, string>) => new Promise<number>((resolve) => {
      const ws = new WebSocket(`${shell.url.replace('http', 'ws')}/desk`, { headers });
      ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate(); });
      ws.on('open', () => { resolve(101); ws.close(); });
      ws.on('error', () => resolve(-1));
    });
    expect(await refused({ cookie: await cookie(), origin: 'http://evil.example' })).toBe(403);
    expect(await refused({ origin: shell.url })).toBe(403);
    expect(await refused({ cookie: 'desk_slot=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', origin: shell.url })).toBe(403);
    expect(await refused({ cookie: await cookie(), origin: shell.url })).toBe(101);
  });

  it('validates desk input before it reaches the backend', async () => {
    const desk = connect({ cookie: await cookie(), origin: shell.url });
    await desk.session.login.mutate({ username: 'priya', password: 'demo-priya' });
    await expect(desk.panel.bets.query({ playerId: 'not-an-id' } as never)).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    await expect(desk.panel.player.query({ playerId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });

  it('pages the chat history by cursor, and refuses a malformed cursor or page size in words', async () => {
    const desk = connect({ cookie: await cookie(), origin: shell.url });
    await expect(desk.chat.history.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    await desk.session.login.mutate({ username: 'priya', password: 'demo-priya' });
    const ids = (page: { messages: ChatMessage[] }) => page.messages.map((m) => m.id);
    const tail = (from: number, to: number) => CONVERSATION.slice(from, to).map((m) => m.id);
    const n = CONVERSATION.length;

    // No input: the latest page, never the whole conversation.
    const first = await desk.chat.history.query();
    expect(ids(first)).toEqual(tail(n - HISTORY_PAGE, n));
    expect(first.earlier).toBe(true);
    const second = await desk.chat.history.query({ before: first.messages[0]!.id, limit: HISTORY_PAGE });
    expect(ids(second)).toEqual(tail(n - 2 * HISTORY_PAGE, n - HISTORY_PAGE));
    const last = await desk.chat.history.query({ before: second.messages[0]!.id, limit: HISTORY_PAGE });
    expect(ids(last)).toEqual(tail(0, n - 2 * HISTORY_PAGE));
    expect(last.earlier).toBe(false);
    expect(await desk.chat.history.query({ before: 'm-0', limit: HISTORY_PAGE })).toEqual({ messages: [], earlier: false });
    expect(await desk.chat.history.query({ before: 'gone-long-ago', limit: 5 })).toEqual({ messages: [], earlier: false });

    for (const bad of [{ before: '../m-0' }, { before: '' }, { before: 'm'.repeat(65) }, { limit: 0 }, { limit: MAX_HISTORY_PAGE + 1 }, { limit: 1.5 }, { after: 'm-0' }]) {
      await expect(desk.chat.history.query(bad as never), JSON.stringify(bad)).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    }
    await expect(desk.chat.history.query({ before: 'm-0;drop' })).rejects.toThrow(/not a message id/);
  });

  it('streams a chat turn as a subscription, as the signed-in user', async () => {
    const desk = connect({ cookie: await cookie(), origin: shell.url });
    await desk.session.login.mutate({ username: 'priya', password: 'demo-priya' });
    const events: TurnEvent[] = [];
    for await (const event of desk.chat.turn.subscribe({ kind: 'message', text: 'hi', page: { path: '/agent/dashboard', query: {} } })) events.push(event);
    expect(events.map((e) => e.type)).toEqual(['start', 'text', 'done']);
    expect(events[1]).toMatchObject({ delta: 'Hello, priya' });
  });

  it(`answers a frame of more than ${MAX_WS_BATCH} calls with an error for each, running none`, async () => {
    const ws = new WebSocket(`${shell.url.replace('http', 'ws')}/desk`, { headers: { cookie: await cookie(), origin: shell.url } });
    opened.push(ws);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const replies: Array<{ id: number; result?: { data: unknown }; error?: { message: string } }> = [];
    ws.on('message', (data) => replies.push(JSON.parse(String(data))));
    const frame = (n: number, from: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: from + i, method: 'query', params: { path: 'session.me', input: undefined } })));
    const answered = async (count: number) => {
      while (replies.length < count) await new Promise((resolve) => ws.once('message', resolve));
    };

    ws.send(frame(MAX_WS_BATCH + 1, 1));
    await answered(MAX_WS_BATCH + 1);
    expect(replies.every((r) => r.error?.message === 'Batch call exceeds maximum size' && !r.result)).toBe(true);

    replies.length = 0;
    ws.send(frame(MAX_WS_BATCH, 100));
    await answered(MAX_WS_BATCH);
    expect(replies.every((r) => r.result && !r.error)).toBe(true);
  });
});
