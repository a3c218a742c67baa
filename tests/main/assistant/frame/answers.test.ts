/**
 * Questions about the rows of the book, asked through the real assistant against a real backend
 * (PGlite, the test book): the first sentence states the answer, and the answer is checked against
 * the truth computed here by plain SQL over the tables, never through the app's own reads.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Assistant, type TurnRecord } from '../../../../src/main/assistant/assistant.js';
import type { BackendClient } from '../../../../src/main/backend/connection.js';
import { queryRows } from '../../../../src/server/db/client.js';
import type { User } from '../../../../src/shared/contracts/agent-api.js';
import { type TurnEvent, turnEventSchema } from '../../../../src/shared/contracts/chat.js';
import { formatPoints, mulDivRound } from '../../../../src/shared/money.js';
import { deskAssistant, openDesk } from '../../../helpers/desk.js';
import { type TestBackend, accountId } from '../../../helpers/backend.js';

let backend: TestBackend, api: BackendClient, user: User, dir: string;
beforeAll(async () => ({ backend, api, user, dir } = await openDesk('answers')));
afterAll(() => backend.close());

async function ask(text: string, a = assistant()) {
  const events: TurnEvent[] = [];
  for await (const event of a.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } }, { user, api })) events.push(turnEventSchema.parse(event));
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('a turn must end with done');
  const first = done.message.text.slice(0, done.message.text.search(/[.!?](\s|$)/) + 1);
  return { text: done.message.text, first, cards: done.message.cards, record: a.records.at(-1)! };
}

function assistant(): Assistant & { records: TurnRecord[] } {
  const { a, records } = deskAssistant(dir);
  return Object.assign(a, { records });
}

const rows = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => queryRows<T>(backend.database.db, query);

/** Take of each account directly under `parent`, from the ledger (DOMAIN.md: take is computed from it). */
const takes = (parent: string) => sql`
  select a.id, a.display_name as name, a.role, a.credit_limit,
    (select coalesce(sum(l.amount), 0) from ledger l where l.account_id = ${parent} and l.counterparty_id = a.id) as take
  from accounts a where a.parent_id = ${parent}`;

describe('questions about rows, answered in words first with the exact figure', () => {
  it('a superlative: who owes me the most names the one account and its take', async () => {
    const [top] = await rows<{ name: string; take: string }>(sql`select name, take from (${takes(user.id)}) k where take > 0 order by take desc, name limit 1`);
    const { first, cards, record } = await ask('who owes me the most');
    expect(first).toBe(`${top!.name} owes you the most: ${formatPoints(Number(top!.take))} points.`);
    expect(record.flaggedFigures).toEqual([]);
    const card = cards.find((c) => c.type === 'take_table');
    expect(card?.caption).toBe('Accounts: owing you; highest take first');
  });

  it('a count: how many players are under a sub-agent, resolved by name', async () => {
    const arjun = await accountId(backend, 'arjun');
    const [n] = await rows<{ n: string }>(sql`select count(*) as n from accounts where parent_id = ${arjun} and role = 'player'`);
    const [name] = await rows<{ name: string }>(sql`select display_name as name from accounts where id = ${arjun}`);
    const { first, record } = await ask('how many players under arjun');
    expect(first).toBe(`${name!.name} has ${Number(n!.n)} players.`);
    expect(record.calls[0]).toMatchObject({ tool: 'agent.getTake', args: { underAgentId: arjun, role: 'player' } });
  });

  it('a threshold holds for every row the answer counts, not for a page', async () => {
    const [n] = await rows<{ n: string }>(sql`
      select count(*) as n from bets b join accounts p on p.id = b.player_id
      where p.path like (select path from accounts where id = ${user.id}) || '%' and b.stake > 500000
        and (b.placed_at at time zone ${user.timezone})::date = '2026-11-20'`);
    const { first, record } = await ask('how many bets over 5k today');
    expect(first).toMatch(new RegExp(`^${Number(n!.n)} bets? on 20 Nov 2026 with stake over 5,000\\.00 points`));
    expect(record.calls[0]!.args).toMatchObject({ where: [{ column: 'stake', op: 'gt', value: 500000 }] });
    // "…, and 12 more": how many more is a figure the answer computed, never withheld.
    expect(record.flaggedFigures).toEqual([]);
  });

  it('an average over every row, through the one rounding helper', async () => {
    const players = await rows<{ credit_limit: string }>(sql`select credit_limit from accounts where parent_id = ${user.id} and role = 'player'`);
    const sum = players.reduce((s, p) => s + Number(p.credit_limit), 0);
    const { first, record } = await ask('average credit limit of my players');
    expect(first).toBe(`The average credit limit of ${players.length} players is ${formatPoints(mulDivRound(sum, 1, players.length))} points.`);
    expect(record.flaggedFigures).toEqual([]);
  });

  it('a question never yields a write proposal, and a name holding an order is only a name', async () => {
    const { cards, text } = await ask('who has the lowest credit limit');
    expect(cards.some((c) => c.type === 'diff_card' || c.actions?.some((a) => a.id === 'confirm'))).toBe(false);
    expect(text).toMatch(/has the lowest credit limit: /);
  });

  it('the one a superlative named is whom "his" means next', async () => {
    const [top] = await rows<{ id: string }>(sql`select id from (${takes(user.id)}) k where take > 0 order by take desc, name limit 1`);
    const a = assistant();
    await ask('who owes me the most', a);
    const { record } = await ask("what's his credit limit", a);
    expect(record.calls).toEqual([{ tool: 'agent.getCreditLimit', args: { playerId: top!.id } }]);
  });

  it('leaves a plain read as it was: no operators, no caption', async () => {
    const { record, cards } = await ask("what's my pnl today");
    expect(record.rowAsks).toEqual([]);
    expect(cards.every((c) => c.caption === undefined)).toBe(true);
  });
});
