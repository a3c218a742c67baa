// Relative imports end in .js: the node-side typecheck reads this module too (its unit test).
import { create } from 'zustand';
import type { Card, ProposalState } from '../../../shared/contracts/assistant.js';
import type {
  HISTORY_PAGE as CONTRACT_HISTORY_PAGE, MAX_MESSAGE_LENGTH, ChatConversationInput, ChatConversationsInput, ChatHistoryInput, ChatHistoryPage, ChatMessage,
  ChatTurnInput, ConversationSummary, PageContext, TurnEvent,
} from '../../../shared/contracts/chat.js';
import { UserFacingError, errorCode, isUnauthorized, userMessage } from '../lib/errors.js';

/** The contract's limit (checked against it at compile time; the contract itself is not bundled). */
export const MAX_LENGTH: typeof MAX_MESSAGE_LENGTH = 2000;

/**
 * How many messages the panel holds and draws while the user has not asked for earlier ones: a
 * page of the history (the contract's, checked the same way). A turn's cost must not grow with
 * the conversation, so neither may what the panel holds; and what it holds is not free even off
 * screen (each frame of a turn pays style, paint and layer work for every message drawn): with 60
 * a turn after 500 cost 1.11-1.16x a first turn, with 24 0.89-0.98x (docs/benchmarks.md).
 */
export const HISTORY_PAGE: typeof CONTRACT_HISTORY_PAGE = 24;

export type ToolStatus = 'planned' | 'started' | 'ok' | 'failed';

/** The turn in flight: what the panel shows until `done` replaces it with the final message. */
export interface TurnState {
  /** Known from `start` on. */
  requestId: string | null;
  /** From `plan`: null until the plan is known. */
  action: 'tools' | 'clarify' | 'direct' | null;
  tools: Array<{ tool: string; label: string; status: ToolStatus }>;
  cards: Card[];
  text: string;
  /** The user pressed Stop: main's `done` (marked stopped) is awaited, for STOP_GRACE_MS at most. */
  stopping: boolean;
}

type HistoryState = 'idle' | 'loading' | 'ready' | 'error';

/** The conversation list: closed, or open with the conversations found (or why none could be). */
export interface ConversationList {
  state: 'loading' | 'ready' | 'error';
  /** The search typed; empty: every conversation. */
  query: string;
  found: ConversationSummary[];
  error: string | null;
}

/** Messages before the first one the panel holds: none, some kept in main, being fetched, or the fetch failed. */
export type EarlierState = 'none' | 'more' | 'loading' | 'error';

/** What the user can do to a pending proposal: confirm it, cancel it, or edit its value on the card. */
export type ProposalAnswer = 'confirm' | 'cancel' | 'edit';

/** What an answer carries beside the proposal: the password again (a large change's confirm), or a reason (a cancel). */
export interface AnswerExtras {
  password?: string | undefined;
  reason?: string | undefined;
}

/**
 * Codes with which main turns an answer down while the proposal stays open: a password missing,
 * wrong or throttled, an edit the guardrails refused, an input the contract refused. The card
 * shows why beside its field; nothing joins the conversation.
 */
const TURNED_DOWN = new Set(['BAD_REQUEST', 'FORBIDDEN', 'TOO_MANY_REQUESTS', 'PRECONDITION_FAILED', 'UNPROCESSABLE_CONTENT']);

export interface ChatState {
  open: boolean;
  /** Docked as a right sidebar (remembered) rather than floating. */
  docked: boolean;
  /** The panel's width in CSS pixels, docked or floating (remembered; CHAT_WIDTH's bounds). */
  width: number;
  history: HistoryState;
  historyError: string | null;
  /** What the panel holds: the latest HISTORY_PAGE messages, and the earlier pages the user asked for. */
  messages: ChatMessage[];
  earlier: EarlierState;
  earlierError: string | null;
  turn: TurnState | null;
  /** The last turn's call failed: shown as an error bubble after the messages. */
  error: string | null;
  /** The composer's text, kept while the panel is closed. */
  draft: string;
  /** The conversation list, while it is open in place of the messages. */
  list: ConversationList | null;
  /**
   * How each answered proposal ended, by nonce: the `resolves` of the first message (history
   * included) that answered it. Derived from `messages`, so it survives a reload.
   */
  resolved: Record<string, ProposalState>;
  /** The reason the user gave for declining, by nonce: derived from `messages` as `resolved` is. */
  declined: Record<string, string>;
  /** Proposals whose confirm, cancel or edit is in flight, by nonce. */
  answering: Record<string, ProposalAnswer>;
  /** Why the last answer to a proposal could not be sent (the call itself failed), by nonce. */
  answerErrors: Record<string, string>;
  /** Why main turned the last answer down with the proposal still open (a password, an edit), by nonce. */
  turnedDown: Record<string, { answer: ProposalAnswer; message: string }>;
  setOpen(open: boolean): void;
  setDocked(docked: boolean): void;
  /** Sets the width, kept within CHAT_WIDTH's bounds. */
  setWidth(width: number): void;
  setDraft(text: string): void;
  /** Loads the conversation's latest page once (again only after a failure). */
  loadHistory(): Promise<void>;
  /**
   * Fetches the page before the oldest message held ("Show earlier messages"); from then on the
   * panel keeps what it fetched until it is closed.
   */
  loadEarlier(): Promise<void>;
  /** Sends the composer's text as a turn, with the page the user is on. False when it cannot. */
  send(text: string): boolean;
  /** Continues a picker's turn with the chosen candidate. */
  pick(requestId: string, candidateId: string): void;
  /**
   * Asks main to end the running turn with what it has (once its requestId is known). The
   * subscription stays open for the `done` that follows; without it in time, or when the call
   * fails, the turn ends here with its partial answer as a failed message.
   */
  stop(): void;
  /**
   * Confirms or cancels the proposal of `nonce`, once: nothing is sent while an answer to it is
   * in flight or after it ended. The answer (main's message) joins the conversation.
   */
  answer(action: 'confirm' | 'cancel', nonce: string, payloadHash: string, extras?: AnswerExtras): Promise<void>;
  /**
   * Asks main for a new preview of the proposal of `nonce` with `value` (paisa) as its amount:
   * the answer carries the new card and ends the old one as edited.
   */
  edit(nonce: string, payloadHash: string, value: number): Promise<void>;
  /**
   * Asks the question that `messageId` (an answer) answered again, as a new turn; without an id,
   * the last question whose turn failed before any answer came.
   */
  retry(messageId?: string): void;
  /** Deletes the conversation shown; the next question starts a new one. */
  clear(): Promise<void>;
  /** Opens the conversation list (or closes it), or searches it: `query` over titles and messages. */
  showConversations(query?: string): Promise<void>;
  hideConversations(): void;
  /** Starts a new, empty conversation; the one shown stays in the list. */
  newConversation(): Promise<void>;
  /** Shows one of the user's conversations: the next question goes into it. */
  openConversation(id: string): Promise<void>;
  /** Deletes one of the user's conversations (the shown one: the panel starts a new one). */
  removeConversation(id: string): Promise<void>;
  /** Forgets everything but the dock mode and width (sign-out). */
  reset(): void;
}

/** The part of the desk client the chat uses (lib/desk.ts's client is one). */
export interface ChatClient {
  chat: {
    turn: {
      subscribe(input: ChatTurnInput, observer: {
        onData(event: TurnEvent): void; onError(error: unknown): void; onComplete(): void;
      }): { unsubscribe(): void };
    };
    history: { query(input: ChatHistoryInput): Promise<ChatHistoryPage> };
    confirm: { mutate(input: { nonce: string; payloadHash: string; password?: string }): Promise<ChatMessage> };
    cancel: { mutate(input: { nonce: string; payloadHash: string; reason?: string }): Promise<ChatMessage> };
    edit: { mutate(input: { nonce: string; payloadHash: string; value: number }): Promise<ChatMessage> };
    clear: { mutate(): Promise<unknown> };
    conversations: { query(input: ChatConversationsInput): Promise<ConversationSummary[]> };
    open: { mutate(input: ChatConversationInput): Promise<unknown> };
    start: { mutate(): Promise<unknown> };
    remove: { mutate(input: ChatConversationInput): Promise<unknown> };
    stop: { mutate(input: { requestId: string }): Promise<{ stopped: boolean }> };
  };
}

/** Query-key prefixes (lib/queries.ts) whose data is stale once a proposal has been answered. */
export type StaleKeys = ReadonlyArray<readonly string[]>;

/** What the chat store needs from the rest of the app, passed in so it can run on its own. */
export interface ChatDeps {
  client: ChatClient;
  /** The page the user is on, sent with each message. */
  page(): PageContext;
  /** A call answered UNAUTHORIZED: the session ended. */
  unauthorized(): void;
  /** Has the pages fetch the data of these query keys afresh. */
  invalidate(keys: StaleKeys): void;
  /** Where the dock mode is remembered (localStorage's two methods); null: nowhere. */
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
  /** How long a stopped turn waits for main's `done` before ending on its own (STOP_GRACE_MS). */
  stopGraceMs?: number;
}

/** Main answers a stop at once; a `done` this late means it or the link is stuck, not slow. */
export const STOP_GRACE_MS = 5_000;

/** Why a stopped turn ended without main's word: its partial answer lives in this window only. */
export const STOP_UNCONFIRMED = 'Stopped. The assistant did not confirm it, so what had arrived is kept in this window only.';

/** A confirmed change moved limits or takes: every panel figure, and the audit log. */
export const STALE_AFTER_CHANGE: StaleKeys = [['panel'], ['audit']];
/** Any other answer (cancelled, refused, expired, unchanged) is still a new audit entry. */
export const STALE_AFTER_ANSWER: StaleKeys = [['audit']];
/** A turn Claude answered spent tokens: the Settings page's usage today is out of date. */
export const STALE_AFTER_MODEL_TURN: StaleKeys = [['settings']];

const DOCK_KEY = 'agent-desk.chat.docked';
const WIDTH_KEY = 'agent-desk.chat.width';

/** The panel's width: narrower hides a card's columns, wider than this is what full width is for. */
export const CHAT_WIDTH = { min: 360, max: 1000, initial: 460 } as const;

export function clampWidth(width: number): number {
  if (!Number.isFinite(width)) return CHAT_WIDTH.initial;
  return Math.round(Math.min(CHAT_WIDTH.max, Math.max(CHAT_WIDTH.min, width)));
}

/** A failure of a chat call in words (lib/errors.ts): never the error's own text. */
export function errorText(error: unknown): string {
  return userMessage(error, 'The assistant could not answer. Try again.');
}

const PATH = /^\/[\w\-/.%]*$/;

/** AGENT.md, Page context: a route, trimmed to what the contract accepts. */
export function pageContext(path: string, query: Record<string, string>): PageContext {
  const entries = Object.entries(query).filter(([k, v]) => k.length > 0 && k.length <= 40 && v.length <= 200);
  return { path: path.length <= 300 && PATH.test(path) ? path : '/agent/dashboard', query: Object.fromEntries(entries) };
}

function upsert(messages: ChatMessage[], message: ChatMessage): ChatMessage[] {
  const i = messages.findIndex((m) => m.id === message.id);
  if (i === -1) return [...messages, message];
  const next = [...messages];
  next[i] = message;
  return next;
}

/**
 * The final state of each answered proposal, by nonce. The first answer counts: a later one
 * for the same nonce (another window's, say) can only be main's "already answered" refusal.
 */
export function resolutionsOf(messages: readonly ChatMessage[]): Record<string, ProposalState> {
  const resolved: Record<string, ProposalState> = {};
  for (const m of messages) {
    if (m.resolves && !Object.hasOwn(resolved, m.resolves.nonce)) resolved[m.resolves.nonce] = m.resolves.state;
  }
  return resolved;
}

/** The reasons given for declining, by nonce, from the first message that answered each proposal. */
export function declineReasonsOf(messages: readonly ChatMessage[]): Record<string, string> {
  const reasons: Record<string, string> = {};
  const seen = new Set<string>();
  for (const m of messages) {
    if (!m.resolves || seen.has(m.resolves.nonce)) continue;
    seen.add(m.resolves.nonce);
    if (m.resolves.reason) reasons[m.resolves.nonce] = m.resolves.reason;
  }
  return reasons;
}

/**
 * The question an answer answered: the user's message of its turn, else (a turn that failed
 * before main kept it, an answer to a proposal) the last question before it.
 */
export function questionOf(messages: readonly ChatMessage[], answerId: string): string | null {
  const at = messages.findIndex((m) => m.id === answerId);
  if (at === -1) return null;
  const { requestId } = messages[at]!;
  const own = requestId ? messages.find((m) => m.role === 'user' && m.requestId === requestId) : undefined;
  const before = own ?? messages.slice(0, at).findLast((m) => m.role === 'user');
  return before?.text.trim() || null;
}

/** Ids the renderer made up (a turn that failed before main saved it): main has no such message to page from. */
const LOCAL_ID = 'local-';

/** The cursor for the page before what is held: its oldest message that main knows. */
function oldestSaved(messages: readonly ChatMessage[]): string | undefined {
  return messages.find((m) => !m.id.startsWith(LOCAL_ID))?.id;
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!Object.hasOwn(record, key)) return record;
  const next = { ...record };
  delete next[key];
  return next;
}

/** The running subscription, with a token that tells its events from a stale one's. */
interface ActiveTurn {
  token: number;
  unsubscribe(): void;
  /** The typed text, given back if the turn fails before main took it. */
  restore: string | null;
  /** Set once Stop was pressed: ends the turn here if main's `done` does not come. */
  stopTimer: ReturnType<typeof setTimeout> | null;
  /** The stop call went out: it is sent once per turn. */
  stopSent: boolean;
  /** performance.now() when the turn went to main: the first of its timing marks. */
  sentAt: number;
}

/**
 * The turn's timing marks in the page's performance timeline, under main's request id (its log
 * line carries the same id): sent, started (main's `start` arrived), first card, done. What
 * bench/ui.ts reads to say where the time between Enter and the card went.
 */
function markTurn(name: 'sent' | 'start' | 'card' | 'done', requestId: string, startTime?: number): void {
  try {
    performance.mark(`chat:${name}`, { detail: { requestId }, ...(startTime !== undefined && { startTime }) });
  } catch {
    // A timeline that takes no marks costs the turn nothing.
  }
}

export function createChatStore({ client, page, unauthorized, invalidate, storage, stopGraceMs = STOP_GRACE_MS }: ChatDeps) {
  let active: ActiveTurn | null = null;
  let tokens = 0;
  /** Bumped by each history load and by reset, so a late answer for another session is dropped. */
  let historyRuns = 0;
  /** Bumped by reset only: a proposal answer that lands after sign-out is dropped. */
  let sessionRuns = 0;

  /** Forgets the running turn (and its stop timer); the caller decides whether to unsubscribe. */
  const release = (): ActiveTurn | null => {
    const a = active;
    active = null;
    if (a?.stopTimer != null) clearTimeout(a.stopTimer);
    return a;
  };

  const stopActive = (): void => {
    release()?.unsubscribe();
  };

  const readDocked = (): boolean => {
    try {
      return storage?.getItem(DOCK_KEY) === '1';
    } catch {
      return false;
    }
  };

  const writeDocked = (docked: boolean): void => {
    try {
      storage?.setItem(DOCK_KEY, docked ? '1' : '0');
    } catch {
      // Storage unavailable: the mode lasts for this window only.
    }
  };

  const readWidth = (): number => {
    try {
      const kept = storage?.getItem(WIDTH_KEY);
      return kept ? clampWidth(Number(kept)) : CHAT_WIDTH.initial;
    } catch {
      return CHAT_WIDTH.initial;
    }
  };

  const writeWidth = (width: number): void => {
    try {
      storage?.setItem(WIDTH_KEY, String(width));
    } catch {
      // Storage unavailable: the width lasts for this window only.
    }
  };

  /** The user asked for earlier pages: what they fetched stays until the panel closes. */
  let expanded = false;
  /** The last question sent, for Retry on a turn that failed before main kept it. */
  let lastAsked: string | null = null;
  /** Bumped by each search of the conversation list, so an older search's answer is dropped. */
  let listRuns = 0;

  return create<ChatState>((set, get) => {
    /**
     * The messages with what they resolve: every change of `messages` goes through here. Unless
     * the user is reading back, only the latest page is held; the rest stays in main, a click away.
     */
    const withMessages = (messages: ChatMessage[]): Pick<ChatState, 'messages' | 'resolved' | 'declined'> & Partial<Pick<ChatState, 'earlier'>> => {
      if (expanded || messages.length <= HISTORY_PAGE) return { messages, resolved: stableResolutions(messages), declined: stableReasons(messages) };
      const latest = messages.slice(-HISTORY_PAGE);
      return { messages: latest, resolved: stableResolutions(latest), declined: stableReasons(latest), earlier: 'more' };
    };

    /** As stableResolutions, for the reasons given. */
    const stableReasons = (messages: readonly ChatMessage[]): Record<string, string> => {
      const next = declineReasonsOf(messages);
      const held = get().declined;
      const keys = Object.keys(next);
      return keys.length === Object.keys(held).length && keys.every((k) => held[k] === next[k]) ? held : next;
    };

    /**
     * The same object while no proposal changed state: every message on screen takes it, and a
     * new one each turn would draw every message (and its cards) again for each of its events.
     */
    const stableResolutions = (messages: readonly ChatMessage[]): Record<string, ProposalState> => {
      const next = resolutionsOf(messages);
      const held = get().resolved;
      const keys = Object.keys(next);
      return keys.length === Object.keys(held).length && keys.every((k) => held[k] === next[k]) ? held : next;
    };

    /** Applies one event of the turn `token`; events of any other turn are ignored. */
    const apply = (token: number, event: TurnEvent) => {
      if (active?.token !== token) return;
      const turn = get().turn;
      if (!turn) return;
      if (turn.requestId !== null && event.requestId !== turn.requestId && event.type !== 'start') return;
      switch (event.type) {
        case 'start':
          markTurn('sent', event.requestId, active.sentAt);
          markTurn('start', event.requestId);
          set((s) => ({ ...withMessages(upsert(s.messages, event.user)), turn: { ...turn, requestId: event.requestId } }));
          // Stop was pressed before main named the turn: now it can be asked to.
          if (turn.stopping) sendStop(token, event.requestId);
          return;
        case 'plan': {
          const known = new Set(turn.tools.map((t) => t.tool));
          const planned = event.tools.filter((t) => !known.has(t.tool)).map(({ tool, label }) => ({ tool, label, status: 'planned' as const }));
          set({ turn: { ...turn, action: event.action, tools: [...turn.tools, ...planned] } });
          return;
        }
        case 'tool': {
          const has = turn.tools.some((t) => t.tool === event.tool);
          const tools = has
            ? turn.tools.map((t) => (t.tool === event.tool ? { ...t, status: event.status } : t))
            : [...turn.tools, { tool: event.tool, label: event.label, status: event.status }];
          set({ turn: { ...turn, tools } });
          return;
        }
        case 'card':
          if (turn.cards.length === 0) markTurn('card', event.requestId);
          set({ turn: { ...turn, cards: [...turn.cards, event.card] } });
          return;
        case 'text':
          set({ turn: { ...turn, text: turn.text + event.delta } });
          return;
        case 'done':
          markTurn('done', event.requestId);
          release();
          if (event.message.usage) invalidate(STALE_AFTER_MODEL_TURN);
          set((s) => ({ ...withMessages(upsert(s.messages, event.message)), turn: null }));
          return;
      }
    };

    /** The call failed (or ended without `done`): keep what had arrived, and say what went wrong. */
    const fail = (token: number, error: unknown, restore: string | null) => {
      if (active?.token !== token) return;
      release();
      if (isUnauthorized(error)) unauthorized();
      const { turn, draft } = get();
      const partial: ChatMessage[] = turn && (turn.text || turn.cards.length) ? [{
        id: `${LOCAL_ID}${token}`, role: 'assistant', at: new Date().toISOString(), text: turn.text, cards: turn.cards,
        requestId: turn.requestId ?? '', outcome: 'failed', ...(turn.stopping && { stopped: true as const }),
      }] : [];
      set((s) => ({
        ...withMessages([...s.messages, ...partial]),
        turn: null,
        error: errorText(error),
        // Nothing was taken: give the typed text back, unless the user has started another.
        ...(turn?.requestId === null && restore !== null && draft === '' && { draft: restore }),
      }));
    };

    /** A stopped turn that main did not end: end it here, keeping what had arrived. */
    const giveUp = (token: number, error: unknown) => {
      const a = active;
      if (a?.token !== token) return;
      // fail() first: it forgets the turn, so the unsubscribe's own completion is not a second failure.
      fail(token, isUnauthorized(error) ? error : new UserFacingError(STOP_UNCONFIRMED), a.restore);
      a.unsubscribe();
    };

    const sendStop = (token: number, requestId: string) => {
      const a = active;
      if (a?.token !== token || a.stopSent) return;
      a.stopSent = true;
      try {
        // `stopped: false` (main had already finished it) needs nothing: its `done` is on the way.
        client.chat.stop.mutate({ requestId }).catch((error: unknown) => giveUp(token, error));
      } catch (error) {
        giveUp(token, error);
      }
    };

    /**
     * One answer to the proposal of `nonce`, once: nothing is sent while another is in flight or
     * after it ended. Main's message joins the conversation; a refusal that leaves the proposal
     * open (a password, an edit) is kept for the card to show.
     */
    const send = async (action: ProposalAnswer, nonce: string, payloadHash: string, call: () => Promise<ChatMessage>): Promise<void> => {
      const { answering, resolved } = get();
      if (!nonce || !payloadHash || Object.hasOwn(answering, nonce) || Object.hasOwn(resolved, nonce)) return;
      const session = sessionRuns;
      // Marked before the call, synchronously: a second press cannot get past the check above.
      set((s) => ({ answering: { ...s.answering, [nonce]: action }, answerErrors: without(s.answerErrors, nonce), turnedDown: without(s.turnedDown, nonce) }));
      try {
        const message = await call();
        if (session !== sessionRuns) return;
        set((s) => ({ ...withMessages(upsert(s.messages, message)), answering: without(s.answering, nonce) }));
        // The pages showing what the answer touched fetch it afresh, without a reload.
        invalidate(message.resolves?.state === 'confirmed' ? STALE_AFTER_CHANGE : STALE_AFTER_ANSWER);
      } catch (error) {
        if (session !== sessionRuns) return;
        if (isUnauthorized(error)) unauthorized();
        const code = errorCode(error);
        if (code !== null && TURNED_DOWN.has(code)) {
          set((s) => ({ answering: without(s.answering, nonce), turnedDown: { ...s.turnedDown, [nonce]: { answer: action, message: errorText(error) } } }));
          return;
        }
        // The call failed before main answered (or its answer was lost): the buttons come back.
        // Main takes each nonce once, so pressing again cannot carry the change out twice.
        set((s) => ({ answering: without(s.answering, nonce), answerErrors: { ...s.answerErrors, [nonce]: errorText(error) } }));
      }
    };

    const run = (input: ChatTurnInput, restore: string | null) => {
      stopActive();
      if (input.kind === 'message') lastAsked = input.text;
      const token = ++tokens;
      set({ turn: { requestId: null, action: null, tools: [], cards: [], text: '', stopping: false }, error: null });
      let ended = false;
      const own: ActiveTurn = { token, unsubscribe: () => undefined, restore, stopTimer: null, stopSent: false, sentAt: performance.now() };
      active = own;
      try {
        const sub = client.chat.turn.subscribe(input, {
          onData: (event) => apply(token, event),
          onError: (error) => { ended = true; fail(token, error, restore); },
          onComplete: () => {
            if (ended || active?.token !== token) return;
            const why = get().turn?.stopping ? STOP_UNCONFIRMED : 'The assistant stopped before finishing its answer. Try again.';
            fail(token, new UserFacingError(why), restore);
          },
        });
        if (active === own) own.unsubscribe = () => sub.unsubscribe();
        else sub.unsubscribe();
      } catch (error) {
        fail(token, error, restore);
      }
    };

    /** The conversation shown is gone (deleted, or a new one started): the panel shows an empty one. */
    const emptied = () => {
      historyRuns++;
      expanded = false;
      set({ list: null, ...withMessages([]), earlier: 'none', earlierError: null, error: null, history: 'ready', historyError: null, answerErrors: {}, turnedDown: {} });
    };

    const failed = (error: unknown) => {
      if (isUnauthorized(error)) unauthorized();
      set({ error: errorText(error) });
    };

    return {
      open: false,
      docked: readDocked(),
      width: readWidth(),
      history: 'idle',
      historyError: null,
      messages: [],
      earlier: 'none',
      earlierError: null,
      turn: null,
      error: null,
      draft: '',
      list: null,
      resolved: {},
      declined: {},
      answering: {},
      answerErrors: {},
      turnedDown: {},
      setOpen(open) {
        set({ open });
        if (open) {
          void get().loadHistory();
          return;
        }
        // Closed, the panel lets go of the pages read back: it opens on the latest one again.
        if (!expanded) return;
        expanded = false;
        historyRuns++;
        set((s) => ({ ...withMessages(s.messages), ...(s.earlier === 'loading' && { earlier: 'more' as const }) }));
      },
      setDocked(docked) {
        writeDocked(docked);
        set({ docked });
      },
      setWidth(raw) {
        const width = clampWidth(raw);
        if (width === get().width) return;
        writeWidth(width);
        set({ width });
      },
      setDraft(draft) {
        set({ draft });
      },
      async loadHistory() {
        const state = get().history;
        if (state === 'loading' || state === 'ready') return;
        const run = ++historyRuns;
        set({ history: 'loading', historyError: null });
        try {
          const page = await client.chat.history.query({ limit: HISTORY_PAGE });
          if (run !== historyRuns) return; // reset meanwhile
          const ids = new Set(page.messages.map((m) => m.id));
          // A turn sent while the history loaded comes after it.
          set((s) => ({
            history: 'ready', earlier: page.earlier ? 'more' : 'none', earlierError: null,
            ...withMessages([...page.messages, ...s.messages.filter((m) => !ids.has(m.id))]),
          }));
        } catch (error) {
          if (run !== historyRuns) return;
          if (isUnauthorized(error)) unauthorized();
          set({ history: 'error', historyError: errorText(error) });
        }
      },
      async loadEarlier() {
        const { earlier, history } = get();
        if (history !== 'ready' || (earlier !== 'more' && earlier !== 'error')) return;
        const run = historyRuns;
        expanded = true;
        set({ earlier: 'loading', earlierError: null });
        try {
          const before = oldestSaved(get().messages);
          const page = await client.chat.history.query({ limit: HISTORY_PAGE, ...(before !== undefined && { before }) });
          if (run !== historyRuns) return; // reset, cleared or closed meanwhile
          set((s) => {
            const held = new Set(s.messages.map((m) => m.id));
            return { earlier: page.earlier ? 'more' : 'none', ...withMessages([...page.messages.filter((m) => !held.has(m.id)), ...s.messages]) };
          });
        } catch (error) {
          if (run !== historyRuns) return;
          if (isUnauthorized(error)) unauthorized();
          set({ earlier: 'error', earlierError: errorText(error) });
        }
      },
      send(raw) {
        const text = raw.trim();
        if (!text || text.length > MAX_LENGTH || get().turn) return false;
        set({ draft: '', list: null });
        run({ kind: 'message', text, page: page() }, raw);
        return true;
      },
      pick(requestId, candidateId) {
        if (get().turn || !requestId) return;
        run({ kind: 'pick', requestId, candidateId }, null);
      },
      stop() {
        const a = active;
        const turn = get().turn;
        if (!a || !turn || turn.stopping) return;
        const token = a.token;
        set({ turn: { ...turn, stopping: true } });
        a.stopTimer = setTimeout(() => giveUp(token, null), stopGraceMs);
        if (turn.requestId !== null) sendStop(token, turn.requestId);
      },
      async answer(action, nonce, payloadHash, extras = {}) {
        const reason = extras.reason?.trim();
        await send(action, nonce, payloadHash, () => (action === 'confirm'
          ? client.chat.confirm.mutate({ nonce, payloadHash, ...(extras.password && { password: extras.password }) })
          : client.chat.cancel.mutate({ nonce, payloadHash, ...(reason && { reason }) })));
      },
      async edit(nonce, payloadHash, value) {
        if (!Number.isSafeInteger(value) || value <= 0) return;
        await send('edit', nonce, payloadHash, () => client.chat.edit.mutate({ nonce, payloadHash, value }));
      },
      retry(messageId) {
        if (get().turn) return;
        const text = messageId === undefined ? lastAsked : questionOf(get().messages, messageId);
        if (!text) return;
        set({ list: null });
        run({ kind: 'message', text, page: page() }, null);
      },
      async clear() {
        if (get().turn) return;
        try {
          await client.chat.clear.mutate();
          emptied();
        } catch (error) {
          failed(error);
        }
      },
      async showConversations(query = '') {
        const runId = ++listRuns;
        set((s) => ({ list: { state: 'loading', query, found: s.list?.found ?? [], error: null } }));
        try {
          const found = await client.chat.conversations.query(query.trim() ? { query: query.trim() } : {});
          if (runId !== listRuns) return;
          set({ list: { state: 'ready', query, found, error: null } });
        } catch (error) {
          if (runId !== listRuns) return;
          if (isUnauthorized(error)) unauthorized();
          set((s) => ({ list: { state: 'error', query, found: s.list?.found ?? [], error: errorText(error) } }));
        }
      },
      hideConversations() {
        listRuns++;
        set({ list: null });
      },
      async newConversation() {
        if (get().turn) return;
        try {
          await client.chat.start.mutate();
          listRuns++;
          emptied();
        } catch (error) {
          failed(error);
        }
      },
      async openConversation(id) {
        if (get().turn) return;
        try {
          await client.chat.open.mutate({ id });
          listRuns++;
          historyRuns++;
          expanded = false;
          set({ list: null, ...withMessages([]), earlier: 'none', earlierError: null, error: null, history: 'idle', historyError: null, answerErrors: {}, turnedDown: {} });
          await get().loadHistory();
        } catch (error) {
          failed(error);
        }
      },
      async removeConversation(id) {
        if (get().turn) return;
        const shown = get().list?.found.find((c) => c.id === id)?.current === true;
        try {
          await client.chat.remove.mutate({ id });
          if (shown) {
            historyRuns++;
            expanded = false;
            set({ ...withMessages([]), earlier: 'none', earlierError: null, error: null, history: 'ready', historyError: null, answerErrors: {}, turnedDown: {} });
          }
          if (get().list) await get().showConversations(get().list?.query);
        } catch (error) {
          failed(error);
        }
      },
      reset() {
        stopActive();
        tokens++;
        historyRuns++;
        sessionRuns++;
        expanded = false;
        listRuns++;
        lastAsked = null;
        set({
          list: null, open: false, history: 'idle', historyError: null, ...withMessages([]), earlier: 'none', earlierError: null, turn: null, error: null, draft: '',
          answering: {}, answerErrors: {}, turnedDown: {},
        });
      },
    };
  });
}
