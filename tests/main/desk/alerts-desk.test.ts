import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/infra/log.js';
import { type BackendConnection, embeddedConnection } from '../../../src/main/backend/connection.js';
import {
  type AlertFeedItem, type AlertNotice, type AlertsBackend, DeskAlerts, type Notifier, backendAlerts, describeEvent, plain,
} from '../../../src/main/desk/alerts.js';
import { type DeskContext, deskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import type { Backend } from '../../../src/server/backend.js';
import type { Db } from '../../../src/server/db/client.js';
import { type OutboxEvent, emitEvents } from '../../../src/server/services/event-outbox.js';
import type { DeskEvent } from '../../../src/shared/contracts/events.js';
import { BOOK_NOW, accountId, openTestBookBackend } from '../../helpers/backend.js';

/**
 * The desk's alert feeds on a real embedded backend: events committed in the outbox reach the bell
 * in order and once, through a dropped stream too; mutes keep an event in the bell but out of the
 * notifier, and a timed one ends at its time; the notifier is told each event in words, with where
 * a click leads.
 */

/** One clock for the backend's business time and main's wall clock, moved together as time passes. */
const clock = { offsetMs: 0 };
const businessNow = () => new Date(BOOK_NOW.getTime() + clock.offsetMs);
const wallNow = () => Date.now() + clock.offsetMs;

let raw: Backend;
let backend: BackendConnection;
let priya: string;
let arjun: string;

// A backend of its own per test: a new feed is sent the user's earlier events, which belong to no other test.
beforeEach(async () => {
  clock.offsetMs = 0;
  raw = await openTestBookBackend(businessNow);
  backend = embeddedConnection(raw, silentLogger);
  [priya, arjun] = [await accountId(raw, 'priya'), await accountId(raw, 'arjun')];
});

class RecordingNotifier implements Notifier {
  readonly shows = 'native' as const;
  readonly notices: AlertNotice[] = [];
  notify(notice: AlertNotice): void {
    this.notices.push(notice);
  }
}

/** Streams the test can cut: `drop()` ends the live one with an error, as a lost connection does. */
class DroppableStreams {
  readonly resumedFrom: Array<string | null> = [];
  private live: Array<{ error(e: unknown): void; stop(): void }> = [];
  wrap = (api: Parameters<typeof backendAlerts>[0]): AlertsBackend => {
    const real = backendAlerts(api);
    return {
      ...real,
      stream: (lastEventId, on) => {
        this.resumedFrom.push(lastEventId);
        const stop = real.stream(lastEventId, on);
        const entry = { error: on.error, stop };
        this.live.push(entry);
        return () => {
          this.live = this.live.filter((e) => e !== entry);
          stop();
        };
      },
    };
  };
  drop(): void {
    for (const s of this.live.splice(0)) {
      s.stop();
      s.error(new Error('connection reset'));
    }
  }
}

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await backend?.close();
});

function setup(options: { notifier?: Notifier; streams?: DroppableStreams } = {}) {
  const sessions = new DeskSessions();
  const alerts = new DeskAlerts({
    sessions, backend, log: silentLogger, now: wallNow, backoffMs: () => 20, idleMs: 50,
    ...(options.notifier && { notifier: options.notifier }), ...(options.streams && { backendFor: options.streams.wrap }),
  });
  cleanups.push(() => alerts.close());
  // A caller's signal is the caller's own (createCaller's options), as a transport's is per call.
  const desk = (slot: string, signal?: AbortSignal) => deskRouter.createCaller({
    sessions, backend, log: silentLogger, alerts, slot, chat: null as never, audit: null as never, models: null as never,
  } satisfies DeskContext, signal ? { signal } : {});
  return { sessions, alerts, desk };
}

type Desk = ReturnType<ReturnType<typeof setup>['desk']>;

/** The feed of a desk, read in the background until the test ends. */
async function listen(ctx: ReturnType<typeof setup>, slot: string) {
  const items: AlertFeedItem[] = [];
  const controller = new AbortController();
  const stream = await ctx.desk(slot, controller.signal).alerts.feed();
  const done = (async () => {
    for await (const item of stream) items.push(item);
  })().catch(() => undefined);
  cleanups.push(async () => {
    controller.abort();
    await done;
  });
  const events = () => items.flatMap((i) => (i.type === 'event' ? [i] : []));
  return { items, events, stop: () => controller.abort() };
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function emit(events: OutboxEvent[]): Promise<void> {
  await raw.deps.db.transaction(async (tx) => emitEvents(tx as unknown as Db, events, businessNow()));
}

let n = 0;
const login = (recipientId: string, name = `Player ${++n}`): OutboxEvent => ({ kind: 'player_login', recipientId, payload: { playerId: randomUUID(), playerName: name } });
const largeBet = (recipientId: string, over: Partial<Extract<OutboxEvent, { kind: 'large_bet' }>['payload']> = {}): OutboxEvent => ({
  kind: 'large_bet', recipientId,
  payload: {
    betId: randomUUID(), playerId: randomUUID(), playerName: 'Ravi', fixtureId: randomUUID(), fixtureName: 'India v Australia',
    marketName: 'Match Odds', outcomeName: 'India', side: 'back', stake: 2_500_000, odds: 185, liability: 2_500_000, hedge: false, ...over,
  },
});

async function signedIn(ctx: ReturnType<typeof setup>, username: string, slot: string): Promise<Desk> {
  const desk = ctx.desk(slot);
  await desk.session.login({ username, password: `demo-${username}` });
  // Each test starts unmuted, at the default threshold.
  const settings = await desk.alerts.settings();
  for (const kind of Object.keys(settings.muted) as Array<keyof typeof settings.muted>) await desk.alerts.update({ unmute: kind });
  return desk;
}

describe('the desk alert feed', () => {
  it('brings the events committed for the user, in order, once; the notifier hears each in words', async () => {
    const notifier = new RecordingNotifier();
    const ctx = setup({ notifier });
    const desk = await signedIn(ctx, 'priya', 'slot-a');
    const feed = await listen(ctx, 'slot-a');
    await until(() => feed.items[0]?.type === 'backlog', 'the backlog');
    const before = feed.items[0]!.type === 'backlog' ? feed.items[0]!.alerts.length : 0;

    await emit([login(priya, 'Asha'), login(arjun, 'not hers'), largeBet(priya)]);
    await emit([login(priya, 'Bilal')]);
    await until(() => feed.events().length === 3, 'three events');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const events = feed.events();
    expect(events.map((e) => e.alert.title)).toEqual(['Asha signed in', 'Large bet: 25,000.00 pts by Ravi', 'Bilal signed in']);
    const ids = events.map((e) => BigInt(e.event.id));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    // Main notified (a native notifier), so the page is not asked to.
    expect(events.every((e) => !e.muted && !e.notify)).toBe(true);
    expect(notifier.notices.map((x) => x.title)).toEqual(events.map((e) => e.alert.title));
    expect(notifier.notices.every((x) => x.userId === priya)).toBe(true);
    expect(notifier.notices[1]).toMatchObject({
      kind: 'large_bet', body: 'Back India at 1.85, Match Odds — India v Australia. Liability 25,000.00 pts.',
      open: { page: `/agent/bets?playerId=${(events[1]!.event as Extract<DeskEvent, { kind: 'large_bet' }>).payload.playerId}` },
    });

    const list = await desk.alerts.list();
    expect(list.alerts.length).toBe(before + 3);
    expect(list.unread).toBeGreaterThanOrEqual(3);
    const read = await desk.alerts.markRead({ upTo: events[2]!.event.id });
    expect(read.unread).toBe(0);
    await until(() => feed.items.some((i) => i.type === 'read'), 'the read notice');
  });

  it('resumes a dropped backend stream from the last id: nothing lost, nothing twice', async () => {
    const notifier = new RecordingNotifier();
    const streams = new DroppableStreams();
    const ctx = setup({ notifier, streams });
    await signedIn(ctx, 'priya', 'slot-a');
    const feed = await listen(ctx, 'slot-a');
    await until(() => streams.resumedFrom.length === 1, 'the first stream');

    await emit([login(priya, 'One'), login(priya, 'Two')]);
    await until(() => feed.events().length === 2, 'two events');
    streams.drop();
    // Committed while no stream is open: the resumed one must bring them.
    await emit([login(priya, 'Three')]);
    await emit([login(priya, 'Four')]);
    await until(() => feed.events().length === 4, 'the events after the drop');
    streams.drop();
    await emit([login(priya, 'Five')]);
    await until(() => feed.events().length === 5, 'the fifth');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const titles = feed.events().map((e) => e.alert.title);
    expect(titles).toEqual(['One', 'Two', 'Three', 'Four', 'Five'].map((x) => `${x} signed in`));
    expect(notifier.notices.map((x) => x.title)).toEqual(titles);
    const ids = feed.events().map((e) => e.event.id);
    expect(streams.resumedFrom.slice(1, 3)).toEqual([ids[1], ids[3]]);
  });

  it('a muted kind goes to the bell marked muted, not to the notifier; a timed mute ends at its time', async () => {
    const notifier = new RecordingNotifier();
    const ctx = setup({ notifier });
    const desk = await signedIn(ctx, 'priya', 'slot-a');
    const feed = await listen(ctx, 'slot-a');
    await until(() => feed.items.length > 0, 'the backlog');

    // The book's clock reads 12:00 in Kolkata: muted until 12:30 today, and player logins for good.
    const timed = await desk.alerts.update({ mute: { kind: 'large_bet', untilTime: '12:30' } });
    expect(timed.muted.large_bet).toEqual({ until: '2026-11-20T07:00:00.000Z' });
    await desk.alerts.update({ mute: { kind: 'player_login', untilTime: null } });
    await expect(desk.alerts.update({ mute: { kind: 'market_settled', untilTime: '11:00' } })).rejects.toMatchObject({ code: 'BAD_REQUEST' });

    await emit([largeBet(priya, { playerName: 'Muted bettor' }), login(priya, 'Muted login')]);
    await until(() => feed.events().length === 2, 'the muted events');
    expect(feed.events().map((e) => [e.alert.title, e.muted, e.alert.muted])).toEqual([
      ['Large bet: 25,000.00 pts by Muted bettor', true, true], ['Muted login signed in', true, true],
    ]);
    expect(notifier.notices).toEqual([]);
    // Quiet: a muted event does not raise the count.
    expect((await desk.alerts.list()).alerts.filter((a) => a.muted).every((a) => a.read)).toBe(true);

    clock.offsetMs = 31 * 60_000;
    await emit([largeBet(priya, { playerName: 'After the mute' }), login(priya, 'Still muted')]);
    await until(() => feed.events().length === 4, 'the events after 12:30');
    expect(feed.events().slice(2).map((e) => [e.alert.title, e.muted])).toEqual([
      ['Large bet: 25,000.00 pts by After the mute', false], ['Still muted signed in', true],
    ]);
    expect(notifier.notices.map((x) => x.title)).toEqual(['Large bet: 25,000.00 pts by After the mute']);

    await desk.alerts.update({ unmute: 'player_login' });
    await emit([login(priya, 'Unmuted')]);
    await until(() => notifier.notices.length === 2, 'the unmuted login');
    expect(notifier.notices[1]!.title).toBe('Unmuted signed in');
  });

  it('in the browser shell the page is asked to tell the user (notify), never of a muted one', async () => {
    const ctx = setup();
    const desk = await signedIn(ctx, 'priya', 'slot-a');
    const feed = await listen(ctx, 'slot-a');
    await until(() => feed.items.length > 0, 'the backlog');
    await desk.alerts.update({ mute: { kind: 'player_login', untilTime: null } });
    await emit([largeBet(priya), login(priya, 'Quiet')]);
    await until(() => feed.events().length === 2, 'two events');
    expect(feed.events().map((e) => [e.event.kind, e.notify, e.muted])).toEqual([['large_bet', true, false], ['player_login', false, true]]);
  });

  it('the threshold is kept on the backend, per user, in paisa', async () => {
    const ctx = setup();
    const desk = await signedIn(ctx, 'priya', 'slot-a');
    const saved = await desk.alerts.update({ largeBetThreshold: 250_050 });
    expect(saved.largeBetThreshold).toBe(250_050);
    // Read back as the backend keeps it, in a session of its own.
    const { token } = await backend.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' });
    expect((await backend.client(token).alerts.get.query()).largeBetThreshold).toBe(250_050);
    await desk.alerts.update({ largeBetThreshold: 1_000_000 });
  });

  it('after signing out nothing more is told, and signing in again resumes without repeating', async () => {
    const notifier = new RecordingNotifier();
    const ctx = setup({ notifier });
    const desk = await signedIn(ctx, 'priya', 'slot-a');
    const feed = await listen(ctx, 'slot-a');
    await until(() => feed.items.length > 0, 'the backlog');
    await emit([login(priya, 'Before')]);
    await until(() => notifier.notices.length === 1, 'the first');
    await desk.session.logout();
    await emit([login(priya, 'While out')]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notifier.notices.map((x) => x.title)).toEqual(['Before signed in']);
    await expect(desk.alerts.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    await signedIn(ctx, 'priya', 'slot-b');
    const feed2 = await listen(ctx, 'slot-b');
    await until(() => feed2.events().length === 1, 'the missed event');
    expect(feed2.events()[0]!.alert.title).toBe('While out signed in');
    expect(notifier.notices.map((x) => x.title)).toEqual(['Before signed in', 'While out signed in']);
  });
});

describe('alerts in words', () => {
  const base = { id: '1', at: '2026-11-20T06:30:00.000Z' };
  it('names stay plain text; money through the shared formatter; each kind leads to its page', () => {
    expect(plain('Ravi\u202e <b>x</b>\n\tline')).toBe('Ravi <b>x</b> line');
    const hedge = describeEvent({
      ...base, kind: 'large_bet',
      payload: {
        betId: randomUUID(), playerId: randomUUID(), playerName: 'Self', fixtureId: 'f0f0f0f0-0000-4000-8000-000000000000', fixtureName: 'A v B',
        marketName: 'Match Odds', outcomeName: 'A', side: 'lay', stake: 123_456, odds: 210, liability: 135_802, hedge: true,
      },
    });
    expect(hedge).toEqual({
      title: 'Hedge bet: 1,234.56 pts', body: 'Lay A at 2.10, Match Odds — A v B. Liability 1,358.02 pts.',
      open: { page: '/agent/exposure?fixtureId=f0f0f0f0-0000-4000-8000-000000000000' },
    });
    const playerId = randomUUID();
    expect(describeEvent({ ...base, kind: 'player_login', payload: { playerId, playerName: 'Asha' } }).open).toEqual({ page: `/agent/players/${playerId}` });
    expect(describeEvent({
      ...base, kind: 'market_settled',
      payload: { fixtureId: randomUUID(), fixtureName: 'A v B', marketId: randomUUID(), marketName: 'Match Odds', winnerName: 'A', bets: 3, bookResult: -50_000 },
    })).toEqual({ title: 'Settled: Match Odds — A v B', body: 'A won. 3 bets of your downline; your book lost 500.00 pts.', open: { page: '/agent/pnl' } });
    expect(describeEvent({ ...base, kind: 'approval_pending', payload: { approvalId: 'a1', tool: 'editLimits', summary: 'Raise Ravi to 50,000' } }))
      .toEqual({ title: 'A change waits for your confirmation', body: 'Raise Ravi to 50,000', open: { page: '/agent/approvals?id=a1' } });
  });
});
