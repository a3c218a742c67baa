/**
 * Live events (DOMAIN.md, Events and notifications): what the backend tells an agent
 * as it happens, written to the `events` outbox in the same transaction as its cause and streamed
 * to clients by id, so a client that reconnects resumes from the last id it saw — no event lost,
 * none twice. Also the agent's alert settings: the large-bet threshold and the mutes.
 */
import { z } from 'zod';
import { id, paisa } from './agent-api.js';

export const EVENT_KINDS = ['player_login', 'large_bet', 'market_settled', 'approval_pending'] as const;
export const eventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof eventKind>;

/** The default large-bet threshold: 10,000 points (DOMAIN.md). */
export const DEFAULT_LARGE_BET_THRESHOLD = 1_000_000;

export const eventPayloads = {
  player_login: z.strictObject({ playerId: id, playerName: z.string() }),
  large_bet: z.strictObject({
    betId: id, playerId: id, playerName: z.string(), fixtureId: id, fixtureName: z.string(), marketName: z.string(), outcomeName: z.string(),
    side: z.enum(['back', 'lay']), stake: paisa, odds: z.number().int(), liability: paisa,
    /** Placed from an agent's self account to offset its book. */
    hedge: z.boolean(),
  }),
  market_settled: z.strictObject({
    fixtureId: id, fixtureName: z.string(), marketId: id, marketName: z.string(), winnerName: z.string(),
    /** The recipient's downline's bets on it, and what the recipient's book made (positive: the book won). */
    bets: z.number().int().nonnegative(), bookResult: paisa,
  }),
  /** A change asked for outside the desk (MCP) waits for the user's confirmation in the desk. */
  approval_pending: z.strictObject({ approvalId: z.string().min(1).max(128), tool: z.string(), summary: z.string().max(300) }),
} as const;

const eventOf = <K extends EventKind>(kind: K) => z.strictObject({
  /** The outbox id as a decimal string: increasing per recipient; what a client resumes from. */
  id: z.string().regex(/^\d{1,19}$/),
  kind: z.literal(kind),
  at: z.iso.datetime(),
  payload: eventPayloads[kind],
});

export const deskEvent = z.discriminatedUnion('kind', [
  eventOf('player_login'), eventOf('large_bet'), eventOf('market_settled'), eventOf('approval_pending'),
]);
export type DeskEvent = z.infer<typeof deskEvent>;

/** `events.stream` (subscription): the caller's events after `lastEventId` (all kept ones when absent), then live. */
export const eventsStreamInput = z.strictObject({ lastEventId: z.string().regex(/^\d{1,19}$/).nullish() });

// ── alert settings (`alerts.get`, `alerts.update`) ─────────────────────────────────────────────
export const alertSettings = z.strictObject({
  /** A bet at or above this stake (paisa) is a `large_bet`. */
  largeBetThreshold: paisa.min(0),
  /** Per kind: muted until an instant, or until unmuted (null); absent = not muted. */
  muted: z.partialRecord(eventKind, z.strictObject({ until: z.iso.datetime().nullable() })),
});
export type AlertSettings = z.infer<typeof alertSettings>;

export const alertsUpdateInput = z.strictObject({
  largeBetThreshold: paisa.min(0).max(100_000_000_000).optional(),
  mute: z.strictObject({ kind: eventKind, until: z.iso.datetime().nullable() }).optional(),
  unmute: eventKind.optional(),
});
