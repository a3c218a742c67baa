/**
 * The frame's rows part laid on an offline plan: each read the plan makes whose rows can answer
 * what the message asks of them gets the operators as arguments, and the turn keeps what its
 * answer must state. When none of the planned reads can hold the answer (a question about an
 * average read as a clarify, a count of accounts read as the downline tree), the read whose rows
 * the question is about is planned instead, filled by that tool's own slots.
 */
import type { Decision } from '../../../shared/contracts/assistant.js';
import type { ToolModule } from '../../tools/define.js';
import { TOOLS, TOOL_MODULES, isToolName } from '../../tools/index.js';
import type { ColumnConcept } from '../../tools/rows.js';
import { read } from '../planner/grammar.js';
import { KNOWN_WORDS, withoutSelfCorrections } from '../planner/rule-planner.js';
import { Slots } from '../planner/slots.js';
import type { PlannedCall, PlannerInput } from '../planner/types.js';
import { type AppliedAsk, type AppliedComparison, applyRowAsk, comparisonOf } from './apply.js';
import { ROW_WORDS, tokenize, typedCapitalised } from './lexicon.js';
import { NO_ASK, type RowAsk, readRowAsk } from './row-ask.js';
import { planningOf } from '../planner/intents/index.js';

/**
 * What the message asks of rows, read once; its names as the planner reads them tell "under Arjun"
 * whom it means. A value corrected in the same breath is read as corrected, as the planner reads it
 * ("bets above 40k no sorry 45k" asks for stakes above 45k).
 */
export function rowAskOf(input: Pick<PlannerInput, 'text' | 'today'>): RowAsk {
  const text = withoutSelfCorrections(input.text);
  return readRowAsk(text, read(text, input.today, KNOWN_WORDS).names, input.today);
}

const moduleOf = (tool: string): ToolModule | undefined => (isToolName(tool) ? (TOOLS[tool] as ToolModule) : undefined);

/** A read a question's rows part was laid on, and that part: what a follow-up ("and the least?") edits. */
export interface RowFrame {
  call: PlannedCall;
  ask: RowAsk;
}

export interface Framed {
  decision: Decision;
  asks: AppliedAsk[];
  /** The frame this turn asked, for the next turn to edit; null when it asked nothing of rows. */
  frame: RowFrame | null;
  /** Two periods the answer sets side by side, when the plan reads the same rows for each. */
  comparison: AppliedComparison | null;
}

/**
 * The decision with the operators in its reads' arguments, and what each answer must state.
 * `previous`: the last turn's frame. A message that names no column of its own and that the
 * planner read as a follow-up, or could not read ("and the least?", "only players", "top 3?"),
 * edits it: the same read, with the operators it says changed.
 */
export function withRowAsk(decision: Decision, ask: RowAsk, input: PlannerInput, previous: RowFrame | null = null): Framed {
  const framed = withOperators(decision, ask, input, previous);
  return { ...framed, frame: framed.frame ?? plainReadFrame(framed.decision), comparison: framed.decision.action === 'tools' ? comparisonOf(framed.decision.calls, ask, moduleOf) : null };
}

/**
 * A plain read of rows ("who owes me money", "bets today") is a frame that asks nothing yet, so the
 * next message may ask something of the same rows: "only those over 10k", "and the biggest?".
 */
function plainReadFrame(decision: Decision): RowFrame | null {
  const [call, ...more] = decision.action === 'tools' ? decision.calls : [];
  const module = call ? moduleOf(call.tool) : undefined;
  return call && more.length === 0 && module?.rows !== undefined && module.isDestructive === false ? { call, ask: NO_ASK } : null;
}

/** Below it a clarify of a change is the classifier's guess: every change a rule reads is planned surer. */
const GUESSED_CHANGE = 0.75;

function withOperators(decision: Decision, ask: RowAsk, input: PlannerInput, previous: RowFrame | null): Omit<Framed, 'comparison'> {
  if (!ask.asks) return { decision, asks: [], frame: null };
  // A change planned, or a change the planner is asking a detail of ("What amount?"), is never turned
  // into a read; unless the words average, count or total, which no order does ("average stake on ind v aus").
  // A change's detail asked only because the classifier guessed the change (no rule read one) is no change said.
  const guessedChange = decision.action === 'clarify' && decision.confidence < GUESSED_CHANGE;
  const writes = decision.calls.some((c) => moduleOf(c.tool)?.isDestructive !== false) || (asksForAChange(decision) && ask.aggregate === null && !guessedChange);
  // A plain read's frame asks nothing yet: a follow-up the planner read of it ("open wale mein sabse bada?") keeps its own plan.
  const elliptic = decision.action !== 'tools' || (decision.intent.startsWith('follow_up:') && previous?.ask.asks === true);
  if (previous && !writes && elliptic && ask.measure === null && ask.underAgent === null) {
    const edited = editFrame(previous.ask, ask);
    const applied = applyRowAsk(previous.call, edited, moduleOf(previous.call.tool)!);
    if (applied) {
      return {
        decision: {
          request_id: decision.request_id, intent: `rows_follow_up:${planningOf(previous.call.tool)?.id ?? previous.call.tool}`, action: 'tools',
          calls: [applied.call], confidence: 0.7, notes: `edits the last question's rows (planned: ${decision.intent})`,
        },
        asks: [applied.applied], frame: { call: previous.call, ask: edited },
      };
    }
  }
  if (decision.action === 'tools' && !writes) {
    const asks: AppliedAsk[] = [];
    let frame: RowFrame | null = null;
    const calls = decision.calls.map((call) => withoutQuestionWords(call, input.text)).map((call) => {
      const applied = applyRowAsk(call, ask, moduleOf(call.tool)!);
      if (!applied) return call;
      asks.push(applied.applied);
      frame ??= { call, ask };
      return applied.call;
    });
    if (asks.length > 0) {
      const kept = withoutColumnEchoes(calls, ask, input.text);
      return { decision: { ...decision, calls: kept }, asks: asks.filter((a) => kept.some((c) => c.tool === a.tool)), frame };
    }
  }
  // Only a question of a kind no order has (an average, a count, a superlative) replaces a plan that
  // was no read; a read the planner chose stands unless the question counts, totals or filters
  // accounts, which no read without rows can ("how many accounts do I owe", "players I owe more
  // than 5k", planned as the upline's balance).
  const ranksOrTotals = ask.aggregate !== null || ask.extreme !== null;
  const questionOnly = ranksOrTotals || ask.groupBy !== null;
  const ofAccounts = (ask.aggregate !== null || ask.filters.length > 0) && (ask.direction !== null || ask.role !== null || ask.underAgent !== null);
  // A superlative, count or total that no planned read can carry, and that no ranking read answers by
  // itself ("sabse risky market kaunsa hai" planned as the live exposure), is answered by a guess:
  // below the fast path, so a key sends it to Claude.
  const unanswerable = decision.action === 'tools' && !writes && ranksOrTotals && !decision.calls.some((c) => planningOf(c.tool)?.follows?.metric);
  const none: Omit<Framed, 'comparison'> = { decision: unanswerable ? { ...decision, confidence: Math.min(decision.confidence, 0.8) } : decision, asks: [], frame: null };
  // One read replaced by one read: a message that also asks something else keeps its plan.
  // "stake per player" read as the players' PnL: the column named is grouped where it is kept. A
  // read without rows (a report "bets by match") is what was asked for, never replaced.
  const regroups = ask.groupBy !== null && ask.measure !== null && decision.calls.every((c) => moduleOf(c.tool)?.rows !== undefined);
  if (writes || decision.calls.length > 1 || (decision.action !== 'tools' && !questionOnly) || (decision.action === 'tools' && !ofAccounts && !regroups)) return none;
  const home = homeOf(ask);
  const homePlanning = home ? planningOf(home.name) : undefined;
  if (!home || !homePlanning) return none;
  const filled = homePlanning.fill(new Slots(input, read(withoutSelfCorrections(input.text), input.today, KNOWN_WORDS)));
  if (!('args' in filled)) return none;
  const call = withoutQuestionWords({ tool: home.name, args: filled.args }, input.text);
  const applied = applyRowAsk(call, ask, home);
  if (!applied) return none;
  return {
    decision: {
      request_id: decision.request_id, intent: `rows:${homePlanning.id}`, action: 'tools', calls: [applied.call], confidence: 0.7,
      notes: `what is asked of the rows is ${home.name}'s (planned: ${decision.intent})`,
    },
    asks: [applied.applied],
    frame: { call, ask },
  };
}

// A change planned outside the intents (sharing a report) goes by its tool's name: the tool sharing reports is "share_report".
const intentNameOf = (tool: string): string => [...tool.slice(tool.indexOf('.') + 1)].map((c) => (c !== c.toLowerCase() ? `_${c.toLowerCase()}` : c)).join('');
const CHANGE_INTENTS: readonly string[] = (TOOL_MODULES as readonly ToolModule[]).flatMap((m) => (m.isDestructive ? [planningOf(m.name)?.id ?? intentNameOf(m.name)] : []));

/** A clarify or a follow-up of a change's intent ("edit_limit", "follow_up:settle"). */
function asksForAChange(decision: Decision): boolean {
  return decision.intent.replaceAll('+', ':').split(':').some((part) => CHANGE_INTENTS.includes(part));
}

/** The last frame with what a follow-up says in place of what it said: "and the least?" keeps who and what, and turns the order. */
function editFrame(before: RowAsk, now: RowAsk): RowAsk {
  const ranks = now.extreme !== null;
  const totals = now.aggregate !== null;
  return Object.freeze({
    ...before,
    extreme: ranks ? now.extreme : totals ? null : before.extreme,
    limit: ranks ? now.limit : totals ? null : before.limit,
    aggregate: totals ? now.aggregate : ranks ? null : before.aggregate,
    filters: now.filters.length > 0 ? now.filters : before.filters,
    direction: now.direction ?? before.direction,
    role: now.role ?? before.role,
    groupBy: now.groupBy ?? before.groupBy,
    pick: now.pick ?? before.pick,
    asks: true,
  });
}

/**
 * A "player" or a match the planner took from words that are all words of the question ("avg",
 * "jinka", "sabse", the "har" of "har match"): no name at all, so nothing to look up, and the
 * question is about every row.
 */
function withoutQuestionWords(call: PlannedCall, typed: string): PlannedCall {
  // Typed with a capital ("show Max's bets"), a word is a name: the planner's own rule for names.
  const capitalised = tokenize(typed).filter((t) => typedCapitalised(typed, t)).map((t) => t.word);
  const questionWords = (value: unknown) => {
    if (typeof value !== 'string') return false;
    const words = tokenize(value);
    return words.length > 0 && words.every((w) => ROW_WORDS.has(w.word)) && !words.some((w) => capitalised.includes(w.word));
  };
  const args = Object.fromEntries(Object.entries(call.args).filter(([k, v]) => !(NAMED_ARGS.includes(k) && questionWords(v))));
  return Object.keys(args).length === Object.keys(call.args).length ? call : { tool: call.tool, args };
}

/**
 * "lay bets with liability over 10k": the column the operators are on ("liability", the bets' own)
 * is also the word of another read (the live exposure), which the planner read as a request of
 * its own. When the message names the rows it asks of ("bets") and those rows have the column, a
 * read of that column's own table with nothing of its own asked (no match, no player) is the
 * column's echo, and goes.
 */
function withoutColumnEchoes(calls: readonly PlannedCall[], ask: RowAsk, typed: string): PlannedCall[] {
  // A filter without a column of its own is on the question's measure, as a superlative is.
  const asked = [...ask.filters.map((f) => f.column ?? ask.measure), ...(ask.extreme !== null ? [ask.measure] : [])];
  const columns = new Set<ColumnConcept>(asked.filter((c): c is ColumnConcept => c !== null));
  if (calls.length < 2 || columns.size === 0) return [...calls];
  const words = new Set(tokenize(typed).map((t) => t.word));
  const named = calls.filter((c) => {
    const rows = moduleOf(c.tool)?.rows;
    return rows !== undefined && rows.noun.some((n) => words.has(n)) && [...columns].some((col) => rows.measure === col || col in rows.columns);
  });
  if (named.length !== 1) return [...calls];
  const echo = (c: PlannedCall) => {
    const rows = moduleOf(c.tool)?.rows;
    return c !== named[0] && Object.keys(c.args).length === 0 && rows !== undefined && columns.has(rows.measure) && !rows.noun.some((n) => words.has(n));
  };
  return calls.filter((c) => !echo(c));
}

/** The planner-form arguments that hold a name as typed. */
const NAMED_ARGS: readonly string[] = ['player', 'fixture'];

/** The read whose rows a question is about: the one whose own measure it names, else the accounts for a question about accounts. */
function homeOf(ask: RowAsk): ToolModule | undefined {
  const measure: ColumnConcept | null = ask.measure ?? (ask.direction !== null || ask.role !== null || ask.underAgent !== null ? 'take' : null);
  if (measure === null) return undefined;
  return (TOOL_MODULES as readonly ToolModule[]).find((m) => m.rows?.measure === measure && !m.isDestructive);
}
