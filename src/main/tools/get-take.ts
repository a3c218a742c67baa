import * as api from '../../shared/contracts/agent-api.js';
import { plural, takePhrase, takeSentence } from '../../shared/sentences.js';
import { DESK, MONEY, NAMES, ROWS, opts } from './common.js';
import { defineTool } from './define.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';

export default defineTool({
  name: 'agent.getTake',
  label: 'take',
  description: 'Take: what each direct downline account currently owes the user or is owed (direction owes_you / you_owe / '
    + 'square), with credit limit and available credit (CL − take), and totals. Use it for "who owes me", "balance", '
    + `"how much does X owe"; pass player for one account, agent for a sub-agent's accounts. ${MONEY} ${NAMES} ${ROWS}`,
  input: api.getTakeInput, output: api.getTakeOutput,
  allowedRoles: DESK, isDestructive: false, card: 'take_table', entities: { player: 'playerId', agent: 'underAgentId' },
  invoke: (args, ctx) => ctx.api.agent.getTake.query(args, opts(ctx)),
  render: (out) => ({ type: 'take_table', data: out }),
  rows: {
    row: 'account', list: 'rows', name: 'name', id: 'accountId', noun: ['account', 'accounts'], measure: 'take',
    columns: { take: 'take', creditLimit: 'creditLimit', available: 'available' },
    backend: {
      where: ['take', 'creditLimit', 'available'], order: { field: 'orderBy', columns: ['take', 'creditLimit', 'available'] },
      direction: true, role: true, underAgent: true, matched: 'matched', totals: { take: 'totals.take', creditLimit: 'totals.cl', available: 'totals.available' }, pageMax: PAGE_SIZE_MAX.rows,
    },
  },
  say(d) {
    if (d.rows.length === 0) return 'Nobody in your downline has a balance.';
    if (d.rows.length === 1) return takeSentence(d.rows[0]!.name, d.rows[0]!.take);
    const net = takePhrase(d.totals.take, 'your downline');
    return `Take of ${plural(d.rows.length, 'account')}. Net: ${net}.`;
  },
});
