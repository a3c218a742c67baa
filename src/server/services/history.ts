import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { FIRST_DAY, LAST_DAY, addDays } from '../../shared/dates.js';
import { paisaFromSql } from '../../shared/money.js';
import { queryRows } from '../db/client.js';
import { liability, potentialWin } from '../domain/bets.js';
import {
  type Caller, type ServiceDeps, accountInScope, decodeCursor, encodeCursor, fixtureExists, inDownline, optionalDateRange,
} from './caller.js';

/**
 * Keyset cursor for newest-first lists: the (time, id) of the last row handed out. A forged one
 * is refused like any other bad cursor: its time must lie in the book's calendar, as every row's
 * does (PostgreSQL has no year 0, and would fail on one instead of answering).
 */
const keyset = z.object({
  t: z.iso.datetime().refine((t) => t >= FIRST_DAY && t < `${addDays(LAST_DAY, 1)}T`),
  id: z.uuid(),
});
const iso = (v: Date | string) => new Date(v).toISOString();

export async function getBetHistory(deps: ServiceDeps, caller: Caller, input: {
  playerId?: string | undefined; fixtureId?: string | undefined; status?: Array<'open' | 'settled' | 'void'> | undefined;
  from?: string | undefined; to?: string | undefined; limit: number; cursor?: string | undefined;
}) {
  if (input.playerId) await accountInScope(deps, caller, input.playerId);
  if (input.fixtureId) await fixtureExists(deps, input.fixtureId);
  const range = optionalDateRange(deps, caller, input.from, input.to);
  const where: SQL[] = [inDownline(caller, 'a')];
  if (input.playerId) where.push(sql`b.player_id = ${input.playerId}`);
  if (input.fixtureId) where.push(sql`m.fixture_id = ${input.fixtureId}`);
  if (input.status) where.push(sql`b.status in (${sql.join(input.status.map((s) => sql`${s}`), sql`, `)})`);
  if (range) where.push(sql`b.placed_at >= ${range.start.toISOString()}::timestamptz and b.placed_at < ${range.end.toISOString()}::timestamptz`);
  const filter = sql.join(where, sql` and `);
  const after = input.cursor ? decodeCursor(input.cursor, keyset) : null;
  const page = after ? sql`and (b.placed_at, b.id) < (${after.t}::timestamptz, ${after.id}::uuid)` : sql``;
  const rows = await queryRows<{
    id: string; player_id: string; player_name: string; fixture_id: string; fixture_name: string; market_id: string; market_name: string;
    outcome_id: string; outcome_name: string; side: 'back' | 'lay'; stake: string | number; odds: number; status: 'open' | 'settled' | 'void';
    placed_at: Date | string; settled_at: Date | string | null; result: string | number | null;
  }>(deps.db, sql`
    select b.id, b.player_id, a.display_name as player_name, f.id as fixture_id, f.name as fixture_name, m.id as market_id,
      m.name as market_name, o.id as outcome_id, o.name as outcome_name, b.side, b.stake, b.odds, b.status, b.placed_at,
      b.settled_at, b.result
    from bets b join accounts a on a.id = b.player_id join markets m on m.id = b.market_id
      join fixtures f on f.id = m.fixture_id join outcomes o on o.id = b.outcome_id
    where ${filter} ${page}
    order by b.placed_at desc, b.id desc limit ${input.limit + 1}`);
  const [summary] = await queryRows<{ count: string | number; stake: string | null; open_liability: string | null; settled_result: string | null }>(deps.db, sql`
    select count(*) as count, sum(b.stake) as stake,
      sum(case when b.side = 'back' then b.stake else round(b.stake::numeric * (b.odds - 100) / 100) end) filter (where b.status = 'open') as open_liability,
      sum(b.result) filter (where b.status = 'settled') as settled_result
    from bets b join accounts a on a.id = b.player_id ${input.fixtureId ? sql`join markets m on m.id = b.market_id` : sql``}
    where ${filter}`);
  const pageRows = rows.slice(0, input.limit);
  const last = pageRows[pageRows.length - 1];
  return {
    bets: pageRows.map((r) => {
      const terms = { side: r.side, stake: paisaFromSql(r.stake), odds: r.odds };
      return {
        id: r.id, playerId: r.player_id, playerName: r.player_name, fixtureId: r.fixture_id, fixtureName: r.fixture_name,
        marketId: r.market_id, marketName: r.market_name, outcomeId: r.outcome_id, outcomeName: r.outcome_name,
        side: r.side, stake: terms.stake, odds: r.odds, status: r.status, placedAt: iso(r.placed_at),
        settledAt: r.settled_at === null ? null : iso(r.settled_at), result: r.result === null ? null : paisaFromSql(r.result),
        liability: liability(terms), potentialWin: potentialWin(terms),
      };
    }),
    summary: {
      count: Number(summary?.count ?? 0), stake: paisaFromSql(summary?.stake),
      openLiability: paisaFromSql(summary?.open_liability), settledResult: paisaFromSql(summary?.settled_result),
    },
    nextCursor: rows.length > input.limit && last ? encodeCursor({ t: iso(last.placed_at), id: last.id }) : null,
  };
}

export async function getSettlementHistory(deps: ServiceDeps, caller: Caller, input: {
  counterpartyId?: string | undefined; from?: string | undefined; to?: string | undefined; limit: number; cursor?: string | undefined;
}) {
  // A counterparty is someone of the downline, or the caller's own upline.
  if (input.counterpartyId && input.counterpartyId !== caller.parentId) await accountInScope(deps, caller, input.counterpartyId, 'counterparty');
  const range = optionalDateRange(deps, caller, input.from, input.to);
  const where: SQL[] = [sql`(${inDownline(caller, 'c')} or s.child_id = ${caller.id})`];
  if (input.counterpartyId) where.push(sql`(s.child_id = ${input.counterpartyId} or s.parent_id = ${input.counterpartyId})`);
  if (range) where.push(sql`s.created_at >= ${range.start.toISOString()}::timestamptz and s.created_at < ${range.end.toISOString()}::timestamptz`);
  const after = input.cursor ? decodeCursor(input.cursor, keyset) : null;
  if (after) where.push(sql`(s.created_at, s.id) < (${after.t}::timestamptz, ${after.id}::uuid)`);
  const rows = await queryRows<{
    id: string; child_id: string; child_name: string; parent_id: string; parent_name: string; amount: string | number;
    take_before: string | number; take_after: string | number; mode: 'auto' | 'amount'; period_id: string | null;
    created_at: Date | string; created_by_name: string;
  }>(deps.db, sql`
    select s.id, s.child_id, c.display_name as child_name, s.parent_id, p.display_name as parent_name, s.amount,
      s.take_before, s.take_after, s.mode, s.period_id, s.created_at, cb.display_name as created_by_name
    from settlements s join accounts c on c.id = s.child_id join accounts p on p.id = s.parent_id
      join accounts cb on cb.id = s.created_by
    where ${sql.join(where, sql` and `)}
    order by s.created_at desc, s.id desc limit ${input.limit + 1}`);
  const pageRows = rows.slice(0, input.limit);
  const last = pageRows[pageRows.length - 1];
  return {
    rows: pageRows.map((r) => ({
      id: r.id, childId: r.child_id, childName: r.child_name, parentId: r.parent_id, parentName: r.parent_name,
      amount: paisaFromSql(r.amount), takeBefore: paisaFromSql(r.take_before), takeAfter: paisaFromSql(r.take_after),
      mode: r.mode, periodId: r.period_id, createdAt: iso(r.created_at), createdByName: r.created_by_name,
    })),
    nextCursor: rows.length > input.limit && last ? encodeCursor({ t: iso(last.created_at), id: last.id }) : null,
  };
}
