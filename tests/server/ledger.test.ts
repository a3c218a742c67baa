import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/server/db/client.js';
import type { Movement } from '../../src/server/domain/cascade.js';
import { recordMovements } from '../../src/server/services/ledger.js';
import { ENGINES, type TestBackend, startTestBackend } from '../helpers/backend.js';

/** Pairs whose running take differs from the sum of the parent's postings against the child. */
async function driftedPairs(db: Db) {
  return queryRows<{ child_id: string; take: string; ledger_sum: string | null }>(db, sql`
    select b.child_id, b.take, (select sum(l.amount) from ledger l where l.account_id = b.parent_id and l.counterparty_id = b.child_id) as ledger_sum
    from balances b
    where b.take <> coalesce((select sum(l.amount) from ledger l where l.account_id = b.parent_id and l.counterparty_id = b.child_id), 0)`);
}

describe.each(ENGINES)('ledger writes on %s', (engine) => {
  let b: TestBackend;
  let pairs: Array<{ child: string; parent: string }>;

  beforeAll(async () => {
    b = await startTestBackend(engine);
    pairs = (await queryRows<{ id: string; parent_id: string }>(b.deps.db, sql`select id, parent_id from accounts where parent_id is not null order by id limit 12`))
      .map((r) => ({ child: r.id, parent: r.parent_id }));
  });
  afterAll(async () => b?.close());

  it('the demo book keeps every pair\'s take equal to its ledger sum, and one balance per account with an upline', async () => {
    expect(await driftedPairs(b.deps.db)).toEqual([]);
    const [counts] = await queryRows<{ balances: string; accounts: string }>(b.deps.db, sql`
      select (select count(*) from balances) as balances, (select count(*) from accounts where parent_id is not null) as accounts`);
    expect(counts!.balances).toBe(counts!.accounts);
  });

  it('keeps takes equal to ledger sums and the ledger at zero for random movements (property)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ pair: fc.nat(), amount: fc.integer({ min: -10_000_000, max: 10_000_000 }), kind: fc.constantFrom('adjustment' as const, 'settlement' as const) }), { minLength: 1, maxLength: 8 }),
      async (moves) => {
        const movements: Movement[] = moves.map((m) => {
          const pair = pairs[m.pair % pairs.length]!;
          return { kind: m.kind, childId: pair.child, parentId: pair.parent, amount: m.amount };
        });
        await b.deps.db.transaction(async (tx) => recordMovements(tx as unknown as Db, movements, new Date(b.clock.now)));
        expect(await driftedPairs(b.deps.db)).toEqual([]);
        const [total] = await queryRows<{ s: string }>(b.deps.db, sql`select coalesce(sum(amount), 0) as s from ledger`);
        expect(Number(total!.s)).toBe(0);
      },
    ), { numRuns: 15 });
  });

  it('writes nothing when a movement in the batch is refused', async () => {
    const [before] = await queryRows<{ n: string; take: string }>(b.deps.db, sql`select (select count(*) from ledger) as n, (select sum(take) from balances) as take`);
    const { child, parent } = pairs[0]!;
    const wrongParent = pairs[1]!.parent === parent ? pairs[2]!.parent : pairs[1]!.parent;
    await expect(b.deps.db.transaction(async (tx) => recordMovements(tx as unknown as Db, [
      { kind: 'adjustment', childId: child, parentId: parent, amount: 5_000 },
      { kind: 'adjustment', childId: child, parentId: wrongParent, amount: 5_000 },
    ], new Date(b.clock.now)))).rejects.toThrow(/one upline/);
    const [after] = await queryRows<{ n: string; take: string }>(b.deps.db, sql`select (select count(*) from ledger) as n, (select sum(take) from balances) as take`);
    expect(after).toEqual(before);
  });
});
