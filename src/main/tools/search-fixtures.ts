import * as api from '../../shared/contracts/agent-api.js';
import { name, searchSentence } from '../../shared/sentences.js';
import { DESK, opts } from './common.js';
import { defineTool } from './define.js';

export default defineTool({
  name: 'match.searchFixtures',
  label: 'matches',
  description: 'Finds fixtures (matches) by team names or short codes ("India vs Australia", "IND v AUS", "MI vs CSK"), '
    + 'with their markets and outcomes and those ids. The other tools take a match by name (fixture); use this one for the '
    + 'marketId and outcomeId a market or an outcome the user names needs, and to list matches; when several match, ask the user to pick.',
  input: api.searchFixturesInput, output: api.searchFixturesOutput,
  allowedRoles: DESK, isDestructive: false, card: 'fixture_picker', entities: {}, resolves: 'fixture',
  invoke: (args, ctx) => ctx.api.match.searchFixtures.query(args, opts(ctx)),
  render: (out, args) => (out.fixtures.length > 1 ? { type: 'fixture_picker', data: { query: args.query, fixtures: out.fixtures } } : undefined),
  say: (out, args) => searchSentence(args.query, out.fixtures.map((f) => name(f.name)), { none: 'No match is called', many: 'matches fit' }),
});
