import * as api from '../../shared/contracts/agent-api.js';
import { formatDate } from '../../shared/format.js';
import { listScope, money, name, plural } from '../../shared/sentences.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';
import { DATES, DESK, MONEY, NAMES, opts } from './common.js';
import { defineTool } from './define.js';

export default defineTool({
  name: 'agent.getSettlementHistory',
  label: 'settlements',
  description: 'Past settlements (cash squared up) between the user\'s accounts: who paid whom (positive amount: the child '
    + `paid the parent), take before and after, mode and when. Pass player for one account. ${DATES} ${MONEY} ${NAMES}`,
  input: api.getSettlementHistoryInput, output: api.getSettlementHistoryOutput,
  allowedRoles: DESK, isDestructive: false, card: 'settlement_table', entities: { player: 'counterpartyId' },
  invoke: (args, ctx) => ctx.api.agent.getSettlementHistory.query(args, opts(ctx)),
  render: (out) => ({ type: 'settlement_table', data: out }),
  // The amount is signed from the child's side (positive: the child paid), so "the largest settlement" is the largest payment up.
  rows: {
    row: 'settlement', list: 'rows', name: 'childName', id: 'childId', noun: ['settlement', 'settlements'], measure: 'amount',
    columns: { amount: 'amount' },
    backend: { where: ['amount'], order: { field: 'orderBy', columns: ['amount'] }, matched: 'matched', pageMax: PAGE_SIZE_MAX.settlements },
  },
  say(d, args, timeZone) {
    if (d.rows.length === 0) return `No settlements found${listScope(args)}.`;
    const last = d.rows[0]!;
    const paid = last.amount >= 0 ? `${name(last.childName)} paid ${name(last.parentName)} ${money(last.amount)}` : `${name(last.parentName)} paid ${name(last.childName)} ${money(last.amount)}`;
    return `${plural(d.rows.length, 'settlement')}${listScope(args)}; the latest on ${formatDate(last.createdAt, timeZone)}: ${paid}.`;
  },
});
