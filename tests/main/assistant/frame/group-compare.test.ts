/**
 * Grouped answers ("bets per match") and two periods compared ("pnl this week vs last week"),
 * asked through the real assistant against a real backend (PGlite, the test book): the first
 * sentence states the figures, checked against plain SQL over the tables, never the app's reads.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendClient } from '../../../../src/main/backend/connection.js';
import { queryRows } from '../../../../src/server/db/client.js';
import type { User } from '../../../../src/shared/contracts/agent-api.js';
import { type TurnEvent, turnEventSchema } from '../../../../src/shared/contracts/chat.js';
import { formatPoints } from '../../../../src/shared/money.js';
import { deskAssistant, openDesk } from '../../../helpers/desk.js';
import { type TestBackend } from '../../../helpers/backend.js';

let backend: TestBackend, api: BackendClient, user: User, dir: string;
beforeAll(async () => ({ backend, api, user, dir } = await openDesk('group-compare')));
afterAll(() => backend.close());

async function ask(text: string) {
  const { a, records } = deskAssistant(dir);
  const events: TurnEvent[] = [];
  for await (const event of a.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } }, { user, api })) events.push(turnEventSchema.parse(event));
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('a turn must end with done');
  const first = done.message.text.slice(0, done.message.text.search(/[.!?](\s|$)/) + 1);
  return { text: done.message.text, first, cards: done.message.cards, record: records.at(-1)! };
}

const rows = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => queryRows<T>(backend.database.db, query);
const tz = () => sql`(select timezone from accounts where id = ${user.id})`;
const downline = () => sql`a.path like (select path from accounts where id = ${user.id}) || '.%'`;

describe('rows grouped, and two periods compared', () => {
  it('bets per match: every bet of the period added up per match, the largest stake first, the number of matches stated', async () => {
    const { first, cards, record } = await ask('bets per match this month');
    const call = record.calls.find((c) => c.tool === 'agent.getBetHistory')!;
    expect(call.args.groupBy).toBe('fixture');
    const { from, to } = call.args as { from: string; to: string };
    const groups = await rows<{ name: string; n: string; stake: string }>(sql`
      select f.name, count(*) as n, sum(b.stake) as stake from bets b join accounts a on a.id = b.player_id
        join markets m on m.id = b.market_id join fixtures f on f.id = m.fixture_id
      where ${downline()} and (b.placed_at at time zone ${tz()})::date between ${from} and ${to}
      group by f.id, f.name order by stake desc, f.name`);
    expect(groups.length).toBeGreaterThan(1);
    const top = groups[0]!;
    expect(first).toContain(`by match (${groups.length} matches): ${top.name} ${Number(top.n)} bets, stake ${formatPoints(Number(top.stake))} points`);
    expect(record.flaggedFigures).toEqual([]);
    expect(cards.find((c) => c.type === 'bet_table')?.caption).toMatch(/^Bets grouped by match: /);
  });

  it('which match had the most bets: the bets counted per match over the whole period, the match with the most named first with its count', async () => {
    const { first, record } = await ask('which match had the most bets this month');
    const call = record.calls.find((c) => c.tool === 'agent.getBetHistory')!;
    expect(call.args.groupBy).toBe('fixture');
    const { from, to } = call.args as { from: string; to: string };
    const groups = await rows<{ name: string; n: string }>(sql`
      select f.name, count(*) as n from bets b join accounts a on a.id = b.player_id
        join markets m on m.id = b.market_id join fixtures f on f.id = m.fixture_id
      where ${downline()} and (b.placed_at at time zone ${tz()})::date between ${from} and ${to}
      group by f.id, f.name order by n desc, f.name`);
    const most = Number(groups[0]!.n);
    const tied = groups.filter((g) => Number(g.n) === most).map((g) => g.name);
    expect(first.startsWith(tied.length === 1 ? `${tied[0]} had the most bets` : tied[0]!)).toBe(true);
    expect(first).toContain(`: ${most} bets.`);
    expect(record.flaggedFigures).toEqual([]);
  });

  it('pnl per sub-agent: the players\' results added up under each one\'s own agent', async () => {
    const { first, record } = await ask('pnl per sub-agent this month');
    const { from, to } = record.calls[0]!.args as { from: string; to: string };
    const [top] = await rows<{ name: string; pnl: string }>(sql`
      select p.display_name as name, sum(l.amount) as pnl from ledger l join accounts a on a.id = l.account_id join accounts p on p.id = a.parent_id
      where a.role = 'player' and ${downline()} and l.kind = 'bet_result' and (l.occurred_at at time zone ${tz()})::date between ${from} and ${to}
      group by p.id, p.display_name order by pnl desc, name limit 1`);
    expect(first).toContain('by sub-agent');
    expect(first).toContain(`${top!.name} `);
    expect(first).toContain(formatPoints(Math.abs(Number(top!.pnl))));
  });

  it('pnl this week vs last week: both totals and the difference with its sign in words, from one read per period', async () => {
    const { first, record } = await ask('pnl this week vs last week');
    expect(record.intent).toBe('pnl+pnl');
    const periods = record.calls.map((c) => c.args as { from: string; to: string });
    expect(periods).toHaveLength(2);
    const totals = await Promise.all(periods.map(async ({ from, to }) => {
      const [row] = await rows<{ pnl: string | null }>(sql`
        select sum(l.amount) as pnl from ledger l join accounts a on a.id = l.account_id
        where a.role = 'player' and ${downline()} and l.kind = 'bet_result' and (l.occurred_at at time zone ${tz()})::date between ${from} and ${to}`);
      return Number(row?.pnl ?? 0);
    }));
    const [now, before] = totals as [number, number];
    for (const total of totals) expect(first).toContain(formatPoints(Math.abs(total)));
    const difference = now - before;
    expect(first).toContain(difference === 0 ? 'the same' : `${formatPoints(Math.abs(difference))} points ${difference > 0 ? 'higher' : 'lower'}`);
    expect(record.flaggedFigures).toEqual([]);
  });
});
