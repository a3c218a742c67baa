import { type SQL, sql } from 'drizzle-orm';
import type {
  CommissionColumn, CommissionOrderColumn, PnLColumn, PnLOrderColumn, RowCondition, RowOrder,
} from '../../shared/contracts/row-query.js';
import { paisaFromSql } from '../../shared/money.js';
import { queryRows } from '../db/client.js';
import {
  type Caller, type Period, type ServiceDeps, accountInScope, decodeOffset, downlineAgents, encodeOffset, fixtureExists, inDownline,
  marketExists, namedPeriod, resolvePeriod,
} from './caller.js';
import { marketExposures } from './exposure.js';
import { agentsPlayerPostings, periodPostings } from './period-sums.js';
import { downlineVolume } from './market-volume.js';
import { type ScopedAgent, agentInScope, conditionsSql, orderSql, shapeTag } from './row-query.js';

const periodOut = (p: Period) => ({ from: p.from, to: p.to, timezone: p.timezone });

function marketFilter(input: { fixtureId?: string | undefined; marketId?: string | undefined }): SQL {
  if (input.marketId) return sql`l.market_id = ${input.marketId}`;
  if (input.fixtureId) return sql`l.market_id in (select id from markets where fixture_id = ${input.fixtureId})`;
  return sql`true`;
}

const instantRange = (p: Period) =>
  sql`l.occurred_at >= ${p.start.toISOString()}::timestamptz and l.occurred_at < ${p.end.toISOString()}::timestamptz`;

/**
 * One page of the per-player rows that meet `filter`, with the count and totals over all of them
 * in the same statement (window sums, taken after the filter), and the totals alone only when the
 * page is empty (past the end, or nothing in the period).
 */
async function pageWithTotals<Row extends { total_rows: string | number }>(
  deps: ServiceDeps, playerRows: SQL, filter: SQL[], totals: Record<string, string>, order: SQL, limit: number, offset: number,
): Promise<{ rows: Row[]; totals: Record<string, string | number | null> }> {
  const sums = (window: boolean) => sql.join(Object.entries(totals).map(([alias, column]) =>
    sql`sum(t.${sql.identifier(column)}) ${window ? sql`over ()` : sql``} as ${sql.identifier(alias)}`), sql`, `);
  const where = filter.length > 0 ? sql`where ${sql.join(filter, sql` and `)}` : sql``;
  const rows = await queryRows<Row & Record<string, string | number | null>>(deps.db, sql`
    select t.*, count(*) over () as total_rows, ${sums(true)} from (${playerRows}) t ${where} order by ${order} limit ${limit} offset ${offset}`);
  if (rows[0]) return { rows, totals: rows[0] };
  const [only] = await queryRows<Record<string, string | number | null>>(deps.db, sql`
    select count(*) as total_rows, ${sums(false)} from (${playerRows}) t ${where}`);
  return { rows, totals: only ?? { total_rows: 0 } };
}

/** The columns of a PnL row over pnlPerPlayer's `t`, as the row computes them. */
const PNL_SQL: Record<PnLOrderColumn, SQL> = {
  name: sql`t.name`, pnl: sql`t.pnl`, commission: sql`t.commission`, bookResult: sql`(t.commission - t.pnl)`, bets: sql`t.bets`,
};
const COMMISSION_SQL: Record<CommissionOrderColumn, SQL> = { name: sql`t.name`, commission: sql`t.commission`, markets: sql`t.markets` };

/** The players of the downline, or of `agent`'s downline when given (both any depth below). */
function playersOf(caller: Caller, agent: ScopedAgent | null): SQL {
  return agent ? sql`a.path like ${`${agent.path}.%`}` : inDownline(caller, 'a');
}

type PnLFilters = { playerId?: string | undefined; fixtureId?: string | undefined; marketId?: string | undefined };

/**
 * Each downline player's sums of its postings of `kinds` in the period, as rows (player_id, kind,
 * amount, postings) grouped by the caller: the whole downline (or `agent`'s) from its agents'
 * rollup ranges (agentsPlayerPostings); one player from its own daily rollups (periodPostings); a
 * market or fixture narrows each player's ledger itself.
 */
function playerPostings(caller: Caller, period: Period, kinds: ReadonlyArray<'bet_result' | 'commission'>, input: PnLFilters, agent: ScopedAgent | null): SQL {
  const playerRows = (postings: (player: SQL) => SQL) => sql`
    select a.id as player_id, u.kind, u.amount, u.postings
    from accounts a cross join lateral (${postings(sql`a.id`)}) u
    where a.role = 'player' and ${playersOf(caller, agent)} ${input.playerId ? sql`and a.id = ${input.playerId}` : sql``}`;
  if (input.marketId || input.fixtureId) {
    return playerRows((player) => sql`
      select l.kind, l.amount, 1 as postings from ledger l
      where l.account_id = ${player} and l.kind in (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)}) and ${instantRange(period)} and ${marketFilter(input)}`);
  }
  if (input.playerId) return playerRows((player) => periodPostings(player, kinds, period));
  return agentsPlayerPostings(downlineAgents(caller, agent), kinds, period);
}

/** Players with postings in the period, with the sums of `columns` over `u` (playerPostings' rows) and their names. */
function perPlayer(postings: SQL, columns: SQL, having: SQL): SQL {
  return sql`
    select a.id, a.display_name as name, p.display_name as agent_name, a.commission_bps, s.*
    from (select u.player_id, ${columns} from (${postings}) u group by u.player_id having ${having}) s
    join accounts a on a.id = s.player_id
    join accounts p on p.id = a.parent_id`;
}

function pnlPerPlayer(caller: Caller, period: Period, input: PnLFilters, agent: ScopedAgent | null = null): SQL {
  return perPlayer(playerPostings(caller, period, ['bet_result', 'commission'], input, agent), sql`
    coalesce(sum(u.postings) filter (where u.kind = 'bet_result'), 0) as bets,
    coalesce(sum(u.amount) filter (where u.kind = 'bet_result'), 0) as pnl,
    coalesce(-sum(u.amount) filter (where u.kind = 'commission'), 0) as commission`, sql`sum(u.postings) > 0`);
}

/** How many rows getPnL pages through for these filters: a report's length, known before it is written. */
export async function countPnLRows(deps: ServiceDeps, caller: Caller, input: PnLFilters & { from?: string | undefined; to?: string | undefined }): Promise<number> {
  const period = resolvePeriod(deps, caller, input.from, input.to);
  const [row] = await queryRows<{ n: string | number }>(deps.db, sql`select count(*) as n from (${pnlPerPlayer(caller, period, input)}) t`);
  return Number(row?.n ?? 0);
}

/**
 * PnL per downline player from the ledger: bet results and commission posted in the period. A
 * player's postings are all against its one agent, so the covering (account, time) index answers.
 */
export async function getPnL(deps: ServiceDeps, caller: Caller, input: {
  from?: string | undefined; to?: string | undefined; playerId?: string | undefined; fixtureId?: string | undefined;
  marketId?: string | undefined; limit: number; cursor?: string | undefined;
  where?: Array<RowCondition<PnLColumn>> | undefined; orderBy?: RowOrder<PnLOrderColumn> | undefined; underAgentId?: string | undefined;
}) {
  const period = resolvePeriod(deps, caller, input.from, input.to);
  if (input.playerId) await accountInScope(deps, caller, input.playerId);
  const agent = await agentInScope(deps, caller, input.underAgentId);
  if (input.fixtureId) await fixtureExists(deps, input.fixtureId);
  if (input.marketId) await marketExists(deps, input.marketId);
  const tag = shapeTag({ where: input.where, orderBy: input.orderBy, underAgentId: input.underAgentId });
  const offset = decodeOffset(input.cursor, tag);
  const rowsPerPlayer = pnlPerPlayer(caller, period, input, agent);
  type Row = { id: string; name: string; agent_name: string; bets: string | number; pnl: string | number; commission: string | number; total_rows: string | number };
  const { rows, totals } = await pageWithTotals<Row>(deps, rowsPerPlayer, conditionsSql(PNL_SQL, input.where),
    { all_bets: 'bets', all_pnl: 'pnl', all_commission: 'commission' },
    input.orderBy ? orderSql(PNL_SQL, input.orderBy, 'name', sql`t.id`) : sql`abs(t.pnl - t.commission) desc, t.name, t.id`, input.limit, offset);
  let yourShare: number | null = null;
  // The caller's share is of the whole downline's result: a part of the rows cannot be given one.
  if (!input.playerId && !agent && !input.where?.length) {
    const own = input.marketId || input.fixtureId
      ? sql`select l.amount from ledger l
        where l.account_id = ${caller.id} and l.kind in ('bet_result', 'commission', 'share') and ${instantRange(period)} and ${marketFilter(input)}`
      : periodPostings(sql`${caller.id}::uuid`, ['bet_result', 'commission', 'share'], period);
    const [kept] = await queryRows<{ kept: string | null }>(deps.db, sql`select sum(u.amount) as kept from (${own}) u`);
    yourShare = paisaFromSql(kept?.kept);
  }
  const pnl = paisaFromSql(totals.all_pnl);
  const commission = paisaFromSql(totals.all_commission);
  return {
    period: periodOut(period),
    rows: rows.map((r) => {
      const rowPnl = paisaFromSql(r.pnl);
      const rowCommission = paisaFromSql(r.commission);
      return {
        playerId: r.id, name: r.name, agentName: r.agent_name, bets: Number(r.bets),
        pnl: rowPnl, commission: rowCommission, bookResult: -rowPnl + rowCommission,
      };
    }),
    total: { bets: Number(totals.all_bets ?? 0), pnl, commission, bookResult: -pnl + commission, yourShare },
    matched: Number(totals.total_rows ?? 0),
    nextCursor: encodeOffset(offset, rows.length, Number(totals.total_rows ?? 0), tag),
  };
}

export async function getCommission(deps: ServiceDeps, caller: Caller, input: {
  from?: string | undefined; to?: string | undefined; playerId?: string | undefined; limit: number; cursor?: string | undefined;
  where?: Array<RowCondition<CommissionColumn>> | undefined; orderBy?: RowOrder<CommissionOrderColumn> | undefined; underAgentId?: string | undefined;
}) {
  const period = resolvePeriod(deps, caller, input.from, input.to);
  if (input.playerId) await accountInScope(deps, caller, input.playerId);
  const agent = await agentInScope(deps, caller, input.underAgentId);
  const tag = shapeTag({ where: input.where, orderBy: input.orderBy, underAgentId: input.underAgentId });
  const offset = decodeOffset(input.cursor, tag);
  const rowsPerPlayer = perPlayer(playerPostings(caller, period, ['commission'], input, agent),
    sql`sum(u.postings) as markets, -sum(u.amount) as commission`, sql`sum(u.postings) > 0`);
  type Row = { id: string; name: string; agent_name: string; commission_bps: number; markets: string | number; commission: string | number; total_rows: string | number };
  const { rows, totals } = await pageWithTotals<Row>(deps, rowsPerPlayer, conditionsSql(COMMISSION_SQL, input.where), { all_commission: 'commission' },
    input.orderBy ? orderSql(COMMISSION_SQL, input.orderBy, 'name', sql`t.id`) : sql`t.commission desc, t.name, t.id`, input.limit, offset);
  return {
    period: periodOut(period),
    rows: rows.map((r) => ({
      playerId: r.id, name: r.name, agentName: r.agent_name, commissionBps: r.commission_bps,
      markets: Number(r.markets), commission: paisaFromSql(r.commission),
    })),
    total: paisaFromSql(totals.all_commission),
    matched: Number(totals.total_rows ?? 0),
    nextCursor: encodeOffset(offset, rows.length, Number(totals.total_rows ?? 0), tag),
  };
}

export async function getTopMarkets(deps: ServiceDeps, caller: Caller, input: { period: 'today' | 'week' | 'month'; metric: 'pnl' | 'volume' | 'exposure'; limit: number }) {
  const period = namedPeriod(deps, caller, input.period);
  let rows: Array<{ marketId: string; marketName: string; fixtureId: string; fixtureName: string; value: number; bets: number }>;
  if (input.metric === 'exposure') {
    // Exposure is a live figure: the period does not narrow it.
    rows = (await marketExposures(deps, caller, sql`true`, { top: input.limit })).map((m) => ({
      marketId: m.marketId, marketName: m.marketName, fixtureId: m.fixtureId, fixtureName: m.fixtureName, value: m.exposure, bets: m.openBets,
    }));
  } else {
    const measure = input.metric === 'pnl'
      ? sql`
        select u.market_id, sum(u.amount) as value, coalesce(sum(u.postings) filter (where u.kind = 'bet_result'), 0) as bets
        from (${periodPostings(sql`${caller.id}::uuid`, ['bet_result', 'commission', 'share'], period, { byMarket: true })}) u
        group by u.market_id having sum(u.postings) > 0`
      : sql`select market_id, stake as value, bets from (${downlineVolume(caller, period)}) d`;
    const found = await queryRows<{ market_id: string; market_name: string; fixture_id: string; fixture_name: string; value: string; bets: string | number }>(deps.db, sql`
      select v.market_id, m.name as market_name, f.id as fixture_id, f.name as fixture_name, v.value, v.bets
      from (select * from (${measure}) t order by t.value desc, t.market_id limit ${input.limit}) v
      join markets m on m.id = v.market_id join fixtures f on f.id = m.fixture_id
      order by v.value desc, v.market_id`);
    rows = found.map((r) => ({
      marketId: r.market_id, marketName: r.market_name, fixtureId: r.fixture_id, fixtureName: r.fixture_name,
      value: paisaFromSql(r.value), bets: Number(r.bets),
    }));
  }
  rows.sort((a, b) => b.value - a.value || (a.marketId < b.marketId ? -1 : 1));
  return { period: periodOut(period), rows: rows.slice(0, input.limit) };
}
