import * as api from '../../shared/contracts/agent-api.js';
import { plural } from '../../shared/sentences.js';
import { DESK, MONEY, opts } from './common.js';
import { defineTool } from './define.js';

export default defineTool({
  name: 'agent.getDownline',
  label: 'your downline',
  description: 'The user\'s downline as a tree: sub-agents and players with their share, commission rate, credit limit '
    + `(CL), take and available credit, to the given depth (default 2). Use it for "my players", "my sub-agents", "downline". ${MONEY}`,
  input: api.getDownlineInput, output: api.getDownlineOutput,
  allowedRoles: DESK, isDestructive: false, card: 'downline_tree', entities: {},
  invoke: (args, ctx) => ctx.api.agent.getDownline.query(args, opts(ctx)),
  render: (out) => ({ type: 'downline_tree', data: out }),
  say: (d) => `Your downline: ${plural(d.tree.length, 'direct account')}.`,
});
