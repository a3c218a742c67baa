import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/server/db/client.js';
import { normalizeForSearch } from '../../src/shared/text.js';
import { ENGINES, type TestBackend, addPlayer, startTestBackend } from '../helpers/backend.js';

describe.each(ENGINES)('searches by another romanisation, by sport and by id on %s', (engine) => {
  let b: TestBackend;
  let priya: ReturnType<TestBackend['client']>;

  beforeAll(async () => {
    b = await startTestBackend(engine);
    priya = b.client(await b.login('priya'));
  });
  afterAll(async () => b?.close());

  it('finds Lakshmi typed as "laxmi", which shares too few trigrams for the fuzzy tier', async () => {
    const found = await priya.agent.searchPlayers.query({ query: 'laxmi' });
    expect(found.players).toMatchObject([{ name: 'Lakshmi Menon', match: 'fuzzy' }]);
    expect((await priya.agent.searchPlayers.query({ query: 'dipak kulkarni' })).players.map((p) => p.name)).toEqual(['Deepak Kulkarni']);
  });

  it('a swapped pair or a name typed without vowels is found first, before looser trigram hits', async () => {
    expect((await priya.agent.searchPlayers.query({ query: 'lakhsmi' })).players[0]).toMatchObject({ name: 'Lakshmi Menon' });
    expect((await priya.agent.searchPlayers.query({ query: 'krn mlhtra' })).players[0]).toMatchObject({ name: 'Karan Malhotra' });
  });

  it('stays within the downline and finds nothing for a name that is not there', async () => {
    // Ishaan Bhatt is meera's player, not priya's: "ishan bhat" sounds like him but is not hers to see.
    expect((await priya.agent.searchPlayers.query({ query: 'ishan bhat' })).players).toEqual([]);
    expect((await priya.agent.searchPlayers.query({ query: 'vinod' })).players).toEqual([]);
  });

  // The by-ear tier tries only names holding a word of the vocabulary kept beside the accounts
  // (name_words); each writer of an account must leave its words there, so an account added or
  // renamed outside the seed is found by ear at once. Trigrams cannot find these: "jaswinder" is
  // 0.31 like "jasvindar kaur", "bupindar" 0.33 like "bhupinder gill", under the tier's 0.45.
  it('an account added or renamed by any writer is found by ear at once', async () => {
    const id = await addPlayer(b, 'priya', { creditLimit: 0, perClickWin: 100_000, aggregateDailyWin: 100_000, minStake: 10_000 });
    const rename = (name: string) => b.deps.db.execute(sql`update accounts set display_name = ${name}, search_name = ${normalizeForSearch(name)} where id = ${id}`);
    await rename('Jasvindar Kaur');
    expect((await priya.agent.searchPlayers.query({ query: 'jaswinder' })).players).toMatchObject([{ id, name: 'Jasvindar Kaur', match: 'fuzzy' }]);
    await rename('Bhupinder Gill');
    expect((await priya.agent.searchPlayers.query({ query: 'bupindar' })).players).toMatchObject([{ id, name: 'Bhupinder Gill', match: 'fuzzy' }]);
    expect((await priya.agent.searchPlayers.query({ query: 'jaswinder' })).players).toEqual([]);
  });

  it('the vocabulary holds every word of every account', async () => {
    const [missing] = await queryRows<{ n: string | number }>(b.deps.db, sql`
      select count(*) as n from accounts, unnest(string_to_array(search_name, ' ')) as w
      where w <> '' and not exists (select 1 from name_words nw where nw.word = w)`);
    expect(Number(missing!.n)).toBe(0);
    const [held] = await queryRows<{ n: string | number }>(b.deps.db, sql`select count(*) as n from name_words`);
    expect(Number(held!.n)).toBeGreaterThan(20);
  });

  const search = async (query: string) => (await priya.match.searchFixtures.query({ query })).fixtures;

  it('"the tennis" is the tennis match on now', async () => {
    expect((await search('the tennis')).map((f) => f.name)).toEqual(['Djokovic vs Alcaraz']);
    const cricket = await search('cricket match');
    expect(cricket.map((f) => f.name)).toContain('India vs Australia');
    expect(cricket.every((f) => f.sport === 'cricket' && f.status === 'live')).toBe(true);
  });

  it('a fixture\'s own id finds it, with its markets (the page names the match by id)', async () => {
    const [tennis] = await search('the tennis');
    const byId = await search(tennis!.id.toUpperCase());
    expect(byId.map((f) => [f.id, f.name])).toEqual([[tennis!.id, 'Djokovic vs Alcaraz']]);
    expect(byId[0]!.markets.map((m) => m.name)).toContain('Match Odds');
    expect(await search('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('two teams find their match in either order, by name or short code', async () => {
    // "inida" (two letters swapped) is too far for trigrams; it is a typo of India's own word.
    for (const query of ['aus v ind', 'ind aus', 'Australia vs India', 'austrlia vs inda', 'IND-AUS', 'inida vs austrlia', 'Inida Australia']) {
      expect((await search(query)).map((f) => f.name), query).toEqual(['India vs Australia']);
    }
  });

  it('two teams no fixture has together find nothing, never a match of one of them', async () => {
    // "ind" is India's code, so "pak vs ind" is no Pakistan vs West Indies (whose "indies" it starts).
    for (const query of ['india pakistan', 'pakistan vs england', 'Bhutan vs India', 'england vs australia', 'pak vs ind']) {
      expect(await search(query), query).toEqual([]);
    }
  });

  it('one team\'s matches come live first, then upcoming, then finished', async () => {
    expect((await search('india')).map((f) => [f.name, f.status])).toEqual([['India vs Australia', 'live'], ['India vs South Africa', 'finished']]);
    const statuses = (await search('pakistan')).map((f) => f.status);
    expect(statuses).toEqual([...statuses].sort((a, b) => ['live', 'scheduled', 'finished'].indexOf(a) - ['live', 'scheduled', 'finished'].indexOf(b)));
  });

  it('a sport beside team words narrows them to it', async () => {
    expect((await search('india cricket')).map((f) => f.name)).toContain('India vs Australia');
    expect(await search('india tennis')).toEqual([]);
  });
});
