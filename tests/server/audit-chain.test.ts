import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.js';
import { AUDIT_GENESIS, anchorHash } from '../../src/server/services/audit.js';
import { PAGE_SIZE_MAX } from '../../src/shared/contracts/page-size.js';
import { ENGINES, type TestBackend, accountId, databaseFingerprint, startTestBackend } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;

const newKey = () => `test-${randomUUID()}`;

/**
 * The backend's audit chain: each audited change (a limit edit, a settlement) appends a link to
 * its actor's chain in the change's own transaction, computed from what the change wrote; no
 * client input can write or move it.
 */
describe.each(ENGINES)('the backend audit chain on %s', (engine) => {
  let b: TestBackend;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    b = await startTestBackend(engine);
    for (const u of ['priya', 'arjun', 'meera', 'vikram', 'karan', 'anita', 'sneha', 'irfan', 'deepak', 'lakshmi', 'suresh', 'imran']) ids[u] = await accountId(b, u);
  });
  afterAll(async () => b?.close());

  /** Bearer tokens of the clients actor() made, for the raw HTTP calls. */
  const tokens = new WeakMap<Client, string>();
  async function actor(username: string): Promise<Client> {
    const token = await b.login(username);
    const client = b.client(token);
    tokens.set(client, token);
    return client;
  }

  async function chainRows(actorId: string) {
    return queryRows<{ seq: number; prev_hash: string; hash: string; action: string; target_id: string; request_id: string; idempotency_key: string; before: unknown; after: unknown; created_at: Date | string }>(
      b.deps.db, sql`select seq, prev_hash, hash, action, target_id, request_id, idempotency_key, before, after, created_at
        from audit_log where actor_id = ${actorId} and seq is not null order by seq`);
  }
  const creditLimitOf = async (player: string) => Number((await queryRows<{ c: string }>(b.deps.db, sql`select credit_limit as c from accounts where id = ${player}`))[0]!.c);

  it('links every change of an actor, from what the change wrote, and hands the link back with the answer', async () => {
    const meera = await actor('meera');
    const players = (await meera.agent.getCreditLimit.query({})).rows.filter((r) => r.role === 'player').slice(0, 2);
    expect(players.length).toBe(2);
    b.clock.real = new Date('2026-11-23T10:15:30.123Z');
    const first = await meera.limits.edit.mutate({ playerId: players[0]!.accountId, limitType: 'creditLimit', newValue: players[0]!.creditLimit + 100, idempotencyKey: newKey() });
    const second = await meera.limits.edit.mutate({ playerId: players[1]!.accountId, limitType: 'creditLimit', newValue: players[1]!.creditLimit + 200, idempotencyKey: newKey() });
    expect(first.anchor).toMatchObject({ seq: 1 });
    expect(second.anchor).toMatchObject({ seq: 2 });

    const meeraId = await accountId(b, 'meera');
    const rows = await chainRows(meeraId);
    expect(rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(rows[0]!.prev_hash).toBe(AUDIT_GENESIS);
    expect(rows[1]!.prev_hash).toBe(rows[0]!.hash);
    // The book's business clock dates the record, as every time the desk shows, whatever the wall clock says.
    expect(new Date(rows[0]!.created_at).toISOString()).toBe(b.clock.now.toISOString());
    expect(b.clock.now.toISOString()).not.toBe('2026-11-23T10:15:30.123Z');

    const { anchors, next, head } = await meera.audit.anchors.query({});
    expect(next).toBeNull();
    expect(head).toEqual(second.anchor);
    expect(anchors.map(({ seq, hash }) => ({ seq, hash }))).toEqual([first.anchor, second.anchor]);
    for (const a of anchors) {
      const { hash, ...rest } = a;
      expect(anchorHash(meeraId, rest)).toBe(hash);
    }
    expect(anchors[1]).toMatchObject({
      action: 'limits.edit', targetId: players[1]!.accountId,
      before: { limitType: 'creditLimit', value: players[1]!.creditLimit }, after: { limitType: 'creditLimit', value: players[1]!.creditLimit + 200 },
    });
    // Paged: one at a time, then the end.
    const page1 = await meera.audit.anchors.query({ limit: 1 });
    expect(page1).toMatchObject({ anchors: [{ seq: 1 }], next: 1 });
    expect(await meera.audit.anchors.query({ afterSeq: 1, limit: 1 })).toMatchObject({ anchors: [{ seq: 2 }], next: null });
    // Each user reads only their own chain.
    const vikram = await actor('vikram');
    expect((await vikram.audit.anchors.query({})).anchors.every((a) => a.seq >= 1 && !rows.some((r) => r.hash === a.hash))).toBe(true);
    await expect(b.client().audit.anchors.query({})).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('writes the link in the change\'s transaction: a refused or stale change leaves none; a replay hands back the same one', async () => {
    const priya = await actor('priya');
    const key = newKey();
    const before = await creditLimitOf(ids.anita!);
    const headBefore = (await priya.audit.anchors.query({})).head;
    const fingerprint = await databaseFingerprint(b);
    // Refused by the guardrails, and stale against its preview: both roll back, link and all.
    await expect(priya.limits.edit.mutate({ playerId: ids.anita!, limitType: 'creditLimit', newValue: 2_000_000_000, idempotencyKey: key })).rejects.toMatchObject({ data: { code: 'UNPROCESSABLE_CONTENT' } });
    await expect(priya.limits.edit.mutate({ playerId: ids.anita!, limitType: 'creditLimit', newValue: before + 1, idempotencyKey: key, expectedBefore: before - 1 })).rejects.toMatchObject({ data: { code: 'PRECONDITION_FAILED' } });
    await expect(priya.settlements.settle.mutate({ playerId: ids.irfan!, mode: 'amount', amount: 1_000_000_000_000, idempotencyKey: newKey() })).rejects.toMatchObject({ data: { code: 'UNPROCESSABLE_CONTENT' } });
    expect(await databaseFingerprint(b)).toBe(fingerprint);
    expect((await priya.audit.anchors.query({})).head).toEqual(headBefore);

    const done = await priya.limits.edit.mutate({ playerId: ids.anita!, limitType: 'creditLimit', newValue: before + 1, idempotencyKey: key, expectedBefore: before });
    const replay = await priya.limits.edit.mutate({ playerId: ids.anita!, limitType: 'creditLimit', newValue: before + 1, idempotencyKey: key, expectedBefore: before });
    expect(replay).toMatchObject({ replayed: true, anchor: done.anchor, auditId: done.auditId });
    expect(done.anchor!.seq).toBe((headBefore?.seq ?? 0) + 1);
    const rows = await chainRows(ids.priya!);
    expect(rows.filter((r) => r.idempotency_key === key)).toHaveLength(1);
    expect((await priya.audit.anchors.query({})).head).toEqual(done.anchor);

    // A settlement links the same way, its answer carrying the link.
    const take = (await priya.agent.getTake.query({ playerId: ids.deepak! })).rows[0]!.take;
    if (take !== 0) {
      const settled = await priya.settlements.settle.mutate({ playerId: ids.deepak!, mode: 'auto', idempotencyKey: newKey(), expectedTakeBefore: take });
      expect(settled.anchor.seq).toBe(done.anchor!.seq + 1);
      const row = (await chainRows(ids.priya!)).at(-1)!;
      expect(row).toMatchObject({ seq: settled.anchor.seq, hash: settled.anchor.hash, prev_hash: done.anchor!.hash, action: 'settlements.settle', before: { take } });
    }
  });

  it('a re-anchor attempt has no effect: the old recordHead is gone, and nothing a client sends moves the chain', async () => {
    const arjun = await actor('arjun');
    const player = (await arjun.agent.getCreditLimit.query({})).rows.find((r) => r.role === 'player')!;
    const done = await arjun.limits.edit.mutate({ playerId: player.accountId, limitType: 'creditLimit', newValue: player.creditLimit + 1, idempotencyKey: newKey() });
    const before = await arjun.audit.anchors.query({});
    const fingerprint = await databaseFingerprint(b);
    const forged = { seq: 2_147_483_647, hash: 'f'.repeat(64) };
    const authorization = `Bearer ${tokens.get(arjun)!}`;
    // The procedures a desk once re-anchored with are gone: NOT_FOUND, by POST or GET.
    for (const path of ['audit.recordHead', 'audit.head']) {
      const posted = await fetch(`${b.server.url}/trpc/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(forged) });
      expect(posted.status).toBe(404);
      const got = await fetch(`${b.server.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(forged))}`, { headers: { authorization } });
      expect(got.status).toBe(404);
    }
    // The read is a read: it takes no hash, and a write to it is refused.
    expect((await fetch(`${b.server.url}/trpc/audit.anchors`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(forged) })).ok).toBe(false);
    await expect(arjun.audit.anchors.query(forged as never)).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    // Whatever a client puts in a write's input, the link is the backend's own.
    await expect(arjun.limits.edit.mutate({
      playerId: player.accountId, limitType: 'creditLimit', newValue: player.creditLimit + 2, idempotencyKey: newKey(), anchor: forged,
    } as never)).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    expect(await databaseFingerprint(b)).toBe(fingerprint);
    expect(await arjun.audit.anchors.query({})).toEqual(before);
    expect(before.head).toEqual(done.anchor);
  });

  it('refuses out-of-range input as BAD_REQUEST, and keeps answering', async () => {
    const priya = await actor('priya');
    for (const input of [
      { afterSeq: 2_147_483_648 }, { afterSeq: -1 }, { afterSeq: 1.5 }, { limit: 0 }, { limit: PAGE_SIZE_MAX.auditRecords + 1 }, { afterSeq: Number.MAX_SAFE_INTEGER + 2 }, { extra: 1 },
    ]) {
      await expect(priya.audit.anchors.query(input as never)).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    }
    expect(await priya.audit.anchors.query({ afterSeq: 2_147_483_647, limit: PAGE_SIZE_MAX.auditRecords })).toMatchObject({ anchors: [], next: null });
    expect((await priya.audit.anchors.query({})).anchors.length).toBeGreaterThanOrEqual(0);
  });

  it('a limit set to the value it has is a no-op: said in the preview, and the write changes and records nothing', async () => {
    const priya = await actor('priya');
    const value = await creditLimitOf(ids.sneha!);
    const preview = await priya.limits.preview.query({ playerId: ids.sneha!, limitType: 'creditLimit', newValue: value });
    const points = (value / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(preview).toMatchObject({ before: value, after: value, refusal: null, noOp: `the credit limit is already ${points}: nothing to change` });
    const headBefore = (await priya.audit.anchors.query({})).head;
    const rows = async () => Number((await queryRows<{ n: string }>(b.deps.db, sql`select count(*) as n from audit_log`))[0]!.n);
    const auditBefore = await rows();
    const fingerprint = (await databaseFingerprint(b)).replace(/idempotency_keys:\S+/, '');
    const result = await priya.limits.edit.mutate({ playerId: ids.sneha!, limitType: 'creditLimit', newValue: value, idempotencyKey: newKey(), expectedBefore: value });
    expect(result).toMatchObject({ noOp: true, before: value, after: value, auditId: null, anchor: null, replayed: false });
    expect(await rows()).toBe(auditBefore);
    // Only the key's stored answer is written: no limit, audit, ledger or settlement row.
    expect((await databaseFingerprint(b)).replace(/idempotency_keys:\S+/, '')).toBe(fingerprint);
    expect((await priya.audit.anchors.query({})).head).toEqual(headBefore);
  });

  it('keeps one linear chain per actor under concurrent changes', async () => {
    const admin = await actor('admin');
    const players = [ids.karan!, ids.anita!, ids.sneha!, ids.irfan!, ids.lakshmi!, ids.suresh!, ids.imran!, ids.deepak!];
    const headBefore = (await admin.audit.anchors.query({})).head?.seq ?? 0;
    const results = await Promise.all(players.flatMap((playerId, i) => [
      admin.limits.edit.mutate({ playerId, limitType: 'creditLimit', newValue: 100_000 + i, idempotencyKey: newKey() }),
      admin.limits.edit.mutate({ playerId, limitType: 'aggregateDailyWin', newValue: 200_000 + i, idempotencyKey: newKey() }),
    ]));
    const seqs = results.map((r) => r.anchor!.seq).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: players.length * 2 }, (_, i) => headBefore + i + 1));
    const adminId = await accountId(b, 'admin');
    const rows = await chainRows(adminId);
    for (const [i, row] of rows.entries()) {
      expect(row.seq).toBe(i + 1);
      expect(row.prev_hash).toBe(i === 0 ? AUDIT_GENESIS : rows[i - 1]!.hash);
    }
    const { anchors } = await admin.audit.anchors.query({ limit: PAGE_SIZE_MAX.auditRecords });
    expect(anchors.map((a) => a.hash)).toEqual(rows.map((r) => r.hash));
  });
});
