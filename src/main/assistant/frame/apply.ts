/**
 * A question's row operators put into a planned read: the order, the row count, the thresholds,
 * the direction, the role and the sub-agent become the tool's own arguments where its backend runs
 * them (rows.ts says which), so "over 10k" is true of every row and a count is of the whole
 * result. What the tool cannot run is said, never dropped: the answer names it.
 */
import type { TakeDirection } from '../../../shared/contracts/agent-api.js';
import type { ToolModule } from '../../tools/define.js';
import type { ColumnConcept, GroupField, GroupKey, RowsDeclaration } from '../../tools/rows.js';
import type { PlannedCall } from '../planner/types.js';
import type { Comparison, Period, RowAsk } from './row-ask.js';

/** What the answer states, with each column as the tool's rows name it. */
export interface AppliedAsk {
  tool: string;
  /** The column the answer is about, and the row field holding it. */
  column: ColumnConcept;
  extreme: 'max' | 'min' | null;
  limit: number | null;
  aggregate: 'count' | 'sum' | 'avg' | null;
  filters: ReadonlyArray<{ column: ColumnConcept; field: string; op: Comparison; value: number; said: string }>;
  direction: TakeDirection | null;
  role: 'player' | 'agent' | null;
  /** The sub-agent's name as typed; the gate resolves it (planner-form `agent`). */
  underAgent: string | null;
  /** Operators this tool cannot run, in words ("a filter on odds"): the answer says so. */
  unsupported: readonly string[];
  /** The rows come back ordered (by the backend, or sorted in main over a complete result). */
  ordered: boolean;
  /**
   * "per match": the groups the answer adds the rows up by, over every row; `backend` when the
   * backend adds them up (its `groups` list), else main does over a complete result. Null when none is asked.
   */
  groupBy: { by: GroupKey; field: GroupField; backend: boolean } | null;
  /** A grouping asked that these rows do not hold ("bets per sub-agent"): the answer says so. */
  cannotGroup: GroupKey | null;
}

/**
 * Two periods compared ("pnl this week vs last week"): the read planned once per period, and the
 * figure of each the answer sets side by side: the backend's count or total over every matched row.
 */
export interface AppliedComparison {
  tool: string;
  /** The column totalled; null: the rows are counted. */
  column: ColumnConcept | null;
  periods: readonly [Period, Period];
}

/** Rows read for a superlative: the one it names, and those behind it on the card. */
const SUPERLATIVE_ROWS = 10;

/** Planner-form argument for the sub-agent whose accounts a read lists: the gate resolves it to the tool's own field. */
export const AGENT_ARG = 'agent';

/**
 * The call with the question's operators as arguments, and what the answer must state; null when
 * the tool's rows do not hold what is asked (a call about one player, or a tool with no rows).
 */
export function applyRowAsk(call: PlannedCall, ask: RowAsk, module: ToolModule): { call: PlannedCall; applied: AppliedAsk } | null {
  const rows = module.rows;
  if (!rows || !ask.asks) return null;
  const args: Record<string, unknown> = { ...call.args };
  const underAgent = ask.underAgent !== null && rows.backend?.underAgent ? ask.underAgent : null;
  if (underAgent !== null) {
    // "players under Arjun": Arjun is whose accounts are meant, not the one account read.
    if (typeof args.player === 'string' && sameName(args.player, underAgent)) delete args.player;
    args[AGENT_ARG] = underAgent;
  }
  // One player's own row answers no superlative, count or total; one player's bets still do.
  if (rows.row === 'account' && args.player !== undefined) return null;

  // An account's row is one player's already: "avg commission per player" is the average of the rows.
  const asked = ask.groupBy === 'player' && rows.row === 'account' ? null : ask.groupBy;
  // A group a superlative picks is grouped by only where these rows hold it ("who owes the most" ranks accounts).
  const picked = asked === null && ask.pick !== null && rows.groups?.[ask.pick] !== undefined ? ask.pick : null;
  const by = asked ?? picked;
  const group = by !== null ? rows.groups?.[by] : undefined;
  const groupBy = by !== null && group ? { by, field: group, backend: false } : null;
  // A grouping alone that these rows cannot hold leaves the read as planned.
  if (ask.groupBy !== null && !groupBy && !asksBesidesGroups(ask)) return null;
  const column = ask.measure !== null && rows.columns[ask.measure] !== undefined ? ask.measure : rows.measure;
  const field = rows.columns[column]!;
  const unsupported: string[] = [];
  const filters: Array<AppliedAsk['filters'][number]> = [];
  for (const f of ask.filters) {
    const on = f.column !== null && rows.columns[f.column] !== undefined ? f.column : f.column === null ? column : null;
    if (on === null || (rows.backend && !rows.backend.where.includes(on))) {
      unsupported.push(`“${f.said}”`);
      continue;
    }
    filters.push({ column: on, field: rows.columns[on]!, op: f.op, value: f.value, said: f.said });
  }
  const backend = rows.backend;
  if (backend) {
    if (filters.length > 0) args.where = filters.map((f) => ({ column: f.field, op: f.op, value: f.value }));
    if (ask.direction !== null && backend.direction) args.direction = ask.direction;
    if (ask.role !== null && backend.role) args.role = ask.role;
  }
  let ordered = false;
  // An order or a row count the planner read from the words itself stands ("10 most recent bets"):
  // the frame answers from it when it is the same ranking, and otherwise leaves the read as planned;
  // unless the words name the column to rank by, which no order on another column answers ("open bets
  // sorted by potential win, highest first" is not by stake).
  const planned = backend ? (args[backend.order.field] as { by?: unknown; dir?: unknown } | undefined) : undefined;
  const named = ask.measure !== null && column === ask.measure;
  // Groups are ranked in main over every row, never the rows themselves.
  if (ask.extreme !== null && groupBy === null) {
    const dir = ask.extreme === 'max' ? 'desc' : 'asc';
    if (!backend) ordered = true;
    else if (planned && (planned.by === field || !named || !backend.order.columns.includes(column))) {
      if (planned.by !== field || planned.dir !== dir) return null;
      ordered = true;
    } else if (backend.order.columns.includes(column)) {
      args[backend.order.field] = { by: field, dir };
      ordered = true;
    }
  }
  // A ranking needs only its first rows (a superlative a few more, to see a tie and show the runners-up);
  // anything else is answered from every row there is.
  if (backend && groupBy !== null) {
    args.limit = backend.pageMax;
    // The backend adds up every matched row when it sums what is asked: never a page.
    const grouped = backend.grouped;
    if (grouped?.by.includes(groupBy.by) && (ask.aggregate === 'count' || grouped.columns[column] !== undefined)) {
      args.groupBy = groupBy.by;
      groupBy.backend = true;
    }
  }
  else if (backend && args.limit === undefined) args.limit = ordered && ask.limit !== null && ask.aggregate === null ? (ask.limit === 1 ? SUPERLATIVE_ROWS : ask.limit) : backend.pageMax;
  const applied: AppliedAsk = {
    tool: call.tool, column, extreme: ask.extreme, limit: ask.limit, aggregate: ask.aggregate, filters, direction: ask.direction,
    role: ask.role, underAgent, unsupported, ordered, groupBy, cannotGroup: groupBy === null ? asked : null,
  };
  return { call: { tool: call.tool, args }, applied };
}

/** Whether the question asks something of the rows besides its grouping. */
function asksBesidesGroups(ask: RowAsk): boolean {
  return ask.extreme !== null || ask.aggregate !== null || ask.filters.length > 0 || (ask.direction !== null && ask.role !== null);
}

/**
 * What a comparison of two periods sets side by side, when the plan reads the same rows once for
 * each period (rule-planner's periodsCompared) and the backend counts or totals them over every
 * matched row; null otherwise.
 */
export function comparisonOf(calls: readonly PlannedCall[], ask: RowAsk, moduleOf: (tool: string) => ToolModule | undefined): AppliedComparison | null {
  if (ask.periods === null) return null;
  const [first, second] = ask.periods;
  const of = (c: PlannedCall, p: Period) => c.args.from === p.from && c.args.to === p.to;
  for (const call of calls.filter((c) => of(c, first))) {
    const backend = moduleOf(call.tool)?.rows?.backend;
    const rows = moduleOf(call.tool)?.rows;
    if (!rows || !backend || !calls.some((c) => c.tool === call.tool && of(c, second))) continue;
    if (ask.aggregate === 'count') return { tool: call.tool, column: null, periods: ask.periods };
    const asked = ask.measure !== null && backend.totals?.[ask.measure] !== undefined ? ask.measure : rows.measure;
    if (backend.totals?.[asked] !== undefined) return { tool: call.tool, column: asked, periods: ask.periods };
  }
  return null;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The rows of a result as the declaration says where they are. */
export function rowsOf(output: unknown, rows: RowsDeclaration): Array<Record<string, unknown>> {
  const list = (output as Record<string, unknown> | null)?.[rows.list];
  return Array.isArray(list) ? (list as Array<Record<string, unknown>>) : [];
}

/** A value at a dotted path of a result ("totals.take"), when it is a number. */
export function numberAt(output: unknown, path: string): number | null {
  let node: unknown = output;
  for (const key of path.split('.')) node = (node as Record<string, unknown> | null)?.[key];
  return typeof node === 'number' ? node : null;
}
