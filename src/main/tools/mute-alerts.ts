import { z } from 'zod';
import { alertSettings, eventKind, type EventKind } from '../../shared/contracts/events.js';
import { addDays, localDate, startOfLocalDay } from '../../shared/dates.js';
import { formatDay, formatTime } from '../../shared/format.js';
import { numberWords } from '../../shared/parse/amount.js';
import { ask, hasAny } from '../assistant/planner/slots.js';
import { speechAct } from '../assistant/planner/speech-act.js';
import { DESK, opts } from './common.js';
import { defineTool } from './define.js';

/** "6:00pm", "18:00", or "6:00" (said without am/pm, as in "6 baje tak"). */
const CLOCK = /^(\d{1,2}):(\d{2})(am|pm)?$/;

/**
 * Planner form as well as a model's: a clock time or a duration can only become an instant against
 * the wall clock and the user's timezone, which the planner (free of I/O and clocks) does not have.
 */
export const muteAlertsInput = z.strictObject({
  /** The kind to mute, with at most one of `until`, `at` or `forMinutes` (none: until unmuted). */
  kind: eventKind.optional(),
  until: z.iso.datetime({ offset: true }).nullable().optional(),
  at: z.string().regex(CLOCK, 'a time of day like 6:00pm or 18:00').optional(),
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
  /** The instant in the user's words ("6:00 pm today"), so the sentence says the day the clock time fell on. */
  untilLocal: z.string().nullable(),
  settings: alertSettings,
});

const KIND_WORDS: Record<EventKind, string> = {
  large_bet: 'Large-bet alerts', player_login: 'Player-login alerts', market_settled: 'Market-settled alerts', approval_pending: 'Approval alerts',
};

/** The next time the clock in `timeZone` reads `at`: today's if still ahead, else tomorrow's. A bare hour is its next am or pm. */
export function nextClockTime(at: string, now: Date, timeZone: string): Date {
  const [, h, m, meridiem] = CLOCK.exec(at)!;
  const hour = Number(h) % 24;
  const minute = Number(m);
  const hours = meridiem === 'pm' ? (hour % 12) + 12 : meridiem === 'am' ? hour % 12 : hour;
  const candidates = [hours, ...(meridiem === undefined && hour >= 1 && hour <= 12 ? [(hours % 12) + 12, hours % 12] : [])];
  const today = localDate(now, timeZone);
  const times = [today, addDays(today, 1)].flatMap((day) => candidates.map((hh) => wallTime(day, hh, minute, timeZone)));
  return times.filter((t) => t.getTime() > now.getTime()).sort((a, b) => a.getTime() - b.getTime())[0]!;
}

/** The instant a zone's clock reads hh:mm on `day`; corrected once for a DST change earlier that day. */
function wallTime(day: string, hh: number, mm: number, timeZone: string): Date {
  const guess = new Date(startOfLocalDay(day, timeZone).getTime() + (hh * 60 + mm) * 60_000);
  const [gh, gm] = formatTime(guess.toISOString(), timeZone).split(':').map(Number) as [number, number];
  const drift = (gh * 60 + gm - (hh * 60 + mm)) * 60_000;
  return drift === 0 || Math.abs(drift) > 3 * 3_600_000 ? guess : new Date(guess.getTime() - drift);
}

/** "6:00 pm today", "6:00 pm tomorrow", "9:30 am on 26 Nov 2026" in the user's zone, as seen at `now`. */
export function localWords(until: Date, now: Date, timeZone: string): string {
  const [h, m] = formatTime(until.toISOString(), timeZone).split(':').map(Number) as [number, number];
  const time = `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'am' : 'pm'}`;
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

// ── the planner's reading ───────────────────────────────────────────────────────────────────
const ALERT_WORD = /\b(?:alerts?|notifications?|notifs?|pings?|pinging|notifying|buzzing|alarms?)\b/;
const MUTE_WORD = /\b(?:mute|silence|snooze|quiet|band|disable|stop|block|turn\s+off|switch\s+off|off)\b/;
// "turn login alerts back on": the alerts named between the verb and "on".
const UNMUTE_WORD = /\b(?:unmute|unsilence|unsnooze|enable|resume|restore|turn\s+on|switch\s+on|chalu|shuru|wapas|back\s+on)\b|\b(?:turn|switch)\s+(?:\S+\s+){1,4}on\s*[.!]*$/;

/**
 * Right after a mute, said of the same alerts: "wapas chalu kar do", "turn them back on" unmutes
 * them; "nahi 2 ghante", "make it an hour" mutes them for that long instead. Null when the
 * message names alerts of its own or is no such follow-up.
 */
export function planMuteFollowUp(folded: string, last: { tool: string; args: Record<string, unknown> }): { tool: string; args: Record<string, unknown> } | null {
  const args = muteFollowUpArgs(folded, last);
  return args && { tool: last.tool, args };
}

/**
 * "large bet alerts bahut aa rahe hain" … "1 ghante ke liye band kar do": alerts the last message
 * complained of, muted for the span this one orders. Null unless both are said.
 */
export function planMuteOfMentioned(folded: string, lastFolded: string): { tool: string; args: Record<string, unknown> } | null {
  const kind = ALERT_WORD.test(lastFolded) ? kindOf(lastFolded) : null;
  if (kind === null || kindOf(folded) !== null || !MUTE_WORD.test(folded) || UNMUTE_WORD.test(folded)) return null;
  if (speechAct(folded, new Set(['mute', 'unmute', 'snooze', 'silence'])) === 'question') return null;
  const until = untilWords(folded);
  return until && !('problem' in until) ? { tool: muteAlerts.name, args: { kind, ...until } } : null;
}

function muteFollowUpArgs(folded: string, last: { tool: string; args: Record<string, unknown> }): Record<string, unknown> | null {
  const kind = last.args.kind;
  if (last.tool !== muteAlerts.name || typeof kind !== 'string' || kindOf(folded) !== null) return null;
  if (speechAct(folded, new Set(['mute', 'unmute', 'snooze', 'silence'])) === 'question') return null;
  // "chalu" is read as "open" by the planner's slang ("chalu bets"); back on, it is the alerts'.
  if (UNMUTE_WORD.test(folded) || (/\bopen\b/.test(folded) && /\b(?:wapas|back|again|phir|fir)\b/.test(folded))) return { unmute: kind };
  const until = untilWords(folded);
  return until && !('problem' in until) ? { kind, ...until } : null;
}

function kindOf(folded: string): EventKind | null {
  if (/\b(?:large|big|huge|bade|bada|badi|heavy|high)[\s-]*(?:stake\s+)?bets?\b|\blarge[\s-]*bet|\blb\b/.test(folded)) return 'large_bet';
  if (/\blog[\s-]*ins?\b|\blogins?\b|\bsign[\s-]*ins?\b|\blogs?\s+in\b/.test(folded)) return 'player_login';
  if (/\b(?:settled?|settlement|result)s?\b/.test(folded) && /\b(?:markets?|settled|results?)\b/.test(folded)) return 'market_settled';
  if (/\bapprovals?\b|\bapprove\b/.test(folded)) return 'approval_pending';
  return null;
}

const COUNTS = numberWords(true);
const SPAN = new RegExp(String.raw`\b(?:for|next)\s+(?:the\s+)?(?:next\s+|coming\s+)?(\d{1,3}|an?|half\s+an?|${Object.keys(COUNTS).filter((w) => /^[a-z]+$/.test(w)).join('|')})?\s*(hours?|hrs?|h|minutes?|mins?|m)\b|\b(\d{1,3}|ek|do|teen|char|chaar|paanch|aadha|adha|aadhe|adhe|aadhi|${Object.keys(COUNTS).filter((w) => /^[a-z]+$/.test(w)).join('|')})\s*(ghante|ghanta|minute|minutes?|mins?|hours?|hrs?|h)\b`);
/** Hindi counts of a span ("ek ghanta", "do ghante", "aadha ghanta"). */
const HINDI_SPAN_COUNTS: Readonly<Record<string, number>> = { ek: 1, do: 2, teen: 3, char: 4, chaar: 4, paanch: 5, aadha: 0.5, adha: 0.5, aadhe: 0.5, adhe: 0.5, aadhi: 0.5 };

/** "till 6pm", "until 18:30", "6 baje tak", "for 2 hours", "for 30 mins", "1 hr", "2 ghante ke liye". */
function untilWords(folded: string): { at: string } | { forMinutes: number } | { problem: string } | null {
  // "for the next hour", "next two hours", "for 30 mins": a count (in figures or words; none is one) and a unit.
  const span = SPAN.exec(folded);
  if (span) {
    const raw = span[1] ?? span[3] ?? 'one';
    const unit = span[2] ?? span[4]!;
    const n = /^\d/.test(raw) ? Number(raw) : /half/.test(raw) ? 0.5 : HINDI_SPAN_COUNTS[raw] ?? COUNTS[raw] ?? 1;
    const minutes = Math.round(/^(?:h|hr|hrs|hours?|ghante|ghanta)$/.test(unit) ? n * 60 : n);
    return minutes >= 1 && minutes <= 7 * 24 * 60 ? { forMinutes: minutes } : { problem: 'For how long? I mute alerts for up to a week, or until you unmute them.' };
  }
  const clock = /\b(?:till|until|untill|til|upto|up\s+to|by|before)\s+(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\s*m|p\s*m)?\b/.exec(folded)
    ?? /\b(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|baje)\s*(?:tak|till|until)?\b/.exec(folded);
  if (!clock) return null;
  const hour = Number(clock[1]);
  const minute = Number(clock[2] ?? '0');
  const meridiem = clock[3]?.replace(/\s+/g, '');
  if (minute > 59 || hour > 23 || ((meridiem === 'am' || meridiem === 'pm') && (hour === 0 || hour > 12))) return { problem: 'Until what time? Say it like "till 6pm".' };
  const suffix = meridiem === 'am' || meridiem === 'pm' ? meridiem : '';
  return { at: `${hour}:${String(minute).padStart(2, '0')}${hour > 12 ? '' : suffix}` };
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
  planning: {
    id: 'mute_alerts', precedence: 15, exclusive: true,
    // Not "band" or "baje": as known words they would be what typos like "bank" or "bade" (big) are corrected to.
    vocabulary: ['mute', 'unmute', 'muted', 'snooze', 'alert', 'alerts', 'notification', 'notifications', 'notifs', 'login', 'logins', 'approvals'],
    triggers: (r) => hasAny(r, 'mute', 'unmute', 'muted', 'snooze', 'unsnooze', 'unsilence')
      || (ALERT_WORD.test(r.folded) && (MUTE_WORD.test(r.folded) || UNMUTE_WORD.test(r.folded))),
    fill(s) {
      const r = s.r;
      // Only an order changes a setting: "are login alerts muted?" is not one.
      if (speechAct(r.folded, new Set(['mute', 'unmute', 'snooze', 'silence'])) === 'question') {
        return ask('unplannable', 'Do you want me to mute or unmute those alerts? Say it as an instruction, like "mute large bet alerts till 6pm".');
      }
      // "actually unmute them" right after a mute: the alerts that mute was of.
      const last = s.lastCall(muteAlerts.name);
      const lastKind = last ? (typeof last.kind === 'string' ? last.kind : typeof last.unmute === 'string' ? last.unmute : null) : null;
      const kind = kindOf(r.folded) ?? (/\b(?:them|it|those|these|that|unhe|inhe|usko|isko|wapas|back)\b/.test(r.folded) ? lastKind as EventKind | null : null);
      if (!kind) return ask('unplannable', 'Which alerts: large bets, player logins, settled markets or pending approvals?');
      const unmute = hasAny(r, 'unmute', 'unsnooze', 'unsilence') || (UNMUTE_WORD.test(r.folded) && !MUTE_WORD.test(r.folded.replace(/\b(?:turn|switch)\s+on\b/g, ' ')));
      if (unmute) return { args: { unmute: kind } };
      const until = untilWords(r.folded);
      if (until && 'problem' in until) return ask('unplannable', until.problem);
      return { args: { kind, ...(until ?? { until: null }) } };
    },
    examples: ['mute large bet alerts till 6pm', 'mute login alerts', 'unmute large bets'],
  },
});

export default muteAlerts;
