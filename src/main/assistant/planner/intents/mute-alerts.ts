import { type EventKind } from '../../../../shared/contracts/events.js';
import { numberWords } from '../../../../shared/parse/amount.js';
import { ask, hasAny } from '../slots.js';
import { speechAct } from '../speech-act.js';
import type { ToolPlanning } from '../types.js';
import { z } from 'zod';
import { isWord, matchPhrases, phraseTable, tokensOf } from '../../../../shared/parse/phrases.js';
import alertEntries from '../lexicon/alerts.json' with { type: 'json' };
import { fold } from '../grammar.js';
import { conceptEntry } from '../lexicon.js';
import negatives from '../lexicon/alert-negatives.json' with { type: 'json' };
import muteTool from '../../../tools/mute-alerts.js';


// ── the planner's reading ───────────────────────────────────────────────────────────────────
const CONCEPTS = ['alert', 'mute', 'unmute', 'kind:large_bet', 'kind:player_login', 'kind:settled', 'kind:market', 'kind:approval_pending', 'again', 'refers_back'] as const;
type AlertConcept = (typeof CONCEPTS)[number];
/** The words of alerts (lexicon/alerts.json): which alerts, muted or back on, "them" for the last ones. */
const ALERT_WORDS = phraseTable(z.array(conceptEntry(z.enum(CONCEPTS))).parse(alertEntries).map((e) => [fold(e.phrase).trim(), e.concept] as const));

/** The alert concepts the folded text says ("large-bet" as "large bet": marks are no words here). */
export function alertWords(folded: string): ReadonlySet<AlertConcept> {
  const words = tokensOf(folded).filter(isWord);
  const said = new Set(matchPhrases(ALERT_WORDS, words).flatMap((m) => m.values));
  // "turn login alerts back on": the alerts named between the verb and a closing "on".
  const on = words.length - 1;
  if (words[on] === 'on' && words.slice(Math.max(0, on - 5), on - 1).some((w) => w === 'turn' || w === 'switch')) said.add('unmute');
  return said;
}

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
  const kind = alertWords(lastFolded).has('alert') ? kindOf(lastFolded) : null;
  const said = alertWords(folded);
  if (kind === null || kindOf(folded) !== null || !said.has('mute') || said.has('unmute')) return null;
  if (speechAct(folded, new Set(['mute', 'unmute', 'snooze', 'silence'])) === 'question') return null;
  const until = untilWords(folded);
  return until && !('problem' in until) ? { tool: muteTool.name, args: { kind, ...until } } : null;
}

function muteFollowUpArgs(folded: string, last: { tool: string; args: Record<string, unknown> }): Record<string, unknown> | null {
  const kind = last.args.kind;
  if (last.tool !== muteTool.name || typeof kind !== 'string' || kindOf(folded) !== null) return null;
  if (speechAct(folded, new Set(['mute', 'unmute', 'snooze', 'silence'])) === 'question') return null;
  // "chalu" is read as "open" by the planner's slang ("chalu bets"); back on, it is the alerts'.
  const said = alertWords(folded);
  if (said.has('unmute') || (tokensOf(folded).includes('open') && said.has('again'))) return { unmute: kind };
  const until = untilWords(folded);
  return until && !('problem' in until) ? { kind, ...until } : null;
}

function kindOf(folded: string): EventKind | null {
  const said = alertWords(folded);
  if (said.has('kind:large_bet')) return 'large_bet';
  if (said.has('kind:player_login')) return 'player_login';
  if (said.has('kind:settled') && said.has('kind:market')) return 'market_settled';
  if (said.has('kind:approval_pending')) return 'approval_pending';
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

/**
 * "stop telling me about big bets", "bade bets mat batao": alerts refused in words of their own
 * rather than "mute" (lexicon/alert-negatives.json), a mute when the alerts' kind is said too.
 */
const NEGATIVE = phraseTable(z.array(conceptEntry(z.literal('refuse_alerts')))
  .parse(negatives).map((e) => [fold(e.phrase).trim(), true] as const));
const refusesAlerts = (folded: string) => matchPhrases(NEGATIVE, tokensOf(folded).filter(isWord)).length > 0;

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'mute_alerts', precedence: 15, exclusive: true,
  // Not "band" or "baje": as known words they would be what typos like "bank" or "bade" (big) are corrected to.
  vocabulary: ['mute', 'unmute', 'muted', 'snooze', 'alert', 'alerts', 'notification', 'notifications', 'notifs', 'login', 'logins', 'approvals'],
  triggers: (r) => hasAny(r, 'mute', 'unmute', 'muted', 'snooze', 'unsnooze', 'unsilence')
    || ((said) => said.has('alert') && (said.has('mute') || said.has('unmute')))(alertWords(r.folded))
    || (refusesAlerts(r.folded) && kindOf(r.folded) !== null),
  fill(s) {
    const r = s.r;
    // Only an order changes a setting: "are login alerts muted?" is not one.
    if (speechAct(r.folded, new Set(['mute', 'unmute', 'snooze', 'silence'])) === 'question') {
      return ask('unplannable', 'Do you want me to mute or unmute those alerts? Say it as an instruction, like "mute large bet alerts till 6pm".');
    }
    // "actually unmute them" right after a mute: the alerts that mute was of.
    const last = s.lastCall(muteTool.name);
    const lastKind = last ? (typeof last.kind === 'string' ? last.kind : typeof last.unmute === 'string' ? last.unmute : null) : null;
    const kind = kindOf(r.folded) ?? (alertWords(r.folded).has('refers_back') ? lastKind as EventKind | null : null);
    if (!kind) return ask('unplannable', 'Which alerts: large bets, player logins, settled markets or pending approvals?');
    const said = alertWords(r.folded);
    const unmute = hasAny(r, 'unmute', 'unsnooze', 'unsilence') || (said.has('unmute') && !said.has('mute'));
    if (unmute) return { args: { unmute: kind } };
    const until = untilWords(r.folded);
    if (until && 'problem' in until) return ask('unplannable', until.problem);
    return { args: { kind, ...(until ?? { until: null }) } };
  },
  examples: ['mute large bet alerts till 6pm', 'mute login alerts', 'unmute large bets'],
} satisfies ToolPlanning;
