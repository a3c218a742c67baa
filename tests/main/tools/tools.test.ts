import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TRPCLink, createTRPCClient, httpLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { type BackendClient, connectBackend } from '../../../src/main/backend/connection.js';
import { TOOLS, TOOL_NAMES, implementations, toolJsonSchema } from '../../../src/main/tools/index.js';
import { type ErrorEnvelope, createToolRegistry, errorCard } from '../../../src/main/tools/registry.js';
import type { ToolContext } from '../../../src/main/tools/types.js';
import { accounts } from '../../../src/server/db/schema.js';
import { createLogger, silentLogger } from '../../../src/infra/log.js';
import { hashPassword } from '../../../src/server/services/passwords.js';
import type { AppRouter } from '../../../src/server/trpc/router.js';
import { type User, userSchema } from '../../../src/shared/contracts/agent-api.js';
import { CARD_TYPES, type Envelope, TOOL_NAME, cardSchema, envelopeSchema } from '../../../src/shared/contracts/assistant.js';
import { ENGINES, type TestBackend, accountId, startTestBackend } from '../../helpers/backend.js';
import { planningOf } from '../../../src/main/assistant/planner/intents/index.js';

const READ_TOOLS = [
  'agent.searchPlayers', 'match.searchFixtures', 'agent.getDownline', 'agent.getTake', 'agent.getUpline', 'agent.getCreditLimit',
  'agent.getLiveExposure', 'agent.getPnL', 'agent.getCommission', 'agent.getSettlementHistory', 'agent.getBetHistory', 'agent.getStatement',
  'agent.getTopMarkets',
] as const;
type ReadTool = (typeof READ_TOOLS)[number];

/** Nothing listens on port 1: every request is refused at the socket, a real transport failure. */
const DEAD_URL = 'http://127.0.0.1:1/trpc';

/** Counts the operations that leave the client, so a test can tell whether the backend was asked at all. */
function counted(links: (counter: { calls: number }) => TRPCLink<AppRouter>[]): { api: BackendClient; counter: { calls: number } } {
  const counter = { calls: 0 };
  const count: TRPCLink<AppRouter> = () => ({ op, next }) => {
    counter.calls++;
    return next(op);
  };
  return { api: createTRPCClient<AppRouter>({ links: [count, ...links(counter)] }), counter };
}

const ok = (e: Envelope) => {
  expect(envelopeSchema.safeParse(e).success).toBe(true);
  if (!e.ok) throw new Error(`expected ok, got ${e.error.code}: ${e.error.message}`);
  return e;
};
const failed = (e: Envelope): ErrorEnvelope => {
  expect(envelopeSchema.safeParse(e).success).toBe(true);
  if (e.ok) throw new Error(`expected a failure, got data for ${e.tool}`);
  const card = errorCard(e);
  expect(cardSchema.parse(card)).toEqual(card);
  return e;
};

describe('tool catalog', () => {
  it('holds every tool of AGENT.md\'s table and the fixture search, each well formed', () => {
    expect(TOOL_NAMES.sort()).toEqual([
      ...READ_TOOLS, 'agent.editLimit', 'agent.settlePlayer', 'agent.placeHedgeBet', 'agent.generateReport', 'agent.shareReport', 'agent.muteAlerts',
    ].sort());
    for (const name of TOOL_NAMES) {
      const def = TOOLS[name];
      expect(def.name).toBe(name);
      expect(name).toMatch(TOOL_NAME);
      expect(def.description.length, name).toBeGreaterThan(80);
      if (def.card !== null) expect(CARD_TYPES).toContain(def.card);
      // Every entity slot names a real argument of the tool.
      for (const path of Object.values(def.entities)) {
        const [head, tail] = path.split('.');
        const shape = (def.input as unknown as { shape: Record<string, { unwrap?: () => { shape: Record<string, unknown> } }> }).shape;
        expect(shape[head!], `${name} ${path}`).toBeDefined();
        if (tail) expect(shape[head!]!.unwrap!().shape[tail], `${name} ${path}`).toBeDefined();
      }
    }
  });

  it('marks only the money- and limit-moving tools destructive, and only the current-state reads as refreshed by "now"', () => {
    // Sharing a report sends data to another person: it goes through the same preview and confirmation.
    expect(TOOL_NAMES.filter((n) => TOOLS[n].isDestructive).sort()).toEqual(['agent.editLimit', 'agent.placeHedgeBet', 'agent.settlePlayer', 'agent.shareReport']);
    expect(TOOL_NAMES.filter((n) => planningOf(n)?.refreshes === true).sort()).toEqual([
      'agent.getBetHistory', 'agent.getCreditLimit', 'agent.getDownline', 'agent.getLiveExposure', 'agent.getTake', 'agent.getUpline',
    ]);
    expect(TOOLS['agent.getPnL'].entities).toEqual({ player: 'playerId', agent: 'underAgentId', fixture: 'fixtureId', market: 'marketId' });
    expect(TOOLS['agent.getSettlementHistory'].entities).toEqual({ player: 'counterpartyId' });
    expect(TOOLS['agent.getStatement'].entities).toEqual({ player: 'accountId' });
    expect(TOOLS['agent.generateReport'].entities).toEqual({ player: 'filters.playerId', fixture: 'filters.fixtureId' });
  });

  it('generates a JSON Schema for every definition, defaults optional and unknown keys refused', () => {
    for (const def of createToolRegistry().definitions()) {
      const schema = toolJsonSchema(def);
      expect(schema.type, def.name).toBe('object');
      expect(schema.additionalProperties, def.name).toBe(false);
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
    }
    expect(toolJsonSchema(TOOLS['agent.getTopMarkets']).required).toEqual(['period', 'metric']);
    expect(toolJsonSchema(TOOLS['agent.getPnL']).required).toBeUndefined();
    expect(toolJsonSchema(TOOLS['agent.settlePlayer']).required).toEqual(['playerId', 'mode']);
    expect(toolJsonSchema(TOOLS['agent.editLimit'])).toMatchObject({
      required: ['playerId', 'limitType', 'newValue'],
      properties: { limitType: { enum: ['creditLimit', 'perClickWin', 'aggregateDailyWin', 'minStake'] }, newValue: { type: 'integer' } },
    });
  });

  it('offers each role only what it may call', () => {
    const registry = createToolRegistry();
    expect(registry.forRole('player')).toEqual([]);
    expect(registry.forRole('agent').map((d) => d.name).sort()).toEqual([...TOOL_NAMES].sort());
    const admin = registry.forRole('platform_admin').map((d) => d.name);
    expect(admin).not.toContain('agent.getUpline');
    expect(admin).toContain('agent.editLimit');
    expect(admin).toContain('agent.settlePlayer');
    expect(admin).toContain('match.searchFixtures');
    expect(registry.get('agent.getPnL')).toBe(TOOLS['agent.getPnL']);
    expect(registry.get('agent.nope')).toBeUndefined();
  });

  it('implements every read, the report, the alert mutes and the four writes, each write with its preview', () => {
    expect(Object.keys(implementations).sort()).toEqual([
      ...READ_TOOLS, 'agent.generateReport', 'agent.muteAlerts', 'agent.editLimit', 'agent.settlePlayer', 'agent.shareReport', 'agent.placeHedgeBet',
    ].sort());
    expect(implementations['agent.placeHedgeBet']!.prepare).toBeTypeOf('function');
    expect(implementations['agent.shareReport']!.prepare).toBeTypeOf('function');
    expect(implementations['agent.editLimit']!.prepare).toBeTypeOf('function');
    expect(implementations['agent.settlePlayer']!.prepare).toBeTypeOf('function');
  });
});

describe.each(ENGINES)('tool registry on %s', (engine) => {
  let b: TestBackend;
  let url: string;
  let priyaToken: string;
  let priya: ToolContext;
  let newcomer: ToolContext;
  /** A real player of priya's, as a user: players cannot sign in, so only the registry can stop them. */
  let playerUser: User;
  const ids: Record<string, string> = {};

  const clientFor = (token: string | null, extra: (c: { calls: number }) => TRPCLink<AppRouter>[] = () => []) =>
    counted((c) => [...extra(c), httpLink({ url, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })]);
  const ctxFor = async (token: string): Promise<ToolContext> => {
    const api = clientFor(token).api;
    return { api, user: userSchema.parse(await api.auth.me.query()), requestId: randomUUID() };
  };
  /** The retries' delays, as the registry logs them (cockatiel waits them out for real: 150 ms at most). */
  const noWait = () => {
    const waits: number[] = [];
    const log = createLogger({ level: 'debug', write: (line) => {
      const entry = JSON.parse(line) as { msg: string; delayMs?: number };
      if (entry.msg === 'tool retry') waits.push(entry.delayMs!);
    } });
    return { waits, log };
  };

  beforeAll(async () => {
    b = await startTestBackend(engine);
    url = `${b.server.url}/trpc`;
    for (const u of ['priya', 'admin', 'rahul.sharma', 'rahul.sharma2', 'anita']) ids[u] = await accountId(b, u);
    // An agent with nothing yet (no downline, no bets, nothing owed): the honest empty answer of
    // every tool. Under the admin, so priya's book is the cast's, untouched.
    const [admin] = await b.deps.db.select().from(accounts).where(eq(accounts.id, ids.admin!));
    const newId = randomUUID();
    await b.deps.db.insert(accounts).values({
      id: newId, username: 'newcomer', displayName: 'New Comer', searchName: 'new comer newcomer', role: 'agent',
      parentId: admin!.id, path: `${admin!.path}.${newId}`, depth: admin!.depth + 1, shareBps: 5000, creditLimit: 100_000_00,
      timezone: 'Asia/Kolkata', passwordHash: await hashPassword('demo-newcomer'), createdAt: new Date('2026-11-01T00:00:00Z'),
    });
    priyaToken = await b.login('priya');
    priya = await ctxFor(priyaToken);
    newcomer = await ctxFor(await b.login('newcomer', 'demo-newcomer'));
    const [rahul] = (await priya.api.agent.searchPlayers.query({ query: 'Rahul Sharma' })).players;
    playerUser = { id: rahul!.id, username: rahul!.username, name: rahul!.name, role: 'player', timezone: 'Asia/Kolkata' };
    const [indAus] = (await priya.api.match.searchFixtures.query({ query: 'India vs Australia' })).fixtures;
    ids.indAus = indAus!.id;
  });
  afterAll(async () => b?.close());

  interface ReadCase {
    happy: () => Record<string, unknown>;
    check: (data: never, env: Extract<Envelope, { ok: true }>) => void | Promise<void>;
    /** A missing required argument or, for tools with none, a malformed one; and the field the message must name. */
    bad: Record<string, unknown>;
    badMessage: string;
    empty: { as: 'priya' | 'newcomer'; args: () => Record<string, unknown>; check: (data: never, env: Extract<Envelope, { ok: true }>) => void };
  }

  const CASES: Record<ReadTool, ReadCase> = {
    'agent.searchPlayers': {
      happy: () => ({ query: 'rahul' }),
      check: (d: { players: Array<{ name: string }> }, env) => {
        expect(d.players.map((p) => p.name).sort()).toEqual(['Rahul Khanna', 'Rahul Sharma', 'Rahul Sharman', 'Rahul Verma']);
        expect(env.ui).toMatchObject({ type: 'player_picker', data: { query: 'rahul' } });
      },
      bad: {}, badMessage: 'query: required',
      empty: { as: 'priya', args: () => ({ query: 'zzzzqqq' }), check: (d: { players: unknown[] }, env) => {
        expect(d.players).toEqual([]);
        expect(env.ui).toBeUndefined();
      } },
    },
    'match.searchFixtures': {
      happy: () => ({ query: 'the India match' }),
      check: (d: { fixtures: Array<{ name: string }> }, env) => {
        expect(d.fixtures.map((f) => f.name).sort()).toEqual(['India vs Australia', 'India vs South Africa']);
        expect(env.ui).toMatchObject({ type: 'fixture_picker', data: { query: 'the India match' } });
      },
      bad: { limit: 5 }, badMessage: 'query: required',
      empty: { as: 'priya', args: () => ({ query: 'zzzzqqq' }), check: (d: { fixtures: unknown[] }, env) => {
        expect(d.fixtures).toEqual([]);
        expect(env.ui).toBeUndefined();
      } },
    },
    'agent.getDownline': {
      happy: () => ({ depth: 2 }),
      check: (d: { tree: Array<{ name: string; children: Array<{ name: string }> }> }, env) => {
        const arjun = d.tree.find((n) => n.name === 'Arjun Mehta');
        expect(arjun?.children.map((c) => c.name)).toEqual(expect.arrayContaining(['Imran Qureshi', 'Rahul Khanna']));
        expect(env.ui?.type).toBe('downline_tree');
      },
      bad: { depth: 'deep' }, badMessage: 'depth: ',
      empty: { as: 'newcomer', args: () => ({}), check: (d: { tree: unknown[]; truncated: boolean }, env) => {
        expect(d).toEqual({ tree: [], truncated: false });
        expect(env.ui).toEqual({ type: 'downline_tree', data: { tree: [], truncated: false } });
      } },
    },
    'agent.getTake': {
      happy: () => ({}),
      check: (d: { rows: Array<{ take: number; name: string }>; totals: { take: number; cl: number; available: number } }, env) => {
        expect(d.rows.length).toBeGreaterThan(15);
        expect(d.totals.available).toBe(d.totals.cl - d.totals.take);
        expect(env.ui?.type).toBe('take_table');
      },
      bad: { playerId: 'Rahul Sharma' }, badMessage: 'playerId: must be an id returned by the API',
      empty: { as: 'newcomer', args: () => ({}), check: (d: { rows: unknown[]; totals: unknown }) => {
        expect(d.rows).toEqual([]);
        expect(d.totals).toEqual({ take: 0, cl: 0, available: 0 });
      } },
    },
    'agent.getUpline': {
      happy: () => ({}),
      check: (d: { uplineName: string; cl: number; available: number; owed: number }, env) => {
        expect(d.uplineName).toBe('Vikram Rao');
        expect(d.cl).toBe(2_000_000 * 100);
        expect(d.available).toBe(d.cl - d.owed);
        expect(env.ui).toEqual({ type: 'balance_card', data: d });
      },
      bad: { playerId: randomUUID() }, badMessage: 'Unrecognized key: "playerId"',
      empty: { as: 'newcomer', args: () => ({}), check: (d: unknown) => {
        expect(d).toEqual({ uplineName: 'Desk Admin', cl: 100_000_00, owed: 0, takeNet: 0, available: 100_000_00 });
      } },
    },
    'agent.getCreditLimit': {
      happy: () => ({ playerId: ids['rahul.sharma'] }),
      check: (d: { rows: Array<{ name: string; creditLimit: number }> }, env) => {
        expect(d.rows).toHaveLength(1);
        expect(d.rows[0]).toMatchObject({ name: 'Rahul Sharma', creditLimit: 50_000 * 100 });
        expect(env.ui?.type).toBe('take_table');
      },
      bad: { playerId: 'rahul' }, badMessage: 'playerId: must be an id returned by the API',
      empty: { as: 'newcomer', args: () => ({}), check: (d: unknown) => expect(d).toEqual({ rows: [], matched: 0, nextCursor: null }) },
    },
    'agent.getLiveExposure': {
      happy: () => ({ fixtureId: ids.indAus }),
      check: (d: { scopes: Array<{ fixtureName: string }>; total: { exposure: number } }, env) => {
        expect(d.scopes.length).toBeGreaterThan(0);
        expect(new Set(d.scopes.map((s) => s.fixtureName))).toEqual(new Set(['India vs Australia']));
        expect(env.ui?.type).toBe('exposure_card');
      },
      bad: { fixtureId: 'India vs Australia' }, badMessage: 'fixtureId: must be an id returned by the API',
      empty: { as: 'newcomer', args: () => ({}), check: (d: { scopes: unknown[]; total: unknown }) => {
        expect(d.scopes).toEqual([]);
        expect(d.total).toEqual({ exposure: 0, exposureAtShare: 0 });
      } },
    },
    'agent.getPnL': {
      happy: () => ({ from: '2026-11-01', to: '2026-11-20' }),
      check: (d: { period: { from: string; to: string }; rows: Array<{ bets: number }>; total: { bets: number }; nextCursor: string | null }, env) => {
        expect(d.period).toMatchObject({ from: '2026-11-01', to: '2026-11-20', timezone: 'Asia/Kolkata' });
        expect(d.total.bets).toBeGreaterThan(0);
        if (d.nextCursor === null) expect(d.rows.reduce((s, r) => s + r.bets, 0)).toBe(d.total.bets);
        expect(env.ui?.type).toBe('pnl_table');
      },
      bad: { from: '2026-13-45' }, badMessage: 'from: must be a calendar date YYYY-MM-DD',
      empty: { as: 'priya', args: () => ({ from: '2020-01-01', to: '2020-01-31' }), check: (d: { rows: unknown[]; total: { bets: number; pnl: number } }) => {
        expect(d.rows).toEqual([]);
        expect(d.total).toMatchObject({ bets: 0, pnl: 0 });
      } },
    },
    'agent.getCommission': {
      happy: () => ({ from: '2026-10-01', to: '2026-11-20' }),
      check: (d: { rows: Array<{ commission: number }>; total: number; nextCursor: string | null }, env) => {
        expect(d.rows.length).toBeGreaterThan(0);
        if (d.nextCursor === null) expect(d.rows.reduce((s, r) => s + r.commission, 0)).toBe(d.total);
        expect(env.ui?.type).toBe('commission_table');
      },
      bad: { playerId: '12345' }, badMessage: 'playerId: must be an id returned by the API',
      empty: { as: 'priya', args: () => ({ from: '2020-01-01', to: '2020-01-31' }), check: (d: { rows: unknown[]; total: number }) => {
        expect(d.rows).toEqual([]);
        expect(d.total).toBe(0);
      } },
    },
    'agent.getSettlementHistory': {
      happy: () => ({ from: '2026-08-01', to: '2026-11-20' }),
      check: (d: { rows: Array<{ amount: number; takeBefore: number; takeAfter: number }> }, env) => {
        expect(d.rows.length).toBeGreaterThan(0);
        for (const r of d.rows) expect(r.takeAfter).toBe(r.takeBefore - r.amount);
        expect(env.ui?.type).toBe('settlement_table');
      },
      bad: { counterpartyId: 'anita' }, badMessage: 'counterpartyId: must be an id returned by the API',
      empty: { as: 'priya', args: () => ({ from: '2020-01-01', to: '2020-01-31' }), check: (d: unknown) => expect(d).toEqual({ rows: [], matched: 0, nextCursor: null }) },
    },
    'agent.getBetHistory': {
      happy: () => ({ playerId: ids['rahul.sharma'], limit: 20 }),
      check: (d: { bets: Array<{ playerName: string }>; summary: { count: number } }, env) => {
        expect(d.bets.length).toBeGreaterThan(0);
        expect(new Set(d.bets.map((x) => x.playerName))).toEqual(new Set(['Rahul Sharma']));
        expect(env.ui?.type).toBe('bet_table');
      },
      bad: { status: ['pending'] }, badMessage: 'status.0: ',
      empty: { as: 'priya', args: () => ({ from: '2020-01-01', to: '2020-01-31' }), check: (d: { bets: unknown[]; summary: { count: number } }) => {
        expect(d.bets).toEqual([]);
        expect(d.summary.count).toBe(0);
      } },
    },
    'agent.getStatement': {
      happy: () => ({ accountId: ids['rahul.sharma'], limit: 200 }),
      check: (d: { account: { name: string; take: number }; lines: Array<{ amount: number | null; balanceAfter: number }>; nextCursor: string | null }, env) => {
        expect(d.account.name).toBe('Rahul Sharma');
        expect(d.lines.length).toBeGreaterThan(0);
        expect(d.lines[0]!.balanceAfter).toBe(d.account.take);
        if (d.nextCursor === null) expect(d.lines.reduce((s, l) => s + (l.amount ?? 0), 0)).toBe(d.account.take);
        expect(env.ui).toMatchObject({ type: 'statement_table', data: { lines: d.lines, query: { accountId: ids['rahul.sharma'] } } });
      },
      bad: { accountId: 'Rahul Sharma' }, badMessage: 'accountId: must be an id returned by the API',
      empty: { as: 'priya', args: () => ({ accountId: ids['rahul.sharma'], from: '2020-01-01', to: '2020-01-31' }), check: (d: { lines: unknown[]; matched: number; net: number }) => {
        expect(d.lines).toEqual([]);
        expect([d.matched, d.net]).toEqual([0, 0]);
      } },
    },
    'agent.getTopMarkets': {
      happy: () => ({ period: 'month', metric: 'volume', limit: 5 }),
      check: (d: { rows: Array<{ value: number }> }, env) => {
        expect(d.rows.length).toBeGreaterThan(0);
        expect(d.rows.length).toBeLessThanOrEqual(5);
        expect(d.rows.map((r) => r.value)).toEqual([...d.rows.map((r) => r.value)].sort((x, y) => y - x));
        expect(env.ui).toMatchObject({ type: 'pnl_table', data: { metric: 'volume', rows: d.rows } });
      },
      bad: { metric: 'pnl' }, badMessage: 'period: required',
      empty: { as: 'newcomer', args: () => ({ period: 'today', metric: 'pnl' }), check: (d: { rows: unknown[] }, env) => {
        expect(d.rows).toEqual([]);
        expect(env.ui).toMatchObject({ type: 'pnl_table', data: { metric: 'pnl', rows: [] } });
      } },
    },
  };

  describe.each(READ_TOOLS)('%s', (tool) => {
    const c = CASES[tool];

    it('answers as priya with the backend\'s data and a card that validates', async () => {
      const registry = createToolRegistry();
      const env = ok(await registry.call(tool, c.happy(), priya));
      expect(env).toMatchObject({ schema_version: 1, tool, ok: true });
      await c.check(env.data as never, env);
      if (env.ui) expect(cardSchema.parse(env.ui)).toEqual(env.ui);
      if (TOOLS[tool].card !== 'player_picker' && TOOLS[tool].card !== 'fixture_picker') expect(env.ui?.type).toBe(TOOLS[tool].card);
    });

    it('refuses a missing or malformed argument, naming the field, without asking the backend', async () => {
      const { api, counter } = clientFor(priyaToken);
      const env = failed(await createToolRegistry().call(tool, c.bad, { ...priya, api }));
      expect(env.error.code).toBe('INVALID_ARGS');
      expect(env.error.message).toContain(c.badMessage);
      expect(errorCard(env).data.retryable).toBe(false);
      expect(counter.calls).toBe(0);
    });

    it('refuses a player before the backend is asked', async () => {
      const { api, counter } = clientFor(null);
      const env = failed(await createToolRegistry().call(tool, c.happy(), { api, user: playerUser, requestId: 'r1' }));
      expect(env.error).toEqual({ code: 'FORBIDDEN', message: `${tool} is not available to a player` });
      expect(counter.calls).toBe(0);
    });

    it('answers an empty result as data, not as an error', async () => {
      const env = ok(await createToolRegistry().call(tool, c.empty.args(), c.empty.as === 'priya' ? priya : newcomer));
      c.empty.check(env.data as never, env);
      if (env.ui) expect(cardSchema.parse(env.ui)).toEqual(env.ui);
    });

    it('swallows a failing transport into an error envelope with an error card', async () => {
      const { api, counter } = counted(() => [httpLink({ url: DEAD_URL })]);
      const { waits, log } = noWait();
      const registry = createToolRegistry({ log });
      const env = failed(await registry.call(tool, c.happy(), { ...priya, api }));
      expect(env.error).toEqual({ code: 'UNAVAILABLE', message: 'the backend could not be reached' });
      expect(errorCard(env)).toEqual({ type: 'error_card', data: { code: 'UNAVAILABLE', message: 'the backend could not be reached', retryable: true } });
      // A read is retried twice, backing off exponentially.
      expect(counter.calls).toBe(3);
      expect(waits).toEqual([50, 100]);
    });
  });

  it('shows a picker only when there is something to pick from', async () => {
    const registry = createToolRegistry();
    const zoe = ok(await registry.call('agent.searchPlayers', { query: 'ZOE NUNEZ' }, priya));
    expect(zoe.data).toMatchObject({ players: [{ name: 'Zoë Ñúñez', match: 'exact' }] });
    expect(zoe.ui).toBeUndefined();
    const miCsk = ok(await registry.call('match.searchFixtures', { query: 'MI vs CSK' }, priya));
    expect(miCsk.data).toMatchObject({ fixtures: [{ name: 'Mumbai Indians vs Chennai Super Kings' }] });
    expect(miCsk.ui).toBeUndefined();
  });

  it('refuses getUpline to the platform admin in the registry, and lets the admin read the rest', async () => {
    const admin = await b.login('admin');
    const { api, counter } = clientFor(admin);
    const user = userSchema.parse(await api.auth.me.query());
    counter.calls = 0;
    const registry = createToolRegistry();
    const env = failed(await registry.call('agent.getUpline', {}, { api, user, requestId: 'r2' }));
    expect(env.error).toEqual({ code: 'FORBIDDEN', message: 'agent.getUpline is not available to the platform admin' });
    expect(counter.calls).toBe(0);
    // The backend refuses it too: the registry is not the only gate.
    await expect(api.agent.getUpline.query({})).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    const take = ok(await registry.call('agent.getTake', {}, { api, user, requestId: 'r3' }));
    expect((take.data as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
  });

  it('passes the backend\'s refusal through with its code and message, and does not retry it', async () => {
    const { api, counter } = clientFor(priyaToken);
    const { waits, log } = noWait();
    // Meera's Rahul Sharma is outside priya's downline: to her he does not exist.
    const env = failed(await createToolRegistry({ log }).call('agent.getTake', { playerId: ids['rahul.sharma2'] }, { ...priya, api }));
    expect(env.error).toEqual({ code: 'NOT_FOUND', message: 'player not found' });
    expect(errorCard(env).data.retryable).toBe(false);
    expect(counter.calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it('passes a BAD_REQUEST from the backend through', async () => {
    const env = failed(await createToolRegistry().call('agent.getPnL', { from: '2026-11-10', to: '2026-11-01' }, priya));
    expect(env.error).toEqual({ code: 'BAD_REQUEST', message: 'the period starts (2026-11-10) after it ends (2026-11-01)' });
  });

  it('retries a read through two transport failures and answers from the third attempt', async () => {
    let attempts = 0;
    // The first two operations go to a dead socket, the rest to the real backend.
    const flaky: TRPCLink<AppRouter> = (runtime) => {
      const dead = httpLink<AppRouter>({ url: DEAD_URL })(runtime);
      const live = httpLink<AppRouter>({ url, headers: () => ({ authorization: `Bearer ${priyaToken}` }) })(runtime);
      return (opts) => (++attempts <= 2 ? dead(opts) : live(opts));
    };
    const api = createTRPCClient<AppRouter>({ links: [flaky] });
    const { waits, log } = noWait();
    const env = ok(await createToolRegistry({ log }).call('agent.getUpline', {}, { ...priya, api }));
    expect((env.data as { uplineName: string }).uplineName).toBe('Vikram Rao');
    expect(attempts).toBe(3);
    expect(waits).toEqual([50, 100]);

    // The caller may ask for fewer retries: then the same two failures are the answer.
    attempts = 0;
    const once = failed(await createToolRegistry({ log }).call('agent.getUpline', {}, { ...priya, api }, { retries: 1 }));
    expect(once.error.code).toBe('UNAVAILABLE');
    expect(attempts).toBe(2);
  });

  it('does not retry a read whose backend let the remote deadline pass: the turn waits once, not three times', async () => {
    // Accepts every request and never answers, as a hung backend does.
    const requests: http.IncomingMessage[] = [];
    const hung = http.createServer((req) => { requests.push(req); });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const remote = await connectBackend({ mode: 'remote', url: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`, timeoutMs: 200 }, silentLogger);
      const { waits, log } = noWait();
      const env = failed(await createToolRegistry({ log }).call('agent.getUpline', {}, { ...priya, api: remote.client(priyaToken) }));
      expect(env.error).toEqual({ code: 'TIMEOUT', message: 'the backend did not answer in time' });
      // The person may try again (the card says so); the registry itself does not.
      expect(errorCard(env).data.retryable).toBe(true);
      expect(requests).toHaveLength(1);
      expect(waits).toEqual([]);
    } finally {
      hung.closeAllConnections();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  });

  it('never retries a destructive tool, even on a transient failure', async () => {
    const { api, counter } = counted(() => [httpLink({ url: DEAD_URL })]);
    // The real handler over a dead transport: even confirmed, with its key, it is tried once.
    const registry = createToolRegistry({ backoffMs: 0 });
    const confirmed = { ...priya, api, idempotencyKey: 'k'.repeat(32), expected: { before: 0, playerName: 'Anita Desai' } };
    const env = failed(await registry.call('agent.editLimit', { playerId: ids.anita, limitType: 'creditLimit', newValue: 5_000_000 }, confirmed, { confirmed: true }));
    expect(env.error.code).toBe('UNAVAILABLE');
    expect(counter.calls).toBe(1);
  });

  it('never retries a tool that starts work (a report): a retry after a lost answer would start a second job', async () => {
    const { api, counter } = counted(() => [httpLink({ url: DEAD_URL })]);
    const env = failed(await createToolRegistry({ backoffMs: 0 }).call('agent.generateReport', { template: 'per_player_pnl', format: 'xlsx' }, { ...priya, api }));
    expect(env.error.code).toBe('UNAVAILABLE');
    expect(counter.calls).toBe(1);
  });

  it('refuses an unknown tool and a write without its confirmation', async () => {
    const registry = createToolRegistry();
    for (const name of ['agent.deleteEverything', 'constructor', '__proto__', 'x'.repeat(500)]) {
      const env = failed(await registry.call(name, {}, priya));
      expect(env.error.code).toBe('UNKNOWN_TOOL');
      expect(env.tool.length).toBeLessThanOrEqual(80);
    }
    const hedge = failed(await registry.call('agent.placeHedgeBet', { fixtureId: ids.anita, marketId: ids.anita, outcomeId: ids.anita, side: 'back', stake: 100 }, priya));
    expect(hedge.error.code).toBe('CONFIRMATION_REQUIRED');
    // A write runs only confirmed and with its key: the registry refuses anything else before the backend.
    const edit = failed(await registry.call('agent.editLimit', { playerId: ids.anita, limitType: 'creditLimit', newValue: 5_000_000 }, priya));
    expect(edit.error.code).toBe('CONFIRMATION_REQUIRED');
    const keyless = failed(await registry.call('agent.editLimit', { playerId: ids.anita, limitType: 'creditLimit', newValue: 5_000_000 }, priya, { confirmed: true }));
    expect(keyless.error.code).toBe('CONFIRMATION_REQUIRED');
    // Its arguments are still checked first, with the refinement's own field.
    const settle = failed(await registry.call('agent.settlePlayer', { playerId: ids.anita, mode: 'amount' }, priya));
    expect(settle.error).toEqual({ code: 'INVALID_ARGS', message: "amount: required when mode is 'amount'" });
    const limit = failed(await registry.call('agent.editLimit', { playerId: ids.anita, limitType: 'creditLimit', newValue: -5 }, priya));
    expect(limit.error.message).toBe('newValue: must not be negative');
    // A player may not change limits: refused before anything else.
    const player = failed(await registry.call('agent.editLimit', {}, { ...priya, user: { ...priya.user, role: 'player' } }));
    expect(player.error.code).toBe('FORBIDDEN');
  });

  it('times out a backend that never answers, and stops at the caller\'s cancellation', async () => {
    const hang: TRPCLink<AppRouter> = () => () => observable(() => () => {});
    const api = createTRPCClient<AppRouter>({ links: [hang] });
    const { waits, log } = noWait();
    const timedOut = failed(await createToolRegistry({ log, timeoutMs: 20 }).call('agent.getTake', {}, { ...priya, api }));
    expect(timedOut.error).toEqual({ code: 'TIMEOUT', message: 'agent.getTake did not answer in time' });
    expect(waits).toEqual([50, 100]);

    // Cancelled mid-call: it stops at once, without retrying and without waiting for the timeout.
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 20);
    const quiet = noWait();
    const started = Date.now();
    const cancelled = failed(await createToolRegistry({ log: quiet.log, timeoutMs: 10_000 }).call('agent.getTake', {}, { ...priya, api, signal: cancel.signal }));
    expect(cancelled.error).toEqual({ code: 'CANCELLED', message: 'the request was cancelled' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(quiet.waits).toEqual([]);
    // Cancelled before it starts: the backend is not asked.
    const { api: counting, counter } = clientFor(priyaToken);
    expect(failed(await createToolRegistry().call('agent.getTake', {}, { ...priya, api: counting, signal: cancel.signal })).error.code).toBe('CANCELLED');
    expect(counter.calls).toBe(0);
  });

  it('opens the breaker after repeated failures, answers "temporarily unavailable" without calling, and closes on a good probe', async () => {
    // cockatiel's breaker reads Date.now: only the Date is faked, timers and I/O run as ever.
    let clock = Date.parse('2026-11-20T06:30:00Z');
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => { vi.useRealTimers(); });
    vi.setSystemTime(clock);
    const registry = createToolRegistry({ now: () => clock, backoffMs: 0 });
    const dead = counted(() => [httpLink({ url: DEAD_URL })]);
    for (let i = 0; i < 10; i++) {
      clock += 1_000;
      vi.setSystemTime(clock);
      expect(failed(await registry.call('agent.getTake', {}, { ...priya, api: dead.api }, { retries: 0 })).error.code).toBe('UNAVAILABLE');
    }
    expect(dead.counter.calls).toBe(10);
    const live = clientFor(priyaToken);
    const refused = failed(await registry.call('agent.getTake', {}, { ...priya, api: live.api }));
    expect(refused.error.code).toBe('UNAVAILABLE');
    expect(refused.error.message).toContain('temporarily unavailable');
    expect(errorCard(refused).data.retryable).toBe(true);
    expect(live.counter.calls).toBe(0);
    expect(refused.generated_at).toBe(new Date(clock).toISOString());
    // Other tools are not affected.
    ok(await registry.call('agent.getUpline', {}, { ...priya, api: live.api }));
    // After the cool-down one probe goes through; it succeeds, and the tool is back.
    clock += 30_000;
    vi.setSystemTime(clock);
    ok(await registry.call('agent.getTake', {}, { ...priya, api: live.api }));
    ok(await registry.call('agent.getTake', {}, { ...priya, api: live.api }));
  });

  it('does not count refusals and not-founds against a tool', async () => {
    const registry = createToolRegistry();
    const { api, counter } = clientFor(priyaToken);
    for (let i = 0; i < 12; i++) {
      expect(failed(await registry.call('agent.getTake', { playerId: ids['rahul.sharma2'] }, { ...priya, api })).error.code).toBe('NOT_FOUND');
    }
    ok(await registry.call('agent.getTake', {}, { ...priya, api }));
    expect(counter.calls).toBe(13);
  });
});
