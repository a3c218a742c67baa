/**
 * PostgreSQL notifications for the backend's in-memory state: the live-events feed
 * (`desk_events`) and the session cache (`desk_auth`) hear every commit, on this backend or
 * another, through one listener. How an engine listens is the open database's own
 * (`Database.listen` in client.ts); the PostgreSQL listener, which needs a connection of its own
 * that comes back after a restart, is here.
 */
import pg from 'pg';
import type { Logger } from '../../infra/log.js';
import type { Database } from './client.js';

export interface NotificationRoutes {
  /** Channel name → what to do with a payload sent on it. */
  channels: Record<string, (payload: string) => void>;
  /**
   * Called whenever listening starts, the first time and after a lost connection comes back:
   * notifications sent while nobody listened are gone, so whatever they would have said is to be
   * assumed.
   */
  listening(): void;
  /** Called when the listener's connection is lost: until `listening` again, nothing is heard. */
  lost(): void;
}

export interface NotificationListener {
  stop(): Promise<void>;
}

const CHANNEL_NAME = /^[a-z_]{1,63}$/;
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

export async function listenForNotifications(database: Database, log: Logger, routes: NotificationRoutes): Promise<NotificationListener> {
  for (const channel of Object.keys(routes.channels)) {
    // Channel names go into LISTEN as identifiers, which take no parameters.
    if (!CHANNEL_NAME.test(channel)) throw new Error(`not a notification channel name: ${channel}`);
  }
  return database.listen(routes, log);
}

/** A dedicated `LISTEN` connection to the server at `url`, reconnecting with backoff when lost. */
export async function listenOnPostgres(url: string, routes: NotificationRoutes, log: Logger): Promise<NotificationListener> {
  const listener = new Listener(url, routes, log);
  await listener.connect();
  return listener;
}

class Listener implements NotificationListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private delay = RECONNECT_MIN_MS;
  private timer: NodeJS.Timeout | null = null;
  private everConnected = false;

  constructor(private readonly url: string, private readonly routes: NotificationRoutes, private readonly log: Logger) {}

  async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    this.client = client;
    let failed = false;
    const fail = (error?: unknown) => {
      if (failed || this.stopped) return;
      failed = true;
      this.routes.lost();
      this.log.warn('notification listener lost; reconnecting', { err: error, inMs: this.delay });
      client.end().catch(() => {});
      this.timer = setTimeout(() => {
        this.timer = null;
        this.connect().catch(() => {});
      }, this.delay);
      this.timer.unref();
      this.delay = Math.min(this.delay * 2, RECONNECT_MAX_MS);
    };
    client.on('notification', (message) => {
      const route = this.routes.channels[message.channel];
      if (route && message.payload) route(message.payload);
    });
    client.on('error', fail);
    client.on('end', () => fail(new Error('connection ended')));
    try {
      await client.connect();
      for (const channel of Object.keys(this.routes.channels)) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      if (!this.everConnected) {
        // The first connection must work: a backend that cannot listen would stream nothing live
        // and could not keep its session cache true.
        this.stopped = true;
        await client.end().catch(() => {});
        throw error;
      }
      fail(error);
      return;
    }
    this.everConnected = true;
    this.delay = RECONNECT_MIN_MS;
    this.routes.listening();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.client?.end().catch(() => {});
  }
}
