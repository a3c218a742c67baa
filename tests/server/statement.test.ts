/**
 * agent.getStatement on the test book: the running balance reconciles to the take exactly (the
 * lines summed here, against getTake and the ledger summed by plain SQL), a period's opening and
 * closing balances bracket its lines, kinds filter without moving a balance, settlements and
 * credit-limit changes read with who made them, and the downline scope holds.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.js';
import { ENGINES, type TestBackend, accountId, startTestBackend } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;
type Input = Parameters<Client['agent']['getStatement']['query']>[0];
type Page = Awaited<ReturnType<Client['agent']['getStatement']['query']>>;

/** Every page of a statement, following its cursors; `matched` and the balances are the same on each. */
async function walk(c: Client, input: Input): Promise<{ pages: Page[]; lines: Page['lines'] }> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const page = await c.agent.getStatement.query({ ...input, ...(cursor && { cursor }) });
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  for (const p of pages) {
    expect(p.matched).toBe(pages[0]!.matched);
    expect([p.openingBalance, p.closingBalance, p.net]).toEqual([pages[0]!.openingBalance, pages[0]!.closingBalance, pages[0]!.net]);
  }
  const lines = pages.flatMap((p) => p.lines);
  expect(lines.length).toBe(pages[0]!.matched);
  expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
  return { pages, lines };
}

/** Newest first, each line's balance is the next older one's plus its own amount. */
function expectRunning(lines: Page['lines'], startingAt: number) {
  for (let i = 0; i < lines.length; i++) {
    const older = i + 1 < lines.length ? lines[i + 1]!.balanceAfter : startingAt;
    expect(lines[i]!.balanceAfter).toBe(older + (lines[i]!.amount ?? 0));
    if (i > 0) expect(lines[i]!.at <= lines[i - 1]!.at).toBe(true);
  }
}

describe.each(ENGINES)('agent.getStatement on %s', (engine) => {
  let b: TestBackend;
  let priya: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priya = b.client(await b.login('priya'));
    for (const u of ['anita', 'arjun', 'deepak', 'karan', 'vikram', 'meera']) ids[u] = await accountId(b, u);
  }, 120_000);
  afterAll(async () => { await b?.close(); });

  /** The take of the pair summed from the ledger by plain SQL, not through the statement's own query. */
  async function ledgerTake(childId: string): Promise<number> {
    const [row] = await queryRows<{ take: string | null }>(b.deps.db, sql`
      select sum(l.amount)::text as take from ledger l join accounts c on c.id = l.counterparty_id
      where l.counterparty_id = ${childId} and l.account_id = c.parent_id`);
    return Number(row?.take ?? 0);
  }

  it.each(['anita', 'arjun'])('the lines of %s sum to the take exactly, with a running balance', async (user) => {
    const { pages, lines } = await walk(priya, { accountId: ids[user]!, limit: 37 });
    expect(lines.length).toBeGreaterThan(0);
    const sum = lines.reduce((s, l) => s + (l.amount ?? 0), 0);
    const [take] = (await priya.agent.getTake.query({ playerId: ids[user]! })).rows;
    expect(sum).toBe(take!.take);
    expect(sum).toBe(await ledgerTake(ids[user]!));
    expect(pages[0]!.account.take).toBe(take!.take);
    expect(pages[0]!.account.creditLimit).toBe(take!.creditLimit);
    expect(pages[0]!.closingBalance).toBe(take!.take);
    expect(pages[0]!.openingBalance).toBe(0);
    expect(pages[0]!.net).toBe(sum);
    expect(lines[0]!.balanceAfter).toBe(take!.take);
    expectRunning(lines, 0);
    for (const l of lines) {
      expect(Number.isInteger(l.amount ?? 0)).toBe(true);
      expect(l.counterpartyName).toBe('Priya Nair');
    }
    // A player's lines are bet results, commission and settlements; a sub-agent's, its share passed up and settlements.
    const kinds = new Set(lines.map((l) => l.kind));
    if (user === 'anita') {
      expect(kinds.has('bet_result')).toBe(true);
      expect(kinds.has('share')).toBe(false);
      const bet = lines.find((l) => l.kind === 'bet_result')!;
      expect([bet.betId, bet.marketName, bet.fixtureName, bet.outcomeName, bet.side].every((v) => v !== null)).toBe(true);
      expect(bet.madeByName).toBeNull();
    } else {
      expect(kinds.has('share')).toBe(true);
      expect(kinds.has('bet_result')).toBe(false);
    }
  });

  it('a period brackets its lines between the opening and closing balances; kinds keep the balances', async () => {
    const all = await walk(priya, { accountId: ids.anita!, limit: 200 });
    const period = { from: '2026-10-01', to: '2026-10-31' };
    const { pages, lines } = await walk(priya, { accountId: ids.anita!, ...period, limit: 25 });
    const p = pages[0]!;
    expect(p.period).toMatchObject({ ...period, timezone: 'Asia/Kolkata' });
    expect(p.closingBalance - p.openingBalance).toBe(p.net);
    expectRunning(lines, p.openingBalance);
    // The lines of the period are exactly those of the whole statement in it, balances unchanged.
    const inPeriod = all.lines.filter((l) => l.at >= '2026-09-30T18:30:00.000Z' && l.at < '2026-10-31T18:30:00.000Z');
    expect(lines).toEqual(inPeriod);

    const { pages: kp, lines: kl } = await walk(priya, { accountId: ids.anita!, kinds: ['commission', 'settlement'], limit: 10 });
    expect(kl.every((l) => l.kind === 'commission' || l.kind === 'settlement')).toBe(true);
    expect(kl).toEqual(all.lines.filter((l) => l.kind === 'commission' || l.kind === 'settlement'));
    expect(kp[0]!.net).toBe(kl.reduce((s, l) => s + l.amount!, 0));
    // A cursor of one filter is not a position in another list.
    if (kp[0]!.nextCursor) {
      await expect(priya.agent.getStatement.query({ accountId: ids.anita!, cursor: kp[0]!.nextCursor }))
        .rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    }
  });

  it('a settlement and a credit-limit change are lines, with who made them; the balance still reconciles', async () => {
    const before = await priya.agent.getStatement.query({ accountId: ids.deepak!, limit: 1 });
    const take = before.account.take;
    expect(take).not.toBe(0);
    await priya.settlements.settle.mutate({
      playerId: ids.deepak!, mode: 'amount', amount: Math.min(Math.abs(take), 12_345), idempotencyKey: `stmt-${randomUUID()}`,
    });
    await priya.limits.edit.mutate({
      playerId: ids.deepak!, limitType: 'creditLimit', newValue: before.account.creditLimit + 500_000, idempotencyKey: `stmt-${randomUUID()}`,
    });
    // A change of another limit is not a credit-limit line.
    await priya.limits.edit.mutate({ playerId: ids.deepak!, limitType: 'minStake', newValue: 200, idempotencyKey: `stmt-${randomUUID()}` });
    const { pages, lines } = await walk(priya, { accountId: ids.deepak!, limit: 50 });
    const cl = lines.filter((l) => l.kind === 'credit_limit');
    expect(cl).toHaveLength(1);
    expect(cl[0]).toMatchObject({
      amount: null, madeByName: 'Priya Nair', creditLimitBefore: before.account.creditLimit, creditLimitAfter: before.account.creditLimit + 500_000,
    });
    const settled = lines.find((l) => l.kind === 'settlement' && l.madeByName === 'Priya Nair');
    expect(settled?.amount).toBe(-Math.sign(take) * Math.min(Math.abs(take), 12_345));
    expect(pages[0]!.account.take).toBe(take + settled!.amount!);
    expect(lines.reduce((s, l) => s + (l.amount ?? 0), 0)).toBe(pages[0]!.account.take);
    expect(pages[0]!.account.take).toBe(await ledgerTake(ids.deepak!));
    expectRunning(lines, 0);
    const onlyCl = await priya.agent.getStatement.query({ accountId: ids.deepak!, kinds: ['credit_limit'] });
    expect(onlyCl.lines).toEqual(cl);
    expect(onlyCl.net).toBe(0);
  });

  it('is scoped to the caller\'s downline: the upline and another tree read as not found', async () => {
    for (const id of [ids.vikram!, ids.meera!, randomUUID()]) {
      await expect(priya.agent.getStatement.query({ accountId: id })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    }
    const arjun = b.client(await b.login('arjun'));
    await expect(arjun.agent.getStatement.query({ accountId: ids.anita! })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    // A sub-agent's own player is in the caller's downline: its statement is against the sub-agent.
    const [sub] = await queryRows<{ id: string }>(b.deps.db, sql`select id from accounts where parent_id = ${ids.arjun!} and role = 'player' order by username limit 1`);
    const page = await priya.agent.getStatement.query({ accountId: sub!.id, limit: 5 });
    expect(page.account.parentName).toBe('Arjun Mehta');
  });
});
