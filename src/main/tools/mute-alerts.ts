import { z } from 'zod';
import { alertSettings, eventKind, type EventKind } from '../../shared/contracts/events.js';
import { CLOCK_TIME, nextClockTime } from '../../shared/clock-time.js';
import { addDays, localDate } from '../../shared/dates.js';
import { formatDay, formatTime } from '../../shared/format.js';
import { DESK, opts } from './common.js';
import { defineTool } from './define.js';

/**
 * Planner form as well as a model's: a clock time or a duration can only become an instant against
 * the wall clock and the user's timezone, which the planner (free of I/O and clocks) does not have.
 */
export const muteAlertsInput = z.strictObject({
  /** The kind to mute, with at most one of `until`, `at` or `forMinutes` (none: until unmuted). */
  kind: eventKind.optional(),
  until: z.iso.datetime({ offset: true }).nullable().optional(),
  at: z.string().regex(CLOCK_TIME, 'a time of day like 6:00pm or 18:00').optional(),
  forMinutes: z.number().int().min(1).max(7 * 24 * 60).optional(),
  /** Instead of muting: the kind to unmute. */
  unmute: eventKind.optional(),
  // One object, not a union: a model's tool schema must be a plain object at its top.
}).superRefine((a, ctx) => {
  const ends = [a.until != null, a.at !== undefined, a.forMinutes !== undefined].filter(Boolean).length;
  if (a.unmute !== undefined && (a.kind !== undefined || ends > 0)) ctx.addIssue({ code: 'custom', path: ['unmute'], message: 'unmute takes no other field' });
  else if (a.unmute === undefined && a.kind === undefined) ctx.addIssue({ code: 'custom', path: ['kind'], message: 'say which alerts to mute, or which to unmute' });
  else if (ends > 1) ctx.addIssue({ code: 'custom', path: ['until'], message: 'give one of until, at or forMinutes' });
});
type MuteAlertsInput = z.output<typeof muteAlertsInput>;

export const muteAlertsOutput = z.object({
  kind: eventKind,
  muted: z.boolean(),
  until: z.iso.datetime({ offset: true }).nullable(),
  /** The instant in the user's words ("18:00 today"), so the sentence says the day the clock time fell on. */
  untilLocal: z.string().nullable(),
  settings: alertSettings,
});

const KIND_WORDS: Record<EventKind, string> = {
  large_bet: 'Large-bet alerts', player_login: 'Player-login alerts', market_settled: 'Market-settled alerts', approval_pending: 'Approval alerts',
};

/** "18:00 today", "18:00 tomorrow", "09:30 on 26 Nov 2026" in the user's zone, as seen at `now`: the desk's one way to write a time. */
export function localWords(until: Date, now: Date, timeZone: string): string {
  const time = formatTime(until.toISOString(), timeZone);
  const day = localDate(until, timeZone);
  const today = localDate(now, timeZone);
  return `${time} ${day === today ? 'today' : day === addDays(today, 1) ? 'tomorrow' : `on ${formatDay(day)}`}`;
}

function untilOf(args: MuteAlertsInput, now: Date, timeZone: string): Date | null {
  if (args.at !== undefined) return nextClockTime(args.at, now, timeZone);
  if (args.forMinutes !== undefined) return new Date(now.getTime() + args.forMinutes * 60_000);
  if (args.until != null) return new Date(args.until);
  return null;
}

const muteAlerts = defineTool({
  name: 'agent.muteAlerts',
  label: 'alert settings',
  description: 'Mutes or unmutes one kind of the user\'s own live alerts (large_bet, player_login, market_settled, approval_pending). '
    + 'Mute with `until` (an ISO instant, or null for until unmuted), `at` (the next time the user\'s clock reads it, e.g. "18:00"), '
    + 'or `forMinutes`; unmute with `{ unmute: kind }`. Changes only the user\'s own notifications, nothing in the book.',
  input: muteAlertsInput, output: muteAlertsOutput,
  allowedRoles: DESK, isDestructive: false, changesUserSettings: true, card: null, entities: {},
  async invoke(args, ctx) {
    // Mutes are kept in business time, the clock the desk dates "today" by: "till 6pm" is the desk's 6 pm, read off the backend.
    const now = new Date((await ctx.api.auth.me.query(undefined, opts(ctx))).now);
    if (args.unmute !== undefined) {
      const settings = await ctx.api.alerts.update.mutate({ unmute: args.unmute }, opts(ctx));
      return { kind: args.unmute, muted: false, until: null, untilLocal: null, settings };
    }
    const until = untilOf(args, now, ctx.user.timezone);
    const kind = args.kind!;
    const settings = await ctx.api.alerts.update.mutate({ mute: { kind, until: until?.toISOString() ?? null } }, opts(ctx));
    return { kind, muted: true, until: until?.toISOString() ?? null, untilLocal: until ? localWords(until, now, ctx.user.timezone) : null, settings };
  },
  say(out) {
    const what = KIND_WORDS[out.kind];
    if (!out.muted) return `${what} are on again.`;
    return out.untilLocal ? `${what} muted until ${out.untilLocal}.` : `${what} muted until you unmute them.`;
  },
});

export default muteAlerts;
