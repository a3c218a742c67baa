import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { type BackendConnection, connectBackend, embeddedConnection } from '../../src/main/backend/connection.js';
import { type Backend, openBackend } from '../../src/server/backend.js';
import type { Db } from '../../src/server/db/client.js';
import { queryRows } from '../../src/server/db/client.js';
import { type OutboxEvent, emitEvents } from '../../src/server/services/event-outbox.js';
import { silentLogger } from '../../src/infra/log.js';
import type { DeskEvent } from '../../src/shared/contracts/events.js';
import { BOOK_NOW, DEMO_PASSWORDS, ENGINES, REAL_NOW, type TestBackend, accountId, startTestBackend } from '../helpers/backend.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const login = (recipientId: string, n: number): OutboxEvent => ({ kind: 'player_login', recipientId, payload: { playerId: randomUUID(), playerName: `player ${n}` } });

async function emit(db: Db, events: OutboxEvent[]): Promise<void> {
  await db.transaction(async (tx) => emitEvents(tx as unknown as Db, events, new Date(BOOK_NOW)));
}

interface Subscription { events: DeskEvent[]; ids: string[]; errors: unknown[]; stop(): void }

function subscribe(connection: BackendConnection, token: string, lastEventId?: string): Subscription {
  const sub: Subscription = { events: [], ids: [], errors: [], stop: () => {} };
  const handle = connection.client(token).events.stream.subscribe(lastEventId ? { lastEventId } : {}, {
    onData: (envelope) => {
      sub.events.push(envelope.data);
      sub.ids.push(envelope.id);
    },
    onError: (error) => sub.errors.push(error),
  });
  sub.stop = () => handle.unsubscribe();
  cleanups.push(() => handle.unsubscribe());
  return sub;
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Only the events a test wrote: an agent's own sign-in is an event for its upline too.
const names = (sub: Subscription) => sub.events.flatMap((e) => (e.kind === 'player_login' && e.payload.playerName.startsWith('player ') ? [e.payload.playerName] : []));

async function remote(backend: TestBackend): Promise<BackendConnection> {
  const connection = await connectBackend({ mode: 'remote', url: backend.server.url }, silentLogger);
  cleanups.push(() => connection.close());
  return connection;
}

async function testBackend(engine: 'pglite' | 'postgres'): Promise<TestBackend> {
  const backend = await startTestBackend(engine);
  cleanups.push(() => backend.close());
  return backend;
}

describe.each(ENGINES)('events.stream and alerts (%s)', (engine) => {
  it('sends the backlog, then live events, only the caller\'s own, in id order, over SSE', async () => {
    const backend = await testBackend(engine);
    const [priya, arjun] = [await accountId(backend, 'priya'), await accountId(backend, 'arjun')];
    const [priyaToken, arjunToken] = [await backend.login('priya'), await backend.login('arjun')];
    await emit(backend.deps.db, [login(priya, 1), login(arjun, 100), login(priya, 2)]);
    await emit(backend.deps.db, [login(priya, 3)]);
    const connection = await remote(backend);
    const mine = subscribe(connection, priyaToken);
    const his = subscribe(connection, arjunToken);
    await until(() => names(mine).length === 3 && names(his).length === 1, 'the backlog');
    await emit(backend.deps.db, [login(priya, 4), login(arjun, 101)]);
    await emit(backend.deps.db, [login(priya, 5)]);
    await until(() => names(mine).length === 5 && names(his).length === 2, 'the live events');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(names(mine)).toEqual(['player 1', 'player 2', 'player 3', 'player 4', 'player 5']);
    expect(names(his)).toEqual(['player 100', 'player 101']);
    expect(mine.ids).toEqual(mine.events.map((e) => e.id));
    expect(mine.ids.map(Number)).toEqual([...mine.ids.map(Number)].sort((a, b) => a - b));
    expect(mine.errors).toEqual([]);
  });

  it('resumes from lastEventId after a dropped connection: nothing lost, nothing twice', async () => {
    const backend = await testBackend(engine);
    const priya = await accountId(backend, 'priya');
    const token = await backend.login('priya');
    const connection = await remote(backend);
    await emit(backend.deps.db, [login(priya, 1), login(priya, 2)]);
    const first = subscribe(connection, token);
    await until(() => names(first).length === 2, 'the first two');
    first.stop();
    await emit(backend.deps.db, [login(priya, 3)]);
    await emit(backend.deps.db, [login(priya, 4), login(priya, 5)]);
    const again = subscribe(connection, token, first.ids.at(-1));
    await until(() => names(again).length === 3, 'the three written while away');
    expect(names(again)).toEqual(['player 3', 'player 4', 'player 5']);

    // The server cuts every connection: the link reconnects by itself with the last id it saw.
    backend.server.server.closeAllConnections();
    await emit(backend.deps.db, [login(priya, 6)]);
    await emit(backend.deps.db, [login(priya, 7)]);
    await until(() => names(again).length >= 5, 'the events written while cut off', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(names(again)).toEqual(['player 3', 'player 4', 'player 5', 'player 6', 'player 7']);
  }, 30_000);

  it('skips a malformed row (logged with its id) and goes on', async () => {
    const backend = await testBackend(engine);
    const priya = await accountId(backend, 'priya');
    await emit(backend.deps.db, [login(priya, 1)]);
    await backend.deps.db.execute(sql`insert into events (kind, recipient_id, payload, created_at)
      values ('large_bet', ${priya}, '{"betId": "not a bet"}'::jsonb, ${BOOK_NOW})`);
    await emit(backend.deps.db, [login(priya, 2)]);
    const stream = subscribe(await remote(backend), await backend.login('priya'));
    await until(() => names(stream).length === 2, 'the good rows');
    await backend.deps.db.execute(sql`insert into events (kind, recipient_id, payload, created_at)
      values ('no_such_kind', ${priya}, '{}'::jsonb, ${BOOK_NOW})`);
    await emit(backend.deps.db, [login(priya, 3)]);
    await until(() => names(stream).length === 3, 'the row after the second bad one');
    expect(names(stream)).toEqual(['player 1', 'player 2', 'player 3']);
    expect(stream.errors).toEqual([]);
  });

  it('keeps the backlog to the last week', async () => {
    const backend = await testBackend(engine);
    const priya = await accountId(backend, 'priya');
    await backend.deps.db.transaction(async (tx) => emitEvents(tx as unknown as Db, [login(priya, 0)], new Date(Math.min(new Date(REAL_NOW).getTime(), new Date(BOOK_NOW).getTime()) - 8 * 86_400_000)));
    await emit(backend.deps.db, [login(priya, 1)]);
    const stream = subscribe(await remote(backend), await backend.login('priya'));
    await until(() => names(stream).length === 1, 'the backlog');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(names(stream)).toEqual(['player 1']);
  });

  it('alerts.get and alerts.update: threshold, timed and open mutes, unmute, validation', async () => {
    const backend = await testBackend(engine);
    const priya = backend.client(await backend.login('priya'));
    expect(await priya.alerts.get.query()).toEqual({ largeBetThreshold: 1_000_000, muted: {} });
    const inAnHour = new Date(new Date(BOOK_NOW).getTime() + 3_600_000).toISOString();
    expect(await priya.alerts.update.mutate({ largeBetThreshold: 2_500_000, mute: { kind: 'player_login', until: inAnHour } }))
      .toEqual({ largeBetThreshold: 2_500_000, muted: { player_login: { until: inAnHour } } });
    expect(await priya.alerts.update.mutate({ mute: { kind: 'market_settled', until: null } }))
      .toEqual({ largeBetThreshold: 2_500_000, muted: { player_login: { until: inAnHour }, market_settled: { until: null } } });
    // Business time moves past the hour: that mute is over.
    backend.clock.now = new Date(new Date(BOOK_NOW).getTime() + 2 * 3_600_000);
    expect(await priya.alerts.get.query()).toEqual({ largeBetThreshold: 2_500_000, muted: { market_settled: { until: null } } });
    expect(await priya.alerts.update.mutate({ unmute: 'market_settled' })).toEqual({ largeBetThreshold: 2_500_000, muted: {} });
    // Another agent's settings are their own.
    expect(await backend.client(await backend.login('arjun')).alerts.get.query()).toEqual({ largeBetThreshold: 1_000_000, muted: {} });

    const refused = async (input: unknown) => {
      const error = await priya.alerts.update.mutate(input as never).then(() => null, (e: unknown) => e);
      expect((error as { data?: { code?: string } } | null)?.data?.code).toBe('BAD_REQUEST');
    };
    await refused({ largeBetThreshold: -1 });
    await refused({ largeBetThreshold: 100_000_000_001 });
    await refused({ largeBetThreshold: 1.5 });
    await refused({ mute: { kind: 'nope', until: null } });
    await refused({ mute: { kind: 'large_bet', until: 'tomorrow' } });
    await refused({ mute: { kind: 'large_bet', until: BOOK_NOW } });
    await refused({ mute: { kind: 'large_bet', until: null }, unmute: 'large_bet' });
    await refused({ accountId: randomUUID() });
    expect(await priya.alerts.get.query()).toEqual({ largeBetThreshold: 2_500_000, muted: {} });
  });

  it('refuses a stream to a caller without a session', async () => {
    const backend = await testBackend(engine);
    const stream = subscribe(await remote(backend), 'not-a-token');
    await until(() => stream.errors.length === 1, 'the refusal');
    expect((stream.errors[0] as { data?: { code?: string } }).data?.code).toBe('UNAUTHORIZED');
  });
});

describe('across a backend restart', () => {
  it('PGlite on disk, embedded (local link): ids continue and the client resumes from its last id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-desk-events-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const seed = await startTestBackend('pglite');
    const snapshot = await seed.database.snapshot!();
    await seed.close();
    const open = async (first: boolean): Promise<Backend> => openBackend({
      database: { engine: 'pglite', dataDir: dir, ...(first && { from: snapshot }) }, now: () => new Date(BOOK_NOW), realNow: () => new Date(REAL_NOW),
    });
    let backend = await open(true);
    const priya = await accountId(backend, 'priya');
    let connection = embeddedConnection(backend, silentLogger);
    const token = async () => (await connection.client(null).auth.login.mutate({ username: 'priya', password: DEMO_PASSWORDS.priya! })).token;
    await emit(backend.deps.db, [login(priya, 1)]);
    const before = subscribe(connection, await token());
    await until(() => names(before).length === 1, 'the backlog');
    await emit(backend.deps.db, [login(priya, 2)]);
    await until(() => names(before).length === 2, 'a live event (PGlite listen)');
    before.stop();
    await connection.close();

    backend = await open(false);
    connection = embeddedConnection(backend, silentLogger);
    cleanups.push(() => connection.close());
    await emit(backend.deps.db, [login(priya, 3), login(priya, 4)]);
    const after = subscribe(connection, await token(), before.ids.at(-1));
    await until(() => names(after).length === 2, 'the events after the restart');
    expect(names(after)).toEqual(['player 3', 'player 4']);
    expect(Number(after.ids[0])).toBeGreaterThan(Number(before.ids.at(-1)));
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('several backends on one PostgreSQL', () => {
  it('an event committed through one backend reaches a subscriber on another; and one restarted resumes', async () => {
    const a = await testBackend('postgres');
    const priya = await accountId(a, 'priya');
    const b = await openBackend({ database: { engine: 'postgres', url: a.databaseUrl! }, now: () => new Date(BOOK_NOW), realNow: () => new Date(REAL_NOW) });
    let bOpen = true;
    cleanups.push(() => (bOpen ? b.database.close() : undefined));
    const token = await a.login('priya');
    const onA = subscribe(await remote(a), token);
    const onB = subscribe(embeddedConnection(b, silentLogger), token);
    await emit(b.deps.db, [login(priya, 1)]);
    await emit(a.deps.db, [login(priya, 2)]);
    await until(() => names(onA).length === 2 && names(onB).length === 2, 'both events on both backends');
    expect(names(onA)).toEqual(['player 1', 'player 2']);
    expect(onB.ids).toEqual(onA.ids);

    // Backend b goes away and comes back: its client resumes from the last id it had.
    onB.stop();
    await b.database.close();
    bOpen = false;
    await emit(a.deps.db, [login(priya, 3)]);
    const b2 = await openBackend({ database: { engine: 'postgres', url: a.databaseUrl! }, now: () => new Date(BOOK_NOW), realNow: () => new Date(REAL_NOW) });
    cleanups.push(() => b2.database.close());
    const resumed = subscribe(embeddedConnection(b2, silentLogger), token, onB.ids.at(-1));
    await emit(b2.deps.db, [login(priya, 4)]);
    await until(() => names(resumed).length === 2 && names(onA).length === 4, 'the events around the restart');
    expect(names(resumed)).toEqual(['player 3', 'player 4']);
  }, 60_000);

  it('holds an event back while an earlier id is still uncommitted, so commits out of id order lose nothing', async () => {
    const backend = await testBackend('postgres');
    const priya = await accountId(backend, 'priya');
    const stream = subscribe(await remote(backend), await backend.login('priya'));
    await until(() => stream.events.length === 0 && stream.errors.length === 0, 'the stream');
    await new Promise((resolve) => setTimeout(resolve, 200));
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let inserted!: () => void;
    const insertedEarly = new Promise<void>((resolve) => { inserted = resolve; });
    // Takes the lower id, then waits before committing.
    const slow = backend.deps.db.transaction(async (tx) => {
      await emitEvents(tx as unknown as Db, [login(priya, 1)], new Date(BOOK_NOW));
      inserted();
      await held;
    });
    await insertedEarly;
    await emit(backend.deps.db, [login(priya, 2)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.events).toEqual([]);
    release();
    await slow;
    await until(() => names(stream).length === 2, 'both events');
    expect(names(stream)).toEqual(['player 1', 'player 2']);
    const ids = await queryRows<{ id: string }>(backend.deps.db, sql`select id::text as id from events where recipient_id = ${priya} order by id`);
    expect(stream.ids).toEqual(ids.map((r) => r.id));
  });
});
