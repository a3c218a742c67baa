import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TRPCLink, createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ChatService } from '../../../src/main/assistant/chat-service.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type BackendConnection, embeddedConnection } from '../../../src/main/backend/connection.js';
import { handleDeskMessage } from '../../../src/main/desk/ipc.js';
import type { DeskRouter, DeskServices } from '../../../src/main/desk/router.js';
import type { IpcSenderEvent } from '../../../src/main/desk/senders.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { isAppUrl } from '../../../src/main/electron/security.js';
import { type BrowserShell, startBrowserShell } from '../../../src/main/web/server.js';
import { deskLink } from '../../../src/renderer/src/lib/desk-link.js';
import type { TurnEvent } from '../../../src/shared/contracts/chat.js';
import type { DeskBridge } from '../../../src/shared/contracts/desk-bridge.js';
import { deskResponseSchema } from '../../../src/shared/contracts/desk-transport.js';
import { silentLogger } from '../../../src/infra/log.js';
import { openTestBookBackend } from '../../helpers/backend.js';
import { keylessModels } from '../../helpers/model-settings.js';

/**
 * The desk contract (`shared/contracts/desk-bridge.ts`) held against both transports: the same
 * messages and the same client calls go through Electron's IPC handler (with a fake
 * ipcMain/webContents pair: the Electron binary is not needed) and through the browser shell's
 * real WebSocket, and must be answered alike. A transport that drifts (another error shape, a
 * missing `started`, a message the contract's schema does not accept) fails here.
 */

/**
 * A ChatService test double (the assistant is not under test): a turn greets the caller; "wait"
 * waits for its signal after the first text, as a turn waiting on a model would; "fail" throws.
 */
const chat: ChatService = {
  async *turn(input, caller, signal): AsyncGenerator<TurnEvent> {
    const at = '2026-11-20T06:30:00.000Z';
    const text = input.kind === 'message' ? input.text : input.candidateId;
    if (text === 'fail') throw new Error('model key sk-secret rejected');
    yield { type: 'start', requestId: 'req-1', user: { id: 'u-1', role: 'user', at, text, cards: [], requestId: 'req-1' } };
    yield { type: 'text', requestId: 'req-1', delta: `Hello, ${caller.user.username}` };
    if (text === 'wait') {
      await new Promise<void>((resolve) => {
        if (signal?.aborted) resolve();
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      return;
    }
    yield { type: 'done', requestId: 'req-1', message: { id: 'a-1', role: 'assistant', at, text: `Hello, ${caller.user.username}`, cards: [], requestId: 'req-1', outcome: 'answered' } };
  },
  history: async () => ({ messages: [], earlier: false }),
  clear: async () => undefined,
  listConversations: async () => [],
  open: async () => false,
  start: async () => undefined,
  remove: async () => false,
  confirm: async () => ({ id: 'a-2', role: 'assistant', at: '2026-11-20T06:30:00.000Z', text: 'no proposal', cards: [], requestId: 'req-2' }),
  cancel: async () => ({ id: 'a-3', role: 'assistant', at: '2026-11-20T06:30:00.000Z', text: 'no proposal', cards: [], requestId: 'req-3' }),
  edit: async () => ({ id: 'a-4', role: 'assistant', at: '2026-11-20T06:30:00.000Z', text: 'no proposal', cards: [], requestId: 'req-4' }),
  stop: () => false,
};

const turn = (text: string) => ({ kind: 'message' as const, text, page: { path: '/agent/dashboard', query: {} } });

describe('the desk contract, over IPC and over the WebSocket', () => {
  let backend: BackendConnection;
  let shell: BrowserShell;
  let deps: DeskServices;
  const opened: Array<{ close(): void }> = [];
  let nextWindow = 1;

  beforeAll(async () => {
    backend = embeddedConnection(await openTestBookBackend(), silentLogger);
    deps = { backend, sessions: new DeskSessions(), log: silentLogger, chat, audit: new AuditLog(join(mkdtempSync(join(tmpdir(), 'desk-contract-')), 'audit.jsonl')), models: keylessModels() };
    shell = await startBrowserShell({ ...deps, rendererDir: '/nonexistent-renderer' });
  });
  afterAll(async () => {
    for (const c of opened) c.close();
    await shell?.close();
    await backend?.close();
  });

  /**
   * The preload's bridge over a fake IPC pair: what `ipcMain.on(DESK_CHANNEL)` and
   * `webContents.send` do in app.ts, structured clone and asynchronous delivery included.
   */
  function ipcBridge(): DeskBridge {
    const sender: IpcSenderEvent = { senderFrame: { url: 'app://desk/' }, sender: { id: nextWindow++ } };
    const isOwn = (url: string | undefined) => isAppUrl(url, undefined);
    const listeners = new Set<(response: unknown) => void>();
    return {
      send: (request) => {
        const cloned = structuredClone(request);
        setImmediate(() => void handleDeskMessage(cloned, sender, isOwn, deps, (response) => {
          const copy = structuredClone(response);
          setImmediate(() => listeners.forEach((listener) => listener(copy)));
        }));
      },
      onMessage: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } satisfies DeskBridge;
  }

  async function cookie(): Promise<string> {
    const res = await fetch(shell.url);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  }

  /** The same bridge over the browser shell's WebSocket: JSON frames, one message each. */
  async function wsBridge(): Promise<DeskBridge> {
    const ws = new WebSocket(`${shell.url.replace('http', 'ws')}/desk`, { headers: { cookie: await cookie(), origin: shell.url } });
    opened.push(ws);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return {
      send: (request) => ws.send(JSON.stringify(request)),
      onMessage: (listener) => {
        const handler = (data: WebSocket.RawData) => listener(JSON.parse(String(data)));
        ws.on('message', handler);
        return () => ws.off('message', handler);
      },
    } satisfies DeskBridge;
  }

  /** Sends one message and collects the answers to its id (or to none) until `done` says so. */
  function exchange(bridge: DeskBridge, request: unknown, done: (answers: unknown[]) => boolean): Promise<unknown[]> {
    const id = (request as { id?: unknown }).id;
    return new Promise((resolve) => {
      const answers: unknown[] = [];
      const stop = bridge.onMessage((response) => {
        const answerId = (response as { id?: unknown }).id;
        if (answerId !== id && answerId !== null) return;
        answers.push(response);
        if (done(answers)) {
          stop();
          resolve(answers);
        }
      });
      bridge.send(request as never);
    });
  }
  const ended = (answers: unknown[]) => {
    const last = answers.at(-1) as { error?: unknown; result?: { type: string } };
    return last.error !== undefined || last.result?.type === 'stopped';
  };
  const answered = (type: string) => (answers: unknown[]) => answers.length > 0 && (type !== 'subscription' || ended(answers));
  const call = (id: number, method: 'query' | 'mutation' | 'subscription', path: string, input?: unknown) => ({ id, method, params: { path, input } });

  /** One transport's transcript of the script: every answer, checked against the contract's schema. */
  async function transcript(bridge: DeskBridge): Promise<unknown[][]> {
    const out: unknown[][] = [];
    const step = async (request: ReturnType<typeof call>) => out.push(await exchange(bridge, request, answered(request.method)));
    await step(call(1, 'query', 'session.me'));
    await step(call(2, 'query', 'panel.dashboard'));
    await step(call(3, 'mutation', 'session.login', { username: 'priya', password: 'nope' }));
    await step(call(4, 'mutation', 'session.login', { username: 5 }));
    await step(call(5, 'query', 'panel.nope'));
    await step(call(6, 'query', 'session.login', { username: 'priya', password: 'demo-priya' }));
    await step(call(7, 'subscription', 'chat.turn', turn('hi')));
    await step(call(8, 'mutation', 'session.login', { username: 'priya', password: 'demo-priya' }));
    await step(call(9, 'query', 'session.me'));
    await step(call(10, 'query', 'panel.dashboard'));
    await step(call(11, 'query', 'panel.bets', { playerId: 'not-an-id' }));
    await step(call(12, 'subscription', 'chat.turn', turn('hi')));
    await step(call(13, 'subscription', 'chat.turn', turn('   ')));
    await step(call(14, 'subscription', 'chat.turn', turn('fail')));
    // A running subscription: its id is taken until it stops; a stop ends it with `stopped`.
    const waiting = exchange(bridge, call(15, 'subscription', 'chat.turn', turn('wait')), (answers) => (answers.at(-1) as { result?: { type: string } }).result?.type === 'stopped');
    out.push(await exchange(bridge, call(16, 'query', 'session.me'), answered('query')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    out.push(await exchange(bridge, call(15, 'subscription', 'chat.turn', turn('hi')), (answers) => answers.length > 0));
    bridge.send({ id: 15, method: 'subscription.stop' });
    out.push(await waiting);
    // A message that is not a call: refused, to no call in particular (the message text is each parser's own).
    const [malformed] = await exchange(bridge, { id: 17, method: 'query' }, (answers) => answers.length > 0);
    const { error } = malformed as { id: null; error: { code: number; data: { code: string } } };
    out.push([{ id: (malformed as { id: unknown }).id, code: error.code, dataCode: error.data.code }]);
    await step(call(18, 'mutation', 'session.logout'));
    await step(call(19, 'query', 'panel.dashboard'));
    for (const answers of out.slice(0, -3)) for (const answer of answers) deskResponseSchema.parse(answer);
    return out;
  }

  it('answers the same messages with the same answers', async () => {
    const [overIpc, overWs] = [await transcript(ipcBridge()), await transcript(await wsBridge())];
    expect(overIpc).toEqual(overWs);
    // The script is what it claims to be: it reached the backend, and refusals are the router's.
    const codes = overWs.map((answers) => answers.map((a) => (a as { error?: { data: { code: string } } }).error?.data.code ?? (a as { result: { type: string } }).result?.type ?? (a as { code: number }).code));
    expect(codes).toEqual([
      ['data'], ['UNAUTHORIZED'], ['UNAUTHORIZED'], ['BAD_REQUEST'], ['NOT_FOUND'], ['NOT_FOUND'], ['UNAUTHORIZED'],
      ['data'], ['data'], ['data'], ['BAD_REQUEST'],
      ['started', 'data', 'data', 'data', 'stopped'], ['BAD_REQUEST'], ['started', 'INTERNAL_SERVER_ERROR'],
      // The refused duplicate's answer carries the live one's id, so its stream sees it too.
      ['data'], ['BAD_REQUEST'], ['started', 'data', 'data', 'BAD_REQUEST', 'stopped'],
      [-32700], ['data'], ['UNAUTHORIZED'],
    ]);
    expect(JSON.stringify(overWs)).not.toMatch(/sk-secret|token/);
  });

  /** The renderer's view: the same client calls through its links, as a transcript of what it saw. */
  async function clientTranscript(link: TRPCLink<DeskRouter>): Promise<unknown[]> {
    const desk = createTRPCClient<DeskRouter>({ links: [link] });
    const out: unknown[] = [];
    const refusal = async (call: () => Promise<unknown>) => {
      try {
        return { ok: await call() };
      } catch (error) {
        const { message, data } = error as { message: string; data?: { code?: string; httpStatus?: number; path?: string } };
        return { message, code: data?.code, httpStatus: data?.httpStatus, path: data?.path };
      }
    };
    out.push(await desk.session.me.query());
    out.push(await refusal(() => desk.panel.dashboard.query()));
    out.push(await refusal(() => desk.session.login.mutate({ username: 'priya', password: 'nope' })));
    out.push(await refusal(() => desk.session.login.mutate({ username: 5 } as never)));
    out.push(await desk.session.login.mutate({ username: 'priya', password: 'demo-priya' }));
    out.push(await refusal(() => desk.panel.player.query({ playerId: '00000000-0000-4000-8000-000000000000' })));
    const events: TurnEvent[] = [];
    for await (const event of desk.chat.turn.subscribe(turn('hi'))) events.push(event);
    out.push(events);
    // Unsubscribed while the turn waits: the procedure is told, the client hears nothing more.
    out.push(await new Promise((resolve) => {
      const seen: unknown[] = [];
      const sub = desk.chat.turn.subscribe(turn('wait'), {
        onStarted: () => seen.push('started'),
        onData: (event) => {
          seen.push(event.type);
          if (seen.length === 3) {
            sub.unsubscribe();
            setTimeout(() => resolve(seen), 50);
          }
        },
        onError: (error) => seen.push(`error ${error.message}`),
        onComplete: () => seen.push('complete'),
      });
    }));
    out.push(await new Promise((resolve) => {
      desk.chat.turn.subscribe(turn('fail'), { onError: (error) => resolve({ message: error.message, code: error.data?.code }) });
    }));
    out.push(await desk.session.logout.mutate());
    out.push(await refusal(() => desk.chat.turn.subscribe(turn('hi'))[Symbol.asyncIterator]().next()));
    return out;
  }

  it('gives the renderer the same results and errors through deskLink over IPC, deskLink over the WebSocket, and wsLink', async () => {
    const headers = { cookie: await cookie(), origin: shell.url };
    const ws = createWSClient({
      url: `${shell.url.replace('http', 'ws')}/desk`,
      WebSocket: class extends WebSocket { constructor(url: string) { super(url, { headers }); } } as unknown as typeof globalThis.WebSocket,
      retryDelayMs: () => 60_000,
    });
    opened.push(ws);
    const overIpc = await clientTranscript(deskLink(ipcBridge()));
    const overWsBridge = await clientTranscript(deskLink(await wsBridge()));
    const overWsLink = await clientTranscript(wsLink({ client: ws }));
    expect(overIpc).toEqual(overWsLink);
    expect(overWsBridge).toEqual(overWsLink);
    expect(overIpc).toMatchObject([
      null,
      { code: 'UNAUTHORIZED', httpStatus: 401, path: 'panel.dashboard' },
      { code: 'UNAUTHORIZED' },
      { code: 'BAD_REQUEST' },
      { username: 'priya', role: 'agent' },
      { code: 'NOT_FOUND' },
      [{ type: 'start' }, { type: 'text', delta: 'Hello, priya' }, { type: 'done' }],
      ['started', 'start', 'text', 'complete'],
      { message: 'internal error', code: 'INTERNAL_SERVER_ERROR' },
      { ok: true },
      { code: 'UNAUTHORIZED', message: 'sign in first' },
    ]);
  });
});
