import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_CALLS, MAX_BODY_BYTES, MAX_URL_BYTES } from '../../src/server/http.js';
import { PAGE_SIZE_MAX } from '../../src/shared/contracts/page-size.js';
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
    const res = path.startsWith('limits.edit') || path.startsWith('settlements.settle') || path.startsWith('auth.login')
      ? await fetch(`${b.server.url}/trpc/${path}`, { method: 'POST', headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, body: JSON.stringify(input) })
      : await fetch(url, { headers: { authorization: `Bearer ${auth}` } });
    return { status: res.status, body: (await res.json()) as { error?: { message: string; data: { code: string; stack?: string } } } };
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
    // A keyset cursor forged with year 0 reached PostgreSQL's timestamptz and failed there (500).
    ['forged cursor in year 0 (bets)', 'agent.getBetHistory', { cursor: Buffer.from(JSON.stringify({ t: '0000-01-01T00:00:00Z', id: '00000000-0000-4000-8000-000000000000' })).toString('base64url') }, /not a cursor/],
    ['forged cursor in year 0 (settlements)', 'agent.getSettlementHistory', { cursor: Buffer.from(JSON.stringify({ t: '0000-01-01T00:00:00Z', id: '00000000-0000-4000-8000-000000000000' })).toString('base64url') }, /not a cursor/],
    ['forged cursor in year 0 (statement)', 'agent.getStatement', { accountId: '00000000-0000-4000-8000-000000000000', cursor: Buffer.from(JSON.stringify({ t: '0000-01-01T00:00:00Z', k: 0, n: 1 })).toString('base64url') }, /not a cursor/],
    ['unknown statement kind', 'agent.getStatement', { accountId: '00000000-0000-4000-8000-000000000000', kinds: ['bonus'] }, /kinds/],
    ['negative limit value', 'limits.preview', { playerId: '00000000-0000-4000-8000-000000000000', limitType: 'creditLimit', newValue: -1 }, /must not be negative/],
    ['unknown limit type', 'limits.preview', { playerId: '00000000-0000-4000-8000-000000000000', limitType: 'maxBet', newValue: 1 }, /limitType/],
    ['amount without amount mode', 'settlements.preview', { playerId: '00000000-0000-4000-8000-000000000000', mode: 'auto', amount: 100 }, /only allowed when mode is 'amount'/],
    ['a period that is no week', 'settlements.preview', { playerId: '00000000-0000-4000-8000-000000000000', mode: 'auto', periodId: 'last week' }, /ISO week/],
    // Far dates reached date arithmetic and threw RangeError (500) before the contracts bounded them.
    ['a far end date (PnL)', 'agent.getPnL', { to: '9999-12-31' }, /from 2000-01-01 to 2100-12-31/],
    ['a far end date (commission)', 'agent.getCommission', { to: '9999-12-31' }, /from 2000-01-01 to 2100-12-31/],
    ['a far end date (settlements)', 'agent.getSettlementHistory', { to: '9999-12-31' }, /from 2000-01-01 to 2100-12-31/],
    ['a far end date (bets)', 'agent.getBetHistory', { from: '2026-11-01', to: '9999-12-31' }, /from 2000-01-01 to 2100-12-31/],
    ['an ancient start date', 'agent.getPnL', { from: '1000-01-01', to: '2026-11-01' }, /from 2000-01-01 to 2100-12-31/],
    ['a far week', 'settlements.preview', { playerId: '00000000-0000-4000-8000-000000000000', mode: 'auto', periodId: '9999-W52' }, /ISO week from 2000 to 2100/],
    ['a control character in a search', 'agent.searchPlayers', { query: 'pri\u0007ya' }, /control characters/],
    ['a lone surrogate in a search', 'match.searchFixtures', { query: 'ind\ud800' }, /well-formed Unicode/],
    ['a page over the cap (bets)', 'agent.getBetHistory', { limit: PAGE_SIZE_MAX.bets + 1 }, new RegExp(`at most ${PAGE_SIZE_MAX.bets} rows`)],
    ['a page over the cap (settlements)', 'agent.getSettlementHistory', { limit: PAGE_SIZE_MAX.settlements + 1 }, new RegExp(`at most ${PAGE_SIZE_MAX.settlements} rows`)],
    ['a page over the cap (statement)', 'agent.getStatement', { accountId: '00000000-0000-4000-8000-000000000000', limit: PAGE_SIZE_MAX.statement + 1 }, new RegExp(`at most ${PAGE_SIZE_MAX.statement} rows`)],
    ['a page over the cap (take)', 'agent.getTake', { limit: PAGE_SIZE_MAX.rows + 1 }, new RegExp(`at most ${PAGE_SIZE_MAX.rows} rows`)],
    ['an amount past any book', 'limits.preview', { playerId: '00000000-0000-4000-8000-000000000000', limitType: 'creditLimit', newValue: 2 ** 53 - 1 }, /at most 1000000000000000 paisa/],
    ['an expected take past any book', 'settlements.settle', { playerId: '00000000-0000-4000-8000-000000000000', mode: 'auto', idempotencyKey: 'bad-input-0123456789', expectedTakeBefore: -(2 ** 53 - 1) }, /at least -1000000000000000 paisa/],
  ])('%s → a clear 400', async (_what, path, input, message) => {
    const res = await raw(path, input);
    expect(res.status).toBe(400);
    expect(res.body.error?.data.code).toBe('BAD_REQUEST');
    expect(res.body.error?.message).toMatch(message);
    expect(res.body.error?.data.stack).toBeUndefined();
  });

  it.each([
    ['a NUL byte', 'pri\u0000ya'], ['a NUL byte alone', '\u0000'], ['an escape sequence', '\u001b[2Jpriya'], ['a C1 control', 'priya\u0085'],
  ])('refuses %s in a login name with a 400, on the way to any database', async (_what, username) => {
    const res = await raw('auth.login', { username, password: 'demo-priya' }, '');
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(/username[\s\S]*control characters|control characters[\s\S]*username/);
  });

  /** A raw batched GET of `calls` calls of one query, each with the same input. */
  const batch = async (path: string, input: unknown, calls: number) => {
    const inputs = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, input]));
    const url = `${b.server.url}/trpc/${Array(calls).fill(path).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text() };
  };

  it(`refuses a batch of more than ${MAX_BATCH_CALLS} calls with a 400 that names the limit`, async () => {
    const over = await batch('auth.me', {}, MAX_BATCH_CALLS + 1);
    expect(over.status).toBe(400);
    expect(JSON.parse(over.text)).toMatchObject({ error: { message: `a batch holds at most ${MAX_BATCH_CALLS} calls; this one has ${MAX_BATCH_CALLS + 1}`, data: { code: 'BAD_REQUEST' } } });
    expect((await batch('auth.me', {}, MAX_BATCH_CALLS)).status).toBe(200);
    // Commas written as %2C separate calls all the same.
    const encoded = await fetch(`${b.server.url}/trpc/${Array(MAX_BATCH_CALLS + 1).fill('auth.me').join('%2C')}?batch=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(encoded.status).toBe(400);
    expect(((await encoded.json()) as { error: { message: string } }).error.message).toMatch(`at most ${MAX_BATCH_CALLS} calls`);
  });

  it('keeps a full batch of full pages of the widest rows under 2 MB', async () => {
    const full = await batch('agent.getBetHistory', { limit: PAGE_SIZE_MAX.bets }, MAX_BATCH_CALLS);
    expect(full.status).toBe(200);
    const answers = JSON.parse(full.text) as Array<{ result: { data: { bets: unknown[] } } }>;
    expect(answers).toHaveLength(MAX_BATCH_CALLS);
    // The book holds more bets than a page: each answer is a full page, and still the whole stays small.
    for (const answer of answers) expect(answer.result.data.bets).toHaveLength(PAGE_SIZE_MAX.bets);
    expect(Buffer.byteLength(full.text)).toBeLessThan(2 * 1024 * 1024);
  });

  it(`refuses a URL over ${MAX_URL_BYTES} bytes with a 414 that says to use a POST body`, async () => {
    const res = await fetch(`${b.server.url}/trpc/agent.searchPlayers?input=${encodeURIComponent(JSON.stringify({ query: 'x'.repeat(MAX_URL_BYTES) }))}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(414);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/URL is over .* bytes/);
  });

  it('refuses a body over the size limit with 413, not a crash', async () => {
    const res = await fetch(`${b.server.url}/trpc/auth.login`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'priya', password: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(`the request body is over ${MAX_BODY_BYTES} bytes`);
  });

  it('refuses a streamed body (no length given) over the size limit with a readable 413', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ username: 'priya', password: 'x'.repeat(MAX_BODY_BYTES + 1024) })));
        controller.close();
      },
    });
    const res = await fetch(`${b.server.url}/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/request body is over the size limit/);
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
