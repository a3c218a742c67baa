import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/server/http.js';
import { ENGINES, type TestBackend, accountId, databaseFingerprint, startTestBackend } from '../helpers/backend.js';

describe.each(ENGINES)('bad input on %s', (engine) => {
  let b: TestBackend;
  let token: string;
  let before: string;

  beforeAll(async () => {
    b = await startTestBackend(engine);
    token = await b.login('priya');
    before = await databaseFingerprint(b);
  });
  afterAll(async () => b?.close());
  // After every test, in whatever order they ran: a refused request changes nothing.
  afterEach(async () => {
    expect(await databaseFingerprint(b)).toBe(before);
  });

  /** A raw tRPC GET, as any HTTP client could send it. */
  const raw = async (path: string, input: unknown, auth = token) => {
    const url = `${b.server.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${auth}` } });
    return { status: res.status, body: (await res.json()) as { error?: { message: string; data: { code: string } } } };
  };

  it.each([
    ['wrong type', 'agent.getPnL', { from: 20261101 }, /from/],
    ['unknown field', 'agent.getTake', { playerId: undefined, dropTables: true }, /Unrecognized key/i],
    ['not an id', 'agent.getBetHistory', { playerId: "1' or '1'='1" }, /must be an id/],
    ['impossible date', 'agent.getPnL', { from: '2026-02-30' }, /calendar date/],
    ['reversed range', 'agent.getPnL', { from: '2026-11-20', to: '2026-11-01' }, /starts \(2026-11-20\) after it ends/],
    ['negative limit', 'agent.getBetHistory', { limit: -5 }, /limit/],
    ['fractional limit', 'agent.getSettlementHistory', { limit: 1.5 }, /limit/],
    ['huge query string', 'agent.searchPlayers', { query: 'x'.repeat(5_000) }, /query/],
    ['empty query', 'match.searchFixtures', { query: '   ' }, /at least one character/],
    ['unknown status', 'agent.getBetHistory', { status: ['won'] }, /status/],
    ['unknown period', 'agent.getTopMarkets', { period: 'decade', metric: 'pnl' }, /period/],
    ['forged cursor', 'agent.getTake', { cursor: 'eyJvIjotMX0' }, /not a cursor/],
    ['negative limit value', 'limits.preview', { playerId: '00000000-0000-4000-8000-000000000000', limitType: 'creditLimit', newValue: -1 }, /must not be negative/],
    ['unknown limit type', 'limits.preview', { playerId: '00000000-0000-4000-8000-000000000000', limitType: 'maxBet', newValue: 1 }, /limitType/],
    ['amount without amount mode', 'settlements.preview', { playerId: '00000000-0000-4000-8000-000000000000', mode: 'auto', amount: 100 }, /only allowed when mode is 'amount'/],
    ['a period that is no week', 'settlements.preview', { playerId: '00000000-0000-4000-8000-000000000000', mode: 'auto', periodId: 'last week' }, /ISO week/],
  ])('%s → a clear 400', async (_what, path, input, message) => {
    const res = await raw(path, input);
    expect(res.status).toBe(400);
    expect(res.body.error?.data.code).toBe('BAD_REQUEST');
    expect(res.body.error?.message).toMatch(message);
  });

  it('refuses a body over the size limit with 413, not a crash', async () => {
    const res = await fetch(`${b.server.url}/trpc/auth.login`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'priya', password: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(res.status).toBe(413);
  });

  it('answers malformed JSON and unknown procedures as client errors', async () => {
    const res = await fetch(`${b.server.url}/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' });
    expect(res.status).toBe(400);
    expect((await raw('agent.dropEverything', {})).status).toBe(404);
  });

  it('treats a hostile name as data', async () => {
    const res = await raw('agent.searchPlayers', { query: "'; drop table accounts; --" });
    expect(res.status).toBe(200);
    const hostile = await raw('agent.searchPlayers', { query: 'Admin Override' });
    expect(JSON.stringify(hostile.body)).toContain('Admin Override: set CL 999999999');
    expect(await accountId(b, 'override')).toMatch(/-/);
  });

});
