import { type KeyboardEvent, type PointerEvent, type RefObject, memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Card } from '../../../shared/contracts/assistant';
import type { ChatMessage } from '../../../shared/contracts/chat';
import { type ActionExtras, type CardAction, CardView, type ProposalStatus } from '../cards';
import { AllRows } from '../cards/shared';
import { formatDateTime } from '../lib/format';
import { useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { usageLine } from '../lib/usage-format';
import { CHAT_WIDTH, type ChatState, MAX_LENGTH, type TurnState } from './store';
import { useChat } from './useChat';
import { answerText } from './copy';
import { ConversationList } from './ConversationList';
import { listInWords } from '../lib/format';

/** The Settings page: the Claude key, models and budgets behind the assistant. */
const SETTINGS_PATH = '/agent/settings';

const SUGGESTIONS = ['What is my live exposure?', "Show today's P&L", 'Who owes me the most?', 'Show my downline'];

/** True when a key press goes into something the user is typing in. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The assistant: a round button on every page (Ctrl/Cmd+K, or "/" when not typing) opening a
 * floating panel that can be docked as a right sidebar. Mounted only for a signed-in user.
 */
export function ChatPanel() {
  const userId = useSession((s) => s.user?.id);
  const open = useChat((s) => s.open);
  const docked = useChat((s) => s.docked);
  const setOpen = useChat((s) => s.setOpen);
  const fabRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [focusInput, setFocusInput] = useState(0);
  const returnFocus = useRef(false);

  // Another user (or none) means another conversation: forget this one.
  useEffect(() => () => useChat.getState().reset(), [userId]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k';
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingIn(e.target);
      if (!mod && !slash) return;
      e.preventDefault();
      const state = useChat.getState();
      if (mod && state.open && document.activeElement === inputRef.current) {
        returnFocus.current = true;
        state.setOpen(false);
        return;
      }
      if (!state.open) state.setOpen(true);
      setFocusInput((n) => n + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    if (open) inputRef.current?.focus();
    else if (returnFocus.current) fabRef.current?.focus();
    returnFocus.current = false;
  }, [open, focusInput]);

  const close = () => {
    returnFocus.current = true;
    setOpen(false);
  };

  return (
    <>
      {!open && (
        <button ref={fabRef} type="button" className="chat-fab" aria-label="Open assistant" title="Assistant (Ctrl+K or /)"
          aria-keyshortcuts="Control+K Meta+K /" data-testid="chat-open" onClick={() => { setOpen(true); setFocusInput((n) => n + 1); }}>
          <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
            <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 .01zm5 0a1.5 1.5 0 1 0 0 .01zm5 0a1.5 1.5 0 1 0 0 .01z" />
          </svg>
        </button>
      )}
      {open && (
        <aside className={`chat-panel ${docked ? 'docked' : 'floating'}`} data-testid="chat-panel" data-docked={docked}
          aria-label="Assistant" onKeyDown={(e) => { if (e.key === 'Escape' && !docked) { e.stopPropagation(); close(); } }}>
          <ResizeHandle />
          <PanelHeader docked={docked} onClose={close} />
          <Conversation />
          <Composer inputRef={inputRef} />
        </aside>
      )}
    </>
  );
}

/** Keyboard steps of the resize handle, in CSS pixels. */
const STEP = 40;

/**
 * The panel's left edge: drag it, or focus it and use the arrow keys (Home / End for the
 * narrowest and widest), to set the width, which is remembered. The page's own minimum width
 * (styles.css) still wins when docked.
 */
function ResizeHandle() {
  const width = useChat((s) => s.width);
  const setWidth = useChat((s) => s.setWidth);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const handle = e.currentTarget;
    const right = handle.parentElement!.getBoundingClientRect().right;
    handle.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent) => setWidth(right - ev.clientX);
    const end = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // The handle is on the left edge: left makes the panel wider.
    const next = e.key === 'ArrowLeft' ? width + STEP : e.key === 'ArrowRight' ? width - STEP
      : e.key === 'Home' ? CHAT_WIDTH.min : e.key === 'End' ? CHAT_WIDTH.max : null;
    if (next === null) return;
    e.preventDefault();
    setWidth(next);
  };
  return (
    <div className="chat-resize" role="separator" aria-orientation="vertical" aria-label="Resize the assistant"
      aria-valuemin={CHAT_WIDTH.min} aria-valuemax={CHAT_WIDTH.max} aria-valuenow={width} tabIndex={0}
      title="Drag, or use the arrow keys, to resize" data-testid="chat-resize" onPointerDown={onPointerDown} onKeyDown={onKeyDown} />
  );
}

function PanelHeader({ docked, onClose }: { docked: boolean; onClose(): void }) {
  const setDocked = useChat((s) => s.setDocked);
  const clear = useChat((s) => s.clear);
  const busy = useChat((s) => s.turn !== null);
  const listing = useChat((s) => s.list !== null);
  const showConversations = useChat((s) => s.showConversations);
  const hideConversations = useChat((s) => s.hideConversations);
  const newConversation = useChat((s) => s.newConversation);
  const navigate = useRoute((s) => s.navigate);
  const openSettings = () => {
    navigate(SETTINGS_PATH);
    // Floating, the panel would cover the page it just opened; docked, both fit side by side.
    if (!docked) onClose();
  };
  return (
    <header className="chat-head">
      <h2>Assistant</h2>
      <div className="chat-head-tools">
        <button type="button" data-testid="chat-conversations" aria-expanded={listing}
          onClick={() => (listing ? hideConversations() : void showConversations())} title="Your conversations: open, search or delete one">Chats</button>
        <button type="button" data-testid="chat-new" onClick={() => void newConversation()} disabled={busy}
          title="Start a new conversation (this one stays in Chats)">New</button>
        <button type="button" data-testid="chat-settings" onClick={openSettings}
          title="The assistant's settings: Claude API key, models and budgets">Settings</button>
        <button type="button" data-testid="chat-clear" onClick={() => void clear()} disabled={busy}
          title="Delete this conversation">Clear</button>
        <button type="button" data-testid="chat-dock-toggle" aria-pressed={docked} onClick={() => setDocked(!docked)}
          title={docked ? 'Float the assistant over the page' : 'Dock the assistant as a sidebar'}>
          {docked ? 'Undock' : 'Dock'}
        </button>
        <button type="button" aria-label="Close assistant" data-testid="chat-close" onClick={onClose}>×</button>
      </div>
    </header>
  );
}

/** The conversation shown, or the list of conversations in its place. */
function Conversation() {
  const listing = useChat((s) => s.list !== null);
  return listing ? <ConversationList /> : <MessageList />;
}

function MessageList() {
  const messages = useChat((s) => s.messages);
  const turn = useChat((s) => s.turn);
  const error = useChat((s) => s.error);
  const history = useChat((s) => s.history);
  const historyError = useChat((s) => s.historyError);
  const loadHistory = useChat((s) => s.loadHistory);
  const earlier = useChat((s) => s.earlier);
  const earlierError = useChat((s) => s.earlierError);
  const loadEarlier = useChat((s) => s.loadEarlier);
  const pick = useChat((s) => s.pick);
  const setDraft = useChat((s) => s.setDraft);
  const resolved = useChat((s) => s.resolved);
  const answering = useChat((s) => s.answering);
  const answerErrors = useChat((s) => s.answerErrors);
  const turnedDown = useChat((s) => s.turnedDown);
  const declined = useChat((s) => s.declined);
  const answer = useChat((s) => s.answer);
  const edit = useChat((s) => s.edit);
  const retry = useChat((s) => s.retry);
  const timezone = useSession((s) => s.user?.timezone ?? 'UTC');
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /**
   * Asked for an earlier page: the oldest message held then, and where it stood on screen. The
   * page goes in above it, and it stays where it was.
   */
  const reading = useRef<{ id: string; top: number } | null>(null);
  const lastId = messages.at(-1)?.id;
  const shownLast = useRef(lastId);

  // Follow the conversation as it grows, unless the user has scrolled up to read. Layout is read
  // only for an earlier page: every other draw costs what it did in a short conversation.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const anchor = reading.current;
    if (anchor && messages[0]?.id !== anchor.id) {
      reading.current = null;
      const keep = () => {
        const node = messageNode(el, anchor.id);
        if (node) el.scrollTop += node.getBoundingClientRect().top - anchor.top;
      };
      keep();
      // Messages above it are drawn (content-visibility) only once near the view, at their real
      // height rather than the placeholder's: put it back once more after that frame.
      requestAnimationFrame(keep);
    } else if (lastId !== shownLast.current && lastId !== undefined) {
      // A new message (the user's, then the answer) is always brought into view, however far a
      // large card above it had moved the end: the answer from its start when it is taller than
      // the view. Again after the next frame, once the messages are drawn at their real height.
      stick.current = true;
      const reveal = () => {
        const node = messageNode(el, lastId);
        if (!node) return;
        const top = node.getBoundingClientRect().top - el.getBoundingClientRect().top;
        el.scrollTop = node.offsetHeight > el.clientHeight ? el.scrollTop + top - 8 : el.scrollHeight;
      };
      reveal();
      requestAnimationFrame(reveal);
    } else if (stick.current) el.scrollTop = el.scrollHeight;
    shownLast.current = lastId;
  }, [messages, turn, error, history, answerErrors, turnedDown, lastId]);

  const showEarlier = () => {
    const first = messages[0];
    const node = first && scrollRef.current ? messageNode(scrollRef.current, first.id) : null;
    reading.current = first && node ? { id: first.id, top: node.getBoundingClientRect().top } : null;
    void loadEarlier();
  };

  const busy = turn !== null;
  // Stable across a turn's events, so a message already on screen is not drawn again (Message is
  // memoised): a turn's cost must not grow with the conversation.
  const proposals: Proposals = useMemo(() => ({ resolved, answering, answerErrors, turnedDown, declined }), [resolved, answering, answerErrors, turnedDown, declined]);
  const onAction = useCallback((action: CardAction, extras?: ActionExtras) => {
    if ((action.id === 'confirm' || action.id === 'cancel') && action.nonce && action.payloadHash) {
      void answer(action.id, action.nonce, action.payloadHash, extras);
    }
  }, [answer]);
  const onEdit = useCallback((action: CardAction, value: number) => {
    if (action.nonce && action.payloadHash) void edit(action.nonce, action.payloadHash, value);
  }, [edit]);
  return (
    <div className="chat-scroll" ref={scrollRef} onScroll={(e) => {
      const el = e.currentTarget;
      stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    }}>
      {history === 'loading' && <p className="state chat-note" role="status">Loading the conversation…</p>}
      {history === 'error' && (
        <div className="state error chat-note" role="alert">
          <p>The conversation could not be loaded: {historyError}</p>
          <button type="button" onClick={() => void loadHistory()}>Try again</button>
        </div>
      )}
      {messages.length === 0 && !turn && history !== 'loading' && (
        <div className="chat-empty">
          <p>Ask about balances, take, exposure, P&L, commission, bets or settlements. Figures come from your book.</p>
          <ul className="chat-suggestions" aria-label="Suggestions">
            {SUGGESTIONS.map((s) => <li key={s}><button type="button" onClick={() => setDraft(s)}>{s}</button></li>)}
          </ul>
        </div>
      )}
      {/* The latest page only, with the earlier ones a click (and a page from main) away: a long conversation is never sent or drawn whole. */}
      {earlier !== 'none' && (
        <button type="button" className="chat-earlier" data-testid="chat-earlier" disabled={earlier === 'loading'} onClick={showEarlier}>
          {earlier === 'loading' ? 'Loading earlier messages…' : 'Show earlier messages'}
        </button>
      )}
      {earlier === 'error' && <p className="state error chat-note" role="alert" data-testid="chat-earlier-error">Earlier messages could not be loaded: {earlierError}</p>}
      {/* The log is the list's region, not the list itself: a list given another role leaves its items without one. */}
      <div role="log" aria-live="polite" aria-busy={busy} aria-label="Conversation">
        <ol className="chat-messages" data-testid="chat-messages" data-history={history}>
          {messages.map((m) => (
            <Message key={m.id} message={m} timezone={timezone} pick={pick} pickable={!busy && m.requestId !== '' && hasPicker(m)}
              onAction={onAction} onEdit={onEdit} proposals={proposals} retry={retry} />
          ))}
          {turn && (turn.text || turn.cards.length > 0) && <PendingMessage turn={turn} />}
          {error && (
            <li className="chat-msg assistant error" data-testid="chat-message" data-role="assistant" data-outcome="error">
              <p className="chat-text" role="alert">{error}</p>
              <div className="chat-msg-actions">
                <RetryButton onClick={() => retry()} />
              </div>
            </li>
          )}
        </ol>
      </div>
      {turn && <Thinking turn={turn} />}
    </div>
  );
}

type Proposals = Pick<ChatState, 'resolved' | 'answering' | 'answerErrors' | 'turnedDown' | 'declined'>;

/** The nonce a card's confirm / cancel answers, if it is a proposal. */
function nonceOf(card: Card): string | null {
  return card.actions?.find((a) => (a.id === 'confirm' || a.id === 'cancel') && a.nonce)?.nonce ?? null;
}

/** Where a proposal card stands in the conversation: ended (a later answer), being answered, or failed to send. */
function proposalOf(card: Card, p: Proposals): ProposalStatus | undefined {
  const nonce = nonceOf(card);
  if (nonce === null) return undefined;
  const own = <T,>(record: Record<string, T>): T | null => (Object.hasOwn(record, nonce) ? record[nonce]! : null);
  return {
    resolved: own(p.resolved), busy: own(p.answering), error: own(p.answerErrors), turnedDown: own(p.turnedDown), reason: own(p.declined),
  };
}

function messageNode(list: HTMLElement, id: string): HTMLElement | null {
  return list.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`);
}

const hasPicker = (m: ChatMessage) => m.cards.some((c) => c.type === 'player_picker' || c.type === 'fixture_picker');

const Message = memo(function Message({ message: m, timezone, pick, pickable, onAction, onEdit, proposals, retry }: {
  message: ChatMessage; timezone: string; pick: (requestId: string, candidateId: string) => void; pickable: boolean;
  onAction: (action: CardAction, extras?: ActionExtras) => void; onEdit: (action: CardAction, value: number) => void; proposals: Proposals;
  retry: (messageId: string) => void;
}) {
  const onPick = pickable ? (candidateId: string) => pick(m.requestId, candidateId) : undefined;
  const tone = m.outcome === 'rate_limited' ? ' warn' : m.outcome === 'failed' ? ' failed' : '';
  const assistant = m.role === 'assistant';
  const ref = useRef<HTMLLIElement>(null);
  const [allRows, setAllRows] = useState(false);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const copy = () => {
    // Every row of a long table is drawn for the moment of the copy, then only those in view again.
    flushSync(() => setAllRows(true));
    const text = ref.current ? answerText(ref.current) : '';
    flushSync(() => setAllRows(false));
    // No clipboard (a page served over plain http from elsewhere) is a failed copy, said as one.
    Promise.resolve().then(() => navigator.clipboard.writeText(text)).then(() => setCopied('copied'), () => setCopied('failed'));
  };
  useEffect(() => {
    if (copied === null) return;
    const t = setTimeout(() => setCopied(null), 2_000);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <li ref={ref} className={`chat-msg ${m.role}${tone}`} data-testid="chat-message" data-message-id={m.id} data-role={m.role} data-outcome={m.outcome}
      data-request-id={m.requestId} data-resolves={m.resolves?.state} data-planner={m.planner} data-stopped={m.stopped}>
      {assistant && m.stopped && <span className="chat-stopped" data-testid="chat-stopped">Stopped</span>}
      {m.text && <p className="chat-text" title={formatDateTime(m.at, timezone)}>{m.text}</p>}
      <AllRows.Provider value={allRows}>
        {assistant && m.cards.map((card, i) => (
          <CardView key={i} card={card} onPick={onPick} onAction={onAction} onEdit={onEdit} proposal={proposalOf(card, proposals)} />
        ))}
      </AllRows.Provider>
      {/* What Claude's calls used; the offline planner costs nothing, so it gets no line. */}
      {assistant && m.planner === 'claude' && m.usage && <p className="chat-usage" data-testid="chat-usage">{usageLine(m.usage)}</p>}
      {assistant && (
        <div className="chat-msg-actions">
          <button type="button" className="chat-icon-button" data-testid="chat-copy" onClick={copy} aria-label="Copy the answer"
            title="Copy the answer: its words, and its tables as tab-separated rows">
            <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="14" height="14">
              <path fill="currentColor" d="M16 1H4a2 2 0 0 0-2 2v14h2V3h12zm3 4H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm0 16H8V7h11z" />
            </svg>
          </button>
          {/* An answer to a Confirm or Cancel asked no question: there is nothing to ask again. */}
          {!m.resolves && <RetryButton onClick={() => retry(m.id)} />}
          <span role="status" className="muted chat-copied" data-testid="chat-copied">
            {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Could not copy' : ''}
          </span>
        </div>
      )}
    </li>
  );
});

/** An icon, not a word: the message's text stays the answer's own (what a reader or a copy takes). */
function RetryButton({ onClick }: { onClick(): void }) {
  return (
    <button type="button" className="chat-icon-button" data-testid="chat-retry" onClick={onClick} aria-label="Ask again" title="Ask the same question again">
      <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="14" height="14">
        <path fill="currentColor" d="M17.65 6.35A7.96 7.96 0 0 0 12 4a8 8 0 1 0 7.73 10h-2.08A6 6 0 1 1 12 6c1.66 0 3.14.69 4.22 1.78L13 11h7V4z" />
      </svg>
    </button>
  );
}

function PendingMessage({ turn }: { turn: TurnState }) {
  return (
    <li className="chat-msg assistant pending" data-testid="chat-message" data-role="assistant" data-pending="true">
      {turn.text && <p className="chat-text">{turn.text}<span className="chat-caret" aria-hidden="true" /></p>}
      {turn.cards.map((card, i) => <CardView key={i} card={card} />)}
    </li>
  );
}

/** What the turn is doing: thinking, looking things up (tools in words), or writing. */
function Thinking({ turn }: { turn: TurnState }) {
  const running = turn.tools.filter((t) => t.status === 'planned' || t.status === 'started');
  const failed = turn.tools.filter((t) => t.status === 'failed');
  let status: string;
  if (turn.stopping) status = 'Stopping…';
  else if (turn.text) status = 'Writing…';
  else if (running.length > 0) status = `Looking up ${listInWords(running.map((t) => t.label))}…`;
  else if (turn.tools.length > 0) status = 'Putting the answer together…';
  else status = 'Thinking…';
  return (
    <div className="chat-thinking" data-testid="chat-thinking" role="status" aria-live="polite">
      <span className="chat-dots" aria-hidden="true"><span /><span /><span /></span>
      <span>{status}</span>
      {failed.length > 0 && <span className="error"> · {listInWords(failed.map((t) => t.label))} failed</span>}
    </div>
  );
}

function Composer({ inputRef }: { inputRef: RefObject<HTMLTextAreaElement | null> }) {
  const draft = useChat((s) => s.draft);
  const setDraft = useChat((s) => s.setDraft);
  const send = useChat((s) => s.send);
  const stop = useChat((s) => s.stop);
  const busy = useChat((s) => s.turn !== null);
  const stopping = useChat((s) => s.turn?.stopping ?? false);
  const id = useId();
  const length = draft.length;
  const canSend = !busy && draft.trim().length > 0 && length <= MAX_LENGTH;

  const submit = () => {
    if (canSend) send(draft);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Escape stops a running answer; it closes the floating panel only when nothing runs.
    if (e.key === 'Escape' && busy) {
      e.preventDefault();
      e.stopPropagation();
      stop();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <form className="chat-composer" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <label htmlFor={`${id}-input`} className="visually-hidden">Message the assistant</label>
      <textarea ref={inputRef} id={`${id}-input`} data-testid="chat-input" value={draft} rows={2} maxLength={MAX_LENGTH}
        placeholder="Ask about your book…" aria-describedby={`${id}-hint`}
        onChange={(e) => setDraft(e.target.value)} onKeyDown={onKeyDown} />
      <div className="chat-composer-row">
        <span id={`${id}-hint`} className={`muted chat-hint${length > MAX_LENGTH - 200 ? ' near' : ''}`}>
          {length > MAX_LENGTH - 200 ? `${length} / ${MAX_LENGTH}` : busy ? 'Esc to stop the answer' : 'Enter to send · Shift+Enter for a new line'}
        </span>
        {busy ? (
          // A plain button: Enter in the textarea submits the form, and must never stop the answer.
          <button type="button" className="chat-stop" data-testid="chat-stop" aria-label="Stop answering"
            title="Stop answering (Esc)" aria-keyshortcuts="Escape" disabled={stopping}
            onClick={() => { stop(); inputRef.current?.focus(); }}>
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button type="submit" className="primary" data-testid="chat-send" disabled={!canSend}>Send</button>
        )}
      </div>
    </form>
  );
}
