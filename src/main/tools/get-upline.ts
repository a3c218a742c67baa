import * as api from '../../shared/contracts/agent-api.js';
import { money, takeSentence } from '../../shared/sentences.js';
import { AGENT_ONLY, MONEY, opts } from './common.js';
import { defineTool } from './define.js';

export default defineTool({
  name: 'agent.getUpline',
  label: 'your balance',
  description: 'The user\'s own position with their upline agent: their credit limit, what they owe the upline, the net '
    + `of their downline's take against it, and available credit. Use it for "my balance", "my CL", "what do I owe". ${MONEY}`,
  input: api.getUplineInput, output: api.getUplineOutput,
  allowedRoles: AGENT_ONLY, isDestructive: false, card: 'balance_card', entities: {},
  invoke: (args, ctx) => ctx.api.agent.getUpline.query(args, opts(ctx)),
  render: (out) => ({ type: 'balance_card', data: out }),
  say(d) {
    // `owed` is the user's take towards the upline: the upline's take towards the user is its negation.
    return `${takeSentence(d.uplineName, -d.owed)} Your credit limit is ${money(d.cl)}, ${money(d.available)} available.`;
  },
});
