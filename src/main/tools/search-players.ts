import * as api from '../../shared/contracts/agent-api.js';
import { name, searchSentence } from '../../shared/sentences.js';
import { DESK, opts } from './common.js';
import { defineTool } from './define.js';

export default defineTool({
  name: 'agent.searchPlayers',
  label: 'players',
  description: 'Finds players and sub-agents in the user\'s own downline by name (partial, misspelt or unaccented is fine). '
    + 'The other tools take a name themselves (player, agent); use this one to look people up ("anyone called Sharma?"). Each match '
    + "says whether it was exact, a prefix or fuzzy; when several match, ask the user to pick rather than guessing.",
  input: api.searchPlayersInput, output: api.searchPlayersOutput,
  allowedRoles: DESK, isDestructive: false, card: 'player_picker', entities: {}, resolves: 'player',
  invoke: (args, ctx) => ctx.api.agent.searchPlayers.query(args, opts(ctx)),
  // One match needs no choosing; none is said in words, not with an empty picker.
  render: (out, args) => (out.players.length > 1 ? { type: 'player_picker', data: { query: args.query, players: out.players } } : undefined),
  say: (out, args) => searchSentence(args.query, out.players.map((p) => `${name(p.name)} (${name(p.username)})`),
    { none: 'No one in your downline matches', many: 'people in your downline match' }),
});
