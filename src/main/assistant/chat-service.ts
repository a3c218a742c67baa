import type { User } from '../../shared/contracts/agent-api.js';
import type {
  ChatCancelRequest, ChatConfirmRequest, ChatEditRequest, ChatHistoryInput, ChatHistoryPage, ChatMessage, ChatTurnInput, ConversationSummary, TurnEvent,
} from '../../shared/contracts/chat.js';
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
  /** One page of the user's current conversation (ChatHistoryStore.page): never the whole of it. */
  history(user: User, request: ChatHistoryInput): Promise<ChatHistoryPage>;
  /** Deletes the current conversation. */
  clear(user: User): Promise<void>;
  /** The user's conversations, latest first; with `query`, those whose title or messages hold it. */
  listConversations(user: User, query?: string): Promise<ConversationSummary[]>;
  /** Makes one of the user's conversations the current one; false when they keep none of that id. */
  open(user: User, conversationId: string): Promise<boolean>;
  /** A new, empty current conversation. */
  start(user: User): Promise<void>;
  /** Deletes one of the user's conversations; false when they keep none of that id. */
  remove(user: User, conversationId: string): Promise<boolean>;
  /**
   * The user confirms a proposal: exactly its frozen call runs, once. Throws only StepUpRefused
   * (src/main/confirm/step-up.ts): a large change's password missing or not accepted, the
   * proposal still open.
   */
  confirm(input: ChatConfirmRequest, caller: TurnCaller): Promise<ChatMessage>;
  /** The user cancels a proposal, with a reason if they gave one: it is used up and nothing changes. Never throws. */
  cancel(input: ChatCancelRequest, caller: TurnCaller): Promise<ChatMessage>;
  /**
   * The user changed the value on a proposal's card: a new preview under a new nonce, the old
   * proposal ended as edited. Throws only ProposalEditRefused (src/main/confirm/proposals.ts):
   * the new value refused or changing nothing, the old proposal still open.
   */
  edit(input: ChatEditRequest, caller: TurnCaller): Promise<ChatMessage>;
  /** The user pressed Stop on a running turn of theirs: it ends with what it has. False when none runs. */
  stop(requestId: string, user: User): boolean;
}
