import { TRPCError } from '@trpc/server';
import { type SQL, sql } from 'drizzle-orm';
import type { DownlineNode, Role } from '../../shared/contracts/agent-api.js';
import type {
  CreditLimitColumn, CreditLimitOrderColumn, RowCondition, RowOrder, TakeColumn, TakeOrderColumn,
} from '../../shared/contracts/row-query.js';
import { paisaFromSql } from '../../shared/money.js';
import { queryRows } from '../db/client.js';
import { type Caller, type ServiceDeps, accountInScope, decodeOffset, encodeOffset, inDownline } from './caller.js';
import { agentInScope, conditionsSql, orderSql, shapeTag } from './row-query.js';

type TakeDirection = 'owes_you' | 'you_owe' | 'square';

/** Take in words: positive means the child owes its upline. */
export function takeDirection(take: number): TakeDirection {
  return take > 0 ? 'owes_you' : take < 0 ? 'you_owe' : 'square';
}

interface AccountBalanceRow {
  id: string; name: string; username: string; role: Role; parent_id: string; depth: number; share_bps: number;
  commission_bps: number; credit_limit: string | number; take: string | number | null;
  per_click_win: string | number | null; aggregate_daily_win: string | number | null; min_stake: string | number | null;
  notes: string | null;
  total_rows: string | number;
}

/**
 * Accounts matching `where`, each with its CL, limits and take towards its own upline, and on
 * every row the count of all that match and (`totals`) the sums of their take and CL: one read
 * for a page and its totals.
 */
function balancesQuery(where: SQL, page?: { limit: number; offset: number }, order: SQL = sql`a.depth, a.display_name, a.id`, totals = false): SQL {
  return sql`
    select a.id, a.display_name as name, a.username, a.role, a.parent_id, a.depth, a.share_bps, a.commission_bps,
      a.credit_limit, pl.per_click_win, pl.aggregate_daily_win, pl.min_stake, a.notes,
      coalesce(bal.take, 0) as take,
      count(*) over () as total_rows
      ${totals ? sql`, sum(coalesce(bal.take, 0)) over () as total_take, sum(a.credit_limit) over () as total_cl` : sql``}
    from accounts a left join player_limits pl on pl.account_id = a.id left join balances bal on bal.child_id = a.id
    where ${where}
    order by ${order}
    ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`;
}

/** What each column of the take and credit-limit rows is, in balancesQuery's terms: the row shows the same. */
const ACCOUNT_COLUMNS: Record<CreditLimitOrderColumn, SQL> = {
  name: sql`a.display_name`,
  take: sql`coalesce(bal.take, 0)`,
  creditLimit: sql`a.credit_limit`,
  available: sql`(a.credit_limit - coalesce(bal.take, 0))`,
  perClickWin: sql`pl.per_click_win`,
  aggregateDailyWin: sql`pl.aggregate_daily_win`,
  minStake: sql`pl.min_stake`,
};

const DIRECTION_SQL: Record<TakeDirection, SQL> = {
  owes_you: sql`coalesce(bal.take, 0) > 0`, you_owe: sql`coalesce(bal.take, 0) < 0`, square: sql`coalesce(bal.take, 0) = 0`,
};

interface AccountListInput<W extends string, O extends string> {
  playerId?: string | undefined; limit: number; cursor?: string | undefined;
  where?: Array<RowCondition<W>> | undefined; orderBy?: RowOrder<O> | undefined;
  direction?: TakeDirection | undefined; role?: 'agent' | 'player' | undefined; underAgentId?: string | undefined;
}

interface AccountList {
  where: SQL;
  order: SQL | undefined;
  offset: number;
  tag: string | undefined;
}

/**
 * The rows of a take or credit-limit list: the direct downline of the caller, or of `underAgentId`,
 * or one account (`playerId`, anywhere in the downline), narrowed by the rest. Ids are checked
 * before anything is read.
 */
async function accountList<W extends CreditLimitColumn, O extends CreditLimitOrderColumn>(
  deps: ServiceDeps, caller: Caller, input: AccountListInput<W, O>,
): Promise<AccountList> {
  if (input.playerId) await accountInScope(deps, caller, input.playerId);
  const agent = await agentInScope(deps, caller, input.underAgentId);
  const where: SQL[] = input.playerId
    ? [sql`a.id = ${input.playerId}`, ...(agent ? [sql`a.parent_id = ${agent.id}`] : [])]
    : [sql`a.parent_id = ${agent?.id ?? caller.id}`];
  if (input.role) where.push(sql`a.role = ${input.role}`);
  if (input.direction) where.push(DIRECTION_SQL[input.direction]);
  where.push(...conditionsSql(ACCOUNT_COLUMNS, input.where));
  const tag = shapeTag({ where: input.where, orderBy: input.orderBy, direction: input.direction, role: input.role, underAgentId: input.underAgentId });
  return {
    where: sql.join(where, sql` and `),
    order: input.orderBy ? orderSql(ACCOUNT_COLUMNS, input.orderBy, 'name', sql`a.id`) : undefined,
    offset: decodeOffset(input.cursor, tag),
    tag,
  };
}

async function countAccounts(deps: ServiceDeps, where: SQL): Promise<{ n: number; take: number; cl: number }> {
  const [totals] = await queryRows<{ take: string | null; cl: string | null; n: string | number }>(deps.db, sql`
    select sum(coalesce(bal.take, 0)) as take, sum(a.credit_limit) as cl, count(*) as n
    from accounts a left join player_limits pl on pl.account_id = a.id left join balances bal on bal.child_id = a.id
    where ${where}`);
  return { n: Number(totals?.n ?? 0), take: paisaFromSql(totals?.take), cl: paisaFromSql(totals?.cl) };
}

export async function getTake(deps: ServiceDeps, caller: Caller, input: AccountListInput<TakeColumn, TakeOrderColumn>) {
  const list = await accountList(deps, caller, input);
  const rows = await queryRows<AccountBalanceRow & { total_take: string | number; total_cl: string | number }>(
    deps.db, balancesQuery(list.where, { limit: input.limit, offset: list.offset }, list.order, true));
  // The page's window sums, or (a page past the end has no row to carry them) a read of their own.
  const first = rows[0];
  const totals = first
    ? { n: Number(first.total_rows), take: paisaFromSql(first.total_take), cl: paisaFromSql(first.total_cl) }
    : await countAccounts(deps, list.where);
  return {
    rows: rows.map((r) => {
      const t = paisaFromSql(r.take);
      const creditLimit = paisaFromSql(r.credit_limit);
      return { accountId: r.id, name: r.name, role: r.role, take: t, creditLimit, available: creditLimit - t, direction: takeDirection(t) };
    }),
    totals: { take: totals.take, cl: totals.cl, available: totals.cl - totals.take },
    matched: totals.n,
    nextCursor: encodeOffset(list.offset, rows.length, totals.n, list.tag),
  };
}

export async function getCreditLimit(deps: ServiceDeps, caller: Caller, input: AccountListInput<CreditLimitColumn, CreditLimitOrderColumn>) {
  const list = await accountList(deps, caller, input);
  const rows = await queryRows<AccountBalanceRow>(deps.db, balancesQuery(list.where, { limit: input.limit, offset: list.offset }, list.order));
  // The page's window count, or (a page past the end has no row to carry it) a count of its own.
  const matched = rows[0] ? Number(rows[0].total_rows) : (await countAccounts(deps, list.where)).n;
  const nullablePaisa = (v: string | number | null) => (v === null ? null : paisaFromSql(v));
  return {
    rows: rows.map((r) => {
      const take = paisaFromSql(r.take);
      const creditLimit = paisaFromSql(r.credit_limit);
      return {
        accountId: r.id, name: r.name, role: r.role, creditLimit,
        perClickWin: nullablePaisa(r.per_click_win), aggregateDailyWin: nullablePaisa(r.aggregate_daily_win), minStake: nullablePaisa(r.min_stake),
        take, available: creditLimit - take, notes: r.notes,
      };
    }),
    matched,
    nextCursor: encodeOffset(list.offset, rows.length, matched, list.tag),
  };
}

/**
 * Nodes the tree answer may hold before it is cut (the rest is fetched a level at a time). A node
 * is about 280 bytes of JSON, so a full tree stays near 300 KB; the demo book's whole tree
 * (about 330 accounts) fits with room to spare.
 */
export const MAX_TREE_NODES = 1000;

export async function getDownline(deps: ServiceDeps, caller: Caller, input: { depth: number }) {
  const rows = await queryRows<AccountBalanceRow & { child_count: string | number }>(deps.db, sql`
    select b.*, (select count(*) from accounts c where c.parent_id = b.id) as child_count from (${balancesQuery(
      sql`${inDownline(caller, 'a')} and a.depth <= ${caller.depth + input.depth}`,
      { limit: MAX_TREE_NODES + 1, offset: 0 },
    )}) b`);
  const truncated = rows.length > MAX_TREE_NODES;
  const nodes = new Map<string, DownlineNode>();
  const roots: DownlineNode[] = [];
  for (const r of rows.slice(0, MAX_TREE_NODES)) {
    const take = paisaFromSql(r.take);
    const creditLimit = paisaFromSql(r.credit_limit);
    const node: DownlineNode = {
      id: r.id, name: r.name, username: r.username, role: r.role,
      shareBps: r.role === 'agent' ? r.share_bps : null,
      commissionBps: r.role === 'player' ? r.commission_bps : null,
      creditLimit, take, available: creditLimit - take, childCount: Number(r.child_count), children: [],
    };
    nodes.set(r.id, node);
    // Rows come in depth order, so a parent is always placed before its children.
    const parent = nodes.get(r.parent_id);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return { tree: roots, truncated };
}

export async function getUpline(deps: ServiceDeps, caller: Caller) {
  if (caller.role !== 'agent' || !caller.parentId) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'only an agent has an upline' });
  }
  const [row] = await queryRows<{ upline_name: string; owed: string | null; downline_take: string | null }>(deps.db, sql`
    select (select display_name from accounts where id = ${caller.parentId}) as upline_name,
      (select take from balances where child_id = ${caller.id}) as owed,
      (select sum(take) from balances where parent_id = ${caller.id}) as downline_take`);
  const owed = paisaFromSql(row?.owed);
  return {
    uplineName: row?.upline_name ?? '',
    cl: caller.creditLimit,
    owed,
    takeNet: paisaFromSql(row?.downline_take) - owed,
    available: caller.creditLimit - owed,
  };
}
