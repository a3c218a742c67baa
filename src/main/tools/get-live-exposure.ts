import * as api from '../../shared/contracts/agent-api.js';
import { hasAny, put } from '../assistant/planner/slots.js';
import { money, name, plural } from '../assistant/words.js';
import { DESK, IDS, MONEY, opts } from './common.js';
import { defineTool } from './define.js';

export default defineTool({
  name: 'agent.getLiveExposure',
  label: 'live exposure',
  description: 'Live exposure (liability, risk, book) on open bets: per market the position on each outcome, gross and at '
    + 'the user\'s share, the worst case per market and per fixture, and the total. Narrow it with fixtureId or marketId. '
    + `${MONEY} ${IDS}`,
  input: api.getLiveExposureInput, output: api.getLiveExposureOutput,
  allowedRoles: DESK, isDestructive: false, card: 'exposure_card', entities: { fixture: 'fixtureId', market: 'marketId' },
  invoke: (args, ctx) => ctx.api.agent.getLiveExposure.query(args, opts(ctx)),
  render: (out) => ({ type: 'exposure_card', data: out }),
  // Every fixture with open bets, whole (not paged): the operators run over it in main.
  rows: { row: 'fixture', list: 'fixtures', name: 'fixtureName', id: 'fixtureId', noun: ['match', 'matches'], measure: 'exposure', columns: { exposure: 'exposure' } },
  say(d, args) {
    if (d.scopes.length === 0) return 'No open exposure.';
    const where = args.fixtureId && d.fixtures.length === 1 ? `on ${name(d.fixtures[0]!.fixtureName)}` : `across ${plural(d.fixtures.length, 'fixture')}`;
    return `Worst-case exposure ${where}: ${money(d.total.exposure)} (your share ${money(d.total.exposureAtShare)}), ${plural(d.scopes.length, 'market')}.`;
  },
  planning: {
    id: 'exposure', precedence: 100, exclusive: false, shownOn: '/agent/exposure', refreshes: true, follows: { fixture: true },
    vocabulary: ['exposure', 'exposed', 'liability', 'liabilities', 'risk', 'book', 'position', 'positions', 'worst', 'case'],
    // "book" is the whole position only now and as such: "how did the whole book do yesterday" is a
    // result, "anyone named Pooja in my book" a search.
    triggers: (r) => hasAny(r, 'exposure', 'exposed', 'liability', 'liabilities', 'risk', 'position', 'positions')
      || (hasAny(r, 'book') && r.range === null && !/\bin\s+(?:my|the|our)\s+book\b/.test(r.folded)),
    fill(s) {
      // "total runs wale market pe exposure" after a question on ind aus: a market is of a match,
      // the one the conversation is on when none is named.
      const fixture = s.fixture({ takesPlayer: false }) ?? (s.r.market ? s.conversationFixture() : null);
      const args = put({}, 'fixture', fixture);
      if (s.r.market && fixture) args.market = s.r.market;
      return { args };
    },
    examples: ['exposure on India vs Australia', "what's my total exposure right now"],
  },
});
