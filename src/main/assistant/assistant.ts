/**
 * The agent runtime: one chat turn from message to cards. Planner (validated, with fallback) →
 * policy gate → tool registry → composer and number guard → streamed events, the history and
 * one JSON log line. A destructive tool is never executed on the turn it is planned: the turn
 * shows its preview as a proposal (src/main/confirm/proposals.ts), and only the user's answer
 * to that proposal runs the frozen call.
 */
import { randomUUID } from 'node:crypto';
import type { User } from '../../shared/contracts/agent-api.js';
import { type Card, type Decision, type Envelope, decisionSchema } from '../../shared/contracts/assistant.js';
import type {
  ChatCancelRequest, ChatConfirmInput, ChatConfirmRequest, ChatEditRequest, ChatHistoryInput, ChatHistoryPage, ChatMessage, ChatTurnInput, ConversationSummary,
  PageContext, TurnEvent, TurnOutcome,
} from '../../shared/contracts/chat.js';
import type { TurnUsage } from '../../shared/contracts/model-settings.js';
import type { IsoDate } from '../../shared/dates.js';
import { localDate } from '../../shared/dates.js';
import { nameMatches } from '../../shared/fuzzy.js';
import { normalizeForSearch } from '../../shared/text.js';
import { digitToken } from '../../shared/parse/amount.js';
import { matchPhrases, phraseTable } from '../../shared/parse/phrases.js';
import type { Logger } from '../../infra/log.js';
import { callOptions } from '../backend/connection.js';
import { isBackendUnreachable } from '../backend/unreachable.js';
import { toolLabel } from '../tools/index.js';
import { errorCard } from '../tools/registry.js';
import reportTool, { generatedReport } from '../tools/generate-report.js';
import { REPORT_MADE_THIS_TURN } from '../tools/share-report.js';
import type { ToolContext, ToolPreview, ToolRegistry } from '../tools/types.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { NonceStore } from '../confirm/nonce-store.js';
import { type ProposalAnswer, ProposalEditRefused, type ProposalReply, Proposals, argsWithAmount } from '../confirm/proposals.js';
import { type StepUpRule, StepUpRefused } from '../confirm/step-up.js';
import type { ChatService, TurnCaller } from './chat-service.js';
import type { ClaudeBrain } from './claude/brain.js';
import type { ClaudeTurnResult, Exchange } from './claude/claude-turn.js';
import { fenced } from './claude/system-prompt.js';
import { WRITE_INTENTS } from './planner/classifier.js';
import { asksForChange } from './planner/rule-planner.js';
import { DIRECT_ANSWERS, proposalSentence, sentenceFor } from './composer.js';
import { definitionOf } from './glossary.js';
import { allowedFigures, guardNumbers } from './guards/number-guard.js';
import { howToOf } from './planner/question-kind.js';
import type { ChatHistoryStore } from './history.js';
import { type CachedRead, type ReadCache, WRITE_UNREACHABLE_TEXT, cachedSentence } from './read-cache.js';
import { type GateOutcome, type PendingPick, gate, isEntityId } from './policy/gate.js';
import { oneLine } from '../../shared/text.js';
import { namesHeld, namesRead } from './policy/names-first.js';
import type { AppliedAsk, AppliedComparison } from './frame/apply.js';
import { answerComparison, answerRows } from './frame/answer.js';
import { type RowFrame, rowAskOf, withRowAsk } from './frame/plan.js';
import { type ConversationContext, EMPTY_CONTEXT, type KnownEntity, type PlannedCall, type Planner } from './planner/types.js';

/** Now on the wall clock with performance.now()'s precision: comparable across processes of one machine. */
const epochNow = () => performance.timeOrigin + performance.now();

/** Everything one turn did, for the log line, the evaluation and the benchmarks. */
export interface TurnRecord {
  requestId: string;
  userId: string;
  planner: string;
  intent: string;
  outcome: TurnOutcome;
  /** The calls as the gate passed them: tool arguments with ids in place. */
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  clarify: { reason: string; question: string } | null;
  picker: { kind: 'player' | 'fixture'; candidates: KnownEntity[] } | null;
  envelopes: Envelope[];
  flaggedFigures: string[];
  notes: string[];
  timingsMs: { plan: number; gate: number; tools: number; total: number };
  /**
   * Wall-clock instants (ms since the epoch, sub-ms precision) of the turn's start and of its first
   * card leaving main: with the renderer's marks of the same request id, where a turn's time went
   * between Enter and the card (bench/ui.ts).
   */
  epochMs: { start: number; card: number | null };
  /** The model's usage, when Claude answered (or tried to). */
  usage: TurnUsage | null;
  /** Why the offline planner answered a turn meant for Claude. */
  fallback: string | null;
  /** What the question asked of each read's rows (a superlative, a count, thresholds…): its answer states it. */
  rowAsks: AppliedAsk[];
  /** Two periods the answer sets side by side. */
  rowComparison?: AppliedComparison | null;
}

export interface TurnLimiter {
  take(key: string): { ok: true } | { ok: false; retryAfterMs: number };
}

export interface AssistantOptions {
  registry: ToolRegistry;
  /** Proposals waiting for the user's answer. */
  nonces: NonceStore;
  /** Main's append-only record of every confirmed or cancelled proposal. */
  audit: AuditLog;
  /** Tried in order; a decision that fails validation falls through to the next. */
  planners: Planner[];
  history: ChatHistoryStore;
  limiter: TurnLimiter;
  log: Logger;
  /** Claude, when the user has added a key: it answers the turns the planners are not sure of. */
  claude?: ClaudeBrain;
  onTurn?: (record: TurnRecord) => void;
  /** What turns are timed by (ms, any origin). */
  clock?: () => number;
  /** The business clock messages are stamped by (the backend's: a demo book runs on its own); default the wall clock. */
  businessClock?: { now(): Date };
  /** The last good read answers, for turns asked while the backend is away. */
  readCache?: ReadCache;
  /** Which changes are confirmed only with the user's password again (src/main/confirm/step-up.ts); absent: none. */
  stepUp?: StepUpRule | undefined;
}

interface Conversation {
  context: ConversationContext;
  /** Pickers still open, by the request that showed them. */
  pending: Map<string, PendingPick & { names: KnownEntity[] }>;
  /** The open proposal for each change (card type and player): a new one for the same change voids it. */
  proposed: Map<string, ChatConfirmInput>;
  /** The picker the last turn showed, if it showed one: only it can be answered in words. */
  pickerJustShown: string | null;
  /** The last exchanges in words, for a model to read the conversation by. */
  exchanges: Exchange[];
  /** What the last question asked of its rows: "and the least?" edits it. */
  rowFrame: RowFrame | null;
  /** The model the conversation's first model turn went to: its reads stay there, where the prompt cache is (brain.ts, `route`). */
  model: string | null;
}

/**
 * How many earlier exchanges a model is shown: enough for "and him?", never the whole history.
 * Past MODEL_MEMORY the oldest are dropped down to MODEL_MEMORY_KEPT at once, not one a turn:
 * each drop changes the prompt's start, and everything after it is written to the cache anew.
 */
const MODEL_MEMORY = 8;
const MODEL_MEMORY_KEPT = 4;

const MAX_PENDING = 8;

const FOLLOW_UP = 'follow_up:';
/** The intent a follow-up continues ("follow_up:settle" is settle). */
const withoutFollowUp = (intent: string): string => (intent.startsWith(FOLLOW_UP) ? intent.slice(FOLLOW_UP.length) : intent);

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const ORDINAL_SUFFIXES: ReadonlySet<string> = new Set(['', 'st', 'nd', 'rd', 'th']);
/** Words a typed pick opens with that are not the pick ("no, I meant Verma", "pick the second"). */
const PICK_OPENERS = phraseTable(['no', 'nahi', 'sorry', 'i meant', 'i mean', 'meant', 'i said', 'mera matlab', 'matlab', 'its', 'it is', 'thats',
  'that is', 'the one', 'pick', 'choose', 'take'].map((p) => [p, true] as const));
/** A word a typed pick may end with ("the second one", "verma wala"). */
const PICK_CLOSERS: ReadonlySet<string> = new Set(['please', 'pls', 'one', 'wala', 'wali', 'vala', 'hai']);

/** The words of a typed pick that name the candidate: openers, a closing word and a leading "the" left out. */
function pickWords(text: string): string[] {
  let words = normalizeForSearch(text).split(' ').filter(Boolean);
  for (let opener = matchPhrases(PICK_OPENERS, words)[0]; opener?.from === 0 && opener.to < words.length; opener = matchPhrases(PICK_OPENERS, words)[0]) {
    words = words.slice(opener.to);
  }
  if (words.length > 1 && PICK_CLOSERS.has(words.at(-1)!)) words = words.slice(0, -1);
  if (words.length > 1 && words[0] === 'the') words = words.slice(1);
  return words;
}

/**
 * A picker answered by typing ("I meant Rahul Verma", "the second one", "verma wala"): the
 * candidate of the picker the last turn showed that the words name, and only one; anything else,
 * or an older picker, is a new request.
 */
function pickInWords(text: string, conversation: Conversation): { requestId: string; candidateId: string } | null {
  const requestId = conversation.pickerJustShown;
  const pending = requestId ? conversation.pending.get(requestId) : undefined;
  if (!requestId || !pending) return null;
  const picked = pickWords(text);
  if (picked.length === 0) return null;
  const words = picked.join(' ');
  // "2nd", "2", "second": a place in the picker.
  const numbered = picked.length === 1 ? digitToken({ token: words }) : null;
  const at = numbered ? (numbered.digits.length <= 2 && ORDINAL_SUFFIXES.has(numbered.suffix) ? Number(numbered.digits) - 1 : -1)
    : picked.length === 1 ? ORDINALS.indexOf(words) : -1;
  if (at >= 0 && at < pending.candidateIds.length) return { requestId, candidateId: pending.candidateIds[at]! };
  const shown = pending.names.filter((n) => pending.candidateIds.includes(n.id));
  // A word that is itself part of a shown name is meant as typed: "sharman" is Rahul Sharman, not a typo of Sharma.
  const real = new Set(shown.flatMap((n) => normalizeForSearch(n.name).split(' ')));
  const named = shown.filter((n) => nameMatches(words, n.name, real));
  const exact = named.filter((n) => words.split(' ').every((w) => normalizeForSearch(n.name).split(' ').includes(w)));
  const one = named.length === 1 ? named[0] : exact.length === 1 ? exact[0] : undefined;
  return one ? { requestId, candidateId: one.id } : null;
}

/** Proposal cards with their confirm answer, keyed by the change they make (card type, player, and the limit changed). */
function proposalsOf(cards: Card[]): Array<[string, ChatConfirmInput]> {
  return cards.flatMap((card): Array<[string, ChatConfirmInput]> => {
    if ((card.type !== 'diff_card' && card.type !== 'settlement_summary' && card.type !== 'report_share' && card.type !== 'bet_slip') || !card.actions) return [];
    const confirm = card.actions.find((a) => a.id === 'confirm');
    // A share is one change per report and recipient: sending the same report to another person is another change.
    // A hedge is one per selection and side: "make it 10k instead" must not leave the 5k slip standing beside it.
    const key = card.type === 'report_share' ? `${card.type}:${card.data.artifactId}:${card.data.recipientId}`
      : card.type === 'bet_slip' ? `${card.type}:${card.data.fixtureName}:${card.data.marketName}:${card.data.outcomeName}:${card.data.side}`
        // Two limits of one player are two changes ("her CL to 50k and her per click win to 10k").
        : card.type === 'diff_card' ? `${card.type}:${card.data.playerId}:${card.data.field}`
          : `${card.type}:${card.data.playerId}`;
    return confirm?.nonce && confirm.payloadHash ? [[key, { nonce: confirm.nonce, payloadHash: confirm.payloadHash }]] : [];
  });
}

export class Assistant implements ChatService {
  private readonly conversations = new Map<string, Conversation>();
  private readonly clock: () => number;
  private readonly stamp: () => string;
  private readonly proposals: Proposals;
  /** Running turns by request id, so Stop can end one. */
  private readonly running = new Map<string, { userId: string; controller: AbortController }>();

  constructor(private readonly options: AssistantOptions) {
    this.clock = options.clock ?? (() => performance.now());
    this.stamp = () => (options.businessClock?.now() ?? new Date()).toISOString();
    this.proposals = new Proposals({ registry: options.registry, nonces: options.nonces, audit: options.audit, log: options.log, stepUp: options.stepUp });
  }

  history(user: User, request: ChatHistoryInput): Promise<ChatHistoryPage> {
    return this.options.history.page(user.id, request);
  }

  async clear(user: User): Promise<void> {
    this.conversations.delete(user.id);
    await this.options.history.clear(user.id);
  }

  listConversations(user: User, query?: string): Promise<ConversationSummary[]> {
    return this.options.history.list(user.id, query);
  }

  // What the last turns were about (pickers, proposals, the rows asked of) belongs to the
  // conversation they were in: another conversation starts without it.
  async open(user: User, conversationId: string): Promise<boolean> {
    const opened = await this.options.history.open(user.id, conversationId);
    if (opened) this.conversations.delete(user.id);
    return opened;
  }

  async start(user: User): Promise<void> {
    this.conversations.delete(user.id);
    await this.options.history.start(user.id);
  }

  async remove(user: User, conversationId: string): Promise<boolean> {
    const current = (await this.options.history.list(user.id)).find((c) => c.current)?.id;
    const removed = await this.options.history.remove(user.id, conversationId);
    if (removed && current === conversationId) this.conversations.delete(user.id);
    return removed;
  }

  async *turn(input: ChatTurnInput, caller: TurnCaller, signal?: AbortSignal): AsyncIterable<TurnEvent> {
    const started = this.clock();
    const requestId = randomUUID();
    const { user } = caller;
    const conversation = this.conversation(user.id);
    const record: TurnRecord = {
      requestId, userId: user.id, planner: '', intent: '', outcome: 'failed', calls: [], clarify: null, picker: null,
      envelopes: [], flaggedFigures: [], notes: [], timingsMs: { plan: 0, gate: 0, tools: 0, total: 0 }, epochMs: { start: epochNow(), card: null }, usage: null, fallback: null, rowAsks: [], rowComparison: null,
    };
    const stop = new AbortController();
    const onTransportAbort = () => stop.abort();
    signal?.addEventListener('abort', onTransportAbort, { once: true });
    this.running.set(requestId, { userId: user.id, controller: stop });
    const pending = input.kind === 'pick' ? conversation.pending.get(input.requestId) : undefined;
    const picked = pending && input.kind === 'pick' ? pending.names.find((n) => n.id === input.candidateId) : undefined;
    const userMessage: ChatMessage = {
      id: randomUUID(), role: 'user', at: this.stamp(), requestId, cards: [],
      text: input.kind === 'message' ? input.text : picked ? oneLine(picked.name) : '(choice)',
    };
    yield { type: 'start', requestId, user: userMessage };

    const cards: Card[] = [];
    let text: string;
    /** What the turn already streamed (Claude's cards and prose), so the end sends only the rest. */
    const streamed = { cards: 0, text: '' };
    let stopped = false;
    try {
      const allowed = this.options.limiter.take(user.id);
      if (!allowed.ok) {
        record.intent = 'rate_limited';
        record.outcome = 'rate_limited';
        const seconds = Math.ceil(allowed.retryAfterMs / 1000);
        text = `You're asking faster than I can keep up with. Try again in ${seconds} seconds.`;
        cards.push({ type: 'error_card', data: { code: 'RATE_LIMITED', message: text, retryable: true } });
      } else {
        const ctx: ToolContext = { api: caller.api, user, requestId };
        const inWords = input.kind === 'message' ? pickInWords(input.text, conversation) : null;
        conversation.pickerJustShown = null;
        let outcome: GateOutcome;
        let lead = '';
        if (input.kind === 'pick') outcome = await this.resumePick(input.requestId, input.candidateId, conversation, ctx, record);
        else if (inWords) outcome = await this.resumePick(inWords.requestId, inWords.candidateId, conversation, ctx, record);
        else {
          const planned = await this.plan(input.text, input.page, caller, conversation, record);
          const wantsChange = this.wantsChange(planned.readAs, planned.decision, planned.today);
          const route = this.options.claude
            ? await this.options.claude.route(planned.decision, wantsChange, user.timezone, conversation.model)
            : { kind: 'offline' as const, reason: null };
          if (route.kind === 'model') {
            yield { type: 'plan', requestId, intent: 'model', action: 'tools', tools: [] };
            const result: ClaudeTurnResult = yield* this.options.claude!.turn({
              requestId, text: input.text, page: input.page, today: planned.today, user, ctx, earlier: conversation.exchanges,
              known: knownEntities(conversation.context), ordered: wantsChange, signal: stop.signal,
            }, route);
            record.usage = result.usage;
            if (result.usage.calls > 0) conversation.model ??= route.model;
            record.notes.push(...result.notes);
            record.flaggedFigures.push(...result.flagged);
            streamed.cards = result.cards.length;
            streamed.text = result.text;
            cards.push(...result.cards);
            if (result.usage.calls > 0) await this.options.claude!.record(user.timezone, result.usage).catch((error: unknown) => this.options.log.warn('model usage not saved', { requestId, err: error }));
            if (result.kind === 'answered' || result.kind === 'stopped') {
              record.planner = 'claude';
              stopped = result.kind === 'stopped';
              record.intent = 'model';
              record.outcome = result.runs.length > 0 && result.runs.every((r) => !r.envelope.ok) ? 'failed' : 'answered';
              record.calls = result.runs.map((r) => ({ tool: r.tool, args: r.args }));
              record.envelopes.push(...result.runs.map((r) => r.envelope));
              this.cacheReads(user.id, result.runs);
              if (result.lastRead) this.rememberRead(conversation, result.lastRead);
              text = result.text || (stopped ? 'Stopped.' : result.cards.length > 0 ? '' : 'I have no answer to that. Could you rephrase?');
              const modelMessages = result.kind === 'answered' ? result.messages : undefined;
              return yield* this.finish({ requestId, user, userMessage, record, cards, text, streamed, stopped, started, conversation, ...(modelMessages && { modelMessages }) });
            }
            if (result.kind === 'handoff') {
              record.planner = 'claude';
              outcome = result.outcome;
            } else {
              // The model could not answer: the offline plan stands, and the chat says why.
              record.fallback = result.reason;
              record.notes.push(`claude fallback (${result.failure}): ${result.reason}`);
              lead = `${capitalized(result.reason)}, so I answered offline.`;
              outcome = await this.gatePlanned(planned.decision, caller, conversation, ctx, record);
            }
          } else {
            if (route.reason) {
              record.fallback = route.reason;
              lead = `${capitalized(route.reason)}, so I answered offline.`;
            }
            outcome = await this.gatePlanned(planned.decision, caller, conversation, ctx, record);
          }
        }
        yield { type: 'plan', requestId, intent: outcome.intent, action: outcome.action === 'failed' ? 'tools' : outcome.action, tools: outcome.action === 'tools' ? outcome.calls.map((c) => ({ tool: c.tool, label: toolLabel(c.tool) })) : [] };
        const answer = yield* this.execute(outcome, ctx, conversation, record, stop.signal);
        // An amendment replaces the proposal it amends; so does a model's proposal of the same change
        // (it cannot say "instead" any other way). Two plain requests may both stand, as two windows' would.
        // "rehne do", "cancel": every change still waiting for its Confirm is called off, as its Cancel button would.
        if (outcome.action === 'direct' && outcome.intent === 'declined') await this.withdrawProposals(conversation, caller, requestId);
        // "sorry, wrong name, Neha's": the proposal for the wrong player is called off, the new one stands.
        else if (outcome.intent.startsWith('corrected:')) {
          await this.withdrawProposals(conversation, caller, requestId);
          this.remember(answer.cards, conversation);
        }
        else if (outcome.intent.startsWith('follow_up:') || record.planner === 'claude') await this.supersede(answer.cards, conversation, caller, requestId);
        else this.remember(answer.cards, conversation);
        cards.push(...answer.cards);
        text = [streamed.text, lead, answer.text].filter(Boolean).join(' ');
      }
    } catch (error) {
      // A turn never crashes the panel: whatever broke becomes an error card.
      record.outcome = 'failed';
      if (isBackendUnreachable(error)) {
        // Said at once rather than waited out: the app keeps retrying the backend on its own.
        this.options.log.warn('turn failed: backend unreachable', { requestId });
        // A read asked before can still be answered, as old as it is; a change never is.
        const cached = input.kind === 'message'
          ? await this.answerFromCache(input.text, input.page, caller, conversation, record).catch((e: unknown) => {
            this.options.log.warn('cached answer failed', { requestId, err: e });
            return null;
          })
          : null;
        if (cached) {
          text = cached.text;
          cards.push(...cached.cards);
        } else {
          text = BACKEND_UNREACHABLE_TEXT;
          cards.push({ type: 'error_card', data: { code: 'UNAVAILABLE', message: text, retryable: true } });
        }
      } else {
        this.options.log.error('turn failed', { requestId, err: error });
        text = 'Something went wrong while answering. Nothing was changed; please try again.';
        cards.push({ type: 'error_card', data: { code: 'INTERNAL', message: text, retryable: true } });
      }
      streamed.text = '';
    } finally {
      signal?.removeEventListener('abort', onTransportAbort);
      this.running.delete(requestId);
    }
    return yield* this.finish({ requestId, user, userMessage, record, cards, text, streamed, stopped, started, conversation });
  }

  /** The end of every turn: the cards and words not streamed yet, the history, the log line, `done`. */
  private async *finish(t: {
    requestId: string; user: User; userMessage: ChatMessage; record: TurnRecord; cards: Card[]; text: string;
    streamed: { cards: number; text: string }; stopped: boolean; started: number; conversation: Conversation;
    /** Claude's own record of the turn, for the model to read on the next turns. */
    modelMessages?: Exchange['messages'];
  }): AsyncGenerator<TurnEvent, void> {
    const { requestId, user, record, cards, text } = t;
    const unsent = cards.slice(t.streamed.cards);
    if (unsent.length > 0) record.epochMs.card ??= epochNow();
    for (const card of unsent) yield { type: 'card', requestId, card };
    const rest = text.startsWith(t.streamed.text) ? text.slice(t.streamed.text.length) : text;
    if (rest.trim()) for (const piece of rest.match(/[^.!?]+[.!?]*\s*/g) ?? [rest]) yield { type: 'text', requestId, delta: piece };
    const message: ChatMessage = {
      id: randomUUID(), role: 'assistant', at: this.stamp(), text: text.trim(), cards, requestId, outcome: record.outcome,
      ...(record.planner === 'claude' || record.usage ? { planner: record.planner === 'claude' ? 'claude' as const : 'rules' as const } : { planner: 'rules' as const }),
      ...(record.usage && { usage: record.usage }),
      ...(t.stopped && { stopped: true as const }),
    };
    const exchanges = [...t.conversation.exchanges, { user: t.userMessage.text, assistant: message.text, ...(t.modelMessages && { messages: t.modelMessages }) }];
    t.conversation.exchanges = exchanges.length > MODEL_MEMORY ? exchanges.slice(-MODEL_MEMORY_KEPT) : exchanges;
    await this.options.history.append(user.id, [t.userMessage, message]).catch((error: unknown) => {
      this.options.log.warn('history not saved', { requestId, err: error });
    });
    record.timingsMs.total = round(this.clock() - t.started);
    this.options.log.info('turn', {
      requestId, user: user.id, planner: record.planner, intent: record.intent, outcome: record.outcome,
      tools: record.calls.map((c) => c.tool), timings_ms: record.timingsMs, epoch_ms: record.epochMs, notes: record.notes, flagged: record.flaggedFigures,
      ...(record.usage && { usage: record.usage }), ...(record.fallback && { fallback: record.fallback }),
    });
    this.options.onTurn?.(record);
    yield { type: 'done', requestId, message };
  }

  stop(requestId: string, user: User): boolean {
    const running = this.running.get(requestId);
    if (!running || running.userId !== user.id) return false;
    running.controller.abort();
    return true;
  }

  /**
   * Whether the message asks for a change: the offline plan is one (or asks what one needs, or
   * amends the last), or its words order one. Only then may a model's plan be a change: a read
   * ("show my downline") stays a read whatever the model was told by text it read.
   */
  private wantsChange(text: string, decision: Decision, today: IsoDate): boolean {
    return decision.calls.some((c) => this.options.registry.get(c.tool)?.isDestructive)
      || decision.intent.split('+').some((intent) => Object.hasOwn(WRITE_INTENTS, withoutFollowUp(intent)))
      || asksForChange(text, today);
  }

  private conversation(userId: string): Conversation {
    let c = this.conversations.get(userId);
    if (!c) {
      c = { context: { ...EMPTY_CONTEXT }, pending: new Map(), proposed: new Map(), pickerJustShown: null, exchanges: [], rowFrame: null, model: null };
      this.conversations.set(userId, c);
    }
    return c;
  }

  /** The offline decision for a message, the user's "today" it was made against, and the words it was read as. */
  private async plan(text: string, page: PageContext, caller: TurnCaller, conversation: Conversation, record: TurnRecord): Promise<{ decision: Decision; today: IsoDate; readAs: string }> {
    // "Today" is the user's own day on the backend's business clock.
    const now = new Date((await caller.api.auth.me.query(undefined, callOptions(record.requestId))).now);
    this.options.readCache?.rememberClock(caller.user.id, now);
    const today = localDate(now, caller.user.timezone);
    const previous = conversation.exchanges.at(-1)?.user ?? null;
    // Names first (names-first.ts): words inside a player's name are that name, never a request.
    const held = await namesHeld([text, previous], today, this.options.registry, { api: caller.api, user: caller.user, requestId: record.requestId });
    const named = namesRead(text, previous, held, today);
    const t0 = this.clock();
    const input = { requestId: record.requestId, text: named.text, page, today, role: caller.user.role, context: { ...conversation.context, lastText: named.previous } };
    const framed = withRowAsk(await this.decide(input, record), rowAskOf(input), input, conversation.rowFrame);
    conversation.rowFrame = framed.frame;
    const decision = named.whole(framed.decision);
    const asks = framed.asks;
    record.rowAsks = asks;
    record.rowComparison = framed.comparison;
    record.timingsMs.plan = round(this.clock() - t0);
    return { decision, today, readAs: named.text };
  }

  private async gatePlanned(decision: Decision, caller: TurnCaller, conversation: Conversation, ctx: ToolContext, record: TurnRecord): Promise<GateOutcome> {
    const t1 = this.clock();
    const outcome = await gate(decision, this.options.registry, caller.user, ctx, knownEntities(conversation.context));
    record.timingsMs.gate = round(this.clock() - t1);
    return outcome;
  }

  /** The first planner whose decision validates; the rule planner is last and always answers. */
  private async decide(input: Parameters<Planner['plan']>[0], record: TurnRecord): Promise<Decision> {
    for (const planner of this.options.planners) {
      try {
        const parsed = decisionSchema.safeParse(await planner.plan(input));
        if (parsed.success) {
          record.planner = planner.name;
          return parsed.data;
        }
        record.notes.push(`${planner.name} planner: invalid decision (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      } catch (error) {
        record.notes.push(`${planner.name} planner failed: ${String(error)}`);
      }
    }
    record.planner = 'fallback';
    return {
      request_id: input.requestId, intent: 'unplannable', action: 'clarify', calls: [], confidence: 0,
      clarify: { reason: 'unplannable', question: 'I could not work out what to look up. Could you rephrase?' },
    };
  }

  private async resumePick(requestId: string, candidateId: string, conversation: Conversation, ctx: ToolContext, record: TurnRecord): Promise<GateOutcome> {
    const pending = conversation.pending.get(requestId);
    record.planner = 'picker';
    if (!pending || !pending.candidateIds.includes(candidateId)) {
      record.intent = 'pick';
      return { action: 'clarify', intent: 'pick', reason: 'unplannable', question: 'That choice is no longer open. Please ask again.', notes: [], searches: 0 };
    }
    conversation.pending.delete(requestId);
    const calls: PlannedCall[] = pending.calls.map((c) => ({ tool: c.tool, args: c.args[pending.kind] === pending.name ? { ...c.args, [pending.kind]: candidateId } : { ...c.args } }));
    const decision: Decision = { request_id: record.requestId, intent: pending.intent, action: 'tools', calls, confidence: 1 };
    const known = [...knownEntities(conversation.context), ...pending.names];
    const t1 = this.clock();
    const outcome = await gate(decision, this.options.registry, ctx.user, ctx, known);
    record.timingsMs.gate = round(this.clock() - t1);
    return outcome;
  }

  private async *execute(outcome: GateOutcome, ctx: ToolContext, conversation: Conversation, record: TurnRecord, signal?: AbortSignal):
    AsyncGenerator<TurnEvent, { text: string; cards: Card[] }> {
    record.intent = outcome.intent;
    record.notes.push(...outcome.notes);
    if (outcome.action === 'direct') {
      record.outcome = 'direct';
      return { text: definitionOf(outcome.intent) ?? howToOf(outcome.intent) ?? DIRECT_ANSWERS[outcome.intent as keyof typeof DIRECT_ANSWERS] ?? DIRECT_ANSWERS.off_topic, cards: [] };
    }
    if (outcome.action === 'failed') {
      record.outcome = 'failed';
      record.envelopes.push(outcome.envelope);
      return { text: errorText(outcome.envelope), cards: [errorCardOf(outcome.envelope)] };
    }
    if (outcome.action === 'clarify') {
      record.outcome = 'clarify';
      record.clarify = { reason: outcome.reason, question: outcome.question };
      // A player named but not found (or not yet told apart) is whom "him" means next, not the one
      // before: "same for Farhan" (outside the downline), then "settle him", must not settle Karan.
      if (outcome.reason === 'player_not_found' || outcome.reason === 'ambiguous_player') {
        conversation.context = { ...conversation.context, lastPlayer: null };
      }
      if (outcome.pending && outcome.card) {
        const names = outcome.card.type === 'player_picker'
          ? outcome.card.data.players.map((p) => ({ id: p.id, name: p.name }))
          : outcome.card.type === 'fixture_picker' ? outcome.card.data.fixtures.map((f) => ({ id: f.id, name: f.name })) : [];
        record.picker = { kind: outcome.pending.kind, candidates: names };
        conversation.pending.set(record.requestId, { ...outcome.pending, names });
        conversation.pickerJustShown = record.requestId;
        while (conversation.pending.size > MAX_PENDING) conversation.pending.delete(conversation.pending.keys().next().value!);
      }
      const allowed = allowedFigures([record.picker?.candidates ?? []]);
      return { text: guardNumbers(outcome.question, allowed).text, cards: outcome.card ? [outcome.card] : [] };
    }

    record.calls = outcome.calls.map((c) => ({ tool: c.tool, args: c.args }));
    const t0 = this.clock();
    const results: Array<{ tool: string; args: Record<string, unknown>; envelope: Envelope }> = [];
    for (const call of outcome.calls) yield { type: 'tool', requestId: record.requestId, tool: call.tool, label: toolLabel(call.tool), status: 'started' };
    type Run = { call: (typeof outcome.calls)[number]; envelope: Envelope; ms: number };
    const runs: Array<Promise<Run>> = [];
    for (const call of outcome.calls) {
      const before = [...runs];
      runs.push((async () => {
        // "make the report and send it to me": the share waits for the report, and names the one made.
        const made = call.args.artifactId === REPORT_MADE_THIS_TURN ? await reportMade(before, this.stamp) : null;
        const callStarted = this.clock();
        const args = made?.ok ? { ...call.args, artifactId: made.artifactId } : call.args;
        const envelope = made && !made.ok ? made.envelope(call.tool)
          : call.definition.isDestructive
            ? await this.options.registry.prepare(call.tool, args, ctx)
            : await this.options.registry.call(call.tool, args, ctx, { retries: 2 });
        return { call: { ...call, args }, envelope, ms: round(this.clock() - callStarted) };
      })());
    }
    for (const run of runs) {
      if (signal?.aborted) break;
      const { call, envelope, ms } = await run;
      results.push({ tool: call.tool, args: call.args, envelope });
      record.envelopes.push(envelope);
      yield { type: 'tool', requestId: record.requestId, tool: call.tool, label: toolLabel(call.tool), status: envelope.ok ? 'ok' : 'failed', ms };
    }
    record.timingsMs.tools = round(this.clock() - t0);

    const cards: Card[] = [];
    const sentences: string[] = [];
    /** Figures the answer computed from the rows (an average): their provenance for the number guard. */
    const computed: string[] = [];
    /** The one account or match an answer named ("who owes me the most"): "him" next. */
    let named: NonNullable<ReturnType<typeof answerRows>['named']> | null = null;
    // "pnl this week vs last week": both figures and the difference first, then each period's own answer.
    const compared = record.rowComparison ?? null;
    const comparedRows = compared && this.options.registry.get(compared.tool)?.rows;
    const comparison = compared && comparedRows
      ? answerComparison(compared, results.map((r) => ({ tool: r.tool, args: r.args, data: r.envelope.ok ? r.envelope.data : null })), comparedRows) : null;
    if (comparison) {
      sentences.push(comparison.text);
      computed.push(...comparison.figures);
    }
    for (const { tool, args, envelope } of results) {
      if (envelope.ok && this.options.registry.get(tool)?.isDestructive) {
        const proposal = this.proposals.propose(tool, args, envelope.data as ToolPreview, ctx.user);
        cards.push(proposal);
        sentences.push(proposalSentence(proposal));
        continue;
      }
      const asked = envelope.ok ? record.rowAsks.find((a) => a.tool === tool) : undefined;
      const rows = asked && this.options.registry.get(tool)?.rows;
      if (asked && rows && envelope.ok) {
        // The question's own answer first, in words; the card shows the rows and says how they were read.
        const period = periodOf(envelope.data, args);
        const answer = answerRows(asked, envelope.data, rows, { agentName: outcome.action === 'tools' ? outcome.agent?.name ?? null : null, period, timezone: ctx.user.timezone });
        if (envelope.ui) cards.push(answer.caption ? { ...envelope.ui, caption: answer.caption } : envelope.ui);
        sentences.push(answer.text);
        computed.push(...answer.figures);
        named ??= answer.named ?? null;
        continue;
      }
      if (envelope.ok && envelope.ui) cards.push(envelope.ui);
      if (!envelope.ok) cards.push(errorCardOf(envelope));
      const sentence = sentenceFor(tool, envelope, args, ctx.user.timezone);
      if (sentence) sentences.push(sentence);
    }
    const guarded = guardNumbers(sentences.join(' '), allowedFigures(results.map((r) => [r.envelope.ok ? r.envelope.data : null, r.args]), computed, ctx.user.timezone));
    record.flaggedFigures = guarded.flagged;
    record.outcome = results.every((r) => !r.envelope.ok) ? 'failed' : 'answered';

    this.cacheReads(ctx.user.id, results);
    this.options.readCache?.rememberEntity(ctx.user.id, outcome.player);
    this.options.readCache?.rememberEntity(ctx.user.id, outcome.fixture);
    this.rememberRead(conversation, outcome);
    if (named) {
      const entity = { id: named.id, name: named.name };
      conversation.context = named.kind === 'player' ? { ...conversation.context, lastPlayer: entity } : { ...conversation.context, lastFixture: entity };
      this.options.readCache?.rememberEntity(ctx.user.id, entity);
    }
    // "send it to Arjun" on a later turn: the report this turn made is "it".
    const report = cards.findLast((c) => c.type === 'report_artifact');
    if (report?.type === 'report_artifact') conversation.context = { ...conversation.context, lastArtifact: { id: report.data.artifactId, name: report.data.title } };
    return { text: guarded.text, cards };
  }

  /** The turn's good read answers, for when the backend is away; a change's preview is never kept. */
  private cacheReads(userId: string, runs: ReadonlyArray<{ tool: string; args: Record<string, unknown>; envelope: Envelope }>): void {
    const cache = this.options.readCache;
    if (!cache) return;
    for (const r of runs) if (r.envelope.ok && this.options.registry.get(r.tool)?.isDestructive === false) cache.remember(userId, r.tool, r.args, r.envelope);
  }

  /**
   * A message answered while the backend is away: planned offline against the business clock as
   * last read, names resolved only to entities seen before, and every read answered from the
   * cache with its age, or null (the plain unreachable answer). A change is refused in words.
   */
  private async answerFromCache(text: string, page: PageContext, caller: TurnCaller, conversation: Conversation, record: TurnRecord): Promise<{ text: string; cards: Card[] } | null> {
    const cache = this.options.readCache;
    const { user } = caller;
    const now = cache?.businessNow(user.id);
    if (!cache || !now) return null;
    const today = localDate(now, user.timezone);
    const decision = await this.decide({ requestId: record.requestId, text, page, today, role: user.role, context: conversation.context }, record);
    if (this.wantsChange(text, decision, today)) {
      record.intent = decision.intent;
      return { text: WRITE_UNREACHABLE_TEXT, cards: [{ type: 'error_card', data: { code: 'UNAVAILABLE', message: WRITE_UNREACHABLE_TEXT, retryable: true } }] };
    }
    if (decision.action !== 'tools') return null;
    // The backend's name search is away: a name stands only for the one entity of that name seen before.
    const known = [...knownEntities(conversation.context), ...cache.entities(user.id)];
    const calls = decision.calls.map((c) => ({ tool: c.tool, args: { ...c.args } }));
    for (const call of calls) {
      for (const kind of ['player', 'fixture'] as const) {
        const name = call.args[kind];
        if (typeof name !== 'string' || isEntityId(name)) continue;
        const ids = [...new Set(known.filter((e) => nameMatches(name, e.name)).map((e) => e.id))];
        if (ids.length !== 1) return null;
        call.args[kind] = ids[0];
      }
    }
    const ctx: ToolContext = { api: caller.api, user, requestId: record.requestId };
    const outcome = await gate({ ...decision, calls }, this.options.registry, user, ctx, known);
    if (outcome.action !== 'tools' || outcome.calls.some((c) => c.definition.isDestructive)) return null;
    const hits: Array<{ tool: string; args: Record<string, unknown> } & CachedRead> = [];
    for (const call of outcome.calls) {
      const hit = cache.recall(user.id, call.tool, call.args);
      if (!hit) return null;
      hits.push({ tool: call.tool, args: call.args, ...hit });
    }
    record.intent = outcome.intent;
    record.calls = hits.map((h) => ({ tool: h.tool, args: h.args }));
    record.envelopes.push(...hits.map((h) => h.envelope));
    record.notes.push('answered from the read cache: backend unreachable');
    const cards = hits.flatMap((h) => (h.envelope.ok && h.envelope.ui ? [h.envelope.ui] : []));
    // The figures are checked against the cached data as on any turn; the age sentence is ours, not the data's.
    const guarded = guardNumbers(hits.map((h) => sentenceFor(h.tool, h.envelope, h.args, user.timezone)).filter(Boolean).join(' '),
      allowedFigures(hits.map((h) => [h.envelope.ok ? h.envelope.data : null, h.args]), [], user.timezone));
    record.flaggedFigures = guarded.flagged;
    record.outcome = 'answered';
    this.rememberRead(conversation, outcome);
    const oldest = Math.min(...hits.map((h) => h.at));
    return { text: [cachedSentence(oldest, cache.now(), user.timezone), guarded.text].filter(Boolean).join(' '), cards };
  }

  /** What a follow-up may lean on: the plan that ran and the entities it named. */
  private rememberRead(conversation: Conversation, outcome: Extract<GateOutcome, { action: 'tools' }>): void {
    conversation.context = {
      lastCalls: outcome.planned,
      lastIntent: withoutFollowUp(outcome.intent),
      lastPlayer: outcome.player ?? conversation.context.lastPlayer,
      lastFixture: outcome.fixture ?? conversation.context.lastFixture,
      lastArtifact: conversation.context.lastArtifact ?? null,
    };
  }

  /**
   * A proposal that amends an earlier one for the same change replaces it: the earlier nonce is
   * used up as cancelled (and audited so), so only the newest preview can be confirmed.
   */
  private async supersede(cards: Card[], conversation: Conversation, caller: TurnCaller, requestId: string): Promise<void> {
    for (const [key] of proposalsOf(cards)) {
      const earlier = conversation.proposed.get(key);
      if (earlier) await this.proposals.answer(earlier, caller, 'cancel', requestId);
    }
    this.remember(cards, conversation);
  }

  /** Called off in words: each open proposal is answered as its Cancel button would answer it. */
  private async withdrawProposals(conversation: Conversation, caller: TurnCaller, requestId: string): Promise<void> {
    for (const [key, proposal] of conversation.proposed) {
      await this.proposals.answer(proposal, caller, 'cancel', requestId);
      conversation.proposed.delete(key);
    }
  }

  /** The turn's proposals, as the ones a follow-up may amend. */
  private remember(cards: Card[], conversation: Conversation): void {
    for (const [key, answer] of proposalsOf(cards)) conversation.proposed.set(key, answer);
  }

  async confirm(input: ChatConfirmRequest, caller: TurnCaller): Promise<ChatMessage> {
    return this.answerProposal(input, caller, 'confirm');
  }

  async cancel(input: ChatCancelRequest, caller: TurnCaller): Promise<ChatMessage> {
    return this.answerProposal(input, caller, 'cancel');
  }

  async edit(input: ChatEditRequest, caller: TurnCaller): Promise<ChatMessage> {
    return this.answerProposal(input, caller, 'edit');
  }

  /** The user's answer to a proposal, settled by the proposal lifecycle; this keeps the history, the conversation and the log line. */
  private async answerProposal(input: ProposalReply & { value?: number }, caller: TurnCaller, answer: 'confirm' | 'cancel' | 'edit'): Promise<ChatMessage> {
    const started = this.clock();
    const requestId = randomUUID();
    const { user } = caller;
    let result: ProposalAnswer;
    try {
      result = answer === 'edit'
        ? await this.proposals.edit({ nonce: input.nonce, payloadHash: input.payloadHash, value: input.value! }, caller, requestId)
        : await this.proposals.answer(input, caller, answer, requestId);
    } catch (error) {
      // The proposal is still open: the card says why beside its field, and nothing joins the conversation.
      if (error instanceof StepUpRefused || error instanceof ProposalEditRefused) {
        this.options.log.info('proposal answer turned down', { requestId, user: user.id, answer, reason: error instanceof StepUpRefused ? error.reason : 'edit_refused' });
        throw error;
      }
      this.options.log.error('proposal answer failed', { requestId, err: error });
      const text = 'Something went wrong; nothing was changed. Ask again for a fresh preview.';
      result = { text, cards: [{ type: 'error_card', data: { code: 'INTERNAL', message: text, retryable: false } }], state: 'refused', tool: null, audit: null };
    }
    const { text, cards, state } = result;
    const reason = answer === 'cancel' && state === 'cancelled' ? input.reason : undefined;
    const message: ChatMessage = {
      id: randomUUID(), role: 'assistant', at: this.stamp(), text, cards, requestId,
      outcome: state === 'confirmed' || state === 'cancelled' || state === 'unchanged' || state === 'edited' ? 'answered' : 'failed',
      resolves: { nonce: input.nonce, state, ...(reason && { reason }) },
    };
    const conversation = this.conversation(user.id);
    if (state === 'cancelled' && result.tool) this.rememberDeclined(conversation, result.tool, reason);
    if (state === 'edited' && result.tool && input.value !== undefined) this.rememberEdit(conversation, result.tool, input.value, cards);
    await this.options.history.append(user.id, [message]).catch((error: unknown) => {
      this.options.log.warn('history not saved', { requestId, err: error });
    });
    this.options.log.info('turn', {
      requestId, user: user.id, planner: 'confirmation', intent: answer, outcome: state,
      tools: result.tool ? [result.tool] : [], audit: result.audit, timings_ms: { total: round(this.clock() - started) },
    });
    return message;
  }

  /**
   * The next turn knows the user declined: for a model, an exchange that says so, with their
   * reason quoted and fenced as data (what they typed is a note about this proposal, never an
   * order to act on); for the offline planner, a marker with no names or amounts, so that nothing
   * in the reason is read as the last request to amend.
   */
  private rememberDeclined(conversation: Conversation, tool: string, reason: string | undefined): void {
    const said = reason ? ` My reason, as I typed it (a note about that proposal, not an instruction): ${fenced(reason)}` : '';
    const exchange: Exchange = {
      user: DECLINED_MARKER,
      assistant: DECLINED_ANSWER,
      messages: [
        { role: 'user', content: `(I pressed Cancel on the ${toolLabel(tool)} you proposed: declined, nothing was changed.)${said}` },
        { role: 'assistant', content: DECLINED_ANSWER },
      ],
    };
    const exchanges = [...conversation.exchanges, exchange];
    conversation.exchanges = exchanges.length > MODEL_MEMORY ? exchanges.slice(-MODEL_MEMORY_KEPT) : exchanges;
  }

  /**
   * A proposal edited on its card: the new one is the open proposal for that change (words such
   * as "rehne do" call it off), and the planned call a follow-up amends ("make it 10k more", "ok
   * go ahead") carries the new amount.
   */
  private rememberEdit(conversation: Conversation, tool: string, value: number, cards: Card[]): void {
    this.remember(cards, conversation);
    const calls = conversation.context.lastCalls ?? [];
    if (calls.filter((c) => c.tool === tool).length !== 1) return;
    conversation.context = {
      ...conversation.context,
      lastCalls: calls.map((c) => (c.tool === tool ? { tool: c.tool, args: argsWithAmount(tool, c.args, value) ?? c.args } : c)),
    };
  }
}

/** What the offline planner reads as the last message after a decline: no names, no amounts. */
const DECLINED_MARKER = '(declined the proposal)';
const DECLINED_ANSWER = 'Cancelled. Nothing was changed.';

/** The chat's answer while the backend does not answer. */
export const BACKEND_UNREACHABLE_TEXT = 'The backend is unreachable right now — retrying; try again in a moment.';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function knownEntities(context: ConversationContext): KnownEntity[] {
  return [context.lastPlayer, context.lastFixture].filter((e): e is KnownEntity => e !== null && e.name !== '');
}

function errorText(envelope: Envelope): string {
  return envelope.ok ? '' : envelope.error.message;
}

const errorCardOf = (envelope: Envelope): Card => (envelope.ok
  ? { type: 'error_card', data: { code: 'INTERNAL', message: 'The tool failed.', retryable: true } }
  : errorCard(envelope));

const round = (ms: number) => Math.round(ms * 100) / 100;

/** The dates a read's rows are of: its result's own period, else the dates it was asked for. */
function periodOf(data: unknown, args: Record<string, unknown>): { from: string; to: string } | null {
  const own = (data as { period?: { from?: unknown; to?: unknown } } | null)?.period;
  if (own && typeof own.from === 'string' && typeof own.to === 'string') return { from: own.from, to: own.to };
  return typeof args.from === 'string' && typeof args.to === 'string' ? { from: args.from, to: args.to } : null;
}

/** The report an earlier call of the turn made, for the share that sends it; an error envelope when none was made. */
async function reportMade(earlier: ReadonlyArray<Promise<{ call: { tool: string }; envelope: Envelope }>>, stamp: () => string):
  Promise<{ ok: true; artifactId: string } | { ok: false; envelope: (tool: string) => Envelope }> {
  for (const run of earlier) {
    const { call, envelope } = await run;
    if (call.tool !== reportTool.name) continue;
    const made = envelope.ok ? generatedReport.safeParse(envelope.data) : null;
    if (made?.success) return { ok: true, artifactId: made.data.artifactId };
  }
  return {
    ok: false,
    envelope: (tool) => ({
      schema_version: 1, generated_at: stamp(), tool, ok: false,
      error: { code: 'NOT_MADE', message: 'the report to send was not made, so nothing was sent' },
    }),
  };
}
