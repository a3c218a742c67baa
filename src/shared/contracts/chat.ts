/**
 * The chat panel's contract with main: what the renderer sends for a turn, the events a turn
 * streams back, and the messages kept as the conversation's history. Validated on both sides.
 */
import { z } from 'zod';
import { id, loginInput } from './agent-api.js';
import { cardSchema, proposalState } from './assistant.js';
import { boundedText, paisaInput } from './bounds.js';
import { turnUsageSchema } from './model-settings.js';

/** AGENT.md, Page context: the route the user is on when they ask, with its parsed query. */
export const pageContextSchema = z.strictObject({
  path: z.string().max(300).regex(/^\/[\w\-/.%]*$/, 'not an app route'),
  query: z.record(z.string().max(40), z.string().max(200)).default({}),
});
export type PageContext = z.infer<typeof pageContextSchema>;

export const MAX_MESSAGE_LENGTH = 2000;

/** The longest reason a user may give for declining a proposal. */
export const MAX_DECLINE_REASON_LENGTH = 300;

// Bidirectional overrides and isolates make a line read otherwise than it is stored: not in text
// that ends up in the audit log.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * Why the user declined a proposal, in their own words: one line of plain text, kept as data in
 * the audit log and shown to the assistant quoted, never as markup or an instruction.
 */
export const declineReason = boundedText(MAX_DECLINE_REASON_LENGTH).trim().min(1, 'type a reason, or cancel without one')
  .refine((s) => !BIDI_CONTROL.test(s), 'must not contain text-direction controls');

/** A turn starts from a typed message, or from choosing a candidate that a picker offered. */
export const chatTurnInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('message'), text: z.string().trim().min(1, 'type a message').max(MAX_MESSAGE_LENGTH), page: pageContextSchema }),
  z.strictObject({ kind: z.literal('pick'), requestId: z.string().min(1).max(64), candidateId: id }),
]);
export type ChatTurnInput = z.infer<typeof chatTurnInput>;

export const turnOutcome = z.enum(['answered', 'clarify', 'direct', 'failed', 'rate_limited']);
export type TurnOutcome = z.infer<typeof turnOutcome>;

/** One exchange as kept in the history and shown in the panel. Text is always plain text. */
export const chatMessageSchema = z.strictObject({
  id: z.string().min(1).max(64),
  role: z.enum(['user', 'assistant']),
  at: z.iso.datetime(),
  text: z.string().max(8000),
  cards: z.array(cardSchema).max(12),
  /** The turn this message answers (assistant) or started (user). */
  requestId: z.string().max(64),
  outcome: turnOutcome.optional(),
  /**
   * A confirm, cancel or edit answers the proposal of this nonce: its card shows this final state
   * (and, for a cancel, the reason the user gave).
   */
  resolves: z.strictObject({ nonce: z.string().max(128), state: proposalState, reason: declineReason.optional() }).optional(),
  /** Which planner answered: the offline rules, or Claude (with what its calls used). */
  planner: z.enum(['rules', 'claude']).optional(),
  usage: turnUsageSchema.optional(),
  /** The user pressed Stop: the text is what had arrived by then. */
  stopped: z.literal(true).optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** A tool as a turn names it: its id, and its label in words for the status line. */
const turnTool = { tool: z.string().max(64), label: z.string().max(80) };

/** What a turn streams, in order: start, plan, tool progress, cards, text, done (always last). */
export const turnEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('start'), requestId: z.string(), user: chatMessageSchema }),
  z.strictObject({ type: z.literal('plan'), requestId: z.string(), intent: z.string(), action: z.enum(['tools', 'clarify', 'direct']), tools: z.array(z.strictObject(turnTool)) }),
  z.strictObject({ type: z.literal('tool'), requestId: z.string(), ...turnTool, status: z.enum(['started', 'ok', 'failed']), ms: z.number().nonnegative().optional() }),
  z.strictObject({ type: z.literal('card'), requestId: z.string(), card: cardSchema }),
  z.strictObject({ type: z.literal('text'), requestId: z.string(), delta: z.string() }),
  z.strictObject({ type: z.literal('done'), requestId: z.string(), message: chatMessageSchema }),
]);
export type TurnEvent = z.infer<typeof turnEventSchema>;

/** The most messages one page of the history holds. */
export const MAX_HISTORY_PAGE = 100;
/** How many the panel asks for when none is said: what it draws before "Show earlier messages" (about three screens of it). */
export const HISTORY_PAGE = 24;

/**
 * A page of the conversation, never the whole of it: the latest `limit` messages, or with
 * `before` (the id of the oldest message the panel shows) the `limit` just before that one.
 */
export const chatHistoryInput = z.strictObject({
  before: z.string().min(1).max(64).regex(/^[\w-]+$/, 'not a message id').optional(),
  limit: z.number().int().min(1).max(MAX_HISTORY_PAGE).default(HISTORY_PAGE),
}).prefault({});
export type ChatHistoryInput = z.infer<typeof chatHistoryInput>;

/** The page, oldest first; `earlier`: more messages are kept before it. */
export const chatHistoryOutput = z.strictObject({
  messages: z.array(chatMessageSchema).max(MAX_HISTORY_PAGE),
  earlier: z.boolean(),
});
export type ChatHistoryPage = z.infer<typeof chatHistoryOutput>;

/** How many conversations a user keeps: starting one more deletes the one used longest ago. */
export const MAX_CONVERSATIONS = 50;
/** The longest title a conversation gets (its first message, on one line). */
export const MAX_TITLE_LENGTH = 60;

/** A conversation of the signed-in user, named by id: another user's id names nothing. */
export const chatConversationInput = z.strictObject({ id: z.guid() });
export type ChatConversationInput = z.infer<typeof chatConversationInput>;

/** The conversation list, or with `query` only those whose title or messages hold its words. */
export const chatConversationsInput = z.strictObject({
  query: z.string().trim().max(100).optional(),
}).prefault({});
export type ChatConversationsInput = z.infer<typeof chatConversationsInput>;

/** One conversation in the list: its title is its first message, `at` its latest message. */
export const conversationSummarySchema = z.strictObject({
  id: z.guid(),
  title: z.string().max(MAX_TITLE_LENGTH),
  at: z.iso.datetime(),
  messages: z.number().int().nonnegative(),
  /** The one the panel shows and a turn adds to. */
  current: z.boolean(),
  /** A search's hit: the first message that holds the words, on one line. */
  match: z.string().max(120).optional(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/** Latest first. */
export const chatConversationsOutput = z.array(conversationSummarySchema).max(MAX_CONVERSATIONS);

/** The user's answer to a proposal: the nonce and the hash of the frozen call, as the card carried them. */
export const chatConfirmInput = z.strictObject({
  nonce: z.string().min(20).max(128).regex(/^[A-Za-z0-9_-]+$/, 'not a nonce'),
  payloadHash: z.string().regex(/^[0-9a-f]{64}$/, 'not a payload hash'),
});
export type ChatConfirmInput = z.infer<typeof chatConfirmInput>;

/** Confirm: the proposal, and the user's password when the card asks for it again (a large change). */
export const chatConfirmRequest = chatConfirmInput.extend({ password: loginInput.shape.password.optional() });
export type ChatConfirmRequest = z.infer<typeof chatConfirmRequest>;

/** Cancel: the proposal, and an optional reason. */
export const chatCancelRequest = chatConfirmInput.extend({ reason: declineReason.optional() });
export type ChatCancelRequest = z.infer<typeof chatCancelRequest>;

/**
 * Edit on the card: the proposal, and the new value of its amount (a limit's new value, a
 * settlement's amount, a hedge's stake) in paisa, converted from the points typed on the card.
 */
export const chatEditRequest = chatConfirmInput.extend({
  value: paisaInput.positive('must be more than zero'),
});
export type ChatEditRequest = z.infer<typeof chatEditRequest>;

/** "/agent/bets?playerId=X" → the page context the panel would send from that route. */
export function parseChatRoute(href: string): PageContext {
  const [path = '/', search = ''] = href.split('?', 2);
  return pageContextSchema.parse({ path, query: Object.fromEntries(new URLSearchParams(search)) });
}
