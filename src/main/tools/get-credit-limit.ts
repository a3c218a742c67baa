import * as api from '../../shared/contracts/agent-api.js';
import { money, name, plural } from '../../shared/sentences.js';
import { DESK, MONEY, NAMES, ROWS, opts } from './common.js';
import { defineTool } from './define.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';

export default defineTool({
  name: 'agent.getCreditLimit',
  label: 'credit limits',
  description: 'Credit limits of the downline: credit limit, per-click win limit, aggregate daily win limit and minimum '
    + `stake (null: not set), with take and available credit. Use it for "CL", "limits"; pass player for one account, agent for a sub-agent's accounts. ${MONEY} ${NAMES} ${ROWS}`,
  input: api.getCreditLimitInput, output: api.getCreditLimitOutput,
  allowedRoles: DESK, isDestructive: false, card: 'take_table', entities: { player: 'playerId', agent: 'underAgentId' },
  invoke: (args, ctx) => ctx.api.agent.getCreditLimit.query(args, opts(ctx)),
  render: (out) => ({ type: 'take_table', data: out }),
  rows: {
    row: 'account', list: 'rows', name: 'name', id: 'accountId', noun: ['account', 'accounts'], measure: 'creditLimit',
    columns: { creditLimit: 'creditLimit', take: 'take', available: 'available' },
    backend: {
      where: ['creditLimit', 'take', 'available'], order: { field: 'orderBy', columns: ['creditLimit', 'take', 'available'] },
      direction: true, role: true, underAgent: true, matched: 'matched', pageMax: PAGE_SIZE_MAX.rows,
    },
  },
  say(d) {
    if (d.rows.length === 0) return 'No accounts found.';
    if (d.rows.length === 1) {
      const r = d.rows[0]!;
      return `${name(r.name)}'s credit limit is ${money(r.creditLimit)}, with ${r.available >= 0 ? `${money(r.available)} available` : `${money(r.available)} over the limit`}.`;
    }
    return `Credit limits of ${plural(d.rows.length, 'account')}.`;
  },
});
