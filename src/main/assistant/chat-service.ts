import type { User } from '../../shared/contracts/agent-api.js';
import type { ChatConfirmInput, ChatHistoryInput, ChatHistoryPage, ChatMessage, ChatTurnInput, TurnEvent } from '../../shared/contracts/chat.js';
import type { BackendClient } from '../backend/connection.js';

/** Who is asking: the signed-in user and a backend client holding their session. */
export interface TurnCaller {
  user: User;
  api: BackendClient;
}

/** The assistant as the desk router sees it. */
export interface ChatService {
  /** Runs one turn and streams its events; the last one is always `done`. Never throws. */
  turn(input: ChatTurnInput, caller: TurnCaller, signal?: AbortSignal): AsyncIterable<TurnEvent>;
  /** One page of the user's conversation (ChatHistoryStore.page): never the whole of it. */
  history(user: User, request: ChatHistoryInput): Promise<ChatHistoryPage>;
  clear(user: User): Promise<void>;
  /** The user confirms a proposal: exactly its frozen call runs, once. Never throws. */
  confirm(input: ChatConfirmInput, caller: TurnCaller): Promise<ChatMessage>;
  /** The user cancels a proposal: it is used up and nothing changes. Never throws. */
  cancel(input: ChatConfirmInput, caller: TurnCaller): Promise<ChatMessage>;
  /** The user pressed Stop on a running turn of theirs: it ends with what it has. False when none runs. */
  stop(requestId: string, user: User): boolean;
}
