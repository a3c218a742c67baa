import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Assistant, BACKEND_UNREACHABLE_TEXT, type TurnRecord } from '../../../src/main/assistant/assistant.js';
import { RateLimiter } from '../../../src/main/assistant/guards/rate-limit.js';
import { FileChatHistory } from '../../../src/main/assistant/history.js';
import { RulePlanner } from '../../../src/main/assistant/planner/rule-planner.js';
import { READ_CACHE_ENTRIES, ReadCache, WRITE_UNREACHABLE_TEXT, cachedSentence } from '../../../src/main/assistant/read-cache.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { NonceStore } from '../../../src/main/confirm/nonce-store.js';
import type { BackendClient } from '../../../src/main/backend/connection.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import { silentLogger } from '../../../src/infra/log.js';
import type { AppRouter } from '../../../src/server/trpc/router.js';
import type { User } from '../../../src/shared/contracts/agent-api.js';
import type { Envelope } from '../../../src/shared/contracts/assistant.js';
import type { ChatTurnInput, TurnEvent } from '../../../src/shared/contracts/chat.js';
import { type TestBackend, startTestBackend } from '../../helpers/backend.js';

/**
 * The chat while the backend is away: a read asked before is answered from
 * main's read cache with its age, a change is refused with the reason, and when the backend is
 * back the answers are fresh again. "Away" is a client pointed at a port nothing listens on: the
 * connection is refused, as when the backend's server is down.
 */
let backend: TestBackend;
let token: string;
let live: BackendClient;
let dead: BackendClient;
let priya: User;
let dir: string;

async function deadPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  token = await backend.login('priya');
  live = backend.client(token);
  const port = await deadPort();
  dead = createTRPCClient<AppRouter>({ links: [httpLink({ url: `http://127.0.0.1:${port}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })] });
  priya = await live.auth.me.query();
  dir = await mkdtemp(join(tmpdir(), 'degraded-'));
});
afterAll(() => backend.close());

/** The wall clock the cache stamps and ages by, moved by the test. */
const wall = { ms: Date.parse('2026-11-20T06:34:00.000Z') };

function assistant() {
  const records: TurnRecord[] = [];
  const readCache = new ReadCache(undefined, () => wall.ms);
  const a = new Assistant({
    registry: createToolRegistry(), planners: [new RulePlanner()], history: new FileChatHistory(join(dir, String(Math.random()))),
    nonces: new NonceStore(), audit: new AuditLog(join(dir, `audit-${Math.random()}.jsonl`)),
    limiter: new RateLimiter(), log: silentLogger, onTurn: (r) => records.push(r), readCache,
  });
  return { a, records, readCache };
}

async function run(a: Assistant, text: string, caller: { user: User; api: BackendClient }) {
  const events: TurnEvent[] = [];
  const input: ChatTurnInput = { kind: 'message', text, page: { path: '/agent/dashboard', query: {} } };
  for await (const event of a.turn(input, caller)) events.push(event);
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('a turn must end with done');
  return { cards: done.message.cards, text: done.message.text, outcome: done.message.outcome };
}

describe('the chat while the backend is away', () => {
  it('answers a read from the cache with its age, refuses a change, and is fresh again once the backend is back', async () => {
    const { a, records } = assistant();
    const up = { user: priya, api: live };
    const down = { user: priya, api: dead };

    const first = await run(a, 'what is my live exposure?', up);
    expect(first.outcome).toBe('answered');
    expect(first.cards.map((c) => c.type)).toContain('exposure_card');
    const karan = await run(a, 'how much does Karan owe me', up);
    expect(karan.cards.map((c) => c.type)).toContain('take_table');

    // 12:04 in Kolkata when read; asked three minutes later with the backend stopped.
    wall.ms += 3 * 60_000;
    const cached = await run(a, 'what is my live exposure?', down);
    expect(cached.outcome).toBe('answered');
    expect(cached.text.startsWith('The backend is unreachable; this is from 12:04 (3 min ago).')).toBe(true);
    // The same card and the same sentence as when it was read, figures and all (the number guard let them through).
    expect(cached.cards).toEqual(first.cards);
    expect(cached.text).toBe(`The backend is unreachable; this is from 12:04 (3 min ago). ${first.text}`);
    expect(records.at(-1)!.flaggedFigures).toEqual([]);
    expect(records.at(-1)!.notes).toContain('answered from the read cache: backend unreachable');

    // A player named before is still known by name, without the backend's search.
    const karanCached = await run(a, 'how much does Karan owe me', down);
    expect(karanCached.text).toBe(`The backend is unreachable; this is from 12:04 (3 min ago). ${karan.text}`);
    expect(karanCached.cards).toEqual(karan.cards);

    // A read never asked before: nothing to show, the plain answer.
    const never = await run(a, "what's my commission this month", down);
    expect(never.text).toBe(BACKEND_UNREACHABLE_TEXT);

    // A change: never previewed against remembered figures.
    const change = await run(a, 'raise Karan credit limit to 75000', down);
    expect(change.text).toBe(WRITE_UNREACHABLE_TEXT);
    expect(change.cards).toEqual([{ type: 'error_card', data: { code: 'UNAVAILABLE', message: WRITE_UNREACHABLE_TEXT, retryable: true } }]);
    expect(change.cards.some((c) => c.type === 'diff_card')).toBe(false);

    // Back up: answered from the backend again, with no age.
    const fresh = await run(a, 'what is my live exposure?', up);
    expect(fresh.text).not.toContain('unreachable');
    expect(records.at(-1)!.notes).not.toContain('answered from the read cache: backend unreachable');
    expect(fresh.cards.map((c) => c.type)).toContain('exposure_card');
  });

  it("keeps each user's answers to that user, and never a change's preview", async () => {
    const { a, readCache } = assistant();
    await run(a, 'what is my live exposure?', { user: priya, api: live });
    const proposal = await run(a, 'raise Karan credit limit to 75000', { user: priya, api: live });
    expect(proposal.cards.some((c) => c.type === 'diff_card')).toBe(true);
    // The preview's lookups (the player's limits) may be kept; the preview itself is not.
    expect(readCache.recall(priya.id, 'agent.editLimit', {})).toBeNull();

    const arjunApi = backend.client(await backend.login('arjun'));
    const arjun = await arjunApi.auth.me.query();
    await run(a, 'how much does Karan owe me', { user: arjun, api: arjunApi });
    const arjunDead = createTRPCClient<AppRouter>({ links: [httpLink({ url: `http://127.0.0.1:${await deadPort()}/trpc` })] }) as BackendClient;
    // Priya's exposure was read; Arjun's never was.
    const other = await run(a, 'what is my live exposure?', { user: arjun, api: arjunDead });
    expect(other.text).toBe(BACKEND_UNREACHABLE_TEXT);
  });
});

describe('the read cache', () => {
  const ok = (n: number): Envelope => ({ ok: true, data: { n } } as unknown as Envelope);

  it('keeps the newest entries per user, up to its bound', () => {
    const cache = new ReadCache();
    for (let i = 0; i < READ_CACHE_ENTRIES + 20; i++) cache.remember('u1', 'agent.getTake', { playerId: `p${i}` }, ok(i));
    expect(cache.size('u1')).toBe(READ_CACHE_ENTRIES);
    expect(cache.recall('u1', 'agent.getTake', { playerId: 'p0' })).toBeNull();
    expect(cache.recall('u1', 'agent.getTake', { playerId: `p${READ_CACHE_ENTRIES + 19}` })?.envelope).toEqual(ok(READ_CACHE_ENTRIES + 19));
    expect(cache.recall('u2', 'agent.getTake', { playerId: `p${READ_CACHE_ENTRIES + 19}` })).toBeNull();
  });

  it('finds arguments in any order, and keeps no failures', () => {
    const cache = new ReadCache();
    cache.remember('u1', 'agent.getPnL', { from: '2026-11-16', to: '2026-11-20' }, ok(1));
    expect(cache.recall('u1', 'agent.getPnL', { to: '2026-11-20', from: '2026-11-16' })?.envelope).toEqual(ok(1));
    cache.remember('u1', 'agent.getTake', {}, { ok: false, error: { code: 'UNAVAILABLE', message: 'x', retryable: true } } as unknown as Envelope);
    expect(cache.recall('u1', 'agent.getTake', {})).toBeNull();
  });

  it('says how old an answer is in the user\'s zone', () => {
    const at = Date.parse('2026-11-20T06:34:00.000Z');
    expect(cachedSentence(at, at + 3 * 60_000, 'Asia/Kolkata')).toBe('The backend is unreachable; this is from 12:04 (3 min ago).');
    expect(cachedSentence(at, at + 42_000, 'UTC')).toBe('The backend is unreachable; this is from 06:34 (42 s ago).');
  });
});
