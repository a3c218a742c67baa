/**
 * agent.getBetHistory's server-side search and sort: the bet list is keyset-paged (a downline
 * can hold far more bets than a page), so both happen in SQL, and every page must follow the
 * same order and filter as the first. The expected lists are computed here from one complete
 * newest-first read, independently of the keyset.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BetSort } from '../../src/shared/contracts/agent-api.js';
import { queryRows } from '../../src/server/db/client.js';
import { ENGINES, type TestBackend, accountId, databaseFingerprint, startTestBackend } from '../helpers/backend.js';

type Client = ReturnType<TestBackend['client']>;
type Input = Parameters<Client['agent']['getBetHistory']['query']>[0];
type Bet = Awaited<ReturnType<Client['agent']['getBetHistory']['query']>>['bets'][number];

/** A name holding all three LIKE metacharacters, given to one player of the test book. */
const ODD_NAME = 'Anita 100%_Sure \\ Desai';
const SORTS: BetSort[] = (['placedAt', 'stake', 'odds', 'player', 'result', 'liability', 'potentialWin'] as const)
  .flatMap((by) => (['asc', 'desc'] as const).map((dir) => ({ by, dir })));

const cursorJson = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const names = (b: Bet) => [b.playerName, b.fixtureName, b.marketName, b.outcomeName];
const contains = (text: string, term: string) => text.toLowerCase().includes(term.toLowerCase());

describe.each(ENGINES)('bet history search and sort on %s', (engine) => {
  let b: TestBackend;
  let priya: Client;
  /** Every bet priya can see, newest first. */
  let all: Bet[];
  /** The database's own order of the players' names (its collation decides, not JavaScript's). */
  let nameRank: Map<string, number>;

  async function pageThrough(input: Input, limit: number): Promise<{ bets: Bet[]; pages: number }> {
    const bets: Bet[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await priya.agent.getBetHistory.query({ ...input, limit, ...(cursor && { cursor }) });
      bets.push(...page.bets);
      cursor = page.nextCursor ?? undefined;
      pages++;
      expect(pages).toBeLessThan(1_000);
    } while (cursor);
    return { bets, pages };
  }

  /** The order getBetHistory promises: key (results null last both ways), then placement time, then id. */
  function expectedOrder(bets: Bet[], sort: BetSort): Bet[] {
    const sign = sort.dir === 'asc' ? 1 : -1;
    const key = (x: Bet): number | string | null => {
      switch (sort.by) {
        case 'placedAt': return x.placedAt;
        case 'stake': return x.stake;
        case 'odds': return x.odds;
        case 'player': return nameRank.get(x.playerName)!;
        case 'result': return x.result;
        case 'liability': return x.liability;
        case 'potentialWin': return x.potentialWin;
      }
    };
    const cmp = (p: number | string, q: number | string) => (p < q ? -1 : p > q ? 1 : 0);
    return [...bets].sort((x, y) => {
      const kx = key(x);
      const ky = key(y);
      if (kx === null || ky === null) {
        if (kx !== ky) return kx === null ? 1 : -1;
      } else if (kx !== ky) {
        return sign * cmp(kx, ky);
      }
      return sign * (cmp(x.placedAt, y.placedAt) || cmp(x.id, y.id));
    });
  }

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priya = b.client(await b.login('priya'));
    // Anita is in priya's downline and has bets; the LIKE metacharacters must be found as text.
    await b.deps.db.execute(sql`update accounts set display_name = ${ODD_NAME} where id = ${await accountId(b, 'anita')}`);
    all = (await pageThrough({}, 200)).bets;
    const ranks = await queryRows<{ display_name: string }>(b.deps.db, sql`select distinct display_name from accounts order by display_name`);
    nameRank = new Map(ranks.map((r, i) => [r.display_name, i]));
  }, 120_000);
  afterAll(async () => b?.close());

  it('reads a book large enough to page, with open bets among settled ones', () => {
    expect(all.length).toBeGreaterThan(400);
    expect(new Set(all.map((x) => x.id)).size).toBe(all.length);
    expect(all.some((x) => x.result === null)).toBe(true);
    expect(all.some((x) => x.result !== null)).toBe(true);
    expect(all.filter((x) => x.playerName === ODD_NAME).length).toBeGreaterThan(0);
  });

  it('without search or sort answers as it always did: newest first, a { t, id } cursor', async () => {
    const plain = await priya.agent.getBetHistory.query({ limit: 25 });
    const explicit = await priya.agent.getBetHistory.query({ limit: 25, sort: { by: 'placedAt', dir: 'desc' } });
    expect(explicit).toEqual(plain);
    expect(plain.bets).toEqual(all.slice(0, 25));
    expect(Object.keys(cursorJson(plain.nextCursor!))).toEqual(['t', 'id']);
  });

  it.each(SORTS)('sorted by $by $dir, paging returns every bet exactly once, in order', async (sort) => {
    const { bets } = await pageThrough({ sort }, 200);
    expect(bets.map((x) => x.id)).toEqual(expectedOrder(all, sort).map((x) => x.id));
  });

  it.each(SORTS)('sorted by $by $dir in small pages of one player, ties and open bets split across pages', async (sort) => {
    const playerId = all.find((x) => x.playerName === ODD_NAME)!.playerId;
    const mine = all.filter((x) => x.playerId === playerId);
    const { bets, pages } = await pageThrough({ playerId, sort }, 3);
    expect(pages).toBeGreaterThan(2);
    expect(bets.map((x) => x.id)).toEqual(expectedOrder(mine, sort).map((x) => x.id));
  });

  it('a search pages in the sort asked for, over only the matching bets', async () => {
    const term = all.find((x) => x.playerName !== ODD_NAME)!.playerName.split(' ')[0]!;
    const sort: BetSort = { by: 'result', dir: 'desc' };
    const { bets } = await pageThrough({ search: term, sort }, 7);
    expect(bets.map((x) => x.id)).toEqual(expectedOrder(all.filter((x) => names(x).some((n) => contains(n, term))), sort).map((x) => x.id));
  });

  it.each([
    ['player name', 0], ['fixture name', 1], ['market name', 2], ['outcome name', 3],
  ] as const)('finds bets by their %s, in any case, and sums only those', async (_field, at) => {
    // A value of this field that some bet has only there, so that only this field can find that bet.
    const witness = all.find((x) => names(x).every((n, i) => i === at || !contains(n, names(x)[at]!)))!;
    expect(witness).toBeDefined();
    const term = names(witness)[at]!;
    const search = `  ${term.length % 2 ? term.toUpperCase() : term.toLowerCase()} `;
    const expected = all.filter((x) => names(x).some((n) => contains(n, term)));
    const { bets } = await pageThrough({ search }, 200);
    expect(bets.map((x) => x.id)).toEqual(expected.map((x) => x.id));
    expect(bets.map((x) => x.id)).toContain(witness.id);
    const first = await priya.agent.getBetHistory.query({ search, limit: 1 });
    expect(first.summary).toEqual({
      count: expected.length,
      stake: expected.reduce((s, x) => s + x.stake, 0),
      openLiability: expected.filter((x) => x.status === 'open').reduce((s, x) => s + x.liability, 0),
      settledResult: expected.filter((x) => x.status === 'settled').reduce((s, x) => s + (x.result ?? 0), 0),
    });
  });

  it.each(['%', '_', '\\', '0%_s', '_sure \\'])('takes %j as plain text, not a LIKE pattern', async (term) => {
    const expected = all.filter((x) => names(x).some((n) => contains(n, term)));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    const { bets } = await pageThrough({ search: term }, 200);
    expect(bets.map((x) => x.id)).toEqual(expected.map((x) => x.id));
    expect((await priya.agent.getBetHistory.query({ search: term, limit: 1 })).summary.count).toBe(expected.length);
  });

  it('a search that matches nothing answers an empty list and a zero summary', async () => {
    const none = await priya.agent.getBetHistory.query({ search: "zz' or 1=1 --" });
    expect(none).toEqual({ bets: [], summary: { count: 0, stake: 0, openLiability: 0, settledResult: 0 }, nextCursor: null });
  });

  describe('refusals change nothing', () => {
    let before: string;
    beforeAll(async () => {
      before = await databaseFingerprint(b);
    });
    afterAll(async () => {
      expect(await databaseFingerprint(b)).toBe(before);
    });

    const refused = { data: { code: 'BAD_REQUEST' } };

    it('refuses a cursor made for another sort, direction or search', async () => {
      const byStake = (await priya.agent.getBetHistory.query({ limit: 5, sort: { by: 'stake', dir: 'desc' } })).nextCursor!;
      const plain = (await priya.agent.getBetHistory.query({ limit: 5 })).nextCursor!;
      const searched = (await priya.agent.getBetHistory.query({ limit: 5, search: 'a' })).nextCursor!;
      const byPlayer = (await priya.agent.getBetHistory.query({ limit: 5, sort: { by: 'player', dir: 'asc' } })).nextCursor!;
      const byResult = (await priya.agent.getBetHistory.query({ limit: 5, sort: { by: 'result', dir: 'asc' } })).nextCursor!;
      const misuses: Input[] = [
        { cursor: byStake },
        { cursor: byStake, sort: { by: 'stake', dir: 'asc' } },
        { cursor: byStake, sort: { by: 'odds', dir: 'desc' } },
        { cursor: byStake, sort: { by: 'stake', dir: 'desc' }, search: 'a' },
        { cursor: plain, sort: { by: 'placedAt', dir: 'asc' } },
        { cursor: plain, sort: { by: 'player', dir: 'asc' } },
        { cursor: plain, search: 'a' },
        { cursor: searched },
        { cursor: searched, search: 'b' },
        { cursor: searched, search: 'A' },
        { cursor: byPlayer, sort: { by: 'result', dir: 'asc' } },
        { cursor: byResult, sort: { by: 'player', dir: 'asc' } },
      ];
      for (const input of misuses) {
        await expect(priya.agent.getBetHistory.query(input), JSON.stringify(input)).rejects.toMatchObject(refused);
        await expect(priya.agent.getBetHistory.query(input)).rejects.toThrow('not a cursor this API handed out');
      }
      // Each cursor still works with what it was made for.
      await priya.agent.getBetHistory.query({ cursor: byStake, sort: { by: 'stake', dir: 'desc' } });
      await priya.agent.getBetHistory.query({ cursor: plain, sort: { by: 'placedAt', dir: 'desc' } });
      await priya.agent.getBetHistory.query({ cursor: searched, search: ' a ' });
    });

    it('refuses forged cursors whose key no column could hold, as a bad cursor and not a crash', async () => {
      const base = { t: '2026-11-01T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' };
      const forged: Input[] = [
        { cursor: forge({ ...base, v: 3_000_000_000, s: 'odds.desc' }), sort: { by: 'odds', dir: 'desc' } },
        { cursor: forge({ ...base, v: 1e20, s: 'stake.desc' }), sort: { by: 'stake', dir: 'desc' } },
        { cursor: forge({ ...base, v: 1.5, s: 'result.asc' }), sort: { by: 'result', dir: 'asc' } },
        { cursor: forge({ ...base, v: 'x', s: 'result.asc' }), sort: { by: 'result', dir: 'asc' } },
        { cursor: forge({ ...base, s: 'stake.desc' }), sort: { by: 'stake', dir: 'desc' } },
        { cursor: forge({ ...base, v: 5 }) },
        { cursor: forge({ ...base, p: 'nobody', s: 'player.asc' }), sort: { by: 'player', dir: 'asc' } },
        { cursor: forge({ ...base, t: '0000-01-01T00:00:00Z', s: 'stake.asc', v: 1 }), sort: { by: 'stake', dir: 'asc' } },
        { cursor: forge({ ...base, extra: 1 }) },
      ];
      for (const input of forged) await expect(priya.agent.getBetHistory.query(input), JSON.stringify(input)).rejects.toMatchObject(refused);
    });

    it('a player cursor naming an account outside the downline gives nothing away', async () => {
      const [outsider] = await queryRows<{ id: string }>(b.deps.db, sql`
        select a.id from accounts a, accounts me
        where me.username = 'priya' and a.role = 'player' and a.path not like me.path || '.%' order by a.display_name limit 1`);
      const cursor = forge({ t: '2026-11-01T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000', p: outsider!.id, s: 'player.asc' });
      const page = await priya.agent.getBetHistory.query({ cursor, sort: { by: 'player', dir: 'asc' } });
      expect(page.bets).toEqual([]);
    });

    it.each([
      ['a search over 80 characters', { search: 'x'.repeat(81) }, /at most 80/],
      ['an empty search', { search: '   ' }, /at least one character/],
      ['a search with a NUL byte', { search: 'an\u0000ita' }, /control characters/],
      ['a search that is not text', { search: 42 }, /search/],
      ['an unknown sort key', { sort: { by: 'colour', dir: 'asc' } }, /sort/],
      ['an unknown direction', { sort: { by: 'stake', dir: 'up' } }, /sort/],
      ['a sort without a direction', { sort: { by: 'stake' } }, /sort/],
      ['a sort with more to it', { sort: { by: 'stake', dir: 'asc', then: 'odds' } }, /Unrecognized key/i],
      ['a sort as a string', { sort: 'stake' }, /sort/],
    ])('refuses %s', async (_what, input, message) => {
      const call = priya.agent.getBetHistory.query(input as Input);
      await expect(call).rejects.toMatchObject(refused);
      await expect(priya.agent.getBetHistory.query(input as Input)).rejects.toThrow(message);
    });
  });
});
