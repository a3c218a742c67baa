/**
 * Row operators of the paged reads (where, orderBy, direction, role, side, underAgentId, and
 * `matched`): they run in SQL, so a condition must hold of every row of every page, `matched`
 * must count the complete result and a total must be its sum. Every list is walked through its
 * cursors in small pages, and the expected rows come from elsewhere: plain SQL on the tables
 * (take from the ledger, not from the balances the service reads) or the unfiltered list with the
 * filter applied here.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/shared/contracts/row-query.js';
import { queryRows } from '../../src/server/db/client.js';
import { liability, potentialWin } from '../../src/server/domain/bets.js';
import { ENGINES, type TestBackend, accountId, databaseFingerprint, startTestBackend } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;
type TakeInput = NonNullable<Parameters<Client['agent']['getTake']['query']>[0]>;
type CreditInput = NonNullable<Parameters<Client['agent']['getCreditLimit']['query']>[0]>;
type PnLInput = NonNullable<Parameters<Client['agent']['getPnL']['query']>[0]>;
type CommissionInput = NonNullable<Parameters<Client['agent']['getCommission']['query']>[0]>;
type BetInput = NonNullable<Parameters<Client['agent']['getBetHistory']['query']>[0]>;
type SettlementInput = NonNullable<Parameters<Client['agent']['getSettlementHistory']['query']>[0]>;
type Bet = Awaited<ReturnType<Client['agent']['getBetHistory']['query']>>['bets'][number];
type PnLRow = Awaited<ReturnType<Client['agent']['getPnL']['query']>>['rows'][number];
type CommissionRow = Awaited<ReturnType<Client['agent']['getCommission']['query']>>['rows'][number];
type Settlement = Awaited<ReturnType<Client['agent']['getSettlementHistory']['query']>>['rows'][number];

const PERIOD = { from: '2026-08-01', to: '2026-11-20' } as const;
/**
 * Bets whose stake × (odds − 1) is not a whole paisa, half of them exactly on a half: the book's
 * stakes are whole points, where every rounding rule agrees, so these show which one SQL uses.
 */
const ODD_BETS = [
  { side: 'lay', stake: 150, odds: 151 }, { side: 'back', stake: 150, odds: 151 }, { side: 'lay', stake: 12_345, odds: 187 },
  { side: 'back', stake: 333, odds: 250 }, { side: 'lay', stake: 101, odds: 199 }, { side: 'back', stake: 7, odds: 121 },
] as const;

/** The comparison as the contract defines it; a missing value meets nothing. */
function meets(value: number | null, op: Comparison, bound: number): boolean {
  if (value === null) return false;
  switch (op) {
    case 'gt': return value > bound;
    case 'gte': return value >= bound;
    case 'lt': return value < bound;
    case 'lte': return value <= bound;
    case 'eq': return value === bound;
  }
}

const sum = <T>(rows: T[], of: (r: T) => number) => rows.reduce((s, r) => s + of(r), 0);
const ids = <T extends { id: string } | { accountId: string } | { playerId: string }>(rows: T[]) =>
  rows.map((r) => ('accountId' in r ? r.accountId : 'id' in r ? r.id : r.playerId));
const sorted = (xs: string[]) => [...xs].sort();
/** A value some rows are above and some are not: the median. */
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

function expectMonotone(values: Array<number | null>, dir: 'asc' | 'desc') {
  const present = values.filter((v): v is number => v !== null);
  // Rows without a value come last, whichever the direction.
  expect(values.slice(0, present.length)).toEqual(present);
  for (let i = 1; i < present.length; i++) {
    if (dir === 'asc') expect(present[i]!).toBeGreaterThanOrEqual(present[i - 1]!);
    else expect(present[i]!).toBeLessThanOrEqual(present[i - 1]!);
  }
}

interface Page { nextCursor: string | null; matched?: number }

/**
 * Every page of a list, following its cursors. Every page must report the same `matched`
 * (it is of the whole result, not of the page).
 */
async function walk<P extends Page>(call: (cursor: string | undefined) => Promise<P>): Promise<P[]> {
  const pages: P[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(cursor);
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
    expect(pages.length).toBeLessThan(2_000);
  } while (cursor);
  for (const page of pages) expect(page.matched).toBe(pages[0]!.matched);
  return pages;
}

describe.each(ENGINES)('row operators on %s', (engine) => {
  let b: TestBackend;
  let priya: Client;
  let arjun: Client;
  let admin: Client;
  const id: Record<string, string> = {};
  /** The database's order of display names (its collation, not JavaScript's). */
  let nameRank: Map<string, number>;

  interface AccountFacts {
    id: string; name: string; role: 'agent' | 'player'; creditLimit: number; take: number; available: number;
    perClickWin: number | null; aggregateDailyWin: number | null; minStake: number | null;
  }
  /** The direct accounts of `parent`, take summed from the ledger itself (the parent's postings against each child). */
  async function accountsUnder(parent: string): Promise<AccountFacts[]> {
    const rows = await queryRows<{
      id: string; name: string; role: 'agent' | 'player'; credit_limit: string; take: string;
      per_click_win: string | null; aggregate_daily_win: string | null; min_stake: string | null;
    }>(b.deps.db, sql`
      select a.id, a.display_name as name, a.role, a.credit_limit,
        (select coalesce(sum(l.amount), 0) from ledger l where l.account_id = a.parent_id and l.counterparty_id = a.id) as take,
        pl.per_click_win, pl.aggregate_daily_win, pl.min_stake
      from accounts a left join player_limits pl on pl.account_id = a.id
      where a.parent_id = ${parent}`);
    const n = (v: string | null) => (v === null ? null : Number(v));
    return rows.map((r) => ({
      id: r.id, name: r.name, role: r.role, creditLimit: Number(r.credit_limit), take: Number(r.take),
      available: Number(r.credit_limit) - Number(r.take),
      perClickWin: n(r.per_click_win), aggregateDailyWin: n(r.aggregate_daily_win), minStake: n(r.min_stake),
    }));
  }

  /** Ids of the players anywhere under `agent`. */
  async function playersBelow(agent: string): Promise<Set<string>> {
    const rows = await queryRows<{ id: string }>(b.deps.db, sql`
      select a.id from accounts a, accounts g where g.id = ${agent} and a.role = 'player' and a.path like g.path || '.%'`);
    return new Set(rows.map((r) => r.id));
  }

  /** The order the API promises for a numeric column: value (missing last), then name, then id. */
  function byValueThenName<T>(rows: T[], value: (r: T) => number | null, name: (r: T) => string, key: (r: T) => string, dir: 'asc' | 'desc'): T[] {
    const sign = dir === 'asc' ? 1 : -1;
    return [...rows].sort((x, y) => {
      const vx = value(x);
      const vy = value(y);
      if (vx !== vy) {
        if (vx === null) return 1;
        if (vy === null) return -1;
        return sign * (vx - vy);
      }
      return (nameRank.get(name(x))! - nameRank.get(name(y))!) || (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0);
    });
  }

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priya = b.client(await b.login('priya'));
    arjun = b.client(await b.login('arjun'));
    admin = b.client(await b.login('admin'));
    for (const u of ['priya', 'arjun', 'meera', 'anita', 'vikram']) id[u] = await accountId(b, u);
    const ranks = await queryRows<{ display_name: string }>(b.deps.db, sql`select distinct display_name from accounts order by display_name`);
    nameRank = new Map(ranks.map((r, i) => [r.display_name, i]));
  }, 120_000);
  afterAll(async () => b?.close());

  // ── agent.getTake ──────────────────────────────────────────────────────────────────────────
  describe('agent.getTake', () => {
    let mine: AccountFacts[];
    const takePages = (input: TakeInput, limit = 3) => walk((cursor) => priya.agent.getTake.query({ ...input, limit, ...(cursor && { cursor }) }));

    beforeAll(async () => {
      mine = await accountsUnder(id.priya!);
      expect(mine.length).toBeGreaterThan(8);
    });

    it('without operators: every direct account, totals and matched over all of them', async () => {
      const pages = await takePages({});
      const rows = pages.flatMap((p) => p.rows);
      expect(sorted(ids(rows))).toEqual(sorted(mine.map((a) => a.id)));
      expect(pages[0]!.matched).toBe(mine.length);
      for (const page of pages) {
        expect(page.totals).toEqual({ take: sum(mine, (a) => a.take), cl: sum(mine, (a) => a.creditLimit), available: sum(mine, (a) => a.available) });
      }
    });

    it.each([
      ['take', 'gt'], ['take', 'lte'], ['available', 'lt'], ['creditLimit', 'gte'], ['creditLimit', 'eq'],
    ] as const)('where %s %s: true of every row on every page; matched and totals of exactly those rows', async (column, op) => {
      const bound = median(mine.map((a) => a[column]));
      const expected = mine.filter((a) => meets(a[column], op, bound));
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(mine.length);
      const pages = await takePages({ where: [{ column, op, value: bound }] });
      const rows = pages.flatMap((p) => p.rows);
      for (const r of rows) expect(meets(r[column], op, bound), `${r.name}: ${column} ${r[column]}`).toBe(true);
      expect(sorted(ids(rows))).toEqual(sorted(expected.map((a) => a.id)));
      expect(pages[0]!.matched).toBe(rows.length);
      const totals = { take: sum(rows, (r) => r.take), cl: sum(rows, (r) => r.creditLimit), available: sum(rows, (r) => r.available) };
      expect(totals).toEqual({ take: sum(expected, (a) => a.take), cl: sum(expected, (a) => a.creditLimit), available: sum(expected, (a) => a.available) });
      for (const page of pages) expect(page.totals).toEqual(totals);
    });

    it('a range of two conditions on one column, and two columns together, all hold', async () => {
      const takes = mine.map((a) => a.take).sort((x, y) => x - y);
      const low = takes[2]!;
      const high = takes[takes.length - 3]!;
      const where = [
        { column: 'take', op: 'gte', value: low }, { column: 'take', op: 'lte', value: high }, { column: 'creditLimit', op: 'gt', value: 0 },
      ] as const;
      const expected = mine.filter((a) => a.take >= low && a.take <= high && a.creditLimit > 0);
      const rows = (await takePages({ where: [...where] })).flatMap((p) => p.rows);
      expect(sorted(ids(rows))).toEqual(sorted(expected.map((a) => a.id)));
    });

    it.each(['asc', 'desc'] as const)('ordered by available %s: the exact order across pages (ties by name, then id)', async (dir) => {
      const rows = (await takePages({ orderBy: { by: 'available', dir } })).flatMap((p) => p.rows);
      expectMonotone(rows.map((r) => r.available), dir);
      expect(ids(rows)).toEqual(byValueThenName(mine, (a) => a.available, (a) => a.name, (a) => a.id, dir).map((a) => a.id));
    });

    it.each(['asc', 'desc'] as const)('ordered by name %s, in the database\'s collation', async (dir) => {
      const rows = (await takePages({ orderBy: { by: 'name', dir } })).flatMap((p) => p.rows);
      const ranks = rows.map((r) => nameRank.get(r.name)!);
      expectMonotone(ranks, dir);
      expect(new Set(ids(rows)).size).toBe(mine.length);
    });

    it('direction and role narrow the rows, and the totals with them', async () => {
      for (const direction of ['owes_you', 'you_owe', 'square'] as const) {
        const test = { owes_you: (t: number) => t > 0, you_owe: (t: number) => t < 0, square: (t: number) => t === 0 }[direction];
        const pages = await takePages({ direction, role: 'player' });
        const rows = pages.flatMap((p) => p.rows);
        const expected = mine.filter((a) => a.role === 'player' && test(a.take));
        expect(sorted(ids(rows)), direction).toEqual(sorted(expected.map((a) => a.id)));
        for (const r of rows) expect(r.direction).toBe(direction);
        expect(pages[0]!.matched).toBe(expected.length);
        expect(pages[0]!.totals.take).toBe(sum(expected, (a) => a.take));
      }
      const agents = (await takePages({ role: 'agent' })).flatMap((p) => p.rows);
      expect(agents.map((r) => r.role)).toEqual(mine.filter((a) => a.role === 'agent').map(() => 'agent'));
      expect(agents.map((r) => r.accountId)).toContain(id.arjun);
    });

    it('underAgentId: exactly the accounts directly under that agent', async () => {
      const under = await accountsUnder(id.arjun!);
      expect(under.length).toBeGreaterThan(1);
      const pages = await walk((cursor) => priya.agent.getTake.query({ underAgentId: id.arjun!, limit: 2, ...(cursor && { cursor }) }));
      const rows = pages.flatMap((p) => p.rows);
      expect(sorted(ids(rows))).toEqual(sorted(under.map((a) => a.id)));
      expect(pages[0]!.matched).toBe(under.length);
      expect(pages[0]!.totals.take).toBe(sum(under, (a) => a.take));
      // The caller's own id is the same list as none; the admin reaches any agent.
      expect(await priya.agent.getTake.query({ underAgentId: id.priya! })).toEqual(await priya.agent.getTake.query({}));
      const viaAdmin = await admin.agent.getTake.query({ underAgentId: id.priya!, limit: 500 });
      expect(sorted(ids(viaAdmin.rows))).toEqual(sorted(mine.map((a) => a.id)));
    });
  });

  // ── agent.getCreditLimit ───────────────────────────────────────────────────────────────────
  describe('agent.getCreditLimit', () => {
    let mine: AccountFacts[];
    const creditPages = (input: CreditInput, limit = 4) => walk((cursor) => priya.agent.getCreditLimit.query({ ...input, limit, ...(cursor && { cursor }) }));

    beforeAll(async () => {
      mine = await accountsUnder(id.priya!);
    });

    it('players with CL under a bound: every row, every page; matched counts them', async () => {
      const bound = median(mine.filter((a) => a.role === 'player').map((a) => a.creditLimit));
      const expected = mine.filter((a) => a.role === 'player' && a.creditLimit < bound);
      expect(expected.length).toBeGreaterThan(0);
      const pages = await creditPages({ role: 'player', where: [{ column: 'creditLimit', op: 'lt', value: bound }] });
      const rows = pages.flatMap((p) => p.rows);
      expect(sorted(ids(rows))).toEqual(sorted(expected.map((a) => a.id)));
      for (const r of rows) expect(r.creditLimit).toBeLessThan(bound);
      expect(pages[0]!.matched).toBe(expected.length);
    });

    it.each(['perClickWin', 'aggregateDailyWin', 'minStake'] as const)('a condition on %s keeps players only (agents have no such limit)', async (column) => {
      const bound = median(mine.filter((a) => a[column] !== null).map((a) => a[column]!));
      const expected = mine.filter((a) => meets(a[column], 'gte', bound));
      const rows = (await creditPages({ where: [{ column, op: 'gte', value: bound }] })).flatMap((p) => p.rows);
      expect(sorted(ids(rows))).toEqual(sorted(expected.map((a) => a.id)));
      for (const r of rows) expect(r[column]).not.toBeNull();
    });

    it.each(['asc', 'desc'] as const)('ordered by minStake %s: agents (no limit) last, the order exact across pages', async (dir) => {
      const rows = (await creditPages({ orderBy: { by: 'minStake', dir } })).flatMap((p) => p.rows);
      expectMonotone(rows.map((r) => r.minStake), dir);
      expect(ids(rows)).toEqual(byValueThenName(mine, (a) => a.minStake, (a) => a.name, (a) => a.id, dir).map((a) => a.id));
    });

    it('underAgentId and a condition together', async () => {
      const under = await accountsUnder(id.arjun!);
      const bound = median(under.map((a) => a.available));
      const expected = under.filter((a) => a.available >= bound);
      const page = await priya.agent.getCreditLimit.query({ underAgentId: id.arjun!, where: [{ column: 'available', op: 'gte', value: bound }] });
      expect(sorted(ids(page.rows))).toEqual(sorted(expected.map((a) => a.id)));
      expect(page.matched).toBe(expected.length);
    });
  });

  // ── agent.getPnL ───────────────────────────────────────────────────────────────────────────
  describe('agent.getPnL', () => {
    let all: PnLRow[];
    let unfiltered: Awaited<ReturnType<Client['agent']['getPnL']['query']>>;
    const pnlPages = (input: PnLInput, limit = 4) => walk((cursor) => priya.agent.getPnL.query({ ...PERIOD, ...input, limit, ...(cursor && { cursor }) }));

    beforeAll(async () => {
      unfiltered = await priya.agent.getPnL.query({ ...PERIOD, limit: 500 });
      all = unfiltered.rows;
      expect(unfiltered.nextCursor).toBeNull();
      expect(all.length).toBeGreaterThan(10);
    });

    it('without operators: matched is every row, totals as before', () => {
      expect(unfiltered.matched).toBe(all.length);
      expect(unfiltered.total).toMatchObject({ pnl: sum(all, (r) => r.pnl), commission: sum(all, (r) => r.commission), bets: sum(all, (r) => r.bets) });
      expect(unfiltered.total.yourShare).not.toBeNull();
    });

    it.each([
      ['bookResult', 'gt'], ['pnl', 'lt'], ['commission', 'gte'], ['bets', 'gte'],
    ] as const)('where %s %s: true of every row; matched and totals of the rows kept', async (column, op) => {
      const bound = median(all.map((r) => r[column]));
      const expected = all.filter((r) => meets(r[column], op, bound));
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      const pages = await pnlPages({ where: [{ column, op, value: bound }] });
      const rows = pages.flatMap((p) => p.rows);
      for (const r of rows) expect(meets(r[column], op, bound)).toBe(true);
      expect(sorted(ids(rows))).toEqual(sorted(ids(expected)));
      expect(pages[0]!.matched).toBe(rows.length);
      for (const page of pages) {
        expect(page.total).toEqual({
          bets: sum(rows, (r) => r.bets), pnl: sum(rows, (r) => r.pnl), commission: sum(rows, (r) => r.commission),
          bookResult: sum(rows, (r) => r.bookResult), yourShare: null,
        });
      }
    });

    it.each([['pnl', 'asc'], ['bookResult', 'desc'], ['bets', 'desc']] as const)('ordered by %s %s: the exact order across pages', async (by, dir) => {
      const rows = (await pnlPages({ orderBy: { by, dir } })).flatMap((p) => p.rows);
      expectMonotone(rows.map((r) => r[by]), dir);
      expect(ids(rows)).toEqual(ids(byValueThenName(all, (r) => r[by], (r) => r.name, (r) => r.playerId, dir)));
    });

    it('top 5 by commission: the first page of the order', async () => {
      const top = await priya.agent.getPnL.query({ ...PERIOD, orderBy: { by: 'commission', dir: 'desc' }, limit: 5 });
      expect(ids(top.rows)).toEqual(ids(byValueThenName(all, (r) => r.commission, (r) => r.name, (r) => r.playerId, 'desc').slice(0, 5)));
      expect(top.matched).toBe(all.length);
    });

    it('underAgentId: the players anywhere under that agent, with their totals', async () => {
      const below = await playersBelow(id.arjun!);
      const expected = all.filter((r) => below.has(r.playerId));
      expect(expected.length).toBeGreaterThan(0);
      const pages = await pnlPages({ underAgentId: id.arjun! }, 2);
      const rows = pages.flatMap((p) => p.rows);
      expect(sorted(ids(rows))).toEqual(sorted(ids(expected)));
      expect(pages[0]!.matched).toBe(expected.length);
      expect(pages[0]!.total).toMatchObject({ pnl: sum(expected, (r) => r.pnl), commission: sum(expected, (r) => r.commission), yourShare: null });
    });
  });

  // ── agent.getCommission ────────────────────────────────────────────────────────────────────
  describe('agent.getCommission', () => {
    let all: CommissionRow[];
    const commissionPages = (input: CommissionInput, limit = 3) =>
      walk((cursor) => priya.agent.getCommission.query({ ...PERIOD, ...input, limit, ...(cursor && { cursor }) }));

    beforeAll(async () => {
      const whole = await priya.agent.getCommission.query({ ...PERIOD, limit: 500 });
      all = whole.rows;
      expect(whole.matched).toBe(all.length);
      expect(all.length).toBeGreaterThan(5);
    });

    it.each([['commission', 'gt'], ['markets', 'lte']] as const)('where %s %s: every row, matched, the total of the rows kept', async (column, op) => {
      const bound = median(all.map((r) => r[column]));
      const expected = all.filter((r) => meets(r[column], op, bound));
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      const pages = await commissionPages({ where: [{ column, op, value: bound }] });
      const rows = pages.flatMap((p) => p.rows);
      expect(sorted(ids(rows))).toEqual(sorted(ids(expected)));
      expect(pages[0]!.matched).toBe(expected.length);
      for (const page of pages) expect(page.total).toBe(sum(expected, (r) => r.commission));
    });

    it.each(['asc', 'desc'] as const)('ordered by markets %s across pages', async (dir) => {
      const rows = (await commissionPages({ orderBy: { by: 'markets', dir } })).flatMap((p) => p.rows);
      expect(ids(rows)).toEqual(ids(byValueThenName(all, (r) => r.markets, (r) => r.name, (r) => r.playerId, dir)));
    });

    it('underAgentId: the players under that agent', async () => {
      const below = await playersBelow(id.arjun!);
      const page = await priya.agent.getCommission.query({ ...PERIOD, underAgentId: id.arjun!, limit: 500 });
      const expected = all.filter((r) => below.has(r.playerId));
      expect(sorted(ids(page.rows))).toEqual(sorted(ids(expected)));
      expect(page.total).toBe(sum(expected, (r) => r.commission));
    });
  });

  // ── agent.getBetHistory ────────────────────────────────────────────────────────────────────
  describe('agent.getBetHistory', () => {
    /** Every bet priya can see, newest first. */
    let all: Bet[];
    const betPages = (input: BetInput, limit = 37) => walk((cursor) => priya.agent.getBetHistory.query({ ...input, limit, ...(cursor && { cursor }) }));
    const summaryOf = (bets: Bet[]) => ({
      count: bets.length, stake: sum(bets, (x) => x.stake),
      openLiability: sum(bets.filter((x) => x.status === 'open'), (x) => x.liability),
      settledResult: sum(bets.filter((x) => x.status === 'settled'), (x) => x.result ?? 0),
    });

    beforeAll(async () => {
      const [open] = await queryRows<{ market_id: string; outcome_id: string }>(b.deps.db, sql`
        select m.id as market_id, o.id as outcome_id from markets m join outcomes o on o.market_id = m.id
        where m.status = 'open' order by m.id, o.id limit 1`);
      for (const [i, bet] of ODD_BETS.entries()) {
        await b.deps.db.execute(sql`
          insert into bets (id, player_id, market_id, outcome_id, side, stake, odds, status, placed_at)
          values (${randomUUID()}, ${id.anita}, ${open!.market_id}, ${open!.outcome_id}, ${bet.side}, ${bet.stake}, ${bet.odds}, 'open',
            ${new Date(Date.parse('2026-11-20T05:00:00Z') + i * 1000).toISOString()}::timestamptz)`);
      }
      all = (await betPages({}, 200)).flatMap((p) => p.bets);
      expect(all.length).toBeGreaterThan(400);
      expect(all.some((x) => x.side === 'lay')).toBe(true);
    });

    it.each([
      ['stake', 'gt'], ['odds', 'lte'], ['liability', 'gte'], ['potentialWin', 'lt'], ['result', 'gt'],
    ] as const)('where %s %s: true of every bet on every page; the summary is of exactly those bets', async (column, op) => {
      const bound = median(all.filter((x) => x[column] !== null).map((x) => x[column]!));
      const expected = all.filter((x) => meets(x[column], op, bound));
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      const pages = await betPages({ where: [{ column, op, value: bound }] });
      const bets = pages.flatMap((p) => p.bets);
      for (const x of bets) expect(meets(x[column], op, bound), `${x.id} ${column} ${x[column]}`).toBe(true);
      expect(ids(bets)).toEqual(ids(expected));
      for (const page of pages) expect(page.summary).toEqual(summaryOf(expected));
    });

    it('lay bets with a liability over a bound, largest liability first, across pages', async () => {
      const lays = all.filter((x) => x.side === 'lay');
      const bound = median(lays.map((x) => x.liability));
      const expected = lays.filter((x) => x.liability > bound);
      const pages = await betPages({ side: 'lay', where: [{ column: 'liability', op: 'gt', value: bound }], sort: { by: 'liability', dir: 'desc' } }, 5);
      const bets = pages.flatMap((p) => p.bets);
      expect(pages.length).toBeGreaterThan(2);
      expect(bets.every((x) => x.side === 'lay' && x.liability > bound)).toBe(true);
      expectMonotone(bets.map((x) => x.liability), 'desc');
      expect(sorted(ids(bets))).toEqual(sorted(ids(expected)));
      expect(pages[0]!.summary).toEqual(summaryOf(expected));
    });

    it('bets staked over 10k points in a day: the filter and the date together', async () => {
      const day = all.find((x) => x.stake > 1_000_000)!.placedAt.slice(0, 10);
      const onDay = (await betPages({ from: day, to: day }, 200)).flatMap((p) => p.bets);
      const expected = onDay.filter((x) => x.stake > 1_000_000);
      const pages = await betPages({ from: day, to: day, where: [{ column: 'stake', op: 'gt', value: 1_000_000 }] }, 2);
      expect(ids(pages.flatMap((p) => p.bets))).toEqual(ids(expected));
      expect(pages[0]!.summary.count).toBe(expected.length);
    });

    it.each(['liability', 'potentialWin'] as const)('%s in SQL is the row\'s own figure, rounded as the row rounds it', async (column) => {
      const compute = column === 'liability' ? liability : potentialWin;
      for (const terms of ODD_BETS) {
        const value = compute(terms);
        const expected = all.filter((x) => x.playerId === id.anita && x[column] === value);
        expect(expected.some((x) => x.stake === terms.stake && x.odds === terms.odds && x.side === terms.side)).toBe(true);
        const found = await priya.agent.getBetHistory.query({ playerId: id.anita!, where: [{ column, op: 'eq', value }], limit: 200 });
        expect(ids(found.bets), JSON.stringify(terms)).toEqual(ids(expected));
      }
    });

    it('an odds bound past any int4 compares instead of failing', async () => {
      const page = await priya.agent.getBetHistory.query({ where: [{ column: 'odds', op: 'lt', value: Number.MAX_SAFE_INTEGER }], limit: 1 });
      expect(page.summary.count).toBe(all.length);
      const none = await priya.agent.getBetHistory.query({ where: [{ column: 'odds', op: 'gt', value: Number.MAX_SAFE_INTEGER }] });
      expect(none).toEqual({ bets: [], summary: { count: 0, stake: 0, openLiability: 0, settledResult: 0 }, nextCursor: null });
    });

    it('a list sorted by player with a search and a filter pages on: its cursor is the longest the API makes', async () => {
      const input = { search: 'a', sort: { by: 'player', dir: 'desc' }, where: [{ column: 'stake', op: 'gte', value: 0 }] } as const;
      const first = await priya.agent.getBetHistory.query({ ...input, where: [...input.where], limit: 3 });
      expect(first.nextCursor!.length).toBeGreaterThan(200);
      const pages = await betPages({ ...input, where: [...input.where] }, 50);
      expect(pages[0]!.summary.count).toBe(all.filter((x) => [x.playerName, x.fixtureName, x.marketName, x.outcomeName].some((n) => n.toLowerCase().includes('a'))).length);
      expect(pages.flatMap((p) => p.bets)).toHaveLength(pages[0]!.summary.count);
    });

    it('underAgentId: the bets of the players anywhere under that agent', async () => {
      const below = await playersBelow(id.arjun!);
      const expected = all.filter((x) => below.has(x.playerId));
      expect(expected.length).toBeGreaterThan(0);
      const pages = await betPages({ underAgentId: id.arjun! }, 50);
      expect(ids(pages.flatMap((p) => p.bets))).toEqual(ids(expected));
      expect(pages[0]!.summary).toEqual(summaryOf(expected));
    });
  });

  // ── agent.getSettlementHistory ─────────────────────────────────────────────────────────────
  describe('agent.getSettlementHistory', () => {
    let all: Settlement[];
    const settlementPages = (input: SettlementInput, limit = 4) =>
      walk((cursor) => priya.agent.getSettlementHistory.query({ ...input, limit, ...(cursor && { cursor }) }));

    beforeAll(async () => {
      const pages = await settlementPages({}, 200);
      all = pages.flatMap((p) => p.rows);
      expect(all.length).toBeGreaterThan(8);
      expect(pages[0]!.matched).toBe(all.length);
      // Plain SQL: the settlements of priya's downline, and her own with her upline.
      const [row] = await queryRows<{ n: string }>(b.deps.db, sql`
        select count(*) as n from settlements s join accounts c on c.id = s.child_id, accounts me
        where me.id = ${id.priya} and (c.path like me.path || '.%' or s.child_id = me.id)`);
      expect(all.length).toBe(Number(row!.n));
    });

    it.each([['gt', 0], ['lt', 0], ['gte', 'median']] as const)('where amount %s %s: every row on every page; matched counts them', async (op, at) => {
      const bound = at === 'median' ? median(all.map((r) => r.amount)) : at;
      const expected = all.filter((r) => meets(r.amount, op, bound));
      expect(expected.length).toBeGreaterThan(0);
      const pages = await settlementPages({ where: [{ column: 'amount', op, value: bound }] });
      const rows = pages.flatMap((p) => p.rows);
      for (const r of rows) expect(meets(r.amount, op, bound)).toBe(true);
      expect(ids(rows)).toEqual(ids(expected));
      expect(pages[0]!.matched).toBe(expected.length);
    });

    it.each(['asc', 'desc'] as const)('ordered by amount %s: every settlement once, monotone across pages', async (dir) => {
      const rows = (await settlementPages({ orderBy: { by: 'amount', dir } }, 3)).flatMap((p) => p.rows);
      expectMonotone(rows.map((r) => r.amount), dir);
      expect(sorted(ids(rows))).toEqual(sorted(ids(all)));
    });

    it('ordered by createdAt ascending: the default order reversed', async () => {
      const rows = (await settlementPages({ orderBy: { by: 'createdAt', dir: 'asc' } }, 3)).flatMap((p) => p.rows);
      expect(ids(rows)).toEqual(ids(all).reverse());
      // Newest first asked for explicitly is the default, cursor and all.
      expect(await priya.agent.getSettlementHistory.query({ orderBy: { by: 'createdAt', dir: 'desc' }, limit: 3 }))
        .toEqual(await priya.agent.getSettlementHistory.query({ limit: 3 }));
    });
  });

  // ── refusals ───────────────────────────────────────────────────────────────────────────────
  describe('refusals change nothing', () => {
    let before: string;
    beforeAll(async () => {
      before = await databaseFingerprint(b);
    });
    afterAll(async () => {
      expect(await databaseFingerprint(b)).toBe(before);
    });

    const notFound = { data: { code: 'NOT_FOUND' } };
    const badRequest = { data: { code: 'BAD_REQUEST' } };

    it('an underAgentId outside the downline gets the NOT_FOUND a playerId outside it gets', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      await expect(priya.agent.getTake.query({ playerId: id.meera! })).rejects.toMatchObject(notFound);
      for (const agent of [id.meera!, id.vikram!, unknown]) {
        await expect(priya.agent.getTake.query({ underAgentId: agent })).rejects.toMatchObject(notFound);
        await expect(priya.agent.getCreditLimit.query({ underAgentId: agent })).rejects.toMatchObject(notFound);
        await expect(priya.agent.getPnL.query({ underAgentId: agent })).rejects.toMatchObject(notFound);
        await expect(priya.agent.getCommission.query({ underAgentId: agent })).rejects.toMatchObject(notFound);
        await expect(priya.agent.getBetHistory.query({ underAgentId: agent })).rejects.toMatchObject(notFound);
      }
      // A foreign agent and a missing id read the same.
      const foreign = await priya.agent.getTake.query({ underAgentId: id.meera! }).catch((e: Error) => e.message);
      const missing = await priya.agent.getTake.query({ underAgentId: unknown }).catch((e: Error) => e.message);
      expect(foreign).toBe(missing);
      // Up the tree is out of scope too.
      await expect(arjun.agent.getTake.query({ underAgentId: id.priya! })).rejects.toMatchObject(notFound);
    });

    it('an underAgentId that is not an agent is a clear BAD_REQUEST', async () => {
      for (const call of [
        () => priya.agent.getTake.query({ underAgentId: id.anita! }),
        () => priya.agent.getPnL.query({ underAgentId: id.anita! }),
        () => priya.agent.getBetHistory.query({ underAgentId: id.anita! }),
      ]) {
        await expect(call()).rejects.toMatchObject(badRequest);
        await expect(call()).rejects.toThrow(/not an agent/);
      }
    });

    it.each([
      ['a column of another list', 'getTake', { where: [{ column: 'pnl', op: 'gt', value: 1 }] }, /take|creditLimit|available/],
      ['an unknown column', 'getPnL', { where: [{ column: 'colour', op: 'gt', value: 1 }] }, /pnl/],
      ['SQL as a column', 'getBetHistory', { where: [{ column: 'stake; drop table bets', op: 'gt', value: 1 }] }, /stake/],
      ['an unknown comparison', 'getCommission', { where: [{ column: 'commission', op: 'like', value: 1 }] }, /gt|op/],
      ['a fraction of a paisa', 'getTake', { where: [{ column: 'take', op: 'gt', value: 1.5 }] }, /whole number/],
      ['a value past safe integers', 'getSettlementHistory', { where: [{ column: 'amount', op: 'gt', value: 2 ** 60 }] }, /where/],
      ['a value as text', 'getCreditLimit', { where: [{ column: 'minStake', op: 'gt', value: '100' }] }, /where/],
      ['five conditions', 'getTake', { where: Array(5).fill({ column: 'take', op: 'gt', value: 0 }) }, /at most 4/],
      ['a condition with more to it', 'getPnL', { where: [{ column: 'pnl', op: 'gt', value: 0, or: true }] }, /Unrecognized key/i],
      ['an order by an unknown column', 'getCommission', { orderBy: { by: 'bookResult', dir: 'asc' } }, /orderBy/],
      ['an order without a direction', 'getTake', { orderBy: { by: 'take' } }, /orderBy/],
      ['an unknown direction of take', 'getTake', { direction: 'sideways' }, /direction/],
      ['an unknown role', 'getCreditLimit', { role: 'platform_admin' }, /role/],
      ['an unknown side', 'getBetHistory', { side: 'both' }, /side/],
      ['an underAgentId that is not an id', 'getPnL', { underAgentId: 'arjun' }, /must be an id/],
      ['an order of settlements by name', 'getSettlementHistory', { orderBy: { by: 'name', dir: 'asc' } }, /orderBy/],
    ])('refuses %s (%s)', async (_what, procedure, input, message) => {
      const call = () => (priya.agent as unknown as Record<string, { query(i: unknown): Promise<unknown> }>)[procedure]!.query(input);
      await expect(call()).rejects.toMatchObject(badRequest);
      await expect(call()).rejects.toThrow(message);
    });

    it('an offset cursor is refused under another order or filter, and kept under its own', async () => {
      const byTake = (await priya.agent.getTake.query({ orderBy: { by: 'take', dir: 'desc' }, limit: 2 })).nextCursor!;
      const plain = (await priya.agent.getTake.query({ limit: 2 })).nextCursor!;
      const filtered = (await priya.agent.getPnL.query({ ...PERIOD, where: [{ column: 'bets', op: 'gt', value: 0 }], limit: 2 })).nextCursor!;
      const misuses: Array<() => Promise<unknown>> = [
        () => priya.agent.getTake.query({ cursor: byTake }),
        () => priya.agent.getTake.query({ cursor: byTake, orderBy: { by: 'take', dir: 'asc' } }),
        () => priya.agent.getTake.query({ cursor: byTake, orderBy: { by: 'take', dir: 'desc' }, role: 'player' }),
        () => priya.agent.getTake.query({ cursor: plain, orderBy: { by: 'name', dir: 'asc' } }),
        () => priya.agent.getTake.query({ cursor: plain, direction: 'owes_you' }),
        () => priya.agent.getPnL.query({ ...PERIOD, cursor: filtered }),
        () => priya.agent.getPnL.query({ ...PERIOD, cursor: filtered, where: [{ column: 'bets', op: 'gt', value: 1 }] }),
      ];
      for (const misuse of misuses) await expect(misuse()).rejects.toThrow('not a cursor this API handed out');
      await priya.agent.getTake.query({ cursor: byTake, orderBy: { by: 'take', dir: 'desc' } });
      await priya.agent.getTake.query({ cursor: plain });
      await priya.agent.getPnL.query({ ...PERIOD, cursor: filtered, where: [{ column: 'bets', op: 'gt', value: 0 }] });
    });

    it('a keyset cursor is refused under another order or filter, and kept under its own', async () => {
      const where = [{ column: 'stake', op: 'gt', value: 10_000 }] as const;
      const betCursor = (await priya.agent.getBetHistory.query({ where: [...where], sort: { by: 'liability', dir: 'desc' }, limit: 2 })).nextCursor!;
      const byAmount = (await priya.agent.getSettlementHistory.query({ orderBy: { by: 'amount', dir: 'asc' }, limit: 2 })).nextCursor!;
      const misuses: Array<() => Promise<unknown>> = [
        () => priya.agent.getBetHistory.query({ cursor: betCursor, where: [...where] }),
        () => priya.agent.getBetHistory.query({ cursor: betCursor, where: [...where], sort: { by: 'potentialWin', dir: 'desc' } }),
        () => priya.agent.getBetHistory.query({ cursor: betCursor, where: [{ column: 'stake', op: 'gt', value: 10_001 }], sort: { by: 'liability', dir: 'desc' } }),
        () => priya.agent.getBetHistory.query({ cursor: betCursor, where: [...where], side: 'back', sort: { by: 'liability', dir: 'desc' } }),
        () => priya.agent.getBetHistory.query({ cursor: betCursor, sort: { by: 'liability', dir: 'desc' } }),
        () => priya.agent.getSettlementHistory.query({ cursor: byAmount }),
        () => priya.agent.getSettlementHistory.query({ cursor: byAmount, orderBy: { by: 'amount', dir: 'desc' } }),
        () => priya.agent.getSettlementHistory.query({ cursor: byAmount, orderBy: { by: 'amount', dir: 'asc' }, where: [{ column: 'amount', op: 'gt', value: 0 }] }),
      ];
      for (const misuse of misuses) await expect(misuse()).rejects.toThrow('not a cursor this API handed out');
      await priya.agent.getBetHistory.query({ cursor: betCursor, where: [...where], sort: { by: 'liability', dir: 'desc' } });
      await priya.agent.getSettlementHistory.query({ cursor: byAmount, orderBy: { by: 'amount', dir: 'asc' } });
    });
  });
});
