import { create } from 'zustand';
import type { Card } from '../../../shared/contracts/assistant';
import type { MAX_MESSAGE_LENGTH, ChatMessage, ChatTurnInput, PageContext, TurnEvent } from '../../../shared/contracts/chat';
import { desk } from '../lib/desk';
import { useRoute } from '../lib/route';
import { useSession } from '../lib/session';

/** The contract's limit (checked against it at compile time; the contract itself is not bundled). */
export const MAX_LENGTH: typeof MAX_MESSAGE_LENGTH = 2000;

export type ToolStatus = 'planned' | 'started' | 'ok' | 'failed';

/** The turn in flight: what the panel shows until `done` replaces it with the final message. */
export interface TurnState {
  /** Known from `start` on. */
  requestId: string | null;
  /** From `plan`: null until the plan is known. */
  action: 'tools' | 'clarify' | 'direct' | null;
  tools: Array<{ tool: string; status: ToolStatus }>;
  cards: Card[];
  text: string;
}

type HistoryState = 'idle' | 'loading' | 'ready' | 'error';

export interface ChatState {
  open: boolean;
  /** Docked as a right sidebar (remembered) rather than floating. */
  docked: boolean;
  history: HistoryState;
  historyError: string | null;
  messages: ChatMessage[];
  turn: TurnState | null;
  /** The last turn's call failed: shown as an error bubble after the messages. */
  error: string | null;
  /** The composer's text, kept while the panel is closed. */
  draft: string;
  setOpen(open: boolean): void;
  setDocked(docked: boolean): void;
  setDraft(text: string): void;
  /** Loads the conversation once (again only after a failure). */
  loadHistory(): Promise<void>;
  /** Sends the composer's text as a turn, with the page the user is on. False when it cannot. */
  send(text: string): boolean;
  /** Continues a picker's turn with the chosen candidate. */
  pick(requestId: string, candidateId: string): void;
  clear(): Promise<void>;
  /** Forgets everything but the dock mode (sign-out). */
  reset(): void;
}

const DOCK_KEY = 'agent-desk.chat.docked';

function readDocked(): boolean {
  try {
    return window.localStorage.getItem(DOCK_KEY) === '1';
  } catch {
    return false;
  }
}

function writeDocked(docked: boolean): void {
  try {
    window.localStorage.setItem(DOCK_KEY, docked ? '1' : '0');
  } catch {
    // Storage unavailable: the mode lasts for this window only.
  }
}

function isUnauthorized(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { data?: { code?: string } }).data?.code === 'UNAUTHORIZED';
}

/** A failure in words: a validation error's first issue, or the error's message. */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  if (message.startsWith('[')) {
    try {
      const issues = JSON.parse(message) as unknown;
      if (Array.isArray(issues) && typeof (issues[0] as { message?: unknown } | undefined)?.message === 'string') {
        return (issues[0] as { message: string }).message;
      }
    } catch {
      // Not JSON: use it as it is.
    }
  }
  return message.trim() || 'The assistant could not answer. Try again.';
}

const PATH = /^\/[\w\-/.%]*$/;

/** AGENT.md, Page context: the current route, trimmed to what the contract accepts. */
export function currentPage(): PageContext {
  const { path, query } = useRoute.getState();
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

/** The running subscription and a token that tells its events from a stale one's. */
let active: { token: number; unsubscribe(): void } | null = null;
let tokens = 0;
/** Bumped by each history load and by reset, so a late answer for another session is dropped. */
let historyRuns = 0;

function stopActive(): void {
  const a = active;
  active = null;
  a?.unsubscribe();
}

export const useChat = create<ChatState>((set, get) => {
  /** Applies one event of the turn `token`; events of any other turn are ignored. */
  const apply = (token: number, event: TurnEvent) => {
    if (active?.token !== token) return;
    const turn = get().turn;
    if (!turn) return;
    if (turn.requestId !== null && event.requestId !== turn.requestId && event.type !== 'start') return;
    switch (event.type) {
      case 'start':
        set((s) => ({ messages: upsert(s.messages, event.user), turn: { ...turn, requestId: event.requestId } }));
        return;
      case 'plan': {
        const known = new Set(turn.tools.map((t) => t.tool));
        const planned = event.tools.filter((t) => !known.has(t)).map((tool) => ({ tool, status: 'planned' as const }));
        set({ turn: { ...turn, action: event.action, tools: [...turn.tools, ...planned] } });
        return;
      }
      case 'tool': {
        const has = turn.tools.some((t) => t.tool === event.tool);
        const tools = has
          ? turn.tools.map((t) => (t.tool === event.tool ? { ...t, status: event.status } : t))
          : [...turn.tools, { tool: event.tool, status: event.status }];
        set({ turn: { ...turn, tools } });
        return;
      }
      case 'card':
        set({ turn: { ...turn, cards: [...turn.cards, event.card] } });
        return;
      case 'text':
        set({ turn: { ...turn, text: turn.text + event.delta } });
        return;
      case 'done':
        active = null;
        set((s) => ({ messages: upsert(s.messages, event.message), turn: null }));
        return;
    }
  };

  /** The call failed (or ended without `done`): keep what had arrived, and say what went wrong. */
  const fail = (token: number, error: unknown, restore: string | null) => {
    if (active?.token !== token) return;
    active = null;
    if (isUnauthorized(error)) useSession.getState().expired();
    const { turn, draft } = get();
    const partial: ChatMessage[] = turn && (turn.text || turn.cards.length) ? [{
      id: `local-${token}`, role: 'assistant', at: new Date().toISOString(), text: turn.text, cards: turn.cards,
      requestId: turn.requestId ?? '', outcome: 'failed',
    }] : [];
    set((s) => ({
      messages: [...s.messages, ...partial],
      turn: null,
      error: errorText(error),
      // Nothing was taken: give the typed text back, unless the user has started another.
      ...(turn?.requestId === null && restore !== null && draft === '' && { draft: restore }),
    }));
  };

  const run = (input: ChatTurnInput, restore: string | null) => {
    stopActive();
    const token = ++tokens;
    set({ turn: { requestId: null, action: null, tools: [], cards: [], text: '' }, error: null });
    let ended = false;
    active = { token, unsubscribe: () => undefined };
    try {
      const sub = desk.chat.turn.subscribe(input, {
        onData: (event) => apply(token, event),
        onError: (error) => { ended = true; fail(token, error, restore); },
        onComplete: () => {
          if (!ended && active?.token === token) fail(token, new Error('The assistant stopped before finishing its answer. Try again.'), restore);
        },
      });
      if (active?.token === token) active = { token, unsubscribe: () => sub.unsubscribe() };
      else sub.unsubscribe();
    } catch (error) {
      fail(token, error, restore);
    }
  };

  return {
    open: false,
    docked: readDocked(),
    history: 'idle',
    historyError: null,
    messages: [],
    turn: null,
    error: null,
    draft: '',
    setOpen(open) {
      set({ open });
      if (open) void get().loadHistory();
    },
    setDocked(docked) {
      writeDocked(docked);
      set({ docked });
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
        const { messages } = await desk.chat.history.query();
        if (run !== historyRuns) return; // reset meanwhile
        const ids = new Set(messages.map((m) => m.id));
        // A turn sent while the history loaded comes after it.
        set((s) => ({ history: 'ready', messages: [...messages, ...s.messages.filter((m) => !ids.has(m.id))] }));
      } catch (error) {
        if (run !== historyRuns) return;
        if (isUnauthorized(error)) useSession.getState().expired();
        set({ history: 'error', historyError: errorText(error) });
      }
    },
    send(raw) {
      const text = raw.trim();
      if (!text || text.length > MAX_LENGTH || get().turn) return false;
      set({ draft: '' });
      run({ kind: 'message', text, page: currentPage() }, raw);
      return true;
    },
    pick(requestId, candidateId) {
      if (get().turn || !requestId) return;
      run({ kind: 'pick', requestId, candidateId }, null);
    },
    async clear() {
      if (get().turn) return;
      try {
        await desk.chat.clear.mutate();
        historyRuns++;
        set({ messages: [], error: null, history: 'ready', historyError: null });
      } catch (error) {
        if (isUnauthorized(error)) useSession.getState().expired();
        set({ error: errorText(error) });
      }
    },
    reset() {
      stopActive();
      tokens++;
      historyRuns++;
      set({ open: false, history: 'idle', historyError: null, messages: [], turn: null, error: null, draft: '' });
    },
  };
});
