import * as api from '../../shared/contracts/agent-api.js';
import { money, name, plural } from '../../shared/sentences.js';
import { DESK, MONEY, NAMES, marketIds, opts } from './common.js';
import { defineTool } from './define.js';

export default defineTool({
  name: 'agent.getLiveExposure',
  label: 'live exposure',
  description: 'Live exposure (liability, risk, book) on open bets: per market the position on each outcome, gross and at '
    + 'the user\'s share, the worst case per market and per fixture, and the total. Narrow it with fixture or marketId. '
    + `${MONEY} ${NAMES} ${marketIds('marketId')}`,
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
});
