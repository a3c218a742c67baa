import * as actions from '../../shared/contracts/agent-actions.js';
import { amountRefusal } from '../../shared/parse/amount.js';
import { ask, hasAny } from '../assistant/planner/slots.js';
import { DESK, IDS, MONEY } from './common.js';
import { defineTool } from './define.js';

// No handlers yet: planned, gated and refused by the registry as not available in this version.
export default defineTool({
  name: 'agent.placeHedgeBet',
  label: 'hedge bet',
  description: 'Places a hedge (lay-off) bet on an outcome, back or lay, for a stake. Shows a bet slip the user must '
    + `confirm; nothing is placed until then. ${MONEY} ${IDS}`,
  input: actions.placeHedgeBetInput, output: actions.placeHedgeBetOutput,
  allowedRoles: DESK, isDestructive: true, card: 'bet_slip',
  entities: { fixture: 'fixtureId', market: 'marketId', outcome: 'outcomeId' },
  planning: {
    id: 'hedge', precedence: 20, exclusive: true, amount: { arg: 'stake' }, asQuestion: 'exposure', follows: { fixture: true },
    vocabulary: ['hedge', 'hedging', 'cover', 'lay'],
    triggers: (r) => hasAny(r, 'hedge', 'hedging') || /\b(?:back|lay)\s+(?:₹\s*)?\d/.test(r.folded) || /\bplace\s+(?:a\s+)?(?:back\s+|lay\s+)?bet\b/.test(r.folded),
    fill(s) {
      const r = s.r;
      const fixture = s.namedFixture() ?? s.fixture({ takesPlayer: false });
      if (!fixture) return ask('needs_fixture', 'Which match should the hedge be on?');
      const outcomeName = r.names.find((n) => n.before === 'on' || n.before === 'back' || n.before === 'lay')?.text
        ?? /\b(?:on|back|lay)\s+(the\s+draw|draw|over\s+[\d.]+|under\s+[\d.]+)\b/.exec(r.folded)?.[1] ?? null;
      if (!outcomeName) return ask('needs_outcome', 'Which outcome should I back or lay?');
      const stake = r.amounts[0];
      if (!stake) return ask('needs_amount', 'What stake should the hedge be?');
      const refusal = amountRefusal(stake);
      if (refusal !== null || stake.paisa === null) return ask('needs_amount', refusal ?? 'What stake should the hedge be?');
      const side = /\blay\b/.test(r.folded) && !/\bhedge\b/.test(r.folded.replace(/\blay\b.*/, '')) ? 'lay' : 'back';
      return { args: { fixture, market: r.market ?? 'match odds', outcome: outcomeName, side, stake: stake.paisa } };
    },
    examples: ['hedge 10k on Australia in India vs Australia match odds'],
  },
});
