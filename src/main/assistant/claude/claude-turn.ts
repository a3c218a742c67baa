/**
 * One chat turn answered by Claude. The model reads through the read tools in a loop (at most
 * MAX_CALLS_PER_TURN calls), each call through the same policy gate and tool registry as the
 * offline planner's; its prose streams to the chat a sentence at a time through the number
 * guard. The gate, not the model, decides what happens to a change: the first destructive
 * tool_use ends the turn and goes back to the runtime as a gated call, which shows it as a
 * preview with a nonce exactly as an offline plan would, and a picker ends it the same way.
 * Invalid arguments go back to the model once as an `is_error` result; a second time, or a model
 * that does not answer, gives the turn to the offline planner with the reason.
 *
 * Every reply's `stop_reason` is read: a reply cut off by `max_tokens` is never used (a cut tool
 * call would run with partial arguments, a cut sentence would show mid-word) but asked again once
 * with more room; a refusal is answered offline; a paused turn is continued. Once a card has been
 * shown, a failure ends the turn with what it has rather than handing it to the offline planner,
 * which would read the same rows again and show each card twice.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { User } from '../../../shared/contracts/agent-api.js';
import type { Card, Decision, Envelope } from '../../../shared/contracts/assistant.js';
import type { PageContext, TurnEvent } from '../../../shared/contracts/chat.js';
import type { ModelSettings, TokenUsage } from '../../../shared/contracts/model-settings.js';
import { toolLabel } from '../../tools/index.js';
import { errorCard } from '../../tools/registry.js';
import type { ToolContext, ToolRegistry } from '../../tools/types.js';
import { sentenceFor } from '../composer.js';
import { allowedFigures } from '../guards/number-guard.js';
import { type GateOutcome, MAX_CALLS_PER_TURN, gate } from '../policy/gate.js';
import type { KnownEntity } from '../planner/types.js';
import { MAX_MODEL_RETRIES, type ModelFailure, TurnStopped, classifyFailure, sleep } from './failures.js';
import { NO_USAGE, addUsage, costMicroUsd } from './prices.js';
import { ProseGuard } from './prose-guard.js';
import { mainMetrics } from '../../metrics.js';
import { systemPrompt } from './system-prompt.js';
import { toolCatalog } from './tool-catalog.js';
import { normalizeForSearch } from '../../../shared/text.js';
import { BULK } from '../planner/slots.js';
import { typedAmounts } from '../planner/rule-planner.js';
import { SKIP_CONFIRMATION_ANSWER, asksToSkipConfirmation } from '../guards/consent-guard.js';
import { planningOf } from '../planner/intents/index.js';
import { z } from 'zod';
import { canonicalJson } from '../../../shared/canonical-json.js';
import { MORE_ROOM, requestShape } from './model-params.js';

/**
 * An earlier exchange of the conversation, as the model is shown it: in words, and for a turn
 * Claude answered, its own tool calls and (shortened) results too, so a follow-up can use the ids
 * and figures it already has — and the prompt's start stays the same, so it is read from the cache.
 */
export interface Exchange {
  user: string;
  assistant: string;
  messages?: Anthropic.MessageParam[];
}

export interface ClaudeTurnInput {
  requestId: string;
  text: string;
  page: PageContext;
  today: string;
  user: User;
  ctx: ToolContext;
  model: string;
  settings: ModelSettings;
  /** The conversation so far (the last few exchanges). */
  earlier: Exchange[];
  /** Entities earlier turns resolved: the gate accepts their ids. */
  known: KnownEntity[];
  /** Whether the message is an order: a question (or a report of what happened) is never answered with a change. */
  ordered: boolean;
  signal?: AbortSignal | undefined;
}

export interface ToolRun {
  tool: string;
  args: Record<string, unknown>;
  envelope: Envelope;
}

export interface ClaudeUsage extends TokenUsage {
  calls: number;
  models: string[];
}

interface Common {
  /** The prose shown so far (guarded). */
  text: string;
  cards: Card[];
  runs: ToolRun[];
  /** The last read call's gate outcome: the entities and plan a follow-up may lean on. */
  lastRead: Extract<GateOutcome, { action: 'tools' }> | null;
  usage: ClaudeUsage;
  notes: string[];
  flagged: string[];
}

export type ClaudeTurnResult = Common & (
  /** `messages`: the turn as the model saw it (its own text replaced by what was shown), for the next turns. */
  | { kind: 'answered'; messages: Anthropic.MessageParam[] }
  /** A change or a picker: the runtime finishes the turn with this outcome, as for an offline plan. */
  | { kind: 'handoff'; outcome: GateOutcome }
  | { kind: 'fallback'; reason: string; failure: FailureKind }
  | { kind: 'stopped' }
);

/** Why the model did not answer the turn. */
type FailureKind = ModelFailure['kind'] | 'budget' | 'invalid_arguments' | 'cut_off' | 'refusal';

export interface ClaudeTurnDeps {
  client: Anthropic;
  registry: ToolRegistry;
  /** The longest wait for a streamed event — the first, and each after it — before an attempt counts as timed out. */
  idleTimeoutMs?: number;
  /** How long after it started a failing call stops retrying and the offline planner answers. */
  callDeadlineMs?: number;
  random?: () => number;
}

/** A call's first streamed event is waited for this long before the attempt is given up (and retried). */
export const IDLE_TIMEOUT_MS = 8_000;
/**
 * A failing call retries only while this much time from its start allows, so a hung API is
 * answered offline within 15 s of Enter (the offline answer takes well under a second).
 */
export const CALL_DEADLINE_MS = 14_000;

/**
 * How long the next attempt of a call may wait for an event, `elapsedMs` after the call started
 * (its wait before retrying included), or null when it should not be made: no attempt runs past
 * the deadline, and one left with less than half a wait could hardly be answered.
 */
export function attemptWindow(elapsedMs: number, idleMs: number, deadlineMs: number): number | null {
  const left = Math.floor(deadlineMs - elapsedMs);
  return left >= idleMs / 2 ? Math.min(idleMs, left) : null;
}

/** Model calls one turn may make: the tool calls it may run, and one to answer, and one spare. */
export const MAX_MODEL_CALLS = MAX_CALLS_PER_TURN + 2;
/** Less room than this for a reply (the turn's token budget nearly spent) is no room for thinking and an answer. */
const MIN_ROOM = 1_024;

/** Why the model stopped, as the API says; anything else (or none) is an answer that broke off. */
const stopReasonSchema = z.enum(['end_turn', 'stop_sequence', 'tool_use', 'max_tokens', 'model_context_window_exceeded', 'pause_turn', 'refusal']).nullable().catch(null);

/** Runs the turn; yields tool progress, cards and guarded text as they happen. */
export async function* claudeTurn(input: ClaudeTurnInput, deps: ClaudeTurnDeps): AsyncGenerator<TurnEvent, ClaudeTurnResult> {
  const catalog = toolCatalog(deps.registry, input.user.role);
  const system = systemPrompt({ today: input.today, timeZone: input.user.timezone, role: input.user.role, userName: input.user.name, page: input.page });
  const messages: Anthropic.MessageParam[] = [
    ...input.earlier.flatMap((e): Anthropic.MessageParam[] => e.messages ?? [{ role: 'user', content: e.user }, { role: 'assistant', content: e.assistant || '(cards shown)' }]),
    { role: 'user', content: input.text },
  ];
  const turnStart = messages.length - 1;
  const bulk = BULK.test(normalizeForSearch(input.text));
  const runs: ToolRun[] = [];
  /** Whether the model asked for a change this turn (proposed or refused). */
  let changeAsked = false;
  /** Why each change the model asked for was refused, in the user's words. */
  const refusals: string[] = [];
  const guard = new ProseGuard(
    () => allowedFigures(runs.flatMap((r) => [r.envelope.ok ? r.envelope.data : null, r.args]), [], input.user.timezone),
    () => input.ordered || changeAsked,
  );
  const common: Common = {
    text: '', cards: [], runs, lastRead: null, usage: { ...NO_USAGE, calls: 0, models: [] }, notes: [], flagged: [],
  };
  type Ending = ClaudeTurnResult extends infer R ? R extends Common ? Omit<R, keyof Common> : never : never;
  const finish = (ending: Ending): ClaudeTurnResult => {
    common.text = guard.shown.trim();
    common.flagged = guard.dropped.flatMap((d) => d.figures);
    if (guard.dropped.length > 0) {
      const reasons = [...new Set(guard.dropped.map((d) => d.reason))].map((r) => `${r} ${guard.dropped.filter((d) => d.reason === r).length}`);
      common.notes.push(`prose guard dropped ${guard.dropped.length} sentence(s) (${reasons.join(', ')})`);
    }
    return { ...common, ...ending } as ClaudeTurnResult;
  };
  /** The turn's closing words: the tail of the answer, and when a claim was dropped, what is true. */
  function* closing(tail: string): Generator<TurnEvent> {
    if (tail) yield { type: 'text', requestId: input.requestId, delta: tail };
    // A claim was dropped: the user is told once what really happened, not left with a gap.
    const state = guard.claimed ? trueState(refusals, input.ordered) : null;
    const said = state ? guard.say(state) : '';
    if (said) yield { type: 'text', requestId: input.requestId, delta: said };
  }
  /**
   * What the next turns are shown of this one: its calls and their results, and the words as they
   * reached the user. Not its thinking, which belongs to this model and this turn.
   */
  const kept = (): Anthropic.MessageParam[] => {
    const turn: Anthropic.MessageParam[] = [];
    for (const m of messages.slice(turnStart)) {
      if (m.role !== 'assistant' || !Array.isArray(m.content)) turn.push(m);
      else {
        const uses = m.content.filter((b) => b.type === 'tool_use');
        if (uses.length > 0) turn.push({ ...m, content: uses });
      }
    }
    // Calls whose results never went back (the turn ended among them) would leave a tool_use without its result.
    if (turn.at(-1)?.role === 'assistant') turn.pop();
    turn.push({ role: 'assistant', content: guard.shown.trim() || '(cards shown)' });
    return turn;
  };
  /**
   * The model will not answer: the offline planner does, with the reason — unless cards were
   * shown, which the offline plan would read again and show twice. Then the turn ends with them
   * and says why the words stop.
   */
  function* giveUp(reason: string, failure: FailureKind): Generator<TurnEvent, ClaudeTurnResult> {
    if (common.cards.length === 0) return finish({ kind: 'fallback', reason, failure });
    common.notes.push(`claude stopped after its cards (${failure}): ${reason}`);
    yield* closing(guard.cut());
    const said = guard.say(`${reason.charAt(0).toUpperCase()}${reason.slice(1)}; the cards above are what it found.`);
    yield { type: 'text', requestId: input.requestId, delta: said };
    return finish({ kind: 'answered', messages: kept() });
  }

  const shape = requestShape(input.model);
  /** Whether a reply cut off by max_tokens was already asked again with more room: once a turn. */
  let roomier = false;
  let invalid = 0;
  /** Each call run this turn, as tool and arguments: a call the model repeats is not run again. */
  const ran = new Set<string>();
  const callKey = (tool: string, args: unknown) => `${tool} ${canonicalJson(args)}`;

  for (;;) {
    // A model that keeps asking for what is refused (an unknown tool, a change for a question) would go round for ever.
    if (common.usage.calls >= MAX_MODEL_CALLS) return yield* giveUp('Claude went round without answering', 'invalid_arguments');
    const used = common.usage.inputTokens + common.usage.outputTokens + common.usage.cacheReadTokens + common.usage.cacheWriteTokens;
    const room = Math.min(shape.maxTokens * (roomier ? MORE_ROOM : 1), input.settings.maxTokensPerTurn - used);
    if (room < MIN_ROOM) return yield* giveUp(`this turn reached its budget of ${input.settings.maxTokensPerTurn} tokens`, 'budget');
    withCacheBreakpoint(messages);
    let response: Anthropic.Message;
    try {
      response = yield* callModel(deps, {
        model: input.model, max_tokens: room, ...shape.params, system, tools: catalog.tools as Anthropic.Tool[], messages,
      }, guard, input);
    } catch (error) {
      if (error instanceof TurnStopped) {
        // What had arrived stands, to its last whole sentence.
        const tail = guard.cut();
        if (tail) yield { type: 'text', requestId: input.requestId, delta: tail };
        return finish({ kind: 'stopped' });
      }
      const failure = error as ModelFailure;
      return yield* giveUp(failure.reason, failure.kind);
    } finally {
      stripCacheBreakpoints(messages);
    }
    const usage = response.usage;
    const tokens = {
      inputTokens: usage.input_tokens, outputTokens: usage.output_tokens,
      cacheWriteTokens: usage.cache_creation_input_tokens ?? 0, cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    };
    const cost = costMicroUsd(input.model, tokens);
    mainMetrics.modelCall(input.model, tokens, cost);
    common.usage = {
      ...addUsage(common.usage, { ...tokens, costMicroUsd: cost }),
      calls: common.usage.calls + 1,
      models: common.usage.models.includes(input.model) ? common.usage.models : [...common.usage.models, input.model],
    };

    const stop = stopReasonSchema.parse(response.stop_reason);
    if (stop === 'max_tokens' || stop === 'model_context_window_exceeded') {
      // Nothing of a cut reply is used. Unseen, it is asked again with more room, if the budget has it.
      const spent = used + tokens.inputTokens + tokens.outputTokens + tokens.cacheReadTokens + tokens.cacheWriteTokens;
      const more = Math.min(shape.maxTokens * MORE_ROOM, input.settings.maxTokensPerTurn - spent);
      if (stop === 'max_tokens' && !roomier && guard.unseenSinceCheckpoint && more > room) {
        common.notes.push(`reply cut off at ${room} tokens: asked again with more room`);
        guard.rollback();
        roomier = true;
        continue;
      }
      return yield* giveUp('Claude\'s answer was cut off', 'cut_off');
    }
    if (stop === 'refusal') return yield* giveUp('Claude declined to answer this', 'refusal');
    if (stop === null) return yield* giveUp('Claude\'s answer broke off', 'stream_error');
    const uses = response.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    if (stop === 'pause_turn' && uses.length === 0) {
      // The API paused a long turn: its content goes back as it came, and the model carries on from there.
      if (response.content.length > 0) messages.push({ role: 'assistant', content: response.content as Anthropic.ContentBlockParam[] });
      continue;
    }

    if (uses.length === 0) {
      yield* closing(guard.end());
      return finish({ kind: 'answered', messages: kept() });
    }

    if (uses.some((u) => catalog.definitionOf(u.name)?.isDestructive)) changeAsked = true;
    const apart = guard.endBlock();
    if (apart) yield { type: 'text', requestId: input.requestId, delta: apart };
    // Thinking blocks go back unchanged and in place: the API checks them within a tool loop.
    messages.push({ role: 'assistant', content: response.content as Anthropic.ContentBlockParam[] });
    const results: Anthropic.ToolResultBlockParam[] = [];
    // Several changes asked for in one reply are one request for many: none is proposed, as offline.
    const changes = uses.filter((u) => catalog.definitionOf(u.name)?.isDestructive).length;
    for (const use of uses) {
      const refuse = (text: string) => results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: text });
      const again = () => results.push({ type: 'tool_result', tool_use_id: use.id, content: 'Already called with these arguments this turn; its result is above. Answer with it.' });
      const definition = catalog.definitionOf(use.name);
      if (!definition) {
        refuse(`There is no tool called ${use.name}.`);
        continue;
      }
      const refuseChange = (refusal: ChangeRefusal) => {
        common.notes.push(`refused ${definition.name}: ${refusal.note}`);
        refusals.push(refusal.reason);
        refuse(refusal.text);
      };
      if (definition.isDestructive && bulk) {
        refuseChange({
          note: 'a change for many at once', reason: 'changes are made one player at a time, each confirmed by you',
          text: 'Changes are made one player at a time, each confirmed by the user: say so, and ask which player.',
        });
        continue;
      }
      if (definition.isDestructive && !input.ordered) {
        refuseChange({
          note: 'the user asked a question', reason: 'you asked a question, not for a change',
          text: 'The user asked a question, not for a change: answer it with the read tools. Propose a change only when the user asks for one.',
        });
        continue;
      }
      const args = use.input && typeof use.input === 'object' && !Array.isArray(use.input) ? { ...(use.input as Record<string, unknown>) } : {};
      const held = definition.isDestructive ? changeRefusal(definition.name, args, changes, input) : null;
      if (held) {
        refuseChange(held);
        continue;
      }
      const asked = callKey(definition.name, args);
      if (ran.has(asked)) {
        again();
        continue;
      }
      if (runs.length >= MAX_CALLS_PER_TURN) {
        if (definition.isDestructive) refusals.push('this turn reached its limit of tool calls');
        refuse(`That is the ${MAX_CALLS_PER_TURN}-call limit of this turn: answer with the results you have.`);
        continue;
      }
      // The offline planner's name for the intent, so its follow-ups ("change it to 30k", "and for Rahul?") work on this plan too.
      const intent = planningOf(definition.name)?.id ?? definition.name;
      const decision: Decision = { request_id: input.requestId, intent, action: 'tools', calls: [{ tool: definition.name, args }], confidence: 1 };
      const outcome = await gate(decision, deps.registry, input.user, input.ctx, input.known);
      common.notes.push(...outcome.notes);
      if (outcome.action === 'clarify' && outcome.pending) return finish({ kind: 'handoff', outcome });
      if (outcome.action === 'tools' && definition.isDestructive) return finish({ kind: 'handoff', outcome });
      if (definition.isDestructive && outcome.action !== 'tools') refusals.push(gateRefusal(outcome));
      if (outcome.action === 'clarify' || outcome.action === 'direct') {
        invalid += 1;
        if (invalid >= 2) return yield* giveUp('Claude could not form a valid request', 'invalid_arguments');
        refuse(outcome.action === 'clarify' ? `Invalid arguments: ${outcome.question}` : 'Invalid arguments.');
        continue;
      }
      if (outcome.action === 'failed') {
        refuse(failureText(outcome.envelope));
        continue;
      }
      for (const call of outcome.calls) {
        // The same read reached by other words (a name spelt another way): its card is already shown.
        const resolved = callKey(call.tool, call.args);
        if (ran.has(resolved)) {
          again();
          continue;
        }
        ran.add(resolved);
        yield { type: 'tool', requestId: input.requestId, tool: call.tool, label: toolLabel(call.tool), status: 'started' };
        const started = performance.now();
        const envelope = await deps.registry.call(call.tool, call.args, { ...input.ctx, ...(input.signal && { signal: input.signal }) }, { retries: 2 });
        const ms = Math.round(performance.now() - started);
        yield { type: 'tool', requestId: input.requestId, tool: call.tool, label: toolLabel(call.tool), status: envelope.ok ? 'ok' : 'failed', ms };
        runs.push({ tool: call.tool, args: call.args, envelope });
        const card = envelope.ok ? envelope.ui : errorCard(envelope);
        if (card) {
          common.cards.push(card);
          yield { type: 'card', requestId: input.requestId, card };
        }
        if (envelope.ok) {
          common.lastRead = outcome;
          const summary = sentenceFor(call.tool, envelope, call.args, input.user.timezone);
          results.push({ type: 'tool_result', tool_use_id: use.id, content: resultText(summary, envelope.data) });
        } else {
          if (envelope.error.code === 'VALIDATION') invalid += 1;
          if (invalid >= 2) return yield* giveUp('Claude could not form a valid request', 'invalid_arguments');
          refuse(failureText(envelope));
        }
      }
      ran.add(asked);
    }
    messages.push({ role: 'user', content: results });
    const released = guard.recheck();
    if (released) yield { type: 'text', requestId: input.requestId, delta: released };
  }
}

/**
 * A change the model asked for and the turn refused: `note` for the turn's record, `reason` for
 * the user (fixed words: nothing the model or a tool result wrote), `text` for the model.
 */
interface ChangeRefusal {
  note: string;
  reason: string;
  text: string;
}

/**
 * Why a model's change is not proposed, beyond the gate's checks: it is one of several asked for
 * at once; the user's message asks to skip the confirmation; or its amount is not one the user
 * typed plainly — in this message or, for "ok go ahead", the last one that had an amount — so an
 * amount read in a tool result (a planted note) or worked out by the model never reaches a preview.
 */
function changeRefusal(tool: string, args: Record<string, unknown>, changes: number, input: ClaudeTurnInput): ChangeRefusal | null {
  if (changes > 1) {
    return {
      note: 'several changes in one reply', reason: 'changes are prepared one at a time, each confirmed by you',
      text: 'Changes are made one at a time, each confirmed by the user: ask them which to prepare first.',
    };
  }
  if (asksToSkipConfirmation(input.text)) {
    return { note: 'the message asks to skip the confirmation', reason: 'every change waits for your Confirm on its preview', text: `Tell the user: ${SKIP_CONFIRMATION_ANSWER}` };
  }
  const arg = planningOf(tool)?.amount?.arg;
  if (arg === undefined || args[arg] === undefined) return null;
  const said = [input.text, ...input.earlier.map((e) => e.user).reverse()].map((text) => typedAmounts(text, input.today)).find((t) => t.paisa.length > 0);
  const untyped = { note: 'an amount the user did not type', reason: 'the amount of a change must be one you typed' };
  if (!said) return { ...untyped, text: 'The user typed no amount: ask them for it, and propose nothing until they say it.' };
  if (said.doubt) return { note: 'an amount that reads two ways', reason: 'the amount you typed reads two ways', text: `Ask the user: ${said.doubt}` };
  if (!said.paisa.includes(args[arg] as number)) return { ...untyped, text: 'The amount of a change must be the one the user typed, as typed: use it, or ask them.' };
  return null;
}

/**
 * Why the gate stopped a change the model asked for, in fixed words: the gate's own question may
 * quote the name the model passed, which a planted row can have written.
 */
function gateRefusal(outcome: Exclude<GateOutcome, { action: 'tools' }>): string {
  const code = outcome.action === 'failed' && !outcome.envelope.ok ? outcome.envelope.error.code : null;
  const reason = outcome.action === 'clarify' ? outcome.reason : null;
  if (reason === 'player_not_found' || reason === 'ambiguous_player' || code === 'NOT_FOUND') return 'no such player in your downline';
  if (reason === 'not_allowed' || code === 'FORBIDDEN') return 'that change is not yours to make';
  return 'the request for it was not valid';
}

/**
 * The true state of a turn whose model claimed a change was made: no change is made by a model's
 * turn, so it was refused, or (when the user asked for one and nothing was even proposed) not done.
 * Null when the turn had no change to speak of: the claim was only dropped.
 */
function trueState(refusals: readonly string[], ordered: boolean): string | null {
  if (refusals.length > 0) return `Refused: ${refusals[0]!}.`;
  return ordered ? 'Not done — nothing was changed.' : null;
}

/**
 * One model call, streamed; retried while nothing of it has been shown and its deadline allows.
 * Each attempt waits at most its window for every event, the first included. Throws ModelFailure
 * or TurnStopped.
 */
async function* callModel(deps: ClaudeTurnDeps, params: Anthropic.MessageCreateParamsNonStreaming, guard: ProseGuard, input: ClaudeTurnInput):
  AsyncGenerator<TurnEvent, Anthropic.Message> {
  const idleMs = deps.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const deadlineMs = deps.callDeadlineMs ?? CALL_DEADLINE_MS;
  const started = performance.now();
  let windowMs = attemptWindow(0, idleMs, deadlineMs) ?? Math.min(idleMs, deadlineMs);
  for (let attempt = 0; ; attempt++) {
    if (input.signal?.aborted) throw new TurnStopped();
    guard.checkpoint();
    const call = new AbortController();
    const onStop = () => call.abort();
    input.signal?.addEventListener('abort', onStop, { once: true });
    let timedOut = false;
    let idle: NodeJS.Timeout | undefined;
    const awake = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        timedOut = true;
        call.abort();
      }, windowMs);
    };
    try {
      awake();
      const stream = deps.client.messages.stream(params, { signal: call.signal, maxRetries: 0, timeout: windowMs });
      for await (const event of stream) {
        awake();
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          const shown = guard.push(event.delta.text);
          if (shown) yield { type: 'text', requestId: input.requestId, delta: shown };
        }
      }
      return await stream.finalMessage();
    } catch (error) {
      if (input.signal?.aborted) throw new TurnStopped();
      const failure = classifyFailure(error, attempt, timedOut, deps.random);
      if (!failure.retry || attempt >= MAX_MODEL_RETRIES || !guard.unseenSinceCheckpoint) throw failure;
      const next = attemptWindow(performance.now() - started + failure.waitMs, idleMs, deadlineMs);
      if (next === null) throw failure;
      guard.rollback();
      await sleep(failure.waitMs, input.signal);
      windowMs = next;
    } finally {
      clearTimeout(idle);
      input.signal?.removeEventListener('abort', onStop);
    }
  }
}

/**
 * A read result as the model gets it: the app's own sentence (figures already written as the
 * user sees them) and the data, as JSON in which no text can close the data fence.
 */
function resultText(summary: string | null, data: unknown): string {
  const json = JSON.stringify(forModel(data)).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e');
  return `${summary ? `summary: ${summary}\n` : ''}<data>${json}</data>`;
}

/** Rows a result shows the model; the card shows them all. Long lists cost tokens and push the cache share down. */
export const MODEL_ROWS = 25;

/** The data with every list cut to its first MODEL_ROWS rows and a note of how many more there are. */
export function forModel(data: unknown): unknown {
  if (Array.isArray(data)) {
    const kept = data.slice(0, MODEL_ROWS).map(forModel);
    return data.length > MODEL_ROWS ? [...kept, { moreRowsInTheCard: data.length - MODEL_ROWS }] : kept;
  }
  if (data && typeof data === 'object') return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, forModel(v)]));
  return data;
}

function failureText(envelope: Envelope): string {
  return envelope.ok ? 'failed' : `${envelope.error.code}: ${envelope.error.message}`;
}

/**
 * A cache breakpoint on the newest message: the next call of this turn (after tool results) and
 * the next turn read everything up to it from the cache. Tools and the rules carry their own.
 */
function withCacheBreakpoint(messages: Anthropic.MessageParam[]): void {
  const last = messages.at(-1);
  if (!last) return;
  const blocks: Anthropic.ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  const end = blocks.at(-1);
  if (end && end.type !== 'thinking' && end.type !== 'redacted_thinking') blocks[blocks.length - 1] = { ...end, cache_control: { type: 'ephemeral' } } as Anthropic.ContentBlockParam;
  last.content = blocks;
}

/** At most four breakpoints a request: each call moves this one to its newest message. */
function stripCacheBreakpoints(messages: Anthropic.MessageParam[]): void {
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    message.content = message.content.map((b) => {
      if (!('cache_control' in b) || !b.cache_control) return b;
      const { cache_control: _, ...rest } = b;
      return rest as Anthropic.ContentBlockParam;
    });
  }
}
