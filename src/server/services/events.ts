/**
 * `events.stream`: the caller's events from the outbox, by id. The table is the only
 * source of truth; a notification is just a wake-up after which a stream re-reads the rows past
 * the last id it sent. So a dropped notification delays an event (at most until the next sweep),
 * and a client resuming from its last id after a dropped connection or a backend restart gets
 * each event once.
 *
 * Mutes are not applied here: the desk shows a muted event in its bell and only skips the alert,
 * so the stream sends everything and the client reads `alerts.get` for what to keep quiet.
 */
import { tracked, type TrackedEnvelope } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { type DeskEvent, deskEvent } from '../../shared/contracts/events.js';
import type { Logger } from '../../infra/log.js';
import { type Database, type Db, queryRows } from '../db/client.js';
import type { Caller, ServiceDeps } from './caller.js';
import { serverMetrics } from '../metrics.js';

/** What a (re)connecting client is sent before the live events: the newest of its last week. */
export const BACKLOG_LIMIT = 500;
export const BACKLOG_DAYS = 7;
/** Rows read per query once live; a stream that gets a full page reads again at once. */
const PAGE = 500;
/** Every stream re-reads this often even unwoken, in case a wake-up was lost (a listener that hung without an error). */
const SWEEP_MS = 30_000;

type Wake = () => void;

/**
 * One per open database: wakes the streams of a recipient when its events commit, and where
 * commits can land out of id order (`Database.commitsInIdOrder` false: PostgreSQL) keeps the
 * watermark below which every outbox id is settled.
 *
 * Why a watermark: identity ids are taken when a row is inserted but become visible when its
 * transaction commits, so two transactions can commit out of id order. A stream that sent id 11
 * and later saw id 10 commit could never send it (the client resumes from 11). Streams therefore
 * read only up to the watermark: an id at or below it is either committed and visible or rolled
 * back for good. A database that commits one transaction at a time (PGlite) commits its ids in
 * order, so it needs none.
 */
export class EventFeed {
  /** Every id at or below it is settled. */
  private watermark: number;
  private readonly streams = new Map<string, Set<Wake>>();
  private closed = false;
  /** Out-of-order commits only: recipients notified since the last round, and rounds waiting for their writers to finish. */
  private notified = new Set<string>();
  private rounds: Array<{ upTo: number; writers: Set<string>; recipients: Set<string> }> = [];
  private running = false;
  private again = false;
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly db: Db, private readonly commitsInIdOrder: boolean, private readonly log: Logger) {
    this.watermark = commitsInIdOrder ? Number.MAX_SAFE_INTEGER : 0;
    this.sweep = setInterval(() => this.wakeAll(), SWEEP_MS);
    this.sweep.unref();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The highest id streams may read up to now. */
  settledUpTo(): number {
    return this.watermark;
  }

  subscribe(recipientId: string, wake: Wake): () => void {
    let set = this.streams.get(recipientId);
    if (!set) this.streams.set(recipientId, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.streams.get(recipientId) === set) this.streams.delete(recipientId);
    };
  }

  /** An event for this recipient has committed (on this backend or another). */
  notify(recipientId: string): void {
    if (this.closed) return;
    if (this.commitsInIdOrder) {
      this.wakeRecipient(recipientId);
      return;
    }
    this.notified.add(recipientId);
    this.kick();
  }

  /** After notifications may have been missed (a reconnect, the sweep): every stream re-reads. */
  wakeAll(): void {
    if (this.closed) return;
    if (this.commitsInIdOrder) {
      for (const id of [...this.streams.keys()]) this.wakeRecipient(id);
      return;
    }
    for (const id of this.streams.keys()) this.notified.add(id);
    this.kick();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweep);
    // Streams see `isClosed` and end.
    for (const set of this.streams.values()) for (const wake of set) wake();
  }

  private wakeRecipient(recipientId: string): void {
    for (const wake of this.streams.get(recipientId) ?? []) wake();
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.round();
        while (this.rounds.length > 0 && !this.closed) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          await this.settle();
        }
      } while (this.again && !this.closed);
    } catch (error) {
      if (this.closed) return;
      this.log.warn('event watermark round failed; retrying', { err: error });
      setTimeout(() => { this.running = false; this.kick(); }, 1_000).unref();
      return;
    }
    this.running = false;
  }

  /**
   * The last id handed out so far, then the transactions that hold the outbox open for writing.
   * An insert takes its table lock before it draws its id and keeps it to commit or rollback, so
   * once those transactions are gone every id up to that last one is settled. (Read in this order:
   * a writer that starts after the id is read draws a higher one.)
   */
  private async round(): Promise<void> {
    const recipients = this.notified;
    this.notified = new Set();
    const [seq] = await queryRows<{ last: string | null }>(this.db,
      sql`select pg_sequence_last_value(pg_get_serial_sequence('events', 'id')::regclass)::text as last`);
    const writers = await this.writers();
    this.rounds.push({ upTo: Number(seq?.last ?? 0), writers, recipients });
    await this.settle();
  }

  private async settle(): Promise<void> {
    const live = await this.writers();
    let settled = -1;
    for (const [i, round] of this.rounds.entries()) {
      if (![...round.writers].some((w) => live.has(w))) settled = i;
    }
    if (settled < 0) return;
    const done = this.rounds.splice(0, settled + 1);
    const recipients = new Set<string>();
    for (const round of done) {
      this.watermark = Math.max(this.watermark, round.upTo);
      for (const id of round.recipients) recipients.add(id);
    }
    for (const id of recipients) this.wakeRecipient(id);
  }

  private async writers(): Promise<Set<string>> {
    const rows = await queryRows<{ vxid: string }>(this.db, sql`
      select virtualtransaction as vxid from pg_locks
      where locktype = 'relation' and mode = 'RowExclusiveLock' and granted
        and database = (select oid from pg_database where datname = current_database())
        and relation = 'events'::regclass`);
    return new Set(rows.map((r) => r.vxid));
  }
}

const feeds = new WeakMap<Db, EventFeed>();

export interface EventFeedHandle {
  feed: EventFeed;
  stop(): void;
}

/**
 * The feed of an open database, for `events.stream`. It hears of commits from the database's
 * notification listener (backend.ts routes EVENTS_CHANNEL to `notify` and a resumed listener to
 * `wakeAll`).
 */
export function createEventFeed(database: Database, log: Logger): EventFeedHandle {
  const feed = new EventFeed(database.db, database.commitsInIdOrder, log);
  feeds.set(database.db, feed);
  return {
    feed,
    stop() {
      feed.close();
      feeds.delete(database.db);
    },
  };
}

function feedFor(db: Db): EventFeed {
  const feed = feeds.get(db);
  // Every backend opened through openBackend has one; a stream without it would never go live.
  if (!feed) throw new Error('events.stream: no event feed was started for this database');
  return feed;
}

interface EventRow { id: string; kind: string; payload: unknown; created_at: Date | string }

/**
 * The caller's events after `lastEventId` (the newest BACKLOG_LIMIT of the last BACKLOG_DAYS),
 * then each new one as it commits, until `signal` aborts. Only the caller's own: the recipient is
 * the caller, whatever the client asks.
 */
export async function* streamEvents(
  deps: ServiceDeps, caller: Caller, lastEventId: string | null, options: { signal?: AbortSignal | undefined; log: Logger },
): AsyncGenerator<TrackedEnvelope<DeskEvent>, void, unknown> {
  const feed = feedFor(deps.db);
  const { signal, log } = options;
  let after = lastEventId ?? '0';
  let woken = true;
  let wake: Wake | null = null;
  const unsubscribe = feed.subscribe(caller.id, () => {
    woken = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  serverMetrics.openStreams.inc();
  try {
    let backlog = true;
    while (!signal?.aborted && !feed.isClosed) {
      if (!woken) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          if (woken || signal?.aborted || feed.isClosed) resolve();
        });
        wake = null;
        if (signal?.aborted || feed.isClosed) break;
      }
      // Cleared before reading: a commit during the read wakes the stream for another one.
      woken = false;
      const upTo = feed.settledUpTo();
      const live = !backlog;
      const rows = backlog ? await readBacklog(deps, caller.id, after, upTo) : await readAfter(deps.db, caller.id, after, upTo);
      backlog = false;
      for (const row of rows) {
        // Ids are text here (beyond 2^53 in principle); the query orders by the bigint.
        after = row.id;
        const parsed = deskEvent.safeParse({ id: row.id, kind: row.kind, at: new Date(row.created_at).toISOString(), payload: row.payload });
        if (!parsed.success) {
          // A row no cause could have written (emitEvents checks payloads); one bad row must not stop the stream.
          log.warn('event skipped: malformed row', { eventId: row.id, kind: row.kind, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
          continue;
        }
        // On the clock the event was stamped with; a backlog's age is not lag.
        if (live) serverMetrics.eventLag.observe(Math.max(0, deps.now().getTime() - new Date(row.created_at).getTime()) / 1000);
        yield tracked(row.id, parsed.data);
      }
      if (rows.length === PAGE) woken = true;
    }
  } finally {
    serverMetrics.openStreams.dec();
    unsubscribe();
    signal?.removeEventListener('abort', onAbort);
  }
}

async function readBacklog(deps: ServiceDeps, recipientId: string, after: string, upTo: number): Promise<EventRow[]> {
  // The earlier of the two clocks: a demo book's clock may run days away from the wall clock, and
  // the backlog should hold the last week by either.
  const nowMs = Math.min(deps.now().getTime(), deps.realNow().getTime());
  const since = new Date(nowMs - BACKLOG_DAYS * 86_400_000).toISOString();
  return queryRows<EventRow>(deps.db, sql`
    select id, kind, payload, created_at from (
      select id::text as id, id as n, kind, payload, created_at from events
      where recipient_id = ${recipientId} and id > ${after}::bigint and id <= ${upTo}::bigint and created_at >= ${since}
      order by id desc limit ${BACKLOG_LIMIT}
    ) e order by n`);
}

function readAfter(db: Db, recipientId: string, after: string, upTo: number): Promise<EventRow[]> {
  return queryRows<EventRow>(db, sql`
    select id::text as id, kind, payload, created_at from events
    where recipient_id = ${recipientId} and id > ${after}::bigint and id <= ${upTo}::bigint
    order by events.id limit ${PAGE}`);
}
