import { useEffect, useId, useRef, useState } from 'react';
import { formatDateTime } from '../lib/format';
import { useSession } from '../lib/session';
import { useChat } from './useChat';

/** How long typing pauses before the list is searched: one query per pause, not per key. */
const SEARCH_DELAY_MS = 250;

/**
 * The user's conversations in place of the messages: latest first, each named by its first
 * message; a search over titles and messages; open one, or delete it.
 */
export function ConversationList() {
  const list = useChat((s) => s.list);
  const busy = useChat((s) => s.turn !== null);
  const showConversations = useChat((s) => s.showConversations);
  const hideConversations = useChat((s) => s.hideConversations);
  const openConversation = useChat((s) => s.openConversation);
  const removeConversation = useChat((s) => s.removeConversation);
  const timezone = useSession((s) => s.user?.timezone ?? 'UTC');
  const [query, setQuery] = useState(list?.query ?? '');
  const searchRef = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => searchRef.current?.focus(), []);
  useEffect(() => {
    if (query === (useChat.getState().list?.query ?? '')) return;
    const t = setTimeout(() => void showConversations(query), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [query, showConversations]);

  if (!list) return null;
  const searching = list.query.trim() !== '';
  return (
    <div className="chat-scroll chat-list" data-testid="chat-list" data-state={list.state}>
      <div className="chat-list-head">
        <label htmlFor={`${id}-search`} className="visually-hidden">Search conversations</label>
        <input ref={searchRef} id={`${id}-search`} type="search" data-testid="chat-search" value={query} maxLength={100}
          placeholder="Search titles and messages" onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            // Escape empties the search first (the field's own), then leaves the list; it never closes the panel from here.
            if (e.key !== 'Escape') return;
            e.stopPropagation();
            if (query === '') hideConversations();
          }} />
        <button type="button" data-testid="chat-list-back" onClick={hideConversations}>Back</button>
      </div>
      {list.state === 'error' && <p className="state error chat-note" role="alert">The conversations could not be listed: {list.error}</p>}
      {list.state === 'ready' && list.found.length === 0 && (
        <p className="muted chat-note" role="status">{searching ? 'No conversation holds those words.' : 'No conversations yet: ask a question to start one.'}</p>
      )}
      <ul className="chat-conversations" aria-label={searching ? 'Conversations found' : 'Conversations'} aria-busy={list.state === 'loading'}>
        {list.found.map((c) => (
          <li key={c.id} className="chat-conversation" data-testid="chat-conversation" data-conversation-id={c.id} data-current={c.current}>
            <button type="button" className="chat-conversation-open" aria-current={c.current ? 'true' : undefined} disabled={busy}
              data-testid="chat-conversation-open" onClick={() => void openConversation(c.id)}>
              <span className="chat-conversation-title">{c.title}</span>
              <span className="muted chat-conversation-meta">{formatDateTime(c.at, timezone)} · {c.messages} messages</span>
              {c.match && <span className="chat-conversation-match">{c.match}</span>}
            </button>
            <button type="button" className="chat-conversation-delete" data-testid="chat-conversation-delete" disabled={busy}
              aria-label={`Delete the conversation “${c.title}”`} title="Delete this conversation" onClick={() => void removeConversation(c.id)}>Delete</button>
          </li>
        ))}
      </ul>
    </div>
  );
}
