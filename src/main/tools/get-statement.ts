import * as api from '../../shared/contracts/agent-api.js';
import { listScope, money, name, plural } from '../../shared/sentences.js';
import { DATES, DESK, MONEY, NAMES, opts } from './common.js';
import { defineTool } from './define.js';

/** The take of the pair in words, between the account and its upline (who may be the user or a sub-agent of theirs). */
function owes(account: { name: string; parentName: string }, take: number): string {
  if (take > 0) return `${name(account.name)} owes ${name(account.parentName)} ${money(take)}`;
  if (take < 0) return `${name(account.parentName)} owes ${name(account.name)} ${money(take)}`;
  return `${name(account.name)} is square with ${name(account.parentName)}`;
}

export default defineTool({
  name: 'agent.getStatement',
  label: 'statement',
  description: 'The account statement of one player or sub-agent of the downline (player) against its upline, newest line first: '
    + 'each bet result, commission, share passed up, settlement, adjustment and credit-limit change, with when, who made it, the '
    + 'amount (positive: the account owes its upline that much more) and the running balance (the take after the line), plus the '
    + 'opening and closing balance of the period. Use it for "X\'s statement", "account statement", "ledger of X"; for a file '
    + `(pdf, excel) use a report instead. Filter by dates and kinds. ${DATES} ${MONEY} ${NAMES}`,
  input: api.getStatementInput, output: api.getStatementOutput,
  allowedRoles: DESK, isDestructive: false, card: 'statement_table', entities: { player: 'accountId' },
  invoke: (args, ctx) => ctx.api.agent.getStatement.query(args, opts(ctx)),
  render: (out, { limit: _limit, cursor: _cursor, ...query }) => ({ type: 'statement_table', data: { ...out, query } }),
  say(d, args) {
    const scope = listScope(args);
    if (d.matched === 0) return `No statement lines for ${name(d.account.name)}${scope}; ${owes(d.account, d.account.take)}.`;
    const closing = d.period ? `at the end of the period ${owes(d.account, d.closingBalance)}` : `now ${owes(d.account, d.account.take)}`;
    return `Statement of ${name(d.account.name)}${scope}: ${plural(d.matched, 'line')}; ${closing}.`;
  },
});
