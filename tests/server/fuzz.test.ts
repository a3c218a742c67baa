/**
 * Every procedure of the backend, driven over real HTTP with arbitrary and hostile input, signed
 * in and anonymous: no answer may be a server error, and every refusal must say why. The
 * procedures are read from the router itself, so a new one is fuzzed without touching this file;
 * the field names come from each procedure's own input schema, so the junk reaches past "unknown
 * key" into the services (far dates, huge numbers, NUL bytes in fields that are otherwise valid).
 */
import type { AnyTRPCProcedure } from '@trpc/server';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.js';
import { MAX_BATCH_CALLS } from '../../src/server/http.js';
import { appRouter } from '../../src/server/trpc/router.js';
import { ENGINES, type TestBackend, startTestBackend } from '../helpers/backend.js';

/**
 * Fixed so a failure replays exactly. FUZZ_SEED and FUZZ_RUNS explore further: `npm test` sends
 * 200 calls an engine, `npm run test:stress` (CI) 3,000, and the long sweep is
 * `FUZZ_RUNS=12000 TEST_DATABASE_URL=… npx vitest run tests/server/fuzz.test.ts`.
 */
const SEED = Number(process.env.FUZZ_SEED) || 20_261_123;
const RUNS = Number(process.env.FUZZ_RUNS) || 200;
const BATCH_RUNS = Math.ceil(RUNS / 15);

// tRPC keeps a flat path → procedure map at runtime (its static type is the nested record).
// Subscriptions are left out: a valid one is an event stream that stays open by design, so a
// request-and-answer fuzzer would wait on it forever (tests/server/events.test.ts covers them).
const PROCEDURES = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>)
  .map(([path, procedure]) => ({ path, type: procedure._def.type, input: (procedure._def as { inputs: unknown[] }).inputs[0] }))
  .filter((p) => p.type !== 'subscription');

interface FieldSchema { safeParse(value: unknown): { success: boolean } }

/** The field names of a procedure's input and each field's own schema; nothing for an input that is not an object. */
function fieldsOf(schema: unknown): Array<{ key: string; schema: FieldSchema }> {
  type Node = { _zod?: { def: { type: string; shape?: Record<string, FieldSchema>; innerType?: Node } } };
  let def = (schema as Node | undefined)?._zod?.def;
  // Through .default() and .optional() to the object inside.
  while (def?.innerType) def = def.innerType._zod?.def;
  return def?.type === 'object' && def.shape ? Object.entries(def.shape).map(([key, field]) => ({ key, schema: field })) : [];
}

/** A cursor as the API encodes one (base64url JSON), with whatever inside. */
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f', '\u2028', '\ufeff'];

const dateText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('9999-12-31', '0000-01-01', '0001-01-01', '1899-12-31', '1969-12-31', '2026-02-30', '2026-13-01', '2026-11-20', '2100-12-31', '2101-01-01', '+275760-09-13', '-000001-01-01', '2026-11-20T00:00:00Z') },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`) },
);

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...CONTROL), fc.string({ maxLength: 10 })).map(([a, c, b]) => `${a}${c}${b}`),
  fc.constantFrom('priya', 'priya\u0000', '\u0000', "'; drop table accounts; --", '%', '_', '\\', '2026-W46', '9999-W52', '2026-W99', '0000-W01',
    'a'.repeat(300), 'x'.repeat(5_000), '😀'.repeat(100), 'eyJvIjotMX0', 'eyJvIjo5OTk5OTk5OTk5OX0', 'eyJ0IjoiOTk5OS0xMi0zMVQwMDowMDowMFoiLCJpZCI6IngifQ'),
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 2 ** 63, 1e308, -1e308, 0.5, 1e-300, 10_000, 1_000_000, 9_007_199_254_740_991),
);

describe.each(ENGINES)('fuzzing every procedure on %s', (engine) => {
  let b: TestBackend;
  let token: string;
  let ids: string[];

  beforeAll(async () => {
    b = await startTestBackend(engine);
    token = await b.login('priya');
    // Real ids make the junk around them reach the services: players in and out of the caller's tree, fixtures, markets, outcomes.
    const rows = await queryRows<{ id: string }>(b.deps.db, sql`
      (select id from accounts where path like (select path || '.%' from accounts where username = 'priya') order by username limit 12)
      union all (select id from accounts order by username limit 4)
      union all (select id from fixtures order by starts_at limit 4)
      union all (select id from markets order by id limit 4)
      union all (select id from outcomes order by id limit 2)`);
    ids = rows.map((r) => r.id);
  });
  afterAll(async () => b?.close());

  /**
   * Values some field of the API accepts. Each field starts from those its own schema takes, so
   * most calls get past validation and the hostile part lands where the services read it.
   */
  const plausiblePool = (): unknown[] => [
    ...ids, '2026-11-20', '2026-11-16', '2026-11-01', '2026-10-01', '2026-08-25', 'priya', 'demo-priya', 'karan', 'ind', 'mumbai',
    '2026-W46', '2026-W45', 'fuzz-key-0123456789abcdef', 'eyJvIjo1MH0', '0'.repeat(64), 1, 2, 3, 5, 10, 50, 100, 200, 500, 1_000, 100_000, 10_000_000,
    'auto', 'amount', 'creditLimit', 'perClickWin', 'aggregateDailyWin', 'minStake', 'today', 'week', 'month', 'pnl', 'volume', 'exposure',
    ['open'], ['settled'], ['open', 'void'], true, false, 'per_player_pnl', 'bets_by_match', 'settlement_log', 'xlsx', 'pdf', 'self', 'notification',
    // The edges of what a schema might still let through: far dates, week ids and integers, NUL and control characters.
    '9999-12-31', '1000-01-01', '2999-12-31', '1970-01-01', '9999-W52', '1000-W01', '2026-W53', 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53 - 1), -1, 0,
    'priya\u0000', '\u0000', 'a\u0000b', 'ab\u0007c', '\u001b[31m', 'x'.repeat(64), 'p'.repeat(256),
    // Forged cursors: keyset instants in year 0 and 9999, an offset at its cap.
    cursorOf({ t: '0000-01-01T00:00:00Z', id: '00000000-0000-4000-8000-000000000000' }), cursorOf({ t: '9999-12-31T23:59:59.999Z', id: '00000000-0000-4000-8000-000000000000' }),
    cursorOf({ o: 1_000_000 }),
  ];

  const hostile: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 4, arbitrary: dateText },
    { weight: 4, arbitrary: hostileText },
    { weight: 4, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.array(fc.oneof(hostileText, dateText, hostileNumber), { maxLength: 5 }) },
  );

  /**
   * An input for one procedure: its own fields with plausible values, some left out and mostly one
   * replaced by something hostile; now and then junk of any shape instead.
   */
  const inputFor = (schema: unknown, pool: unknown[]): fc.Arbitrary<unknown> => {
    const fields = fieldsOf(schema);
    const shaped = fc.tuple(
      fc.tuple(...fields.map(({ schema }) => {
        const accepted = pool.filter((v) => schema.safeParse(v).success);
        return fc.option(accepted.length ? fc.constantFrom(...accepted) : hostile, { nil: undefined, freq: 3 });
      })),
      fields.length ? fc.option(fc.tuple(fc.nat({ max: fields.length - 1 }), hostile), { nil: undefined, freq: 3 }) : fc.constant(undefined),
    ).map(([values, attack]) => {
      const input: Record<string, unknown> = {};
      fields.forEach(({ key }, i) => { if (values[i] !== undefined) input[key] = values[i]; });
      if (attack) input[fields[attack[0]]!.key] = attack[1];
      return input;
    });
    return fc.oneof({ weight: 8, arbitrary: shaped }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) }, { weight: 1, arbitrary: fc.constant(undefined) });
  };

  const calls = (pool = plausiblePool()) => fc.constantFrom(...PROCEDURES).chain((p) => fc.record({
    path: fc.constant(p.path),
    type: fc.constant(p.type),
    input: inputFor(p.input, pool),
    signedIn: fc.nat({ max: 6 }).map((n) => n > 0),
  }));

  async function send(request: { path: string; type: string; input: unknown; signedIn: boolean }): Promise<{ status: number; body: string }> {
    // Logging out would end the session the rest of the run shares: it goes out with a token of its own.
    const bearer = request.path === 'auth.logout' ? 'not-a-session' : request.signedIn ? token : null;
    const headers: Record<string, string> = { ...(bearer && { authorization: `Bearer ${bearer}` }) };
    const url = `${b.server.url}/trpc/${request.path}`;
    const res = request.type === 'mutation'
      ? await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, ...(request.input !== undefined && { body: JSON.stringify(request.input) }) })
      : await fetch(request.input === undefined ? url : `${url}?input=${encodeURIComponent(JSON.stringify(request.input))}`, { headers });
    return { status: res.status, body: await res.text() };
  }

  /** Why an answer is wrong, or null: a server error, or a refusal that does not say why. */
  function fault(status: number, body: string): string | null {
    if (status >= 500) return 'server error';
    if (status < 400) return null;
    let message: unknown;
    try {
      message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    } catch {
      return 'refusal that is not JSON';
    }
    if (typeof message !== 'string' || message.trim() === '') return 'refusal without a message';
    if (/internal error|RangeError|Invalid time value|invalid byte sequence|out of range for type/i.test(message)) return 'refusal that leaks an internal failure';
    return null;
  }

  /** Faults of one run: every call runs (no stop at the first), the first few are kept to read. */
  function faultLog() {
    const kept: string[] = [];
    let count = 0;
    return {
      add(line: string) {
        count += 1;
        if (kept.length < 20) kept.push(line);
      },
      get summary() {
        return { count, first: kept };
      },
    };
  }

  it(`answers ${RUNS} arbitrary calls with no server error, every refusal with a readable message`, { timeout: 60_000 + RUNS * 100 }, async () => {
    const statuses = new Map<number, number>();
    const faults = faultLog();
    await fc.assert(fc.asyncProperty(calls(), async (request) => {
      const { status, body } = await send(request);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const why = fault(status, body);
      if (why) faults.add(`${why}: ${request.path} ${JSON.stringify(request.input)?.slice(0, 200)} → ${status} ${body.slice(0, 200)}`);
    }), { seed: SEED, numRuns: RUNS });
    expect(faults.summary).toEqual({ count: 0, first: [] });
    // The run reached past validation: some calls succeeded (one in twenty at least: most of the
    // procedures take ids that must name something the caller may see), some were refused.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 20);
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
  });

  it(`answers ${BATCH_RUNS} arbitrary batches: up to ${MAX_BATCH_CALLS} calls with no server error, more with a 400 naming the limit`, { timeout: 60_000 + BATCH_RUNS * 1_000 }, async () => {
    const queries = PROCEDURES.filter((p) => p.type === 'query');
    const pool = plausiblePool();
    const batches = fc.array(fc.constantFrom(...queries).chain((p) => inputFor(p.input, pool).map((input) => ({ path: p.path, input }))), { minLength: 1, maxLength: MAX_BATCH_CALLS + 5 });
    const faults = faultLog();
    await fc.assert(fc.asyncProperty(batches, async (calls) => {
      const inputs = Object.fromEntries(calls.map((c, i) => [i, c.input]));
      const res = await fetch(`${b.server.url}/trpc/${calls.map((c) => c.path).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`, { headers: { authorization: `Bearer ${token}` } });
      const body = await res.text();
      const context = `${calls.length} calls (${calls.map((c) => c.path).join(',').slice(0, 200)}) → ${res.status} ${body.slice(0, 200)}`;
      if (calls.length > MAX_BATCH_CALLS) {
        if (res.status !== 400 || !body.includes(`at most ${MAX_BATCH_CALLS} calls`)) faults.add(`over-long batch not refused: ${context}`);
        return;
      }
      // A URL past the cap is refused whole; otherwise each call of the batch has its own answer.
      if (res.status === 414) return;
      if (res.status >= 500) faults.add(`server error: ${context}`);
      const answers = JSON.parse(body) as Array<{ error?: { message?: unknown; data?: { httpStatus?: number } } }>;
      for (const answer of Array.isArray(answers) ? answers : [answers]) {
        const message = answer.error?.message;
        if ((answer.error?.data?.httpStatus ?? 0) >= 500) faults.add(`server error in a batch: ${context}`);
        else if (answer.error && (typeof message !== 'string' || message.trim() === '')) faults.add(`refusal without a message in a batch: ${context}`);
      }
    }), { seed: SEED, numRuns: BATCH_RUNS });
    expect(faults.summary).toEqual({ count: 0, first: [] });
  });
});
