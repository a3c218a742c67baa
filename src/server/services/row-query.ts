/**
 * SQL for the row operators of src/shared/contracts/row-query.ts. A column name never reaches the
 * SQL text: each list passes a map from its column names to the very expression its rows show,
 * so a condition and an order hold of the figure the row carries. Values go as parameters, cast
 * to bigint so that a value past an int4 column (odds) compares instead of failing to bind.
 */
import { createHash } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { type SQL, sql } from 'drizzle-orm';
import type { Comparison, OrderDirection, RowCondition, RowOrder } from '../../shared/contracts/row-query.js';
import { type Caller, type ServiceDeps, accountInScope } from './caller.js';

const OPERATOR: Record<Comparison, string> = { gt: '>', gte: '>=', lt: '<', lte: '<=', eq: '=' };

function expression<C extends string>(columns: Record<C, SQL>, column: C): SQL {
  // The contract's enum already refused any other name; this keeps a caller past it from reaching SQL.
  if (!Object.hasOwn(columns, column)) throw new TRPCError({ code: 'BAD_REQUEST', message: `no column ${JSON.stringify(column)} here` });
  return columns[column];
}

/** The conditions of `where`, one SQL each (none when absent). */
export function conditionsSql<C extends string>(columns: Record<C, SQL>, where: ReadonlyArray<RowCondition<C>> | undefined): SQL[] {
  return (where ?? []).map((c) => {
    const op = OPERATOR[c.op];
    if (op === undefined) throw new TRPCError({ code: 'BAD_REQUEST', message: `no comparison ${JSON.stringify(c.op)}` });
    return sql`(${expression(columns, c.column)}) ${sql.raw(op)} ${c.value}::bigint`;
  });
}

const direction = (dir: OrderDirection) => sql.raw(dir === 'asc' ? 'asc' : 'desc');

/**
 * ORDER BY for `order`: the column (rows without a value last either way), then the name, then
 * the id, so rows that tie keep one order and offset pages never overlap or skip. Ordered by
 * `nameColumn` itself, the id follows in the same direction.
 */
export function orderSql<C extends string>(columns: Record<C, SQL>, order: RowOrder<C>, nameColumn: C, idColumn: SQL): SQL {
  const dir = direction(order.dir);
  const name = expression(columns, nameColumn);
  if (order.by === nameColumn) return sql`${name} ${dir}, ${idColumn} ${dir}`;
  return sql`${expression(columns, order.by)} ${dir} nulls last, ${name}, ${idColumn}`;
}

/**
 * A digest of the fields that shape a list beyond its old filters, for its cursor: a cursor is
 * then refused under any other order or filter, where its place would mean nothing. Undefined
 * when none is given, so such a call's cursor is the one it always was.
 */
export function shapeTag(shape: Record<string, unknown>): string | undefined {
  const given = Object.entries(shape).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)).sort(([a], [b]) => (a < b ? -1 : 1));
  if (given.length === 0) return undefined;
  return createHash('sha256').update(JSON.stringify(given)).digest('base64url').slice(0, 12);
}

export interface ScopedAgent {
  id: string;
  path: string;
}

/**
 * The agent an `underAgentId` names: one of the caller's downline (NOT_FOUND otherwise, as for any
 * id outside it), and an agent (BAD_REQUEST otherwise). The caller's own id reads as no filter.
 */
export async function agentInScope(deps: ServiceDeps, caller: Caller, agentId: string | undefined): Promise<ScopedAgent | null> {
  if (agentId === undefined || agentId === caller.id) return null;
  const account = await accountInScope(deps, caller, agentId, 'agent');
  if (account.role !== 'agent') {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `that account is a ${account.role}, not an agent: underAgentId must name an agent of your downline` });
  }
  return { id: account.id, path: account.path };
}
