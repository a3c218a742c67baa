import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type BetSort, NEWEST_FIRST } from '../../shared/contracts/bet-list.js';
import type { BetColumn, RowCondition, RowOrder, SettlementColumn, SettlementOrderColumn } from '../../shared/contracts/row-query.js';
import { FIRST_DAY, LAST_DAY, addDays } from '../../shared/dates.js';
import { paisaFromSql } from '../../shared/money.js';
import { queryRows } from '../db/client.js';
import { liability, potentialWin } from '../domain/bets.js';
import { LIABILITY, POTENTIAL_WIN } from './bet-terms-sql.js';
import {
  type Caller, type ServiceDeps, accountInScope, decodeCursor, downlineAgents, encodeCursor, fixtureExists, inDownline, optionalDateRange,
} from './caller.js';
import { type ScopedAgent, agentInScope, conditionsSql, shapeTag } from './row-query.js';

/**
 * A row's time in a cursor. A forged one is refused like any other bad cursor: it must lie in the
 * book's calendar, as every row's does (PostgreSQL has no year 0, and would fail on one instead
 * of answering).
 */
const bookTime = z.iso.datetime().refine((t) => t >= FIRST_DAY && t < `${addDays(LAST_DAY, 1)}T`);
/**
 * The settlement list's cursor: the (time, id) of the last row handed out, as it always was newest
 * first; under another order also the amount (`v`), the order (`s`) and the digest of `where` (`q`).
 */
const settlementCursorShape = z.object({
  t: bookTime, id: z.uuid(), v: z.number().int().safe().optional(), s: z.string().max(20).optional(), q: z.string().max(20).optional(),
});
type SettlementCursor = z.infer<typeof settlementCursorShape>;
const NEWEST_SETTLEMENTS: RowOrder<SettlementOrderColumn> = { by: 'createdAt', dir: 'desc' };
const iso = (v: Date | string) => new Date(v).toISOString();

const INT4_MAX = 2_147_483_647;
/** The sort key's SQL; only `result` can be null (a bet not settled yet). */
const SORT_COLUMN: Record<BetSort['by'], SQL> = {
  placedAt: sql`b.placed_at`, stake: sql`b.stake`, odds: sql`b.odds`, player: sql`a.display_name`, result: sql`b.result`,
  liability: LIABILITY, potentialWin: POTENTIAL_WIN,
};
/** The columns a bet list's `where` may name: what each row shows. */
const BET_SQL: Record<BetColumn, SQL> = {
  stake: sql`b.stake`, odds: sql`b.odds`, liability: LIABILITY, potentialWin: POTENTIAL_WIN, result: sql`b.result`,
};
/**
 * A bet list's cursor: the last row's (key, placed_at, id), and the sort and filters it was made
 * for (`s`; `q`: the search, and `where`, `side` and `underAgentId` when given), so a cursor
 * cannot be carried into another ordering or another set of rows,
 * where its position would mean nothing. The key `v` is bounded by its column's type, so a forged
 * one is a 400 rather than an out-of-range error in PostgreSQL. A player's name can be any length
 * and a cursor holds 200 characters, so the player sort keeps the player's id (`p`) and reads the
 * name back. Newest first without a search, the cursor is the { t, id } it always was.
 */
const betCursorShape = z.strictObject({
  t: bookTime, id: z.uuid(),
  v: z.number().int().safe().nullable().optional(), p: z.uuid().optional(),
  s: z.string().max(20).optional(), q: z.string().max(20).optional(),
});
type BetCursor = z.infer<typeof betCursorShape>;

/** Which keys each sort's cursor carries, and the values its column can hold. */
const KEY_FITS: Record<BetSort['by'], (c: BetCursor) => boolean> = {
  placedAt: (c) => c.v === undefined && c.p === undefined,
  stake: (c) => typeof c.v === 'number' && c.v >= 0 && c.p === undefined,
  odds: (c) => typeof c.v === 'number' && c.v >= 0 && c.v <= INT4_MAX && c.p === undefined,
  result: (c) => c.v !== undefined && c.p === undefined,
  player: (c) => c.v === undefined && c.p !== undefined,
  liability: (c) => typeof c.v === 'number' && c.v >= 0 && c.p === undefined,
  potentialWin: (c) => typeof c.v === 'number' && c.v >= 0 && c.p === undefined,
};

const sortTag = (sort: BetSort) => (sort.by === NEWEST_FIRST.by && sort.dir === NEWEST_FIRST.dir ? undefined : `${sort.by}.${sort.dir}`);
// A digest, not the text: the search may be 80 characters and a cursor is short.
const searchTag = (search: string | undefined) => (search === undefined ? undefined : createHash('sha256').update(search).digest('base64url').slice(0, 12));

interface BetRowFilters {
  search?: string | undefined; where?: Array<RowCondition<BetColumn>> | undefined; side?: 'back' | 'lay' | undefined;
  underAgentId?: string | undefined;
}
/** The cursor's `q`: the search's own digest as it always was, or a digest of every filter once one of the row filters is given. */
function filterTag(input: BetRowFilters): string | undefined {
  if (shapeTag({ where: input.where, side: input.side, underAgentId: input.underAgentId }) === undefined) return searchTag(input.search);
  return shapeTag({ search: input.search, where: input.where, side: input.side, underAgentId: input.underAgentId });
}

function betCursorSchema(sort: BetSort, q: string | undefined) {
  const s = sortTag(sort);
  return betCursorShape.refine((c) => c.s === s && c.q === q && KEY_FITS[sort.by](c));
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The page after `after` in `sort`'s order: rows strictly past its (key, placed_at, id). */
function afterCursor(caller: Caller, sort: BetSort, after: BetCursor): SQL {
  const op = sql.raw(sort.dir === 'asc' ? '>' : '<');
  const rest = sql`${after.t}::timestamptz, ${after.id}::uuid`;
  switch (sort.by) {
    case 'placedAt': return sql`(b.placed_at, b.id) ${op} (${rest})`;
    case 'stake': return sql`(b.stake, b.placed_at, b.id) ${op} (${after.v}::bigint, ${rest})`;
    case 'odds': return sql`(b.odds, b.placed_at, b.id) ${op} (${after.v}::integer, ${rest})`;
    case 'liability':
    case 'potentialWin': return sql`(${SORT_COLUMN[sort.by]}, b.placed_at, b.id) ${op} (${after.v}::bigint, ${rest})`;
    // An account outside the caller's reach reads as null: no rows, and nothing learnt of its name.
    case 'player': return sql`(a.display_name, b.placed_at, b.id) ${op} (
      (select x.display_name from accounts x where x.id = ${after.p}::uuid and ${inDownline(caller, 'x')}), ${rest})`;
    // Nulls last both ways: past a null key only nulls remain; past a value, the nulls all do.
    case 'result': return after.v === null || after.v === undefined
      ? sql`(b.result is null and (b.placed_at, b.id) ${op} (${rest}))`
      : sql`(b.result is null or (b.result, b.placed_at, b.id) ${op} (${after.v}::bigint, ${rest}))`;
  }
}

function orderBy(sort: BetSort): SQL {
  const dir = sql.raw(sort.dir);
  if (sort.by === 'placedAt') return sql`b.placed_at ${dir}, b.id ${dir}`;
  return sql`${SORT_COLUMN[sort.by]} ${dir}${sort.by === 'result' ? sql` nulls last` : sql``}, b.placed_at ${dir}, b.id ${dir}`;
}

type BetFilters = {
  playerId?: string | undefined; fixtureId?: string | undefined; status?: Array<'open' | 'settled' | 'void'> | undefined;
  from?: string | undefined; to?: string | undefined;
};

/** The bet list's filters, search aside: bets `b` of players `a`, the fixture through markets `m`. */
function betFilter(deps: ServiceDeps, caller: Caller, input: BetFilters): SQL[] {
  const range = optionalDateRange(deps, caller, input.from, input.to);
  const where: SQL[] = [inDownline(caller, 'a')];
  if (input.playerId) where.push(sql`b.player_id = ${input.playerId}`);
  if (input.fixtureId) where.push(sql`m.fixture_id = ${input.fixtureId}`);
  if (input.status) where.push(sql`b.status in (${sql.join(input.status.map((s) => sql`${s}`), sql`, `)})`);
  if (range) where.push(sql`b.placed_at >= ${range.start.toISOString()}::timestamptz and b.placed_at < ${range.end.toISOString()}::timestamptz`);
  return where;
}

/** Every bet the filter keeps, counted and its stake summed per match, player or day placed (the caller's day). */
async function betGroups(deps: ServiceDeps, caller: Caller, by: 'fixture' | 'player' | 'day', filter: SQL) {
  const [key, name] = by === 'fixture' ? [sql`f.id::text`, sql`f.name`] : by === 'player' ? [sql`a.id::text`, sql`a.display_name`]
    : [sql`to_char(b.placed_at at time zone ${caller.timezone}, 'YYYY-MM-DD')`, sql`to_char(b.placed_at at time zone ${caller.timezone}, 'YYYY-MM-DD')`];
  const rows = await queryRows<{ key: string; name: string; count: string | number; stake: string | null }>(deps.db, sql`
    select ${key} as key, ${name} as name, count(*) as count, sum(b.stake) as stake
    from bets b join accounts a on a.id = b.player_id join markets m on m.id = b.market_id
      join fixtures f on f.id = m.fixture_id join outcomes o on o.id = b.outcome_id
    where ${filter}
    group by 1, 2 order by 1`);
  return rows.map((r) => ({ key: r.key, name: r.name, count: Number(r.count), stake: paisaFromSql(r.stake) }));
}

interface BetSqlRow {
  id: string; player_id: string; player_name: string; fixture_id: string; fixture_name: string; market_id: string; market_name: string;
  outcome_id: string; outcome_name: string; side: 'back' | 'lay'; stake: string | number; odds: number; status: 'open' | 'settled' | 'void';
  placed_at: Date | string; settled_at: Date | string | null; result: string | number | null;
}
/** A bet list's row as it is read: bets `b` of players `a`, with their market `m`, fixture `f` and outcome `o`. */
const SELECT_BET_ROWS = sql`
  select b.id, b.player_id, a.display_name as player_name, f.id as fixture_id, f.name as fixture_name, m.id as market_id,
    m.name as market_name, o.id as outcome_id, o.name as outcome_name, b.side, b.stake, b.odds, b.status, b.placed_at,
    b.settled_at, b.result
  from bets b join accounts a on a.id = b.player_id join markets m on m.id = b.market_id
    join fixtures f on f.id = m.fixture_id join outcomes o on o.id = b.outcome_id`;

function betRowOf(r: BetSqlRow) {
  const terms = { side: r.side, stake: paisaFromSql(r.stake), odds: r.odds };
  return {
    id: r.id, playerId: r.player_id, playerName: r.player_name, fixtureId: r.fixture_id, fixtureName: r.fixture_name,
    marketId: r.market_id, marketName: r.market_name, outcomeId: r.outcome_id, outcomeName: r.outcome_name,
    side: r.side, stake: terms.stake, odds: r.odds, status: r.status, placedAt: iso(r.placed_at),
    settledAt: r.settled_at === null ? null : iso(r.settled_at), result: r.result === null ? null : paisaFromSql(r.result),
    liability: liability(terms), potentialWin: potentialWin(terms),
  };
}
export type BetRow = ReturnType<typeof betRowOf>;

/** The bet list's summary columns over the bets `b` a query keeps (open liability rounded as the row's liability is). */
const SUMMARY_COLUMNS = sql`count(*) as count, sum(b.stake) as stake,
  sum(${LIABILITY}) filter (where b.status = 'open') as open_liability,
  sum(b.result) filter (where b.status = 'settled') as settled_result`;
type SummarySqlRow = { count: string | number; stake: string | null; open_liability: string | null; settled_result: string | null };
const summaryOfRow = (row: SummarySqlRow | undefined): BetSummary => ({
  count: Number(row?.count ?? 0), stake: paisaFromSql(row?.stake),
  openLiability: paisaFromSql(row?.open_liability), settledResult: paisaFromSql(row?.settled_result),
});

/**
 * The matches the filters' bets span, in kick-off order, each with the summary getBetHistory
 * gives for that match under the same filters: one grouped read for all of them.
 */
export async function betSummariesByFixture(deps: ServiceDeps, caller: Caller, input: BetFilters): Promise<Array<{
  fixtureId: string; fixtureName: string; startsAt: string; summary: BetSummary;
}>> {
  const rows = await queryRows<SummarySqlRow & { id: string; name: string; starts_at: Date | string }>(deps.db, sql`
    select f.id, f.name, f.starts_at, ${SUMMARY_COLUMNS}
    from bets b join accounts a on a.id = b.player_id join markets m on m.id = b.market_id join fixtures f on f.id = m.fixture_id
    where ${sql.join(betFilter(deps, caller, input), sql` and `)}
    group by f.id, f.name, f.starts_at
    order by f.starts_at, f.name, f.id`);
  return rows.map((r) => ({ fixtureId: r.id, fixtureName: r.name, startsAt: iso(r.starts_at), summary: summaryOfRow(r) }));
}

/** A bet as a report lists it: what its line shows, and its match and id to group and page by. */
export interface ReportBetRow {
  id: string; fixtureId: string; placedAt: string; playerName: string; marketName: string; outcomeName: string;
  side: 'back' | 'lay'; stake: number; odds: number; status: 'open' | 'settled' | 'void'; result: number | null;
}

/**
 * Each bet as one JSON array, in ReportBetRow's order: a report reads 100,000 of them, and PGlite
 * hands a row over field by field in JavaScript (slicing a buffer for each), several times the cost
 * of one text field that JSON.parse reads natively. The instant is written as toISOString writes it.
 */
const REPORT_BET_LINE = sql`json_build_array(b.id, m.fixture_id,
  to_char(b.placed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  a.display_name, m.name, o.name, b.side, b.stake, b.odds, b.status, b.result)::text`;

const reportBetRow = (line: string): ReportBetRow => {
  const [id, fixtureId, placedAt, playerName, marketName, outcomeName, side, stake, odds, status, result] = JSON.parse(line) as [
    string, string, string, string, string, string, ReportBetRow['side'], number, number, ReportBetRow['status'], number | null];
  return {
    id, fixtureId, placedAt, playerName, marketName, outcomeName, side, stake: paisaFromSql(stake), odds, status,
    result: result === null ? null : paisaFromSql(result),
  };
};

/**
 * Every bet the filters keep on these matches, in their order and each match's bets newest first
 * (getBetHistory's order), in batches of `batchRows` to twice that: whole matches together, one
 * query a batch, and a match bigger than a batch in keyset pages of its own. No summary and no count is
 * read on the way: what the batches hold is the bets themselves. Each batch names its matches'
 * markets, which the bets' market index finds (named through the join to markets, the planner
 * reads every bet of the book for each batch).
 */
export async function* betRowsOfFixtures(
  deps: ServiceDeps, caller: Caller, input: BetFilters, fixtures: ReadonlyArray<{ fixtureId: string; count: number }>, batchRows: number,
): AsyncGenerator<ReportBetRow[]> {
  const filter = sql.join(betFilter(deps, caller, input), sql` and `);
  const markets = await queryRows<{ id: string; fixture_id: string }>(deps.db, sql`
    select m.id, m.fixture_id from markets m where m.fixture_id = any(${sql.param(fixtures.map((f) => f.fixtureId))}::uuid[])`);
  const read = async (fixtureIds: readonly string[], where: SQL, limit: SQL) => {
    const wanted = new Set(fixtureIds);
    const rows = await queryRows<{ line: string }>(deps.db, sql`
      select ${REPORT_BET_LINE} as line
      from bets b join accounts a on a.id = b.player_id join markets m on m.id = b.market_id
        join fixtures f on f.id = m.fixture_id join outcomes o on o.id = b.outcome_id
      where ${filter} and b.market_id = any(${sql.param(markets.filter((m) => wanted.has(m.fixture_id)).map((m) => m.id))}::uuid[]) and ${where}
      order by f.starts_at, f.name, f.id, b.placed_at desc, b.id desc ${limit}`);
    return rows.map((r) => reportBetRow(r.line));
  };
  let pending: string[] = [];
  let pendingRows = 0;
  async function* flush(): AsyncGenerator<ReportBetRow[]> {
    if (pending.length === 0) return;
    const ids = pending;
    pending = [];
    pendingRows = 0;
    yield await read(ids, sql`true`, sql``);
  }
  for (const fixture of fixtures) {
    if (fixture.count <= batchRows) {
      pending.push(fixture.fixtureId);
      pendingRows += fixture.count;
      if (pendingRows >= batchRows) yield* flush();
      continue;
    }
    yield* flush();
    let after: ReportBetRow | null = null;
    for (;;) {
      const page: ReportBetRow[] = await read([fixture.fixtureId],
        after ? sql`(b.placed_at, b.id) < (${after.placedAt}::timestamptz, ${after.id}::uuid)` : sql`true`,
        sql`limit ${batchRows}`);
      if (page.length > 0) yield page;
      const last = page[page.length - 1];
      if (!last || page.length < batchRows) break;
      after = last;
    }
  }
  yield* flush();
}

export async function getBetHistory(deps: ServiceDeps, caller: Caller, input: {
  playerId?: string | undefined; fixtureId?: string | undefined; status?: Array<'open' | 'settled' | 'void'> | undefined;
  from?: string | undefined; to?: string | undefined; limit: number; cursor?: string | undefined;
  sort?: BetSort | undefined; groupBy?: 'fixture' | 'player' | 'day' | undefined;
} & BetRowFilters) {
  if (input.playerId) await accountInScope(deps, caller, input.playerId);
  const agent = await agentInScope(deps, caller, input.underAgentId);
  if (input.fixtureId) await fixtureExists(deps, input.fixtureId);
  const sort = input.sort ?? NEWEST_FIRST;
  const where = betFilter(deps, caller, input);
  if (input.search !== undefined) {
    const pattern = `%${likeEscape(input.search)}%`;
    where.push(sql`(a.display_name ilike ${pattern} escape '\\' or f.name ilike ${pattern} escape '\\'
      or m.name ilike ${pattern} escape '\\' or o.name ilike ${pattern} escape '\\')`);
  }
  if (agent) where.push(sql`a.path like ${`${agent.path}.%`}`);
  if (input.side) where.push(sql`b.side = ${input.side}`);
  where.push(...conditionsSql(BET_SQL, input.where));
  const filter = sql.join(where, sql` and `);
  const q = filterTag(input);
  const after = input.cursor ? decodeCursor(input.cursor, betCursorSchema(sort, q)) : null;
  const page = after ? sql`and ${afterCursor(caller, sort, after)}` : sql``;
  const rows = await queryRows<BetSqlRow>(deps.db, sql`
    ${SELECT_BET_ROWS}
    where ${filter} ${page}
    order by ${orderBy(sort)} limit ${input.limit + 1}`);
  const joins = input.search !== undefined
    ? sql`join markets m on m.id = b.market_id join fixtures f on f.id = m.fixture_id join outcomes o on o.id = b.outcome_id`
    : input.fixtureId ? sql`join markets m on m.id = b.market_id` : sql``;
  const summaryOf = async (): Promise<BetSummary> => {
    const [row] = await queryRows<SummarySqlRow>(deps.db, downlineTotals(caller, agent, input) ?? sql`
      select ${SUMMARY_COLUMNS} from bets b join accounts a on a.id = b.player_id ${joins} where ${filter}`);
    return summaryOfRow(row);
  };
  const summaries = listingSummaries(deps);
  const listing = listingKey(deps, caller, input);
  // A listing's first page sums its bets; the pages after it repeat that summary rather than
  // re-sum every matching bet per page (a report reads hundreds of pages).
  const summary = (after && summaries.get(listing, deps.realNow())) || await summaryOf();
  if (!after) summaries.put(listing, summary, deps.realNow());
  const groups = input.groupBy ? await betGroups(deps, caller, input.groupBy, filter) : undefined;
  const pageRows = rows.slice(0, input.limit);
  const last = pageRows[pageRows.length - 1];
  return {
    ...(groups && { groups }),
    bets: pageRows.map(betRowOf),
    summary,
    nextCursor: rows.length > input.limit && last ? encodeCursor(betCursor(sort, q, last)) : null,
  };
}

/**
 * The summary of a whole downline's bets (the caller's, or an agent's under it), of some statuses
 * at most, from bet_totals: the rows of each agent in it, the top one included, since every bet
 * is counted for its bettor's parent. Null when the list is narrower than that (a player, a match,
 * dates, a search, a side, a condition on the rows): its bets are summed themselves.
 */
function downlineTotals(caller: Caller, agent: ScopedAgent | null, input: BetFilters & BetRowFilters): SQL | null {
  const { playerId, fixtureId, from, to, search, side, where } = input;
  if (playerId || fixtureId || from !== undefined || to !== undefined || search !== undefined || side || where?.length) return null;
  const statuses = input.status ? sql`and t.status in (${sql.join(input.status.map((s) => sql`${s}`), sql`, `)})` : sql``;
  return sql`
    select coalesce(sum(t.bets), 0) as count, sum(t.stake) as stake,
      sum(t.liability) filter (where t.status = 'open') as open_liability, sum(t.result) filter (where t.status = 'settled') as settled_result
    from bet_totals t
    where t.agent_id = any(${downlineAgents(caller, agent)}) ${statuses}`;
}

interface BetSummary { count: number; stake: number; openLiability: number; settledResult: number }

/** The filters a summary is of: everything in the input but the page (cursor, limit), the order and the grouping. */
function listingKey(deps: ServiceDeps, caller: Caller, input: BetFilters & BetRowFilters): string {
  const { playerId, fixtureId, status, from, to, search, where, side, underAgentId } = input;
  const range = optionalDateRange(deps, caller, from, to);
  return JSON.stringify([caller.id, caller.path, playerId, fixtureId, status, range?.start, range?.end, search, where, side, underAgentId]);
}

const SUMMARY_TTL_MS = 60_000;
const SUMMARY_ENTRIES = 1_000;

/**
 * Bet-list summaries by listing, kept a minute: the summary a later page carries is the one its
 * first page computed (the list as it stood when it was opened). One store per database, so
 * backends on different databases in one process never share one.
 */
class ListingSummaries {
  private readonly entries = new Map<string, { summary: BetSummary; at: number }>();

  get(key: string, now: Date): BetSummary | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now.getTime() - entry.at > SUMMARY_TTL_MS || now.getTime() < entry.at) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.summary;
  }

  put(key: string, summary: BetSummary, now: Date): void {
    this.entries.delete(key);
    this.entries.set(key, { summary, at: now.getTime() });
    // Oldest first: a Map iterates in insertion order, and put re-inserts.
    for (const old of this.entries.keys()) {
      if (this.entries.size <= SUMMARY_ENTRIES) break;
      this.entries.delete(old);
    }
  }
}
const summariesByDatabase = new WeakMap<object, ListingSummaries>();
function listingSummaries(deps: ServiceDeps): ListingSummaries {
  let store = summariesByDatabase.get(deps.db);
  if (!store) summariesByDatabase.set(deps.db, (store = new ListingSummaries()));
  return store;
}

function betCursor(sort: BetSort, q: string | undefined, last: {
  id: string; player_id: string; side: 'back' | 'lay'; stake: string | number; odds: number; placed_at: Date | string; result: string | number | null;
}): BetCursor {
  const s = sortTag(sort);
  const terms = { side: last.side, stake: paisaFromSql(last.stake), odds: last.odds };
  const key = {
    placedAt: {},
    stake: { v: paisaFromSql(last.stake) },
    odds: { v: last.odds },
    result: { v: last.result === null ? null : paisaFromSql(last.result) },
    player: { p: last.player_id },
    liability: { v: liability(terms) },
    potentialWin: { v: potentialWin(terms) },
  }[sort.by];
  return { t: iso(last.placed_at), id: last.id, ...key, ...(s !== undefined && { s }), ...(q !== undefined && { q }) };
}

type SettlementFilters = { counterpartyId?: string | undefined; from?: string | undefined; to?: string | undefined };

function settlementFilter(deps: ServiceDeps, caller: Caller, input: SettlementFilters): SQL[] {
  const range = optionalDateRange(deps, caller, input.from, input.to);
  // A settlement of the downline is one whose parent is the caller or an agent under it (its child
  // is then of the downline): found through the parent index, and the caller's own with its upline.
  const where: SQL[] = [sql`(s.parent_id = any(${downlineAgents(caller)}) or s.child_id = ${caller.id})`];
  if (input.counterpartyId) where.push(sql`(s.child_id = ${input.counterpartyId} or s.parent_id = ${input.counterpartyId})`);
  if (range) where.push(sql`s.created_at >= ${range.start.toISOString()}::timestamptz and s.created_at < ${range.end.toISOString()}::timestamptz`);
  return where;
}

/** How many rows getSettlementHistory pages through for these filters (the counterparty already checked by the caller). */
export async function countSettlementRows(deps: ServiceDeps, caller: Caller, input: SettlementFilters): Promise<number> {
  const [row] = await queryRows<{ n: string | number }>(deps.db, sql`
    select count(*) as n from settlements s where ${sql.join(settlementFilter(deps, caller, input), sql` and `)}`);
  return Number(row?.n ?? 0);
}

export async function getSettlementHistory(deps: ServiceDeps, caller: Caller, input: {
  counterpartyId?: string | undefined; from?: string | undefined; to?: string | undefined; limit: number; cursor?: string | undefined;
  where?: Array<RowCondition<SettlementColumn>> | undefined; orderBy?: RowOrder<SettlementOrderColumn> | undefined;
}) {
  // A counterparty is someone of the downline, or the caller's own upline.
  if (input.counterpartyId && input.counterpartyId !== caller.parentId) await accountInScope(deps, caller, input.counterpartyId, 'counterparty');
  const order = input.orderBy ?? NEWEST_SETTLEMENTS;
  const s = order.by === NEWEST_SETTLEMENTS.by && order.dir === NEWEST_SETTLEMENTS.dir ? undefined : `${order.by}.${order.dir}`;
  const q = shapeTag({ where: input.where });
  const where = [...settlementFilter(deps, caller, input), ...conditionsSql({ amount: sql`s.amount` }, input.where)];
  const matching = sql.join(where, sql` and `);
  const after = input.cursor
    ? decodeCursor(input.cursor, settlementCursorShape.refine((c) => c.s === s && c.q === q && (order.by === 'amount') === (c.v !== undefined)))
    : null;
  const dir = sql.raw(order.dir === 'asc' ? 'asc' : 'desc');
  const op = sql.raw(order.dir === 'asc' ? '>' : '<');
  const rest = after && sql`${after.t}::timestamptz, ${after.id}::uuid`;
  const page = !after ? sql``
    : order.by === 'amount' ? sql`and (s.amount, s.created_at, s.id) ${op} (${after.v}::bigint, ${rest})`
      : sql`and (s.created_at, s.id) ${op} (${rest})`;
  const rows = await queryRows<{
    id: string; child_id: string; child_name: string; parent_id: string; parent_name: string; amount: string | number;
    take_before: string | number; take_after: string | number; mode: 'auto' | 'amount'; period_id: string | null;
    created_at: Date | string; created_by_name: string;
  }>(deps.db, sql`
    select s.id, s.child_id, c.display_name as child_name, s.parent_id, p.display_name as parent_name, s.amount,
      s.take_before, s.take_after, s.mode, s.period_id, s.created_at, cb.display_name as created_by_name
    from settlements s join accounts c on c.id = s.child_id join accounts p on p.id = s.parent_id
      join accounts cb on cb.id = s.created_by
    where ${matching} ${page}
    order by ${order.by === 'amount' ? sql`s.amount ${dir}, ` : sql``}s.created_at ${dir}, s.id ${dir} limit ${input.limit + 1}`);
  const [count] = await queryRows<{ n: string | number }>(deps.db, sql`
    select count(*) as n from settlements s where ${matching}`);
  const pageRows = rows.slice(0, input.limit);
  const last = pageRows[pageRows.length - 1];
  const cursorOf = (r: NonNullable<typeof last>): SettlementCursor => ({
    t: iso(r.created_at), id: r.id,
    ...(order.by === 'amount' && { v: paisaFromSql(r.amount) }), ...(s !== undefined && { s }), ...(q !== undefined && { q }),
  });
  return {
    rows: pageRows.map((r) => ({
      id: r.id, childId: r.child_id, childName: r.child_name, parentId: r.parent_id, parentName: r.parent_name,
      amount: paisaFromSql(r.amount), takeBefore: paisaFromSql(r.take_before), takeAfter: paisaFromSql(r.take_after),
      mode: r.mode, periodId: r.period_id, createdAt: iso(r.created_at), createdByName: r.created_by_name,
    })),
    matched: Number(count?.n ?? 0),
    nextCursor: rows.length > input.limit && last ? encodeCursor(cursorOf(last)) : null,
  };
}
