/**
 * The account statement: every line of one pair (an account of the caller's downline → its
 * upline) with the running take after each. Money lines are the upline's ledger postings against
 * the account, so their sum is the take exactly (DOMAIN.md: a take equals the ledger sum for that
 * pair); credit-limit lines come from the audit of `limits.edit` and move nothing.
 */
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { STATEMENT_KINDS, type StatementKind } from '../../shared/contracts/agent-api.js';
import { FIRST_DAY, LAST_DAY, addDays } from '../../shared/dates.js';
import { paisaFromSql } from '../../shared/money.js';
import { queryRows } from '../db/client.js';
import { type Caller, type ServiceDeps, accountInScope, decodeCursor, encodeCursor, optionalDateRange } from './caller.js';
import { shapeTag } from './row-query.js';

/** A line's place: its time, its source (0 ledger, 1 audit: a money line before a limit change of the same instant) and its id there. */
const statementCursorShape = z.strictObject({
  t: z.iso.datetime().refine((t) => t >= FIRST_DAY && t < `${addDays(LAST_DAY, 1)}T`),
  k: z.union([z.literal(0), z.literal(1)]),
  n: z.number().int().min(1).safe(),
  q: z.string().max(20).optional(),
});

const iso = (v: Date | string) => new Date(v).toISOString();
const nullablePaisa = (v: string | number | null) => (v === null ? null : paisaFromSql(v));

/**
 * Every line of the pair with its running balance, before any filter: the balance of a line is of
 * all lines up to it, whatever a page keeps. Ties in time go ledger first, then by id, the order
 * the postings were written in.
 */
function runningLines(childId: string, parentId: string): SQL {
  return sql`
    with lines as (
      select l.occurred_at as at, 0 as k, l.id as n, l.kind::text as kind, l.amount, l.market_id, l.bet_id, l.settlement_id,
        null::bigint as cl_before, null::bigint as cl_after, null::uuid as actor_id
      from ledger l where l.account_id = ${parentId} and l.counterparty_id = ${childId}
      union all
      select a.created_at, 1, a.id, 'credit_limit', null::bigint, null::uuid, null::uuid, null::uuid,
        (a.before->>'value')::bigint, (a.after->>'value')::bigint, a.actor_id
      from audit_log a
      where a.action = 'limits.edit' and a.target_id = ${childId} and a.after->>'limitType' = 'creditLimit'
    )
    select x.*, sum(coalesce(x.amount, 0)) over (order by x.at, x.k, x.n rows between unbounded preceding and current row) as balance
    from lines x`;
}

export async function getStatement(deps: ServiceDeps, caller: Caller, input: {
  accountId: string; from?: string | undefined; to?: string | undefined; kinds?: StatementKind[] | undefined;
  limit: number; cursor?: string | undefined;
}) {
  const range = optionalDateRange(deps, caller, input.from, input.to);
  const kinds = input.kinds ? STATEMENT_KINDS.filter((k) => input.kinds!.includes(k)) : undefined;
  const q = shapeTag({ kinds });
  const after = input.cursor ? decodeCursor(input.cursor, statementCursorShape.refine((c) => c.q === q)) : null;
  const account = await accountInScope(deps, caller, input.accountId, 'account');

  const where: SQL[] = [sql`true`];
  if (range) where.push(sql`r.at >= ${range.start.toISOString()}::timestamptz and r.at < ${range.end.toISOString()}::timestamptz`);
  if (kinds) where.push(sql`r.kind in (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})`);
  const matching = sql.join(where, sql` and `);
  const page = after ? sql`and (r.at, r.k, r.n) < (${after.t}::timestamptz, ${after.k}::integer, ${after.n}::bigint)` : sql``;
  const running = runningLines(account.id, account.parentId);

  const [rows, [totals], [balances], [parent]] = await Promise.all([
    queryRows<{
      at: Date | string; k: number; n: string | number; kind: StatementKind; amount: string | number | null; balance: string | number;
      cl_before: string | number | null; cl_after: string | number | null; market_id: string | null; market_name: string | null;
      fixture_name: string | null; bet_id: string | null; outcome_name: string | null; side: 'back' | 'lay' | null;
      settlement_id: string | null; period_id: string | null; made_by_id: string | null; made_by_name: string | null;
    }>(deps.db, sql`
      select r.at, r.k, r.n, r.kind, r.amount, r.balance, r.cl_before, r.cl_after, r.market_id, m.name as market_name,
        f.name as fixture_name, r.bet_id, o.name as outcome_name, b.side, r.settlement_id, s.period_id,
        coalesce(sb.id, ab.id) as made_by_id, coalesce(sb.display_name, ab.display_name) as made_by_name
      from (${running}) r
        left join markets m on m.id = r.market_id left join fixtures f on f.id = m.fixture_id
        left join bets b on b.id = r.bet_id left join outcomes o on o.id = b.outcome_id
        left join settlements s on s.id = r.settlement_id left join accounts sb on sb.id = s.created_by
        left join accounts ab on ab.id = r.actor_id
      where ${matching} ${page}
      order by r.at desc, r.k desc, r.n desc limit ${input.limit + 1}`),
    queryRows<{ n: string | number; net: string | number | null }>(deps.db, sql`
      select count(*) as n, sum(r.amount) as net from (${running}) r where ${matching}`),
    queryRows<{ take: string | number | null; opening: string | number | null; closing: string | number | null }>(deps.db, sql`
      select sum(l.amount) as take,
        ${range ? sql`sum(l.amount) filter (where l.occurred_at < ${range.start.toISOString()}::timestamptz)` : sql`0`} as opening,
        ${range ? sql`sum(l.amount) filter (where l.occurred_at < ${range.end.toISOString()}::timestamptz)` : sql`sum(l.amount)`} as closing
      from ledger l where l.account_id = ${account.parentId} and l.counterparty_id = ${account.id}`),
    queryRows<{ name: string }>(deps.db, sql`select display_name as name from accounts where id = ${account.parentId}`),
  ]);

  const pageRows = rows.slice(0, input.limit);
  const last = pageRows[pageRows.length - 1];
  return {
    account: {
      id: account.id, name: account.name, role: account.role, parentId: account.parentId, parentName: parent?.name ?? '',
      creditLimit: account.creditLimit, take: paisaFromSql(balances?.take ?? null),
    },
    period: range && { from: range.from, to: range.to, timezone: range.timezone },
    openingBalance: paisaFromSql(balances?.opening ?? null),
    closingBalance: paisaFromSql(balances?.closing ?? null),
    lines: pageRows.map((r) => ({
      id: `${r.k === 0 ? 'l' : 'a'}${r.n}`, at: iso(r.at), kind: r.kind,
      counterpartyId: account.parentId, counterpartyName: parent?.name ?? '',
      madeById: r.made_by_id, madeByName: r.made_by_name,
      amount: nullablePaisa(r.amount), balanceAfter: paisaFromSql(r.balance),
      marketId: r.market_id, marketName: r.market_name, fixtureName: r.fixture_name,
      betId: r.bet_id, outcomeName: r.outcome_name, side: r.side,
      settlementId: r.settlement_id, periodId: r.period_id,
      creditLimitBefore: nullablePaisa(r.cl_before), creditLimitAfter: nullablePaisa(r.cl_after),
    })),
    matched: Number(totals?.n ?? 0),
    net: paisaFromSql(totals?.net ?? null),
    nextCursor: rows.length > input.limit && last
      ? encodeCursor({ t: iso(last.at), k: Number(last.k) === 0 ? 0 : 1, n: Number(last.n), ...(q !== undefined && { q }) })
      : null,
  };
}
