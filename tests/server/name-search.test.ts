import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type TestBackend, startTestBackend } from '../helpers/backend.js';

describe.each(ENGINES)('player search by another romanisation on %s', (engine) => {
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

  it('stays within the downline and finds nothing for a name that is not there', async () => {
    // Ishaan Bhatt is meera's player, not priya's: "ishan bhat" sounds like him but is not hers to see.
    expect((await priya.agent.searchPlayers.query({ query: 'ishan bhat' })).players).toEqual([]);
    expect((await priya.agent.searchPlayers.query({ query: 'vinod' })).players).toEqual([]);
  });
});
