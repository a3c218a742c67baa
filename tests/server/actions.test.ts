import { randomUUID } from 'node:crypto';
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoWeekRange } from '../../src/shared/dates.js';
import { formatPoints } from '../../src/shared/money.js';
import { type Db, openDatabase, queryRows } from '../../src/server/db/client.js';
import type { Caller, ServiceDeps } from '../../src/server/services/caller.js';
import { resolveSession } from '../../src/server/services/auth.js';
import { recordMovements } from '../../src/server/services/ledger.js';
import { settlePlayer } from '../../src/server/services/settlements.js';
import type { AppRouter } from '../../src/server/trpc/router.js';
import { BOOK_NOW, ENGINES, type TestBackend, accountId, databaseFingerprint, startTestBackend } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;

/** A fresh idempotency key, as a client would make one. */
const newKey = () => `test-${randomUUID()}`;

/** The error a call ends with (or a failure of the test if it succeeds). */
async function failure(call: Promise<unknown>): Promise<{ data: { code: string }; message: string }> {
  const outcome = await call.then(() => null, (e: unknown) => e);
  if (outcome === null) throw new Error('the call succeeded; it should have been refused');
  return outcome as { data: { code: string }; message: string };
}

describe.each(ENGINES)('limits and settlements on %s', (engine) => {
  let b: TestBackend;
  let priya: Client;
  let admin: Client;
  let arjun: Client;
  let priyaToken: string;
  const ids: Record<string, string> = {};

  const users = ['priya', 'arjun', 'vikram', 'admin', 'meera', 'anita', 'karan', 'sneha', 'neha', 'gunjan.wadhwa', 'override', 'tanvi.chandok', 'imran',
    'rahul.sharma2', 'farhan', 'irfan', 'zoe', 'deepak', 'sam', 'lakshmi', 'rahul.sharman', 'rahul.sharma', 'rahul.verma', 'suresh', 'ishaan',
    'vivek', 'vallari.grover', 'pooja', 'sakshi.jhaveri', 'shaurya.bakshi', 'rahul.khanna', 'nandini.mirchandani'];

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priyaToken = await b.login('priya');
    priya = b.client(priyaToken);
    admin = b.client(await b.login('admin'));
    arjun = b.client(await b.login('arjun'));
    for (const u of users) ids[u] = await accountId(b, u);
  });
  afterAll(async () => b?.close());

  const one = async <T extends object>(query: ReturnType<typeof sql>) => (await queryRows<T>(b.deps.db, query))[0]!;
  const count = async (query: ReturnType<typeof sql>) => Number((await one<{ n: string | number }>(query)).n);
  const takeOf = async (child: string) => Number((await one<{ take: string }>(sql`select take from balances where child_id = ${child}`)).take);
  const ledgerTake = async (child: string) => Number((await one<{ s: string | null }>(sql`
    select coalesce(sum(l.amount), 0) as s from ledger l join accounts a on a.id = ${child}
    where l.account_id = a.parent_id and l.counterparty_id = a.id`)).s);
  const limitsRow = async (player: string) => one<{ credit_limit: string; per_click_win: string; aggregate_daily_win: string; min_stake: string }>(sql`
    select a.credit_limit, pl.per_click_win, pl.aggregate_daily_win, pl.min_stake from accounts a join player_limits pl on pl.account_id = a.id where a.id = ${player}`);
  /** Every cell of accounts and player_limits, to see which changed. */
  const limitCells = async () => {
    const rows = await queryRows<Record<string, unknown>>(b.deps.db, sql`
      select a.id, a.credit_limit, pl.per_click_win, pl.aggregate_daily_win, pl.min_stake from accounts a left join player_limits pl on pl.account_id = a.id`);
    const cells = new Map<string, string>();
    for (const r of rows) for (const [k, v] of Object.entries(r)) if (k !== 'id') cells.set(`${r.id as string}.${k}`, String(v));
    return cells;
  };
  const auditRows = async (key: string) => queryRows<{ id: number; actor_id: string; action: string; target_id: string; before: unknown; after: unknown; request_id: string | null }>(
    b.deps.db, sql`select id::integer as id, actor_id, action, target_id, before, after, request_id from audit_log where idempotency_key = ${key}`);

  /** The two postings of a settlement, its row and the pair's take, checked against each other. */
  async function expectSettlementWritten(settlementId: string, child: string, signed: number, takeBefore: number, takeAfter: number) {
    const postings = await queryRows<{ entry_id: string; kind: string; account_id: string; counterparty_id: string; amount: string; occurred_at: Date | string }>(b.deps.db, sql`
      select entry_id, kind, account_id, counterparty_id, amount, occurred_at from ledger where settlement_id = ${settlementId} order by amount`);
    expect(postings).toHaveLength(2);
    expect(new Set(postings.map((p) => p.entry_id)).size).toBe(1);
    expect(postings.every((p) => p.kind === 'settlement')).toBe(true);
    expect(postings.reduce((s, p) => s + Number(p.amount), 0)).toBe(0);
    const parentPosting = postings.find((p) => p.counterparty_id === child)!;
    // The child paying moves what it owes down: the parent's posting is minus what was paid.
    expect(Number(parentPosting.amount)).toBe(-signed);
    const row = await one<{ child_id: string; parent_id: string; amount: string; take_before: string; take_after: string }>(sql`
      select child_id, parent_id, amount, take_before, take_after from settlements where id = ${settlementId}`);
    expect(row.child_id).toBe(child);
    expect(row.parent_id).toBe(parentPosting.account_id);
    expect(Number(row.amount)).toBe(signed);
    expect([Number(row.take_before), Number(row.take_after)]).toEqual([takeBefore, takeAfter]);
    expect(await takeOf(child)).toBe(takeAfter);
    expect(await ledgerTake(child)).toBe(takeAfter);
  }

  // ── limits ─────────────────────────────────────────────────────────────────────────────────
  describe('limits', () => {
    const guardrails: Array<[string, 'creditLimit' | 'perClickWin' | 'aggregateDailyWin' | 'minStake', number, string]> = [
      ['a credit limit of 1 trillion points', 'creditLimit', 100_000_000_000_000, '1,000,000,000,000.00 is above the platform maximum of 10,000,000.00'],
      ['a credit limit above priya\'s own', 'creditLimit', 250_000_000, '2,500,000.00 is above your own credit limit of 2,000,000.00'],
      ['a minimum stake under 1 point', 'minStake', 99, '0.99 is below the smallest minimum stake of 1.00'],
      ['a minimum stake above the per-click win', 'minStake', 3_750_001, '37,500.01 is above the per-click win limit of 37,500.00: the minimum stake may not exceed it'],
      ['a per-click win below the minimum stake', 'perClickWin', 9_999, '99.99 is below the minimum stake of 100.00: the per-click win limit must be at least that'],
      ['a per-click win of zero', 'perClickWin', 0, '0.00 is below the minimum stake of 100.00: the per-click win limit must be at least that'],
    ];
    it.each(guardrails)('refuses %s, with the reason, in the preview and the write, and changes nothing', async (_what, limitType, newValue, reason) => {
      expect(await limitsRow(ids.anita!)).toMatchObject({ per_click_win: expect.anything() });
      const before = await databaseFingerprint(b);
      const preview = await priya.limits.preview.query({ playerId: ids.anita!, limitType, newValue });
      expect(preview).toMatchObject({ playerId: ids.anita, playerName: 'Anita Desai', limitType, after: newValue, refusal: reason });
      const error = await failure(priya.limits.edit.mutate({ playerId: ids.anita!, limitType, newValue, idempotencyKey: newKey(), expectedBefore: preview.before }));
      expect(error).toMatchObject({ data: { code: 'UNPROCESSABLE_CONTENT' }, message: reason });
      expect(await databaseFingerprint(b)).toBe(before);
    });

    it('refuses a negative value as bad input, changing nothing', async () => {
      const before = await databaseFingerprint(b);
      const error = await failure(priya.limits.edit.mutate({ playerId: ids.anita!, limitType: 'aggregateDailyWin', newValue: -1, idempotencyKey: newKey() }));
      expect(error).toMatchObject({ data: { code: 'BAD_REQUEST' }, message: expect.stringMatching(/newValue/) });
      await expect(priya.limits.preview.query({ playerId: ids.anita!, limitType: 'creditLimit', newValue: 1.5 })).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
      expect(await databaseFingerprint(b)).toBe(before);
    });

    it('allows zero where a limit may be zero (a blocked player)', async () => {
      const preview = await priya.limits.preview.query({ playerId: ids.anita!, limitType: 'aggregateDailyWin', newValue: 0 });
      expect(preview.refusal).toBeNull();
      const zeroCl = await priya.limits.preview.query({ playerId: ids.anita!, limitType: 'creditLimit', newValue: 0 });
      expect(zeroCl.refusal).toBeNull();
    });

    it('refuses priya editing imran, a player of her sub-agent arjun; arjun may', async () => {
      const before = await databaseFingerprint(b);
      const preview = await priya.limits.preview.query({ playerId: ids.imran!, limitType: 'creditLimit', newValue: 100_000 });
      expect(preview.refusal).toBe("Imran Qureshi is Arjun Mehta's player, not yours: only a player's own agent can change their limits");
      const error = await failure(priya.limits.edit.mutate({ playerId: ids.imran!, limitType: 'creditLimit', newValue: 100_000, idempotencyKey: newKey() }));
      expect(error).toMatchObject({ data: { code: 'FORBIDDEN' }, message: preview.refusal });
      expect(await databaseFingerprint(b)).toBe(before);
      expect((await arjun.limits.preview.query({ playerId: ids.imran!, limitType: 'creditLimit', newValue: 100_000 })).refusal).toBeNull();
    });

    it('refuses limits on an agent, for agents and the admin alike', async () => {
      const before = await databaseFingerprint(b);
      for (const client of [priya, admin]) {
        const preview = await client.limits.preview.query({ playerId: ids.arjun!, limitType: 'creditLimit', newValue: 100_000 });
        expect(preview.refusal).toBe('Arjun Mehta is an agent, not a player: limits are set per player');
        await expect(client.limits.edit.mutate({ playerId: ids.arjun!, limitType: 'creditLimit', newValue: 100_000, idempotencyKey: newKey() }))
          .rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
      }
      expect(await databaseFingerprint(b)).toBe(before);
    });

    it('answers NOT_FOUND for another tree\'s player exactly as for a missing id, in the preview and the write', async () => {
      const before = await databaseFingerprint(b);
      for (const call of [
        (id: string) => priya.limits.preview.query({ playerId: id, limitType: 'creditLimit', newValue: 100 }),
        (id: string) => priya.limits.edit.mutate({ playerId: id, limitType: 'creditLimit', newValue: 100, idempotencyKey: newKey() }),
        (id: string) => arjun.limits.edit.mutate({ playerId: id === ids['rahul.sharma2'] ? ids.anita! : id, limitType: 'creditLimit', newValue: 100, idempotencyKey: newKey() }),
      ]) {
        const other = await failure(call(ids['rahul.sharma2']!));
        const missing = await failure(call(randomUUID()));
        expect(other).toMatchObject({ data: { code: 'NOT_FOUND' }, message: 'player not found' });
        expect(missing).toMatchObject({ data: { code: 'NOT_FOUND' }, message: other.message });
      }
      expect(await databaseFingerprint(b)).toBe(before);
    });

    it('lets the admin set any player\'s credit limit up to the platform maximum, whatever the admin\'s own', async () => {
      const result = await admin.limits.edit.mutate({ playerId: ids.farhan!, limitType: 'creditLimit', newValue: 1_000_000_000, idempotencyKey: newKey() });
      expect(result).toMatchObject({ before: 4_000_000, after: 1_000_000_000, replayed: false });
      expect(Number((await limitsRow(ids.farhan!)).credit_limit)).toBe(1_000_000_000);
      const over = await admin.limits.preview.query({ playerId: ids.farhan!, limitType: 'creditLimit', newValue: 1_000_000_001 });
      expect(over.refusal).toBe('10,000,000.01 is above the platform maximum of 10,000,000.00');
    });

    it.each([
      ['creditLimit', 'credit_limit', 3_500_000],
      ['perClickWin', 'per_click_win', 1_800_000],
      ['aggregateDailyWin', 'aggregate_daily_win', 0],
      ['minStake', 'min_stake', 20_000],
    ] as const)('edits %s: exactly that one cell changes, with its audit row', async (limitType, column, newValue) => {
      const cells = await limitCells();
      const key = newKey();
      const requestId = `req-${randomUUID()}`;
      const withRequestId = createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${b.server.url}/trpc`, headers: () => ({ authorization: `Bearer ${priyaToken}`, 'x-request-id': requestId }) })],
      });
      const before = Number((await limitsRow(ids.karan!))[column]);
      const result = await withRequestId.limits.edit.mutate({ playerId: ids.karan!, limitType, newValue, idempotencyKey: key, expectedBefore: before });
      expect(result).toMatchObject({ playerId: ids.karan, playerName: 'Karan Malhotra', limitType, before, after: newValue, replayed: false });
      const after = await limitCells();
      const changed = [...after].filter(([k, v]) => cells.get(k) !== v).map(([k]) => k);
      expect(changed).toEqual(before === newValue ? [] : [`${ids.karan}.${column}`]);
      expect(after.get(`${ids.karan}.${column}`)).toBe(String(newValue));
      expect(await auditRows(key)).toEqual([{
        id: result.auditId, actor_id: ids.priya, action: 'limits.edit', target_id: ids.karan,
        before: { limitType, value: before }, after: { limitType, value: newValue }, request_id: requestId,
      }]);
    });

    it('does what its preview showed', async () => {
      const preview = await priya.limits.preview.query({ playerId: ids.sneha!, limitType: 'perClickWin', newValue: 1_234_500 });
      expect(preview.refusal).toBeNull();
      const result = await priya.limits.edit.mutate({ playerId: ids.sneha!, limitType: 'perClickWin', newValue: 1_234_500, idempotencyKey: newKey(), expectedBefore: preview.before });
      const { refusal: _refusal, noOp: _noOp, ...shown } = preview;
      expect(result).toMatchObject(shown);
      expect(Number((await limitsRow(ids.sneha!)).per_click_win)).toBe(preview.after);
    });

    it('refuses a write whose preview is stale (PRECONDITION_FAILED), writing nothing', async () => {
      const preview = await priya.limits.preview.query({ playerId: ids.neha!, limitType: 'creditLimit', newValue: 5_000_000 });
      await priya.limits.edit.mutate({ playerId: ids.neha!, limitType: 'creditLimit', newValue: 4_800_000, idempotencyKey: newKey() });
      const before = await databaseFingerprint(b);
      const error = await failure(priya.limits.edit.mutate({ playerId: ids.neha!, limitType: 'creditLimit', newValue: 5_000_000, idempotencyKey: newKey(), expectedBefore: preview.before }));
      expect(error).toMatchObject({ data: { code: 'PRECONDITION_FAILED' }, message: 'the limit changed since the preview: it is now 48,000.00' });
      expect(await databaseFingerprint(b)).toBe(before);
    });

    it('replays a repeated key: the same answer, one write, one audit row', async () => {
      const key = newKey();
      const args = { playerId: ids['gunjan.wadhwa']!, limitType: 'creditLimit' as const, newValue: 900_000, idempotencyKey: key };
      const first = await priya.limits.edit.mutate(args);
      const afterFirst = await databaseFingerprint(b);
      const second = await priya.limits.edit.mutate(args);
      expect(first.replayed).toBe(false);
      expect(second).toEqual({ ...first, replayed: true });
      expect(await databaseFingerprint(b)).toBe(afterFirst);
      expect(await auditRows(key)).toHaveLength(1);
      // The same key with other parameters is refused, and moves nothing.
      const error = await failure(priya.limits.edit.mutate({ ...args, newValue: 950_000 }));
      expect(error).toMatchObject({ data: { code: 'CONFLICT' }, message: 'this idempotency key was used with other parameters' });
      expect(await databaseFingerprint(b)).toBe(afterFirst);
      // Keys are the caller's own: another user's same key is another key.
      const byAdmin = await admin.limits.edit.mutate({ ...args, newValue: 950_000 });
      expect(byAdmin).toMatchObject({ before: 900_000, after: 950_000, replayed: false });
    });

    it('writes once for a concurrent double call', async () => {
      const key = newKey();
      const args = { playerId: ids['gunjan.wadhwa']!, limitType: 'perClickWin' as const, newValue: 333_300, idempotencyKey: key };
      const results = await Promise.all([priya.limits.edit.mutate(args), priya.limits.edit.mutate(args)]);
      expect(results.map((r) => r.replayed).sort()).toEqual([false, true]);
      expect(results[0]!.auditId).toBe(results[1]!.auditId);
      expect(await auditRows(key)).toHaveLength(1);
    });

    it('does not spend a key on a refusal: the corrected call may reuse it', async () => {
      const key = newKey();
      const refused = await failure(priya.limits.edit.mutate({ playerId: ids.override!, limitType: 'minStake', newValue: 50, idempotencyKey: key }));
      expect(refused.data.code).toBe('UNPROCESSABLE_CONTENT');
      expect(await count(sql`select count(*) as n from idempotency_keys where key = ${key}`)).toBe(0);
      const ok = await priya.limits.edit.mutate({ playerId: ids.override!, limitType: 'minStake', newValue: 15_000, idempotencyKey: key });
      expect(ok).toMatchObject({ before: 10_000, after: 15_000, replayed: false });
    });

    it('keeps a key a day: an expired key may be used again, and long-expired keys are purged', async () => {
      const key = newKey();
      const args = { playerId: ids['tanvi.chandok']!, limitType: 'aggregateDailyWin' as const, idempotencyKey: key };
      await priya.limits.edit.mutate({ ...args, newValue: 2_000_000 });
      const stored = await one<{ created_at: Date | string; expires_at: Date | string }>(sql`select created_at, expires_at from idempotency_keys where key = ${key}`);
      expect(new Date(stored.expires_at).getTime() - new Date(stored.created_at).getTime()).toBe(24 * 3_600_000);
      // Retention runs on the wall clock: a day of business time alone (a demo restarted on
      // another data clock) neither frees the key nor purges it.
      const startNow = b.clock.now;
      const start = b.clock.real;
      try {
        b.clock.now = new Date(startNow.getTime() + 3 * 24 * 3_600_000);
        await expect(priya.limits.edit.mutate({ ...args, newValue: 2_100_000 })).rejects.toMatchObject({ data: { code: 'CONFLICT' } });
        expect(await count(sql`select count(*) as n from idempotency_keys where key = ${key}`)).toBe(1);
        b.clock.now = startNow;
        b.clock.real = new Date(start.getTime() + 25 * 3_600_000);
        const later = b.client(await b.login('priya'));
        const again = await later.limits.edit.mutate({ ...args, newValue: 2_100_000 });
        expect(again).toMatchObject({ before: 2_000_000, after: 2_100_000, replayed: false });
        // Two days after that expiry, any write purges it.
        b.clock.real = new Date(start.getTime() + (25 + 24 + 24 + 2) * 3_600_000);
        const muchLater = b.client(await b.login('priya'));
        expect(await count(sql`select count(*) as n from idempotency_keys where key = ${key}`)).toBe(1);
        await muchLater.limits.edit.mutate({ ...args, idempotencyKey: newKey(), newValue: 2_200_000 });
        expect(await count(sql`select count(*) as n from idempotency_keys where key = ${key}`)).toBe(0);
      } finally {
        b.clock.now = startNow;
        b.clock.real = start;
      }
    });
  });

  // ── settlements ────────────────────────────────────────────────────────────────────────────
  describe('settlements', () => {
    it('settles the whole take (auto, player pays): the preview\'s numbers, two balanced postings, the take at zero, in the history', async () => {
      const take = await takeOf(ids.irfan!);
      expect(take).toBeGreaterThan(0);
      const preview = await priya.settlements.preview.query({ playerId: ids.irfan!, mode: 'auto' });
      expect(preview).toEqual({
        playerId: ids.irfan, playerName: 'Mohammed Irfan', mode: 'auto', periodId: null,
        amount: take, takeBefore: take, takeAfter: 0, direction: 'player_pays', refusal: null,
      });
      const key = newKey();
      const result = await priya.settlements.settle.mutate({ playerId: ids.irfan!, mode: 'auto', idempotencyKey: key, expectedTakeBefore: preview.takeBefore });
      expect(result).toMatchObject({ playerId: ids.irfan, amount: take, takeBefore: take, takeAfter: preview.takeAfter, direction: 'player_pays', replayed: false });
      await expectSettlementWritten(result.settlementId, ids.irfan!, take, take, 0);
      const row = await one<{ mode: string; period_id: string | null; created_by: string; idempotency_key: string }>(sql`
        select mode, period_id, created_by, idempotency_key from settlements where id = ${result.settlementId}`);
      expect(row).toEqual({ mode: 'auto', period_id: null, created_by: ids.priya, idempotency_key: key });
      expect(await auditRows(key)).toEqual([expect.objectContaining({
        id: result.auditId, actor_id: ids.priya, action: 'settlements.settle', target_id: ids.irfan, before: { take },
      })]);
      const history = await priya.agent.getSettlementHistory.query({ counterpartyId: ids.irfan! });
      expect(history.rows[0]).toMatchObject({
        id: result.settlementId, childId: ids.irfan, parentId: ids.priya, amount: take, takeBefore: take, takeAfter: 0,
        mode: 'auto', periodId: null, createdByName: 'Priya Nair', createdAt: BOOK_NOW.toISOString(),
      });
      expect((await priya.agent.getTake.query({ playerId: ids.irfan! })).rows[0]).toMatchObject({ take: 0, direction: 'square' });
      // Nothing is left to settle now.
      const again = await priya.settlements.preview.query({ playerId: ids.irfan!, mode: 'auto' });
      expect(again).toMatchObject({ refusal: 'nothing is outstanding', amount: 0, takeBefore: 0, takeAfter: 0 });
      const before = await databaseFingerprint(b);
      await expect(priya.settlements.settle.mutate({ playerId: ids.irfan!, mode: 'auto', idempotencyKey: newKey() }))
        .rejects.toMatchObject({ data: { code: 'UNPROCESSABLE_CONTENT' }, message: 'nothing is outstanding' });
      expect(await databaseFingerprint(b)).toBe(before);
    });

    it('settles the whole take the other way (auto, the agent pays)', async () => {
      const take = await takeOf(ids.zoe!);
      expect(take).toBeLessThan(0);
      const preview = await priya.settlements.preview.query({ playerId: ids.zoe!, mode: 'auto' });
      expect(preview).toMatchObject({ amount: -take, takeBefore: take, takeAfter: 0, direction: 'agent_pays', refusal: null });
      const result = await priya.settlements.settle.mutate({ playerId: ids.zoe!, mode: 'auto', idempotencyKey: newKey(), expectedTakeBefore: take });
      expect(result).toMatchObject({ amount: -take, takeAfter: 0, direction: 'agent_pays' });
      await expectSettlementWritten(result.settlementId, ids.zoe!, take, take, 0);
    });

    it.each([
      ['deepak', 300_000, 'player_pays'],
      ['gunjan.wadhwa', 100_000, 'agent_pays'],
    ] as const)('settles part of %s\'s take (amount), in the direction of the take', async (user, amount, direction) => {
      const take = await takeOf(ids[user]!);
      expect(direction === 'player_pays' ? take > amount : -take > amount).toBe(true);
      const signed = Math.sign(take) * amount;
      const preview = await priya.settlements.preview.query({ playerId: ids[user]!, mode: 'amount', amount, periodId: '2026-W46' });
      expect(preview).toMatchObject({ mode: 'amount', periodId: '2026-W46', amount, takeBefore: take, takeAfter: take - signed, direction, refusal: null });
      const result = await priya.settlements.settle.mutate({ playerId: ids[user]!, mode: 'amount', amount, periodId: '2026-W46', idempotencyKey: newKey(), expectedTakeBefore: take });
      expect(result).toMatchObject({ amount, takeBefore: take, takeAfter: preview.takeAfter, direction });
      await expectSettlementWritten(result.settlementId, ids[user]!, signed, take, take - signed);
      const history = await priya.agent.getSettlementHistory.query({ counterpartyId: ids[user]! });
      expect(history.rows[0]).toMatchObject({ id: result.settlementId, amount: signed, mode: 'amount', periodId: '2026-W46' });
    });

    it('refuses more than is outstanding, with the reason, changing nothing', async () => {
      // Deepak owes priya in the test book and no other test here moves his take.
      const take = await takeOf(ids.deepak!);
      expect(take).toBeGreaterThan(0);
      const tooMuch = take + 3_000;
      const before = await databaseFingerprint(b);
      const preview = await priya.settlements.preview.query({ playerId: ids.deepak!, mode: 'amount', amount: tooMuch });
      expect(preview).toMatchObject({ refusal: `${formatPoints(tooMuch)} is more than the ${formatPoints(take)} outstanding`, takeBefore: take, takeAfter: take });
      const error = await failure(priya.settlements.settle.mutate({ playerId: ids.deepak!, mode: 'amount', amount: tooMuch, idempotencyKey: newKey() }));
      expect(error).toMatchObject({ data: { code: 'UNPROCESSABLE_CONTENT' }, message: preview.refusal });
      expect(await databaseFingerprint(b)).toBe(before);
      // Exactly the outstanding amount is fine.
      expect((await priya.settlements.preview.query({ playerId: ids.deepak!, mode: 'amount', amount: take })).refusal).toBeNull();
    });

    it('settles the direct downline only: a sub-agent\'s player is refused, another tree is NOT_FOUND', async () => {
      const before = await databaseFingerprint(b);
      const preview = await priya.settlements.preview.query({ playerId: ids.imran!, mode: 'auto' });
      expect(preview.refusal).toBe('Imran Qureshi settles with Arjun Mehta, not with you: only the direct upline settles an account');
      await expect(priya.settlements.settle.mutate({ playerId: ids.imran!, mode: 'auto', idempotencyKey: newKey() }))
        .rejects.toMatchObject({ data: { code: 'FORBIDDEN' }, message: preview.refusal });
      for (const call of [
        (id: string) => priya.settlements.preview.query({ playerId: id, mode: 'auto' }),
        (id: string) => priya.settlements.settle.mutate({ playerId: id, mode: 'auto', idempotencyKey: newKey() }),
      ]) {
        const other = await failure(call(ids.farhan!));
        const missing = await failure(call(randomUUID()));
        expect(other).toMatchObject({ data: { code: 'NOT_FOUND' }, message: 'player not found' });
        expect(missing.message).toBe(other.message);
      }
      // The own upline is no pair to settle from below.
      await expect(arjun.settlements.preview.query({ playerId: ids.priya!, mode: 'auto' })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
      expect(await databaseFingerprint(b)).toBe(before);
      // A sub-agent is direct downline: priya settles with arjun.
      const withArjun = await priya.settlements.preview.query({ playerId: ids.arjun!, mode: 'auto' });
      expect(withArjun).toMatchObject({ playerName: 'Arjun Mehta', takeBefore: await takeOf(ids.arjun!), takeAfter: 0, refusal: null });
    });

    it('lets the admin settle any pair, another tree\'s included', async () => {
      const take = await takeOf(ids.ishaan!);
      const amount = 50_000;
      const result = await admin.settlements.settle.mutate({ playerId: ids.ishaan!, mode: 'amount', amount, idempotencyKey: newKey(), expectedTakeBefore: take });
      const signed = Math.sign(take) * amount;
      await expectSettlementWritten(result.settlementId, ids.ishaan!, signed, take, take - signed);
      expect(await one(sql`select created_by from settlements where id = ${result.settlementId}`)).toEqual({ created_by: ids.admin });
      const meeraAgent = await admin.settlements.preview.query({ playerId: ids.meera!, mode: 'auto' });
      expect(meeraAgent.takeBefore).toBe(await takeOf(ids.meera!));
    });

    it('refuses a write whose preview is stale (PRECONDITION_FAILED), writing nothing', async () => {
      const preview = await priya.settlements.preview.query({ playerId: ids['rahul.sharman']!, mode: 'auto' });
      await priya.settlements.settle.mutate({ playerId: ids['rahul.sharman']!, mode: 'amount', amount: 100_000, idempotencyKey: newKey() });
      const now = await takeOf(ids['rahul.sharman']!);
      expect(now).toBe(preview.takeBefore - 100_000);
      const before = await databaseFingerprint(b);
      const error = await failure(priya.settlements.settle.mutate({ playerId: ids['rahul.sharman']!, mode: 'auto', idempotencyKey: newKey(), expectedTakeBefore: preview.takeBefore }));
      expect(error).toMatchObject({ data: { code: 'PRECONDITION_FAILED', httpStatus: 412 }, message: `the take changed since the preview: it is now ${formatPoints(now)}` });
      expect(await databaseFingerprint(b)).toBe(before);
    });

    it('replays a repeated key: the same answer, one settlement, two postings, one audit row', async () => {
      const key = newKey();
      const args = { playerId: ids['rahul.sharma']!, mode: 'amount' as const, amount: 100_000, idempotencyKey: key };
      const take = await takeOf(ids['rahul.sharma']!);
      const first = await priya.settlements.settle.mutate(args);
      const afterFirst = await databaseFingerprint(b);
      const second = await priya.settlements.settle.mutate(args);
      expect(first.replayed).toBe(false);
      expect(second).toEqual({ ...first, replayed: true });
      expect(await databaseFingerprint(b)).toBe(afterFirst);
      expect(await count(sql`select count(*) as n from settlements where idempotency_key = ${key}`)).toBe(1);
      expect(await count(sql`select count(*) as n from ledger where settlement_id = ${first.settlementId}`)).toBe(2);
      expect(await auditRows(key)).toHaveLength(1);
      // A settlement moves the take towards nil, whichever side owes.
      expect(await takeOf(ids['rahul.sharma']!)).toBe(take > 0 ? take - 100_000 : take + 100_000);
      // The same key with another amount: CONFLICT, and nothing moves.
      const error = await failure(priya.settlements.settle.mutate({ ...args, amount: 100_001 }));
      expect(error).toMatchObject({ data: { code: 'CONFLICT', httpStatus: 409 }, message: 'this idempotency key was used with other parameters' });
      expect(await databaseFingerprint(b)).toBe(afterFirst);
    });

    it('writes once for a concurrent double call', async () => {
      const key = newKey();
      const take = await takeOf(ids['rahul.verma']!);
      const args = { playerId: ids['rahul.verma']!, mode: 'auto' as const, idempotencyKey: key, expectedTakeBefore: take };
      const results = await Promise.all([priya.settlements.settle.mutate(args), priya.settlements.settle.mutate(args), priya.settlements.settle.mutate(args)]);
      expect(results.map((r) => r.replayed).sort()).toEqual([false, true, true]);
      expect(new Set(results.map((r) => r.settlementId)).size).toBe(1);
      expect(await count(sql`select count(*) as n from settlements where idempotency_key = ${key}`)).toBe(1);
      expect(await auditRows(key)).toHaveLength(1);
      await expectSettlementWritten(results[0]!.settlementId, ids['rahul.verma']!, take, take, 0);
    });

    it('survives a reply lost after the commit: the retry replays and moves nothing', async () => {
      const key = newKey();
      const take = await takeOf(ids.suresh!);
      const args = { playerId: ids.suresh!, mode: 'auto' as const, idempotencyKey: key, expectedTakeBefore: take };
      // The first call commits; its answer is dropped on the way back (as by a crash or a cut line).
      await priya.settlements.settle.mutate(args).then(() => undefined);
      // The desk restarts and signs in again (a session row: not a move of money).
      const restarted = b.client(await b.login('priya'));
      const committed = await databaseFingerprint(b);
      // It retries with the same key and the take it previewed, which no longer holds:
      // the stored answer comes back instead of PRECONDITION_FAILED, and nothing moves.
      const retry = await restarted.settlements.settle.mutate(args);
      expect(retry).toMatchObject({ replayed: true, takeBefore: take, takeAfter: 0, amount: Math.abs(take) });
      expect(await databaseFingerprint(b)).toBe(committed);
      expect(await takeOf(ids.suresh!)).toBe(0);
    });

    it('settles a past ISO week: its take then, less what was settled since; never twice, never an unfinished week', async () => {
      const sam = ids.sam!;
      const priyaId = ids.priya!;
      // Square sam up now (in 2026-W47), then give him a known history over the next weeks.
      if ((await takeOf(sam)) !== 0) await priya.settlements.settle.mutate({ playerId: sam, mode: 'auto', idempotencyKey: newKey() });
      const at = (iso: string) => new Date(iso);
      const move = (amount: number, when: string) => b.deps.db.transaction(async (tx) =>
        recordMovements(tx as unknown as Db, [{ kind: 'adjustment', childId: sam, parentId: priyaId, amount }], at(when)));
      await move(50_000, '2026-11-25T12:00:00+05:30'); // 2026-W48: sam owes 500.00
      await move(30_000, '2026-12-02T12:00:00+05:30'); // 2026-W49: 800.00
      expect(isoWeekRange('2026-W48')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
      const start = b.clock.now;
      try {
        b.clock.now = at('2026-12-09T12:00:00+05:30'); // a Wednesday of 2026-W50
        const later = b.client(await b.login('priya'));
        const w48 = await later.settlements.preview.query({ playerId: sam, mode: 'auto', periodId: '2026-W48' });
        expect(w48).toMatchObject({ periodId: '2026-W48', amount: 50_000, takeBefore: 80_000, takeAfter: 30_000, direction: 'player_pays', refusal: null });
        const unfinished = await later.settlements.preview.query({ playerId: sam, mode: 'auto', periodId: '2026-W50' });
        expect(unfinished.refusal).toBe('2026-W50 has not ended yet (it ends on 2026-12-13): settle the whole take or an amount instead');
        const done = await later.settlements.settle.mutate({ playerId: sam, mode: 'auto', periodId: '2026-W48', idempotencyKey: newKey(), expectedTakeBefore: 80_000 });
        expect(done).toMatchObject({ amount: 50_000, takeAfter: w48.takeAfter });
        expect(await one(sql`select period_id, mode from settlements where id = ${done.settlementId}`)).toEqual({ period_id: '2026-W48', mode: 'auto' });
        // Settling the same week again finds nothing left of it.
        expect((await later.settlements.preview.query({ playerId: sam, mode: 'auto', periodId: '2026-W48' })).refusal).toBe('nothing is outstanding for 2026-W48');
        // 2026-W49 ended at 800.00 owed, 500.00 of which has been paid since.
        expect(await later.settlements.preview.query({ playerId: sam, mode: 'auto', periodId: '2026-W49' })).toMatchObject({ amount: 30_000, takeAfter: 0, refusal: null });
        // Sam wins 200.00 this week: the week's 300.00 is more than he owes now.
        await move(-20_000, '2026-12-08T12:00:00+05:30');
        const more = await later.settlements.preview.query({ playerId: sam, mode: 'auto', periodId: '2026-W49' });
        expect(more.refusal).toBe('300.00 is left of what Sam O\'Brien owed at the end of 2026-W49, more than the 100.00 outstanding now: settle the whole take or an amount instead');
        await expect(later.settlements.preview.query({ playerId: sam, mode: 'auto', periodId: '2026-W60' })).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' }, message: expect.stringMatching(/must be an ISO week[\s\S]*periodId/) });
      } finally {
        b.clock.now = start;
      }
    });

    it('refuses malformed settlement input as BAD_REQUEST, changing nothing', async () => {
      const before = await databaseFingerprint(b);
      const bad = [
        { playerId: ids.neha!, mode: 'amount', idempotencyKey: newKey() },
        { playerId: ids.neha!, mode: 'auto', amount: 100, idempotencyKey: newKey() },
        { playerId: ids.neha!, mode: 'amount', amount: 0, idempotencyKey: newKey() },
        { playerId: ids.neha!, mode: 'auto', periodId: 'last week', idempotencyKey: newKey() },
        { playerId: ids.neha!, mode: 'auto', idempotencyKey: 'short' },
        { playerId: ids.neha!, mode: 'auto' },
        { playerId: ids.neha!, mode: 'auto', idempotencyKey: newKey(), force: true },
      ];
      for (const input of bad) {
        await expect(priya.settlements.settle.mutate(input as never)).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
      }
      expect(await databaseFingerprint(b)).toBe(before);
    });

    it('keeps the ledger balanced and every take equal to its ledger sum after all of it', async () => {
      const [totals] = await queryRows<{ s: string | null; unbalanced: string; drifted: string }>(b.deps.db, sql`
        select (select sum(amount) from ledger) as s,
          (select count(*) from (select entry_id from ledger group by entry_id having sum(amount) <> 0) u) as unbalanced,
          (select count(*) from balances bal where bal.take <> coalesce((select sum(l.amount) from ledger l where l.account_id = bal.parent_id and l.counterparty_id = bal.child_id), 0)) as drifted`);
      expect(Number(totals!.s)).toBe(0);
      expect(Number(totals!.unbalanced)).toBe(0);
      expect(Number(totals!.drifted)).toBe(0);
    });
  });

  // ── PostgreSQL: real concurrency, two connections in flight at once ─────────────────────────
  describe.runIf(engine === 'postgres')('concurrency on PostgreSQL', () => {
    let blocker: pg.Client;
    let blockerPid: number;
    let second: Awaited<ReturnType<typeof openDatabase>>;
    let secondDeps: ServiceDeps;
    let arjunCaller: Caller;

    beforeAll(async () => {
      blocker = new pg.Client({ connectionString: b.databaseUrl });
      await blocker.connect();
      blockerPid = (await blocker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      // A second backend instance on the same database, as behind a load balancer.
      second = await openDatabase({ engine: 'postgres', url: b.databaseUrl! });
      secondDeps = { db: second.db, now: () => new Date(b.clock.now), realNow: () => new Date(b.clock.real) };
      arjunCaller = await resolveSession(b.deps, await b.login('arjun'));
    });
    afterAll(async () => {
      await blocker?.end();
      await second?.close();
    });

    /** Holds the pair's balance row locked while `calls` start, until all of them are waiting on a lock. */
    async function raceBehindLock<T>(child: string, calls: () => Array<Promise<T>>, waiting: number): Promise<Array<PromiseSettledResult<T>>> {
      await blocker.query('begin');
      await blocker.query('select take from balances where child_id = $1 for update', [child]);
      const inFlight = calls();
      try {
        const deadline = Date.now() + 15_000;
        for (;;) {
          // Waiting on the blocker, or on a call that waits on it.
          const { rows } = await blocker.query<{ n: string }>(`
            with w as (select pid, pg_blocking_pids(pid) as by from pg_stat_activity where wait_event_type = 'Lock')
            select count(*) as n from w where $1 = any(w.by) or exists (select 1 from w w2 where w2.pid = any(w.by) and $1 = any(w2.by))`, [blockerPid]);
          if (Number(rows[0]!.n) >= waiting) break;
          if (Date.now() > deadline) throw new Error(`only ${rows[0]!.n} of ${waiting} calls reached the lock`);
          await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        await blocker.query('commit');
      }
      return Promise.allSettled(inFlight);
    }

    it('two instances racing the same key, both in flight at once: one write, one replay', async () => {
      const key = newKey();
      const child = ids.vivek!;
      const take = await takeOf(child);
      const input = { playerId: child, mode: 'auto' as const, idempotencyKey: key, expectedTakeBefore: take };
      const settled = await raceBehindLock(child, () => [
        arjun.settlements.settle.mutate(input),
        settlePlayer(secondDeps, arjunCaller, input, { requestId: 'second-instance' }),
      ], 2);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
      const results = settled.map((s) => (s as PromiseFulfilledResult<{ settlementId: string; replayed: boolean }>).value);
      expect(results.map((r) => r.replayed).sort()).toEqual([false, true]);
      expect(results[0]!.settlementId).toBe(results[1]!.settlementId);
      expect(await count(sql`select count(*) as n from settlements where idempotency_key = ${key}`)).toBe(1);
      expect(await auditRows(key)).toHaveLength(1);
      await expectSettlementWritten(results[0]!.settlementId, child, take, take, 0);
    });

    it('two keys racing one pair with the previewed take: one settles, the other is PRECONDITION_FAILED', async () => {
      const child = ids.pooja!;
      const take = await takeOf(child);
      expect(take).toBeGreaterThan(0);
      const input = (idempotencyKey: string) => ({ playerId: child, mode: 'auto' as const, idempotencyKey, expectedTakeBefore: take });
      const settled = await raceBehindLock(child, () => [
        arjun.settlements.settle.mutate(input(newKey())),
        settlePlayer(secondDeps, arjunCaller, input(newKey()), { requestId: 'second-instance' }),
      ], 2);
      const ok = settled.filter((s) => s.status === 'fulfilled');
      const refused = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason as { code?: string; data?: { code: string } });
      expect(ok).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.data?.code ?? refused[0]!.code).toBe('PRECONDITION_FAILED');
      expect(await count(sql`select count(*) as n from settlements where child_id = ${child} and created_at = ${b.clock.now.toISOString()}::timestamptz`)).toBe(1);
      expect(await takeOf(child)).toBe(0);
      expect(await ledgerTake(child)).toBe(0);
    });

    it('two limit edits racing one key from two instances: one write', async () => {
      const key = newKey();
      const input = { playerId: ids['vallari.grover']!, limitType: 'creditLimit' as const, newValue: 700_000, idempotencyKey: key };
      const [x, y] = await Promise.all([arjun.limits.edit.mutate(input), arjun.limits.edit.mutate(input)]);
      expect([x.replayed, y.replayed].sort()).toEqual([false, true]);
      expect(await auditRows(key)).toHaveLength(1);
    });
  });
});
