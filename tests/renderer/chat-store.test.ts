import { TRPCClientError } from '@trpc/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Card } from '../../src/shared/contracts/assistant.js';
import type { ChatHistoryInput, ChatHistoryPage, ChatMessage, ChatTurnInput, TurnEvent } from '../../src/shared/contracts/chat.js';
import {
  CHAT_WIDTH, type ChatClient, HISTORY_PAGE, MAX_LENGTH, STALE_AFTER_ANSWER, STALE_AFTER_CHANGE, STALE_AFTER_MODEL_TURN, STOP_GRACE_MS, STOP_UNCONFIRMED, type StaleKeys,
  createChatStore, pageContext, questionOf,
} from '../../src/renderer/src/chat/store.js';

/** A desk error as the renderer receives it (tRPC's client error, the desk's code in `data`). */
function deskError(code: string, message: string): TRPCClientError<never> {
  return TRPCClientError.from({ error: { code: -32600, message, data: { code, httpStatus: 400, path: 'chat.turn' } } }) as TRPCClientError<never>;
}

type Observer = Parameters<ChatClient['chat']['turn']['subscribe']>[1];

interface Deferred<T> { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void }
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

function message(over: Partial<ChatMessage> & Pick<ChatMessage, 'id'>): ChatMessage {
  return { role: 'assistant', at: '2026-11-20T06:30:00.000Z', text: '', cards: [], requestId: 'r1', ...over };
}

/** A fake desk client that records every call and lets the test answer each one. */
function fakeDesk() {
  const turns: Array<{ input: ChatTurnInput; observer: Observer; unsubscribed: boolean }> = [];
  const calls = { history: [] as Array<Deferred<ChatHistoryPage> & { input: ChatHistoryInput }>, confirm: [] as Array<{ input: unknown; answer: Deferred<ChatMessage> }>,
    cancel: [] as Array<{ input: unknown; answer: Deferred<ChatMessage> }>, edit: [] as Array<{ input: unknown; answer: Deferred<ChatMessage> }>,
    clear: [] as Array<Deferred<unknown>>,
    stop: [] as Array<{ input: { requestId: string }; answer: Deferred<{ stopped: boolean }> }> };
  const client: ChatClient = {
    chat: {
      turn: {
        subscribe(input, observer) {
          const turn = { input, observer, unsubscribed: false };
          turns.push(turn);
          return { unsubscribe: () => { turn.unsubscribed = true; } };
        },
      },
      history: { query: (input) => { const d = deferred<ChatHistoryPage>(); calls.history.push({ ...d, input }); return d.promise; } },
      confirm: { mutate: (input) => { const d = deferred<ChatMessage>(); calls.confirm.push({ input, answer: d }); return d.promise; } },
      cancel: { mutate: (input) => { const d = deferred<ChatMessage>(); calls.cancel.push({ input, answer: d }); return d.promise; } },
      edit: { mutate: (input) => { const d = deferred<ChatMessage>(); calls.edit.push({ input, answer: d }); return d.promise; } },
      clear: { mutate: () => { const d = deferred<unknown>(); calls.clear.push(d); return d.promise; } },
      conversations: { query: async () => [] },
      open: { mutate: async () => ({ ok: true }) },
      start: { mutate: async () => ({ ok: true }) },
      remove: { mutate: async () => ({ ok: true }) },
      stop: { mutate: (input) => { const d = deferred<{ stopped: boolean }>(); calls.stop.push({ input, answer: d }); return d.promise; } },
    },
  };
  return { client, turns, calls };
}

function setup(storage: Map<string, string> = new Map(), options: { stopGraceMs?: number } = {}) {
  const fake = fakeDesk();
  const invalidated: StaleKeys[] = [];
  let unauthorized = 0;
  const store = createChatStore({
    client: fake.client,
    page: () => pageContext('/agent/players/p-1', { tab: 'bets' }),
    unauthorized: () => { unauthorized++; },
    invalidate: (keys) => { invalidated.push(keys); },
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => { storage.set(k, v); } },
    ...options,
  });
  return { store, ...fake, invalidated, storage, unauthorizedCalls: () => unauthorized };
}

const flush = () => new Promise((done) => setTimeout(done, 0));

const NONCE = 'n'.repeat(32);
const HASH = 'a'.repeat(64);

describe('chat store: sending and streaming', () => {
  it('sends the trimmed text with the page the user is on, and refuses empty, oversized or overlapping sends', () => {
    const { store, turns } = setup();
    store.getState().setDraft('  how much does Karan owe?  ');
    expect(store.getState().send('   ')).toBe(false);
    expect(store.getState().send('x'.repeat(MAX_LENGTH + 1))).toBe(false);
    expect(turns).toHaveLength(0);

    expect(store.getState().send('  how much does Karan owe?  ')).toBe(true);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.input).toEqual({ kind: 'message', text: 'how much does Karan owe?', page: { path: '/agent/players/p-1', query: { tab: 'bets' } } });
    expect(store.getState().draft).toBe('');
    expect(store.getState().turn).toMatchObject({ requestId: null, tools: [], cards: [], text: '' });
    // One turn at a time.
    expect(store.getState().send('and Meera?')).toBe(false);
    expect(turns).toHaveLength(1);
  });

  it('builds the turn from its events and ends it with the final message', () => {
    const { store, turns } = setup();
    store.getState().send('exposure');
    const emit = (e: TurnEvent) => turns[0]!.observer.onData(e);
    const user = message({ id: 'u1', role: 'user', text: 'exposure' });
    emit({ type: 'start', requestId: 'r1', user });
    emit({ type: 'plan', requestId: 'r1', intent: 'exposure', action: 'tools', tools: [{ tool: 'agent.getLiveExposure', label: 'live exposure' }] });
    expect(store.getState().turn?.tools).toEqual([{ tool: 'agent.getLiveExposure', label: 'live exposure', status: 'planned' }]);
    emit({ type: 'tool', requestId: 'r1', tool: 'agent.getLiveExposure', label: 'live exposure', status: 'started' });
    emit({ type: 'tool', requestId: 'r1', tool: 'agent.getLiveExposure', label: 'live exposure', status: 'ok', ms: 12 });
    const card = { type: 'exposure_card' } as unknown as Card;
    emit({ type: 'card', requestId: 'r1', card });
    emit({ type: 'text', requestId: 'r1', delta: 'Your open ' });
    // Another turn's event is not this one's.
    emit({ type: 'text', requestId: 'other', delta: 'NOT MINE' });
    emit({ type: 'text', requestId: 'r1', delta: 'liability is…' });
    const mid = store.getState();
    expect(mid.messages).toEqual([user]);
    expect(mid.turn).toMatchObject({ requestId: 'r1', action: 'tools', tools: [{ tool: 'agent.getLiveExposure', status: 'ok' }], cards: [card], text: 'Your open liability is…' });

    const final = message({ id: 'a1', text: 'Your open liability is 10.00.', cards: [card], outcome: 'answered' });
    emit({ type: 'done', requestId: 'r1', message: final });
    expect(store.getState().turn).toBeNull();
    expect(store.getState().messages).toEqual([user, final]);
    expect(store.getState().send('next')).toBe(true);
  });

  it('has the Settings page fetch its usage afresh after a turn Claude answered, and only then', () => {
    const { store, turns, invalidated } = setup();
    store.getState().send('offline question');
    turns[0]!.observer.onData({ type: 'start', requestId: 'r1', user: message({ id: 'u1', role: 'user' }) });
    turns[0]!.observer.onData({ type: 'done', requestId: 'r1', message: message({ id: 'a1', planner: 'rules' }) });
    expect(invalidated).toEqual([]);
    store.getState().send('model question');
    const usage = { inputTokens: 10, outputTokens: 5, cacheWriteTokens: 0, cacheReadTokens: 90, costMicroUsd: 3, calls: 1, models: ['claude-haiku-5-5'] };
    turns[1]!.observer.onData({ type: 'start', requestId: 'r2', user: message({ id: 'u2', role: 'user' }) });
    turns[1]!.observer.onData({ type: 'done', requestId: 'r2', message: message({ id: 'a2', planner: 'claude', usage }) });
    expect(invalidated).toEqual([STALE_AFTER_MODEL_TURN]);
  });

  it('continues a picker turn with the chosen candidate', () => {
    const { store, turns } = setup();
    store.getState().pick('r7', '11111111-1111-4111-8111-111111111111');
    expect(turns[0]!.input).toEqual({ kind: 'pick', requestId: 'r7', candidateId: '11111111-1111-4111-8111-111111111111' });
    store.getState().pick('r8', '22222222-2222-4222-8222-222222222222');
    expect(turns).toHaveLength(1);
  });

  it('a failed turn keeps what arrived, says what went wrong in words and never the error text', () => {
    const { store, turns } = setup();
    store.getState().send('exposure');
    const obs = turns[0]!.observer;
    obs.onData({ type: 'start', requestId: 'r1', user: message({ id: 'u1', role: 'user' }) });
    obs.onData({ type: 'text', requestId: 'r1', delta: 'Partial' });
    obs.onError(deskError('INTERNAL_SERVER_ERROR', 'relation "ledger" does not exist'));
    const s = store.getState();
    expect(s.turn).toBeNull();
    expect(s.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Partial', outcome: 'failed' });
    expect(s.error).toBe('Something went wrong on our side. Try again in a moment.');
    expect(s.error).not.toContain('ledger');
    // The message had been taken (start came): the composer is not refilled.
    expect(s.draft).toBe('');
  });

  it('gives the typed text back when the turn failed before it was taken', () => {
    const { store, turns } = setup();
    store.getState().send('hello there');
    turns[0]!.observer.onError(deskError('TOO_MANY_REQUESTS', 'slow down'));
    expect(store.getState().draft).toBe('hello there');
    expect(store.getState().error).toBeTruthy();
  });

  it('a stream that ends without done is a failure; UNAUTHORIZED ends the session', () => {
    const { store, turns, unauthorizedCalls } = setup();
    store.getState().send('one');
    turns[0]!.observer.onComplete();
    expect(store.getState().error).toBe('The assistant stopped before finishing its answer. Try again.');
    expect(store.getState().turn).toBeNull();

    store.getState().send('two');
    turns[1]!.observer.onError(deskError('UNAUTHORIZED', 'session expired'));
    expect(unauthorizedCalls()).toBe(1);
  });

  it('reset stops the running turn and ignores its late events', () => {
    const { store, turns } = setup();
    store.getState().send('one');
    store.getState().reset();
    expect(turns[0]!.unsubscribed).toBe(true);
    turns[0]!.observer.onData({ type: 'start', requestId: 'r1', user: message({ id: 'u1', role: 'user' }) });
    expect(store.getState().messages).toEqual([]);
    expect(store.getState().turn).toBeNull();
  });
});

describe('chat store: stopping a turn', () => {
  afterEach(() => { vi.useRealTimers(); });

  /** A turn under way: started as r1, with some text in. */
  function running(options: { stopGraceMs?: number } = {}) {
    const t = setup(new Map(), options);
    t.store.getState().send('exposure');
    const emit = (e: TurnEvent) => t.turns[0]!.observer.onData(e);
    const user = message({ id: 'u1', role: 'user', text: 'exposure' });
    emit({ type: 'start', requestId: 'r1', user });
    emit({ type: 'text', requestId: 'r1', delta: 'Your open ' });
    return { ...t, emit, user };
  }

  it('asks main to stop the turn by its requestId, once, and keeps listening for the stopped message', async () => {
    const { store, turns, calls, emit, user } = running();
    store.getState().stop();
    store.getState().stop();
    expect(calls.stop.map((c) => c.input)).toEqual([{ requestId: 'r1' }]);
    expect(store.getState().turn).toMatchObject({ requestId: 'r1', stopping: true, text: 'Your open ' });
    expect(turns[0]!.unsubscribed).toBe(false);
    calls.stop[0]!.answer.resolve({ stopped: true });
    await flush();
    // Text already on its way still lands, then main's own ending.
    emit({ type: 'text', requestId: 'r1', delta: 'liab' });
    expect(store.getState().turn?.text).toBe('Your open liab');
    const stopped = message({ id: 'a1', text: 'Your open liab', outcome: 'answered', stopped: true });
    emit({ type: 'done', requestId: 'r1', message: stopped });
    const s = store.getState();
    expect(s.turn).toBeNull();
    expect(s.error).toBeNull();
    expect(s.messages).toEqual([user, stopped]);
    expect(s.send('next')).toBe(true);
  });

  it('a stop pressed before main named the turn is sent when start arrives', () => {
    const { store, turns, calls } = setup();
    store.getState().send('exposure');
    store.getState().stop();
    expect(calls.stop).toHaveLength(0);
    expect(store.getState().turn?.stopping).toBe(true);
    turns[0]!.observer.onData({ type: 'start', requestId: 'r5', user: message({ id: 'u5', role: 'user', requestId: 'r5' }) });
    expect(calls.stop.map((c) => c.input)).toEqual([{ requestId: 'r5' }]);
  });

  it('without done in time, ends the turn here: unsubscribed, the partial answer kept as a stopped failure', async () => {
    vi.useFakeTimers();
    const { store, turns, calls, emit, user } = running();
    store.getState().stop();
    calls.stop[0]!.answer.resolve({ stopped: true });
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS - 1);
    expect(store.getState().turn).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    const s = store.getState();
    expect(turns[0]!.unsubscribed).toBe(true);
    expect(s.turn).toBeNull();
    expect(s.messages).toEqual([user, expect.objectContaining({ role: 'assistant', text: 'Your open ', outcome: 'failed', stopped: true, requestId: 'r1' })]);
    expect(s.error).toBe(STOP_UNCONFIRMED);
    // A done that comes after all is another turn's business now: nothing changes.
    emit({ type: 'done', requestId: 'r1', message: message({ id: 'a1', text: 'late', stopped: true }) });
    expect(store.getState().messages).toHaveLength(2);
    turns[0]!.observer.onComplete();
    expect(store.getState().error).toBe(STOP_UNCONFIRMED);
  });

  it('the grace period is a store option, and done within it cancels the fallback', async () => {
    vi.useFakeTimers();
    const { store, turns, emit, user } = running({ stopGraceMs: 50 });
    store.getState().stop();
    const stopped = message({ id: 'a1', text: 'Your open ', stopped: true });
    emit({ type: 'done', requestId: 'r1', message: stopped });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.getState().messages).toEqual([user, stopped]);
    expect(store.getState().error).toBeNull();
    expect(turns[0]!.unsubscribed).toBe(false);
  });

  it('a failed stop call falls back at once; UNAUTHORIZED ends the session', async () => {
    const { store, turns, calls, unauthorizedCalls } = running();
    store.getState().stop();
    calls.stop[0]!.answer.reject(deskError('INTERNAL_SERVER_ERROR', 'relation "turns" does not exist'));
    await flush();
    expect(turns[0]!.unsubscribed).toBe(true);
    expect(store.getState().turn).toBeNull();
    expect(store.getState().messages.at(-1)).toMatchObject({ text: 'Your open ', outcome: 'failed', stopped: true });
    expect(store.getState().error).toBe(STOP_UNCONFIRMED);

    store.getState().send('again');
    turns[1]!.observer.onData({ type: 'start', requestId: 'r2', user: message({ id: 'u2', role: 'user', requestId: 'r2' }) });
    store.getState().stop();
    calls.stop[1]!.answer.reject(deskError('UNAUTHORIZED', 'session expired'));
    await flush();
    expect(unauthorizedCalls()).toBe(1);
    expect(turns[1]!.unsubscribed).toBe(true);
  });

  it('stop without a running turn does nothing; reset cancels a pending fallback', async () => {
    vi.useFakeTimers();
    const { store, calls } = setup();
    store.getState().stop();
    expect(calls.stop).toHaveLength(0);
    const t = running();
    t.store.getState().stop();
    t.store.getState().reset();
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS * 2);
    expect(t.store.getState()).toMatchObject({ turn: null, error: null, messages: [] });
  });

  it('stopping before anything arrived and without done gives the typed text back', async () => {
    vi.useFakeTimers();
    const { store } = setup();
    store.getState().send('hello there');
    store.getState().stop();
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS);
    expect(store.getState()).toMatchObject({ turn: null, draft: 'hello there', error: STOP_UNCONFIRMED });
    expect(store.getState().messages).toEqual([]);
  });
});

describe('chat store: history', () => {
  it('loads once, putting a turn sent meanwhile after it', async () => {
    const { store, calls, turns } = setup();
    store.getState().setOpen(true);
    expect(store.getState().history).toBe('loading');
    store.getState().send('meanwhile');
    const mine = message({ id: 'u9', role: 'user', requestId: 'r9' });
    turns[0]!.observer.onData({ type: 'start', requestId: 'r9', user: mine });
    const old = [message({ id: 'u0', role: 'user', requestId: 'r0' }), message({ id: 'a0', requestId: 'r0', resolves: { nonce: NONCE, state: 'cancelled' } })];
    calls.history[0]!.resolve({ messages: old, earlier: false });
    await flush();
    expect(store.getState().history).toBe('ready');
    expect(store.getState().messages.map((m) => m.id)).toEqual(['u0', 'a0', 'u9']);
    // What history says about answered proposals is kept.
    expect(store.getState().resolved).toEqual({ [NONCE]: 'cancelled' });
    await store.getState().loadHistory();
    expect(calls.history).toHaveLength(1);
  });

  it('a failed load says so in words and may be tried again; a load that lands after reset is dropped', async () => {
    const { store, calls } = setup();
    void store.getState().loadHistory();
    calls.history[0]!.reject(new TypeError('Failed to fetch at ws://127.0.0.1'));
    await flush();
    expect(store.getState().history).toBe('error');
    expect(store.getState().historyError).not.toContain('ws://');

    void store.getState().loadHistory();
    store.getState().reset();
    calls.history[1]!.resolve({ messages: [message({ id: 'other-user' })], earlier: false });
    await flush();
    expect(store.getState().messages).toEqual([]);
    expect(store.getState().history).toBe('idle');
  });

  it('asks for one page, then the page before the oldest message held, until main has none earlier', async () => {
    const { store, calls } = setup();
    const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `m${from + i}`);
    const page = (from: number, to: number, earlier: boolean): ChatHistoryPage => ({ messages: ids(from, to).map((id) => message({ id })), earlier });
    store.getState().setOpen(true);
    expect(calls.history[0]!.input).toEqual({ limit: HISTORY_PAGE });
    calls.history[0]!.resolve(page(100, 100 + HISTORY_PAGE, true));
    await flush();
    expect(store.getState()).toMatchObject({ history: 'ready', earlier: 'more' });

    const loading = store.getState().loadEarlier();
    expect(store.getState().earlier).toBe('loading');
    // One fetch at a time.
    await store.getState().loadEarlier();
    expect(calls.history).toHaveLength(2);
    expect(calls.history[1]!.input).toEqual({ limit: HISTORY_PAGE, before: 'm100' });
    calls.history[1]!.resolve(page(40, 100, true));
    await loading;
    expect(store.getState().messages.map((m) => m.id)).toEqual(ids(40, 100 + HISTORY_PAGE));

    // A failure says so in words, and the same page can be asked for again.
    const failing = store.getState().loadEarlier();
    calls.history[2]!.reject(new TypeError('Failed to fetch at ws://127.0.0.1'));
    await failing;
    expect(store.getState().earlier).toBe('error');
    expect(store.getState().earlierError).not.toContain('ws://');
    const last = store.getState().loadEarlier();
    expect(calls.history[3]!.input).toEqual({ limit: HISTORY_PAGE, before: 'm40' });
    calls.history[3]!.resolve(page(0, 40, false));
    await last;
    expect(store.getState()).toMatchObject({ earlier: 'none', earlierError: null });
    expect(store.getState().messages).toHaveLength(100 + HISTORY_PAGE);
    await store.getState().loadEarlier();
    expect(calls.history).toHaveLength(4);

    // Closed, the panel lets go of the earlier pages.
    store.getState().setOpen(false);
    expect(store.getState().messages.map((m) => m.id)).toEqual(ids(100, 100 + HISTORY_PAGE));
    expect(store.getState().earlier).toBe('more');
  });

  it('keeps what proposals resolve the same object while none changes, so messages on screen are not drawn again', () => {
    const { store, turns } = setup();
    store.getState().send('q');
    const before = store.getState().resolved;
    turns[0]!.observer.onData({ type: 'start', requestId: 'r1', user: message({ id: 'u1', role: 'user' }) });
    turns[0]!.observer.onData({ type: 'done', requestId: 'r1', message: message({ id: 'a1' }) });
    expect(store.getState().resolved).toBe(before);
    store.getState().send('cancel it');
    turns[1]!.observer.onData({ type: 'done', requestId: 'r1', message: message({ id: 'a2', resolves: { nonce: NONCE, state: 'cancelled' } }) });
    expect(store.getState().resolved).toEqual({ [NONCE]: 'cancelled' });
    expect(store.getState().resolved).not.toBe(before);
  });

  it('holds the latest page only while the user is not reading back, however long the conversation runs', () => {
    const { store, turns } = setup();
    for (let i = 0; i < HISTORY_PAGE; i++) {
      store.getState().send(`q${i}`);
      const requestId = `r${i}`;
      turns[i]!.observer.onData({ type: 'start', requestId, user: message({ id: `u${i}`, role: 'user', requestId }) });
      turns[i]!.observer.onData({ type: 'done', requestId, message: message({ id: `a${i}`, requestId }) });
    }
    const { messages, earlier } = store.getState();
    expect(messages).toHaveLength(HISTORY_PAGE);
    expect(messages.at(-1)!.id).toBe(`a${HISTORY_PAGE - 1}`);
    expect(messages[0]!.id).toBe(`u${HISTORY_PAGE / 2}`);
    expect(earlier).toBe('more');
  });

  it('pages from the oldest message main saved, not one made up here; a page that lands after clear is dropped', async () => {
    const { store, calls, turns } = setup();
    store.getState().setOpen(true);
    // A turn that failed while the history loaded: its partial answer has an id main never gave.
    store.getState().send('x');
    turns[0]!.observer.onData({ type: 'text', requestId: 'r1', delta: 'partial' });
    turns[0]!.observer.onError(new TypeError('Failed to fetch'));
    calls.history[0]!.resolve({ messages: [], earlier: true });
    await flush();
    expect(store.getState().messages.map((m) => m.id)).toEqual([expect.stringMatching(/^local-/)]);
    const loading = store.getState().loadEarlier();
    expect(calls.history[1]!.input).toEqual({ limit: HISTORY_PAGE });
    const clearing = store.getState().clear();
    calls.clear[0]!.resolve(undefined);
    await clearing;
    calls.history[1]!.resolve({ messages: [message({ id: 'm0' })], earlier: false });
    await loading;
    expect(store.getState()).toMatchObject({ messages: [], earlier: 'none' });
  });

  it('clear empties the conversation once main has; a failed clear keeps it', async () => {
    const { store, calls, turns } = setup();
    store.getState().send('x');
    turns[0]!.observer.onData({ type: 'done', requestId: 'r1', message: message({ id: 'a1' }) });
    const failing = store.getState().clear();
    calls.clear[0]!.reject(deskError('INTERNAL_SERVER_ERROR', 'disk full at /home/x'));
    await failing;
    expect(store.getState().messages).toHaveLength(1);
    expect(store.getState().error).not.toContain('/home');
    const ok = store.getState().clear();
    calls.clear[1]!.resolve(undefined);
    await ok;
    expect(store.getState().messages).toEqual([]);
  });
});

describe('chat store: answering a proposal', () => {
  it('confirms once, records the answer and has the pages showing limits, takes and the audit log fetch afresh', async () => {
    const { store, calls, invalidated } = setup();
    const pending = store.getState().answer('confirm', NONCE, HASH);
    // A second press while the first is in flight sends nothing.
    await store.getState().answer('confirm', NONCE, HASH);
    await store.getState().answer('cancel', NONCE, HASH);
    expect(calls.confirm).toHaveLength(1);
    expect(calls.cancel).toHaveLength(0);
    expect(calls.confirm[0]!.input).toEqual({ nonce: NONCE, payloadHash: HASH });
    expect(store.getState().answering).toEqual({ [NONCE]: 'confirm' });
    expect(invalidated).toEqual([]);

    calls.confirm[0]!.answer.resolve(message({ id: 'c1', text: 'Done.', resolves: { nonce: NONCE, state: 'confirmed' } }));
    await pending;
    expect(store.getState().answering).toEqual({});
    expect(store.getState().resolved).toEqual({ [NONCE]: 'confirmed' });
    expect(invalidated).toEqual([STALE_AFTER_CHANGE]);
    expect(STALE_AFTER_CHANGE).toEqual(expect.arrayContaining([['panel'], ['audit']]));

    // Answered: nothing more is sent for it.
    await store.getState().answer('confirm', NONCE, HASH);
    expect(calls.confirm).toHaveLength(1);
  });

  it('a cancel, or a confirm main refused, refreshes only the audit log', async () => {
    const { store, calls, invalidated } = setup();
    const cancel = store.getState().answer('cancel', NONCE, HASH);
    calls.cancel[0]!.answer.resolve(message({ id: 'c1', resolves: { nonce: NONCE, state: 'cancelled' } }));
    await cancel;
    const other = 'm'.repeat(32);
    const refused = store.getState().answer('confirm', other, HASH);
    calls.confirm[0]!.answer.resolve(message({ id: 'c2', resolves: { nonce: other, state: 'expired' } }));
    await refused;
    expect(invalidated).toEqual([STALE_AFTER_ANSWER, STALE_AFTER_ANSWER]);
    expect(STALE_AFTER_ANSWER).toEqual([['audit']]);
  });

  it('a failed call gives the buttons back with the reason in words, and refreshes nothing', async () => {
    const { store, calls, invalidated, unauthorizedCalls } = setup();
    const first = store.getState().answer('confirm', NONCE, HASH);
    calls.confirm[0]!.answer.reject(deskError('INTERNAL_SERVER_ERROR', 'ECONNRESET 10.0.0.1'));
    await first;
    expect(store.getState().answering).toEqual({});
    expect(store.getState().answerErrors[NONCE]).toBe('Something went wrong on our side. Try again in a moment.');
    expect(invalidated).toEqual([]);

    const second = store.getState().answer('confirm', NONCE, HASH);
    expect(store.getState().answerErrors).toEqual({});
    calls.confirm[1]!.answer.reject(deskError('UNAUTHORIZED', 'gone'));
    await second;
    expect(unauthorizedCalls()).toBe(1);
  });

  it('an answer that lands after sign-out is dropped', async () => {
    const { store, calls, invalidated } = setup();
    const pending = store.getState().answer('confirm', NONCE, HASH);
    store.getState().reset();
    calls.confirm[0]!.answer.resolve(message({ id: 'c1', resolves: { nonce: NONCE, state: 'confirmed' } }));
    await pending;
    expect(store.getState().messages).toEqual([]);
    expect(invalidated).toEqual([]);
  });

  it('needs a nonce and a payload hash', async () => {
    const { store, calls } = setup();
    await store.getState().answer('confirm', '', HASH);
    await store.getState().answer('confirm', NONCE, '');
    expect(calls.confirm).toHaveLength(0);
  });
});

describe('chat store: the password, a reason, an edit', () => {
  it('sends the password with a confirm, a trimmed reason with a cancel, and nothing empty', async () => {
    const { store, calls } = setup();
    const confirm = store.getState().answer('confirm', NONCE, HASH, { password: 'demo-priya' });
    expect(calls.confirm[0]!.input).toEqual({ nonce: NONCE, payloadHash: HASH, password: 'demo-priya' });
    calls.confirm[0]!.answer.reject(deskError('FORBIDDEN', 'That password is not right. Nothing was changed; the proposal is still open until it expires.'));
    await confirm;
    // Turned down with the proposal still open: shown beside the field, not as a failure to send.
    expect(store.getState().turnedDown[NONCE]).toEqual({ answer: 'confirm', message: 'That password is not right. Nothing was changed; the proposal is still open until it expires.' });
    expect(store.getState().answerErrors).toEqual({});
    expect(store.getState().answering).toEqual({});

    const cancel = store.getState().answer('cancel', NONCE, HASH, { reason: '  too high  ', password: 'ignored' });
    expect(calls.cancel[0]!.input).toEqual({ nonce: NONCE, payloadHash: HASH, reason: 'too high' });
    expect(store.getState().turnedDown).toEqual({});
    calls.cancel[0]!.answer.resolve(message({ id: 'c1', resolves: { nonce: NONCE, state: 'cancelled', reason: 'too high' } }));
    await cancel;
    expect(store.getState().resolved).toEqual({ [NONCE]: 'cancelled' });
    expect(store.getState().declined).toEqual({ [NONCE]: 'too high' });

    const other = 'm'.repeat(32);
    const blank = store.getState().answer('cancel', other, HASH, { reason: '   ' });
    expect(calls.cancel[1]!.input).toEqual({ nonce: other, payloadHash: HASH });
    calls.cancel[1]!.answer.resolve(message({ id: 'c2', resolves: { nonce: other, state: 'cancelled' } }));
    await blank;
  });

  it('an edit sends whole paisa once; its answer ends the old card as edited and brings the new one', async () => {
    const { store, calls, invalidated } = setup();
    await store.getState().edit(NONCE, HASH, 12.5);
    await store.getState().edit(NONCE, HASH, -1);
    expect(calls.edit).toHaveLength(0);
    const pending = store.getState().edit(NONCE, HASH, 5_800_000);
    await store.getState().edit(NONCE, HASH, 5_900_000);
    await store.getState().answer('confirm', NONCE, HASH);
    expect(calls.edit).toHaveLength(1);
    expect(calls.confirm).toHaveLength(0);
    expect(calls.edit[0]!.input).toEqual({ nonce: NONCE, payloadHash: HASH, value: 5_800_000 });
    expect(store.getState().answering).toEqual({ [NONCE]: 'edit' });
    const card = { type: 'diff_card', data: {}, actions: [] } as unknown as Card;
    calls.edit[0]!.answer.resolve(message({ id: 'e1', cards: [card], resolves: { nonce: NONCE, state: 'edited' } }));
    await pending;
    expect(store.getState().resolved).toEqual({ [NONCE]: 'edited' });
    expect(store.getState().messages.at(-1)!.cards).toEqual([card]);
    expect(invalidated).toEqual([STALE_AFTER_ANSWER]);

    const other = 'm'.repeat(32);
    const refused = store.getState().edit(other, HASH, 500_000_000);
    calls.edit[1]!.answer.reject(deskError('UNPROCESSABLE_CONTENT', 'Above your own credit limit of 2,000,000.00. The earlier preview still stands.'));
    await refused;
    expect(store.getState().turnedDown[other]).toEqual({ answer: 'edit', message: 'Above your own credit limit of 2,000,000.00. The earlier preview still stands.' });
    expect(store.getState().resolved[other]).toBeUndefined();
  });
});

describe('chat store: dock mode and page context', () => {
  it('remembers the dock mode across stores, and survives storage that throws', () => {
    const storage = new Map<string, string>();
    const first = setup(storage).store;
    expect(first.getState().docked).toBe(false);
    first.getState().setDocked(true);
    expect(setup(storage).store.getState().docked).toBe(true);

    const broken = createChatStore({
      client: fakeDesk().client, page: () => pageContext('/', {}), unauthorized: () => undefined, invalidate: () => undefined,
      storage: { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } },
    });
    expect(broken.getState().docked).toBe(false);
    broken.getState().setDocked(true);
    expect(broken.getState().docked).toBe(true);
  });

  it('remembers the panel width, kept within its bounds', () => {
    const storage = new Map<string, string>();
    const { store } = setup(storage);
    expect(store.getState().width).toBe(CHAT_WIDTH.initial);
    store.getState().setWidth(612.4);
    expect(store.getState().width).toBe(612);
    expect(setup(storage).store.getState().width).toBe(612);
    store.getState().setWidth(10);
    expect(store.getState().width).toBe(CHAT_WIDTH.min);
    store.getState().setWidth(99_999);
    expect(store.getState().width).toBe(CHAT_WIDTH.max);
    storage.set('agent-desk.chat.width', 'wide');
    expect(setup(storage).store.getState().width).toBe(CHAT_WIDTH.initial);
    store.getState().reset();
    expect(store.getState().width).toBe(CHAT_WIDTH.max);
  });

  it('trims the page context to what the contract accepts', () => {
    expect(pageContext('/agent/bets', { playerId: 'p', [''.padEnd(41, 'k')]: 'x', long: 'v'.repeat(201) })).toEqual({ path: '/agent/bets', query: { playerId: 'p' } });
    expect(pageContext('javascript:alert(1)', {}).path).toBe('/agent/dashboard');
  });
});

describe('chat store: retry', () => {
  it('asks the question an answer answered again, as a new turn with the page the user is on now', () => {
    const { store, turns } = setup();
    store.setState({
      messages: [
        message({ id: 'u1', role: 'user', text: 'who owes me the most', requestId: 'r1' }),
        message({ id: 'a1', text: 'Karan owes you 5,000.00', requestId: 'r1' }),
        message({ id: 'u2', role: 'user', text: 'show my downline', requestId: 'r2' }),
        message({ id: 'a2', text: 'Something went wrong', requestId: 'r2', outcome: 'failed' }),
      ],
    });
    store.getState().retry('a1');
    expect(turns).toHaveLength(1);
    expect(turns[0]!.input).toEqual({ kind: 'message', text: 'who owes me the most', page: pageContext('/agent/players/p-1', { tab: 'bets' }) });
    // One turn at a time: a second retry while the first runs sends nothing.
    store.getState().retry('a2');
    expect(turns).toHaveLength(1);
  });

  it('finds the question of a turn that failed before main kept it, and of an answer to a proposal', () => {
    const held = [
      message({ id: 'u1', role: 'user', text: 'settle Karan', requestId: 'r1' }),
      message({ id: 'a1', text: 'Settle 5,000.00?', requestId: 'r1' }),
      message({ id: 'a2', text: 'Settled.', requestId: 'r9', resolves: { nonce: NONCE, state: 'confirmed' } }),
      message({ id: 'local-3', text: 'partial', requestId: '', outcome: 'failed' }),
    ];
    expect(questionOf(held, 'a2')).toBe('settle Karan');
    expect(questionOf(held, 'local-3')).toBe('settle Karan');
    expect(questionOf(held, 'nope')).toBeNull();
    expect(questionOf([message({ id: 'a0' })], 'a0')).toBeNull();
  });

  it('without an answer to retry, asks the last question sent again (a turn that failed before any answer)', () => {
    const { store, turns } = setup();
    store.getState().retry();
    expect(turns).toHaveLength(0);
    expect(store.getState().send('exposure on India vs Australia')).toBe(true);
    turns[0]!.observer.onError(deskError('INTERNAL_SERVER_ERROR', 'boom'));
    expect(store.getState().error).not.toBeNull();
    store.getState().retry();
    expect(turns).toHaveLength(2);
    expect(turns[1]!.input).toMatchObject({ kind: 'message', text: 'exposure on India vs Australia' });
  });
});
