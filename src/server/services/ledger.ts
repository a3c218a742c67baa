import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { type Movement, postingsOf } from '../domain/cascade.js';
import { balances, ledger } from '../db/schema.js';

/**
 * The one way money is written: each movement's two postings, and the pair's running take, in
 * the caller's transaction. Call it with the transaction handle, never with a bare connection.
 */
export async function recordMovements(tx: Db, movements: readonly Movement[], occurredAt: Date, newEntryId: () => string = randomUUID): Promise<void> {
  const moving = movements.filter((m) => m.amount !== 0);
  if (moving.length === 0) return;
  await tx.insert(ledger).values(moving.flatMap((m) => postingsOf(m, newEntryId(), occurredAt)));
  const byPair = new Map<string, { childId: string; parentId: string; take: number }>();
  for (const m of moving) {
    const pair = byPair.get(m.childId) ?? { childId: m.childId, parentId: m.parentId, take: 0 };
    if (pair.parentId !== m.parentId) throw new Error(`account ${m.childId} has one upline, not two`);
    pair.take += m.amount;
    byPair.set(m.childId, pair);
  }
  await tx.insert(balances).values([...byPair.values()])
    .onConflictDoUpdate({ target: balances.childId, set: { take: sql`${balances.take} + excluded.take` } });
}

/** Recomputes every pair's take from the ledger (after a bulk load): one row per account with an upline. */
export async function rebuildBalances(tx: Db): Promise<void> {
  await tx.execute(sql`delete from balances`);
  await tx.execute(sql`
    insert into balances (child_id, parent_id, take)
    select a.id, a.parent_id, coalesce((select sum(l.amount) from ledger l where l.account_id = a.parent_id and l.counterparty_id = a.id), 0)
    from accounts a where a.parent_id is not null`);
}
