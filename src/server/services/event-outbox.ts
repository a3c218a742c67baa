/**
 * The events outbox: an event is a row of `events`, written with the same transaction
 * (`db` is that transaction) as the change that caused it, so it exists exactly when its cause
 * committed. `pg_notify` wakes every backend instance's stream when the transaction commits
 * (PostgreSQL delivers notifications on commit, and drops them on rollback).
 */
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type EventKind, eventPayloads } from '../../shared/contracts/events.js';
import type { Db } from '../db/client.js';

/** The channel `events.stream` listens on; the payload is the recipient's id. */
export const EVENTS_CHANNEL = 'desk_events';

export type OutboxEvent = { [K in EventKind]: { kind: K; recipientId: string; payload: z.input<(typeof eventPayloads)[K]> } }[EventKind];

export async function emitEvents(db: Db, events: readonly OutboxEvent[], at: Date): Promise<void> {
  for (const event of events) {
    // Checked here, where it is written: a malformed payload is a bug in its cause, never stored.
    const payload = eventPayloads[event.kind].parse(event.payload);
    await db.execute(sql`insert into events (kind, recipient_id, payload, created_at)
      values (${event.kind}, ${event.recipientId}, ${JSON.stringify(payload)}::jsonb, ${at.toISOString()})`);
    await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${event.recipientId})`);
  }
}
