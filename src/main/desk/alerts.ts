/**
 * Live alerts: one feed of the backend's `events.stream` per signed-in user, held by
 * main. It remembers the last event id it saw, so a dropped stream resumes where it stopped (the
 * backend sends nothing twice, and an id at or below the last one is dropped here as well); keeps
 * the last 100 events for the bell; applies the user's mutes; and hands each unmuted new event to
 * the shell's {@link Notifier}. The renderer only ever sees it through the desk's `alerts` router.
 */
import { TRPCClientError } from '@trpc/client';
import { z } from 'zod';
import type { User } from '../../shared/contracts/agent-api.js';
import {
  type AlertSettings, type DeskEvent, EVENT_KINDS, type EventKind, alertSettings, alertsUpdateInput, deskEvent, eventKind,
} from '../../shared/contracts/events.js';
import { localDate, startOfLocalDay } from '../../shared/dates.js';
import { BusinessClock } from '../../shared/business-clock.js';
import { formatPoints } from '../../shared/money.js';
import type { Logger } from '../../infra/log.js';
import type { BackendClient, BackendConnection } from '../backend/connection.js';
import type { DeskSessions } from './sessions.js';

/** How many events the bell keeps per user. */
export const BELL_SIZE = 100;

/** Where an alert leads: a page of the panel (an approval: the Approvals page), or the chat. */
export type AlertOpen = { page: string } | { chat: true };

/** An event as the bell and a notification show it: in words, with where a click leads. */
export interface AlertView {
  id: string;
  kind: EventKind;
  at: string;
  title: string;
  body: string;
  open: AlertOpen;
  muted: boolean;
  read: boolean;
}

/** What a notification is made of; `userId` says whose it is (a shell may hold several users). */
export interface AlertNotice {
  userId: string;
  id: string;
  kind: EventKind;
  title: string;
  body: string;
  open: AlertOpen;
}

/**
 * The shell's way of telling the user: Electron's native notifications (`src/main/electron/notifier.ts`),
 * or, in the browser shell, the page itself (the feed's `notify` flag: only a page may show a
 * Web Notification or a toast).
 */
export interface Notifier {
  /** `native`: main shows it, and the renderer shows none; `renderer`: the renderer shows it. */
  readonly shows: 'native' | 'renderer';
  notify(notice: AlertNotice): void;
}

/** The browser shell's notifier: nothing to do in main; the feed marks the event for the page to show. */
export const rendererNotifier: Notifier = { shows: 'renderer', notify: () => {} };

/** What the `alerts.feed` subscription yields. */
export type AlertFeedItem =
  /** First, and again after the feed restarts: the bell as it is. */
  | { type: 'backlog'; alerts: AlertView[]; unread: number }
  /** `notify`: the page should show it (a Web Notification or a toast); never for a muted one, never where main notified. */
  | { type: 'event'; event: DeskEvent; alert: AlertView; muted: boolean; notify: boolean; unread: number }
  /** Read on one page: every page of the user shows it. */
  | { type: 'read'; upTo: string; unread: number }
  /** A native notification was clicked: the page opens where it leads. */
  | { type: 'open'; open: AlertOpen };

/** The backend's side, as the feed needs it: a seam, so a test can drop the stream under it. */
export interface AlertsBackend {
  /** Subscribes to `events.stream` after `lastEventId`; returns the function that stops it. */
  stream(lastEventId: string | null, on: { data(event: unknown): void; error(error: unknown): void; complete(): void }): () => void;
  get(): Promise<AlertSettings>;
  /** The backend's clock (the instants events are stamped with). */
  now(): Promise<string>;
  update(input: z.infer<typeof alertsUpdateInput>): Promise<AlertSettings>;
}

/** The backend's `events` and `alerts` procedures through a session's client. */
export function backendAlerts(api: BackendClient): AlertsBackend {
  return {
    stream(lastEventId, on) {
      const sub = api.events.stream.subscribe({ lastEventId }, { onData: on.data, onError: on.error, onComplete: on.complete });
      return () => sub.unsubscribe();
    },
    get: async () => alertSettings.parse(await api.alerts.get.query()),
    now: async () => (await api.auth.me.query()).now,
    update: async (input) => alertSettings.parse(await api.alerts.update.mutate(input)),
  };
}

// ── words ──────────────────────────────────────────────────────────────────────────────────────

/**
 * A name or text from the backend as plain text: no control or direction-override characters (a
 * name could otherwise reorder the words around it), one line, bounded.
 */
export function plain(text: string, max = 120): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  return cleaned.length > max ? `${cleaned.slice(0, max - 1)}…` : cleaned;
}

/** Odds are whole hundredths: 250 → "2.50", with no float in between. */
function oddsText(hundredths: number): string {
  return `${Math.trunc(hundredths / 100)}.${(Math.abs(hundredths) % 100).toString().padStart(2, '0')}`;
}

const pts = (paisa: number) => `${formatPoints(paisa)} pts`;

/** An event in words and where it leads: the bell, the notification and the toast all show this. */
export function describeEvent(event: DeskEvent): Pick<AlertView, 'title' | 'body' | 'open'> {
  switch (event.kind) {
    case 'large_bet': {
      const p = event.payload;
      const what = `${p.side === 'back' ? 'Back' : 'Lay'} ${plain(p.outcomeName, 60)} at ${oddsText(p.odds)}, ${plain(p.marketName, 60)} — ${plain(p.fixtureName, 80)}`;
      // A hedge is the agent's own offsetting bet: what matters is the fixture's exposure, not a player.
      if (p.hedge) {
        return {
          title: `Hedge bet: ${pts(p.stake)}`,
          body: `${what}. Liability ${pts(p.liability)}.`,
          open: { page: `/agent/exposure?fixtureId=${encodeURIComponent(p.fixtureId)}` },
        };
      }
      return {
        title: `Large bet: ${pts(p.stake)} by ${plain(p.playerName, 60)}`,
        body: `${what}. Liability ${pts(p.liability)}.`,
        open: { page: `/agent/bets?playerId=${encodeURIComponent(p.playerId)}` },
      };
    }
    case 'player_login': {
      const p = event.payload;
      return { title: `${plain(p.playerName, 60)} signed in`, body: 'A player of your downline signed in.', open: { page: `/agent/players/${encodeURIComponent(p.playerId)}` } };
    }
    case 'market_settled': {
      const p = event.payload;
      const result = p.bookResult > 0 ? `your book won ${pts(p.bookResult)}` : p.bookResult < 0 ? `your book lost ${pts(-p.bookResult)}` : 'your book broke even';
      return {
        title: `Settled: ${plain(p.marketName, 60)} — ${plain(p.fixtureName, 80)}`,
        body: `${plain(p.winnerName, 60)} won. ${p.bets} ${p.bets === 1 ? 'bet' : 'bets'} of your downline; ${result}.`,
        open: { page: '/agent/pnl' },
      };
    }
    case 'approval_pending': {
      const p = event.payload;
      // Opens that approval itself: the one the user was told of, not the list to search.
      return { title: 'A change waits for your confirmation', body: plain(p.summary, 200), open: { page: `/agent/approvals?id=${encodeURIComponent(p.approvalId)}` } };
    }
  }
}

// ── mutes ──────────────────────────────────────────────────────────────────────────────────────

/** Whether `kind` is muted at `now` (ms): until unmuted, or until an instant still ahead. */
export function isMuted(settings: AlertSettings | null, kind: EventKind, now: number): boolean {
  const mute = settings?.muted[kind];
  if (!mute) return false;
  return mute.until === null || Date.parse(mute.until) > now;
}

/** The next instant a timed mute ends, after `now`; null when none does. */
export function nextMuteEnd(settings: AlertSettings | null, now: number): number | null {
  let next: number | null = null;
  for (const kind of EVENT_KINDS) {
    const until = settings?.muted[kind]?.until;
    if (!until) continue;
    const at = Date.parse(until);
    if (at > now && (next === null || at < next)) next = at;
  }
  return next;
}

/** "HH:MM" today in `timeZone`, on the wall clock, as an instant; null when it is not ahead of `now`. */
export function todayAt(time: string, timeZone: string, now: number): string | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!m) return null;
  let start: Date;
  try {
    start = startOfLocalDay(localDate(new Date(now), timeZone), timeZone);
  } catch {
    return null;
  }
  const at = start.getTime() + (Number(m[1]) * 60 + Number(m[2])) * 60_000;
  return at > now ? new Date(at).toISOString() : null;
}

/** What the desk's `alerts.update` takes: a mute's end as a time today (the page's words), or none. */
export const deskAlertsUpdateInput = z.strictObject({
  largeBetThreshold: alertsUpdateInput.shape.largeBetThreshold,
  mute: z.strictObject({ kind: eventKind, untilTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/).nullable() }).optional(),
  unmute: eventKind.optional(),
});
export type DeskAlertsUpdate = z.infer<typeof deskAlertsUpdateInput>;

export const markReadInput = z.strictObject({ upTo: z.string().regex(/^\d{1,19}$/) });

/** Ids are decimal strings of up to 19 digits: compared as numbers, exactly. */
const after = (a: string, b: string | null) => b === null || BigInt(a) > BigInt(b);

// ── the feed ───────────────────────────────────────────────────────────────────────────────────

type Listener = (item: AlertFeedItem) => void;

/** Refused for a reason the user can act on (the router turns it into BAD_REQUEST). */
export class AlertInputError extends Error {
  override name = 'AlertInputError';
}

/** One user's feed: the bell, the stream under it, its mutes, the pages that listen. */
class UserFeed {
  bell: AlertView[] = [];
  lastEventId: string | null = null;
  settings: AlertSettings | null = null;
  readonly listeners = new Set<Listener>();
  /** Slots this user signed in on: the feed streams with whichever still holds a session. */
  readonly slots = new Set<string>();
  token: string | null = null;
  /**
   * Events stamped before the feed first connected are the backlog the backend replays to a new
   * feed: the bell shows them, but they are not news, so nothing is notified for them.
   */
  private historyBefore: number | null = null;
  /** The backend's business clock as last read: event times and mutes are business time (a demo book runs on its own clock). */
  readonly clock = new BusinessClock(() => this.hub.now());
  private stop: (() => void) | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private muteTimer: ReturnType<typeof setTimeout> | null = null;
  private idle: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private generation = 0;

  constructor(readonly user: User, private readonly hub: DeskAlerts) {}

  get running(): boolean {
    return this.stop !== null || this.retry !== null;
  }

  unread(): number {
    return this.bell.reduce((n, a) => n + (a.read ? 0 : 1), 0);
  }

  backend(): AlertsBackend | null {
    const token = this.hub.tokenFor(this);
    return token ? this.hub.backendFor(token) : null;
  }

  emit(item: AlertFeedItem): void {
    for (const listener of this.listeners) listener(item);
  }

  /** Starts streaming (idempotent); the settings come first, so the first event is judged by them. */
  start(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.running) return;
    void this.connect();
  }

  private async connect(): Promise<void> {
    this.retry = null;
    const generation = ++this.generation;
    const backend = this.backend();
    if (!backend) return this.end();
    try {
      this.readClock(await backend.now());
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.hub.isUnauthorized(error)) return this.lostSession();
      this.hub.log.warn('backend clock not read', { err: error });
      this.reconnectLater();
      return;
    }
    if (generation !== this.generation) return;
    if (this.settings === null) {
      try {
        this.useSettings(await backend.get());
      } catch (error) {
        if (generation !== this.generation) return;
        if (this.hub.isUnauthorized(error)) return this.lostSession();
        // Mutes unknown for now: streaming still goes on (a muted alert shown beats a missed one), and they are read again on the next connect.
        this.hub.log.warn('alert settings not read', { err: error });
      }
      if (generation !== this.generation) return;
    }
    let stopped = false;
    const stop = backend.stream(this.lastEventId, {
      data: (raw) => {
        if (stopped || generation !== this.generation) return;
        this.attempt = 0;
        this.receive(raw);
      },
      error: (error) => {
        if (stopped || generation !== this.generation) return;
        stopped = true;
        this.stop = null;
        if (this.hub.isUnauthorized(error)) return this.lostSession();
        this.hub.log.warn('event stream dropped; resuming', { lastEventId: this.lastEventId, err: error });
        this.reconnectLater();
      },
      complete: () => {
        if (stopped || generation !== this.generation) return;
        stopped = true;
        this.stop = null;
        this.reconnectLater();
      },
    });
    this.stop = () => {
      stopped = true;
      stop();
    };
    // Closed synchronously (an error as it subscribed): the stop above is already spent.
    if (stopped) this.stop = null;
  }

  readClock(now: string): void {
    const at = Date.parse(now);
    if (!Number.isFinite(at)) return;
    this.clock.read(now);
    if (this.lastEventId === null && this.historyBefore === null) this.historyBefore = at;
  }

  businessNow(): number {
    return this.clock.nowMs();
  }

  private reconnectLater(): void {
    const delay = this.hub.backoffMs(this.attempt++);
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref?.();
  }

  /** The session the feed streamed with ended: another of the user's sessions carries on, or the feed ends. */
  private lostSession(): void {
    this.halt();
    if (this.hub.tokenFor(this)) this.start();
    else this.end();
  }

  private receive(raw: unknown): void {
    // tRPC hands a tracked event over as { id, data }: the event itself carries its id too.
    const value = raw !== null && typeof raw === 'object' && 'data' in raw && !('kind' in raw) ? (raw as { data: unknown }).data : raw;
    const parsed = deskEvent.safeParse(value);
    if (!parsed.success) {
      this.hub.log.warn('event from the backend refused', { issues: parsed.error.issues.length });
      return;
    }
    const event = parsed.data;
    if (!after(event.id, this.lastEventId)) return;
    // The user may have signed out since: nothing of theirs is shown or said to anyone, and the
    // event stays unseen, for when they sign in again.
    if (!this.hub.tokenFor(this)) return this.end();
    this.lastEventId = event.id;
    const muted = isMuted(this.settings, event.kind, this.businessNow());
    // Muted means "not now": it waits in the bell without raising the count.
    const alert: AlertView = { id: event.id, kind: event.kind, at: event.at, ...describeEvent(event), muted, read: muted };
    this.bell.push(alert);
    if (this.bell.length > BELL_SIZE) this.bell.splice(0, this.bell.length - BELL_SIZE);
    const news = this.historyBefore === null || !(Date.parse(event.at) < this.historyBefore);
    const notifier = this.hub.notifier;
    if (!news) {
      this.emit({ type: 'event', event, alert, muted, notify: false, unread: this.unread() });
      return;
    }
    if (!muted && notifier.shows === 'native') {
      try {
        notifier.notify({ userId: this.user.id, id: alert.id, kind: alert.kind, title: alert.title, body: alert.body, open: alert.open });
      } catch (error) {
        this.hub.log.warn('notification not shown', { err: error });
      }
    }
    this.emit({ type: 'event', event, alert, muted, notify: !muted && notifier.shows === 'renderer', unread: this.unread() });
  }

  useSettings(settings: AlertSettings): void {
    this.settings = settings;
    if (this.muteTimer) clearTimeout(this.muteTimer);
    this.muteTimer = null;
    const now = this.businessNow();
    const end = nextMuteEnd(settings, now);
    if (end === null) return;
    // Muting is judged by the clock at each event; this only reads the settings again once a mute
    // is over, so the page's view and the backend's agree (setTimeout's limit is about 24.8 days).
    this.muteTimer = setTimeout(() => {
      this.muteTimer = null;
      const backend = this.backend();
      if (!backend) return;
      backend.get().then((s) => this.useSettings(s), (error: unknown) => this.hub.log.warn('alert settings not read', { err: error }));
    }, Math.min(end - now + 50, 2 ** 31 - 1));
    this.muteTimer.unref?.();
  }

  /** No page listens: the stream stops after a while (a reload must not lose or repeat anything). */
  released(): void {
    if (this.listeners.size > 0 || this.idle) return;
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.listeners.size === 0) this.halt();
    }, this.hub.idleMs);
    this.idle.unref?.();
  }

  halt(): void {
    this.generation++;
    this.stop?.();
    this.stop = null;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  /**
   * Signed out everywhere: the stream stops and the pages are told. The bell and the last id stay
   * in this process (only the same user can read them), so signing in again resumes without
   * repeating a notification.
   */
  end(): void {
    this.halt();
    if (this.muteTimer) clearTimeout(this.muteTimer);
    if (this.idle) clearTimeout(this.idle);
    this.muteTimer = null;
    this.idle = null;
    this.hub.forget(this);
    for (const listener of this.listeners) listener({ type: 'backlog', alerts: [], unread: 0 });
    this.listeners.clear();
  }
}

export interface DeskAlertsOptions {
  sessions: DeskSessions;
  backend: BackendConnection;
  log: Logger;
  /** Where new unmuted events are told; the browser shell's default leaves it to the page. */
  notifier?: Notifier;
  /** The wall clock, in ms (mutes end on it). */
  now?: () => number;
  /** The backend's side of a session: a test may wrap it. */
  backendFor?: (api: BackendClient) => AlertsBackend;
  /** Waits between attempts to resume a dropped stream. */
  backoffMs?: (attempt: number) => number;
  /** How long a feed nobody listens to keeps streaming. */
  idleMs?: number;
}

/** Every signed-in user's feed, made once at the composition root and used by the desk's `alerts` router. */
export class DeskAlerts {
  readonly log: Logger;
  readonly now: () => number;
  readonly idleMs: number;
  readonly backoffMs: (attempt: number) => number;
  notifier: Notifier;
  private readonly feeds = new Map<string, UserFeed>();
  private readonly sessions: DeskSessions;
  private readonly connection: BackendConnection;
  private readonly wrap: (api: BackendClient) => AlertsBackend;
  private readonly backends = new Map<string, AlertsBackend>();

  constructor(options: DeskAlertsOptions) {
    this.sessions = options.sessions;
    this.connection = options.backend;
    this.log = options.log;
    this.notifier = options.notifier ?? rendererNotifier;
    this.now = options.now ?? Date.now;
    this.wrap = options.backendFor ?? backendAlerts;
    this.backoffMs = options.backoffMs ?? ((attempt) => Math.min(30_000, 500 * 2 ** Math.min(attempt, 6)));
    this.idleMs = options.idleMs ?? 60_000;
  }

  /** The shell's own notifier, once it has a window to show it from. */
  useNotifier(notifier: Notifier): void {
    this.notifier = notifier;
  }

  /** A click on a native notification: the user's pages open where it leads. */
  open(userId: string, open: AlertOpen): void {
    this.feeds.get(userId)?.emit({ type: 'open', open });
  }

  /** The bell's backlog, then each item, until `signal` aborts or the user signs out everywhere. */
  async *feed(slot: string, user: User, signal: AbortSignal | undefined): AsyncGenerator<AlertFeedItem> {
    const feed = this.feedOf(slot, user);
    const queue: AlertFeedItem[] = [];
    let wake: (() => void) | null = null;
    let ended = false;
    const listener: Listener = (item) => {
      queue.push(item);
      wake?.();
    };
    const onAbort = () => {
      ended = true;
      wake?.();
    };
    signal?.addEventListener('abort', onAbort);
    feed.listeners.add(listener);
    feed.start();
    try {
      yield { type: 'backlog', alerts: feed.bell.slice(), unread: feed.unread() };
      while (!ended && !signal?.aborted) {
        if (queue.length === 0) {
          await new Promise<void>((resolve) => { wake = resolve; });
          wake = null;
          continue;
        }
        const item = queue.shift()!;
        yield item;
        // The feed ended (signed out everywhere): its last word was an empty bell.
        if (!feed.listeners.has(listener) && queue.length === 0) return;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      feed.listeners.delete(listener);
      feed.released();
    }
  }

  list(slot: string, user: User): { alerts: AlertView[]; unread: number } {
    const feed = this.feedOf(slot, user);
    return { alerts: feed.bell.slice(), unread: feed.unread() };
  }

  /** Marks read every event up to `upTo` (ids only grow), for all the user's pages. */
  markRead(slot: string, user: User, upTo: string): { unread: number } {
    const feed = this.feedOf(slot, user);
    for (const alert of feed.bell) if (!after(alert.id, upTo)) alert.read = true;
    const unread = feed.unread();
    feed.emit({ type: 'read', upTo, unread });
    return { unread };
  }

  /** The user's settings; the backend's clock is read with them, so a mute's "today" is the book's. */
  async settings(slot: string, user: User, api: BackendClient): Promise<AlertSettings> {
    const backend = this.wrapped(api);
    const [settings, now] = await Promise.all([backend.get(), backend.now()]);
    const feed = this.feedOf(slot, user);
    feed.readClock(now);
    feed.useSettings(settings);
    return settings;
  }

  /** The backend's `alerts.update` input for the page's: a mute's time today becomes its instant. */
  backendUpdate(user: User, input: DeskAlertsUpdate): z.infer<typeof alertsUpdateInput> {
    let until: string | null = null;
    if (input.mute?.untilTime) {
      const feed = this.feeds.get(user.id);
      until = todayAt(input.mute.untilTime, user.timezone, feed ? feed.businessNow() : this.now());
      if (!until) throw new AlertInputError(`${input.mute.untilTime} has already passed today`);
    }
    return {
      ...(input.largeBetThreshold !== undefined && { largeBetThreshold: input.largeBetThreshold }),
      ...(input.mute && { mute: { kind: input.mute.kind, until } }),
      ...(input.unmute && { unmute: input.unmute }),
    };
  }

  async update(slot: string, user: User, api: BackendClient, change: z.infer<typeof alertsUpdateInput>): Promise<AlertSettings> {
    const settings = await this.wrapped(api).update(change);
    this.feedOf(slot, user).useSettings(settings);
    return settings;
  }

  /** Stops every feed (the app is closing). */
  close(): void {
    for (const feed of this.feeds.values()) feed.end();
  }

  // ── for the feeds ──

  feedOf(slot: string, user: User): UserFeed {
    let feed = this.feeds.get(user.id);
    if (!feed) {
      feed = new UserFeed(user, this);
      this.feeds.set(user.id, feed);
    }
    feed.slots.add(slot);
    return feed;
  }

  /** A session of the feed's user still held by one of its slots (the newest wins); null when none is left. */
  tokenFor(feed: UserFeed): string | null {
    let token: string | null = null;
    for (const slot of [...feed.slots]) {
      const session = this.sessions.get(slot);
      if (!session || session.user.id !== feed.user.id) feed.slots.delete(slot);
      else token = session.token;
    }
    if (token !== feed.token) {
      if (feed.token) this.backends.delete(feed.token);
      feed.token = token;
    }
    return token;
  }

  backendFor(token: string): AlertsBackend {
    let backend = this.backends.get(token);
    if (!backend) {
      backend = this.wrap(this.connection.client(token));
      this.backends.set(token, backend);
    }
    return backend;
  }

  private wrapped(api: BackendClient): AlertsBackend {
    return this.wrap(api);
  }

  isUnauthorized(error: unknown): boolean {
    return error instanceof TRPCClientError && (error.data as { code?: unknown } | undefined)?.code === 'UNAUTHORIZED';
  }

  forget(feed: UserFeed): void {
    if (feed.token) this.backends.delete(feed.token);
    feed.token = null;
  }
}
