/**
 * The caller's alert settings: the stake from which a bet in the downline is a
 * `large_bet`, and which kinds of event the desk keeps quiet about. Mutes are the client's to apply
 * (the stream sends every event; the desk lists muted ones without alerting).
 */
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type AlertSettings, type EventKind, type alertsUpdateInput, alertSettings } from '../../shared/contracts/events.js';
import { type Db, queryRows } from '../db/client.js';
import type { Caller, ServiceDeps } from './caller.js';

export async function getAlertSettings(deps: ServiceDeps, caller: Caller): Promise<AlertSettings> {
  return readSettings(deps.db, caller.id, deps.now());
}

/**
 * Mute times are business time, the clock the desk dates "today" by, so "until 6 pm" means the
 * desk's 6 pm; a mute whose time has passed reads as not muted.
 */
async function readSettings(db: Db, accountId: string, now: Date): Promise<AlertSettings> {
  const [account] = await queryRows<{ threshold: string | number }>(db, sql`select large_bet_threshold as threshold from accounts where id = ${accountId}`);
  if (!account) throw new TRPCError({ code: 'NOT_FOUND', message: 'account not found' });
  const mutes = await queryRows<{ kind: EventKind; until: Date | string | null }>(db, sql`
    select kind, until from event_mutes
    where account_id = ${accountId} and muted and (until is null or until > ${now.toISOString()})
    order by kind`);
  return alertSettings.parse({
    largeBetThreshold: Number(account.threshold),
    muted: Object.fromEntries(mutes.map((m) => [m.kind, { until: m.until === null ? null : new Date(m.until).toISOString() }])),
  });
}

export async function updateAlertSettings(deps: ServiceDeps, caller: Caller, input: z.infer<typeof alertsUpdateInput>): Promise<AlertSettings> {
  const now = deps.now();
  if (input.mute && input.unmute === input.mute.kind) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `mute and unmute name the same kind (${input.unmute})` });
  }
  if (input.mute?.until && new Date(input.mute.until).getTime() <= now.getTime()) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `mute until ${input.mute.until}: that time has passed (now ${now.toISOString()})` });
  }
  return deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    if (input.largeBetThreshold !== undefined) {
      await db.execute(sql`update accounts set large_bet_threshold = ${input.largeBetThreshold} where id = ${caller.id}`);
    }
    if (input.mute) {
      await db.execute(sql`insert into event_mutes (account_id, kind, muted, until)
        values (${caller.id}, ${input.mute.kind}, true, ${input.mute.until})
        on conflict (account_id, kind) do update set muted = true, until = excluded.until`);
    }
    if (input.unmute) {
      await db.execute(sql`delete from event_mutes where account_id = ${caller.id} and kind = ${input.unmute}`);
    }
    // Expired mutes are dead weight; the caller's own rows are cleared as they write.
    await db.execute(sql`delete from event_mutes where account_id = ${caller.id} and until is not null and until <= ${now.toISOString()}`);
    return readSettings(db, caller.id, now);
  });
}
