import { type EventKind } from '../../../../shared/contracts/events.js';
import { numberWords } from '../../../../shared/parse/amount.js';
import { ask, hasAny } from '../slots.js';
import { speechAct } from '../speech-act.js';
import type { ToolPlanning } from '../types.js';
import { z } from 'zod';
import { isWord, matchPhrases, phraseTable, tokensOf } from '../../../../shared/parse/phrases.js';
import { figuresAndRest, found, gluedBefore, isDigits, means, tokensIn } from './concepts.js';
import alertEntries from '../lexicon/alerts.json' with { type: 'json' };
import { fold } from '../grammar.js';
import { conceptEntry } from '../lexicon.js';
import negatives from '../lexicon/alert-negatives.json' with { type: 'json' };
import muteTool from '../../../tools/mute-alerts.js';


// ── the planner's reading ───────────────────────────────────────────────────────────────────
const CONCEPTS = ['alert', 'mute', 'unmute', 'kind:large_bet', 'kind:player_login', 'kind:settled', 'kind:market', 'kind:approval_pending', 'again', 'refers_back', 'till_unmuted'] as const;
type AlertConcept = (typeof CONCEPTS)[number];
/** The words of alerts (lexicon/alerts.json): which alerts, muted or back on, "them" for the last ones. */
const ALERT_WORDS = phraseTable(z.array(conceptEntry(z.enum(CONCEPTS))).parse(alertEntries).map((e) => [fold(e.phrase).trim(), e.concept] as const));

/** The alert concepts the folded text says ("large-bet" as "large bet": marks are no words here). */
export function alertWords(folded: string): ReadonlySet<AlertConcept> {
  const words = tokensOf(folded).filter(isWord);
  const said = new Set(matchPhrases(ALERT_WORDS, words).flatMap((m) => m.values));
  // "turn login alerts back on": the alerts named between the verb and a closing "on" (not the end of
  // a mute's span, "until I turn them back on").
  const on = words.length - 1;
  if (!said.has('till_unmuted') && words[on] === 'on' && words.slice(Math.max(0, on - 5), on - 1).some((w) => w === 'turn' || w === 'switch')) said.add('unmute');
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

/** Hindi counts of a span ("ek ghanta", "do ghante", "aadha ghanta"). */
const HINDI_SPAN_COUNTS: Readonly<Record<string, number>> = { ek: 1, do: 2, teen: 3, char: 4, chaar: 4, paanch: 5, aadha: 0.5, adha: 0.5, aadhe: 0.5, adhe: 0.5, aadhi: 0.5 };

/** A span said: its count (figures, a count word, "half", or none for one) and its unit. */
interface Span { count: string | null; unit: string }

/** A count then a unit at token i ("2 hours", "2hrs", "do ghante"), the count one of `counts`; the unit one of `unit`. */
function countedUnit(tokens: readonly string[], i: number, unit: string, counts: (w: string) => boolean): Span | null {
  const { figures, rest } = figuresAndRest(tokens[i]);
  if (figures.length >= 1 && figures.length <= 3) {
    if (rest !== '') return means(rest, unit) ? { count: figures, unit: rest } : null;
    return means(tokens[i + 1], unit) ? { count: figures, unit: tokens[i + 1]! } : null;
  }
  const word = tokens[i];
  return word !== undefined && counts(word) && means(tokens[i + 1], unit) ? { count: word, unit: tokens[i + 1]! } : null;
}

/** "for the next hour", "next two hours", "for 30 mins" (a count in figures or words; none is one), or "2 ghante". */
function spanAt(tokens: readonly string[], i: number): Span | null {
  if (means(tokens[i], 'mute:span_open')) {
    let j = i + 1;
    if (means(tokens[j], 'mute:the')) j++;
    if (means(tokens[j], 'mute:ahead')) j++;
    if (means(tokens[j], 'mute:half') && means(tokens[j + 1], 'mute:a') && means(tokens[j + 2], 'mute:unit_for')) return { count: 'half', unit: tokens[j + 2]! };
    const counted = countedUnit(tokens, j, 'mute:unit_for', (w) => means(w, 'mute:a') || COUNTS[w] !== undefined);
    if (counted) return counted;
    if (means(tokens[j], 'mute:unit_for')) return { count: null, unit: tokens[j]! };
  }
  return countedUnit(tokens, i, 'mute:unit_count', (w) => HINDI_SPAN_COUNTS[w] !== undefined || COUNTS[w] !== undefined);
}

/** A time of day at token i: "6pm", "18:30", "6 p m", "6 baje"; `needsMeridiem` when no "till" came before it. */
function clockAt(folded: string, i: number, needsMeridiem: boolean): { hour: number; minute: number; meridiem: string | null } | null {
  const tokens = tokensIn(folded);
  const { figures } = figuresAndRest(tokens[i]);
  let { rest } = figuresAndRest(tokens[i]);
  if (figures.length < 1 || figures.length > 2) return null;
  const hour = Number(figures);
  let minute = 0;
  let end = i + 1;
  if (rest === '' && (tokens[end] === ':' || tokens[end] === '.') && gluedBefore(folded, end) && gluedBefore(folded, end + 1)) {
    const after = figuresAndRest(tokens[end + 1]);
    if (after.figures.length === 2) {
      minute = Number(after.figures);
      rest = after.rest;
      end += 2;
    }
  }
  const letter = (w: string | undefined, next: string | undefined) => !needsMeridiem && means(w, 'mute:meridiem_letter') && means(next, 'mute:m') ? `${w}m` : null;
  const meridiemWord = (w: string | undefined) => means(w, 'mute:meridiem') || (needsMeridiem && means(w, 'mute:baje')) ? w! : null;
  const meridiem = rest !== '' ? meridiemWord(rest) ?? letter(rest, tokens[end])
    : meridiemWord(tokens[end]) ?? letter(tokens[end], tokens[end + 1]);
  if (rest !== '' && meridiem === null) return null;
  if (needsMeridiem && meridiem === null) return null;
  return { hour, minute, meridiem };
}

/** "till 6pm", "until 18:30", "6 baje tak", "for 2 hours", "for 30 mins", "1 hr", "2 ghante ke liye". */
function untilWords(folded: string): { at: string } | { forMinutes: number } | { problem: string } | null {
  const tokens = tokensIn(folded);
  const span = tokens.map((_, i) => spanAt(tokens, i)).find((s) => s !== null);
  if (span) {
    const raw = span.count ?? 'one';
    const n = isDigits(raw) ? Number(raw) : raw === 'half' ? 0.5 : HINDI_SPAN_COUNTS[raw] ?? COUNTS[raw] ?? 1;
    const minutes = Math.round(means(span.unit, 'mute:hour') ? n * 60 : n);
    return minutes >= 1 && minutes <= 7 * 24 * 60 ? { forMinutes: minutes } : { problem: 'For how long? I mute alerts for up to a week, or until you unmute them.' };
  }
  const clock = found(folded, 'mute:till').map((m) => clockAt(folded, m.to, false)).find((c) => c !== null)
    ?? tokens.map((_, i) => clockAt(folded, i, true)).find((c) => c !== null);
  if (!clock) return null;
  const { hour, minute, meridiem } = clock;
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
    // "actually unmute them", "actually unmute" right after a mute: the alerts that mute was of. Alerts
    // named with no kind ("mute alerts till 6pm") are any alerts, so the kind is asked.
    const said = alertWords(r.folded);
    const last = s.lastCall(muteTool.name);
    const lastKind = last ? (typeof last.kind === 'string' ? last.kind : typeof last.unmute === 'string' ? last.unmute : null) : null;
    const kind = kindOf(r.folded) ?? (said.has('refers_back') || !said.has('alert') ? lastKind as EventKind | null : null);
    if (!kind) return ask('unplannable', 'Which alerts: large bets, player logins, settled markets or pending approvals?');
    // "mute them until I unmute them myself": an unmute said as the end of the mute's span orders none.
    const unmute = !said.has('till_unmuted') && (hasAny(r, 'unmute', 'unsnooze', 'unsilence') || (said.has('unmute') && !said.has('mute')));
    if (unmute) return { args: { unmute: kind } };
    const until = untilWords(r.folded);
    if (until && 'problem' in until) return ask('unplannable', until.problem);
    return { args: { kind, ...(until ?? { until: null }) } };
  },
  examples: ['mute large bet alerts till 6pm', 'mute login alerts', 'unmute large bets'],
} satisfies ToolPlanning;
