/**
 * An audit entry in one sentence, for every kind of change: what was done (executed) or asked
 * for (any other outcome, which the Audit page states beside it), with the names the proposal
 * showed — the player, the limit, the fixture, market and outcome of a hedge and what it did to
 * the worst case, the report and its recipient. The names are the ones recorded in the entry when
 * it was answered (the preview's snapshot, `before`, and the backend's answer, `after`), never
 * looked up afresh; an entry that lacks one (written before it was kept, or a damaged file) falls
 * back to a short id.
 *
 * The file is a trust boundary: every field is checked before use, and the sentence is plain
 * text (the page renders it as text, never markup); names go through `name`, which fences
 * anything that could pass for the desk's own words in quotes.
 */
// Relative imports end in .js: the node-side typecheck reads this module too (its unit test).
import type { AuditEntry } from '../../../shared/contracts/audit.js';
import { eventKind } from '../../../shared/contracts/events.js';
import { formatDateTime, formatOdds, formatPoints } from '../../../shared/format.js';
import { worstCaseMove } from '../../../shared/hedge-risk.js';
import { name, takeSentence } from '../../../shared/sentences.js';
import { KIND_LABELS } from './alerts.js';
import { LIMIT_FIELDS } from './limit-fields.js';

type Json = Record<string, unknown>;
export const obj = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);
export const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
export const paisa = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
export const clip = (s: string, n = 120): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** "market 1b2c3d4e…": what an entry without the name says instead. */
const shortId = (what: string, id: string | null): string => (id ? `${what} ${clip(id, 8)}` : `an unnamed ${what}`);

/** The first of the recorded names that is one: the snapshot's, then the backend's answer's. */
function recorded(entry: AuditEntry, field: string): string | null {
  return str(obj(entry.before)?.[field]) ?? str(obj(entry.after)?.[field]);
}

/** The player an entry acts on, by the name recorded in it (limit changes and settlements). */
export function recordedPlayerName(entry: AuditEntry): string | null {
  return recorded(entry, 'playerName');
}

export interface SentenceContext {
  /** The player's name from elsewhere (another entry, a lookup) when this entry records none. */
  playerName?: string | undefined;
  /** The tool in words ("limit change"), for a kind this module has no sentence of its own for. */
  toolLabel?: string | undefined;
  /** For instants in a sentence (an alert mute's end). */
  timeZone?: string | undefined;
}

/** What the entry did or would have done, as one sentence; amounts are paisa, written as points. */
export function auditSentence(entry: AuditEntry, context: SentenceContext = {}): string {
  const executed = entry.outcome === 'executed';
  const args = obj(entry.args) ?? {};
  switch (entry.tool) {
    case 'agent.editLimit': return limitSentence(entry, args, executed, context);
    case 'agent.settlePlayer': return settlementSentence(entry, args, executed, context);
    case 'agent.placeHedgeBet': return hedgeSentence(entry, args, executed);
    case 'agent.shareReport': return shareSentence(entry, args, executed);
    case 'agent.muteAlerts': return muteSentence(args, executed, context.timeZone ?? 'UTC');
    default: return otherSentence(args, context.toolLabel ?? clip(entry.tool, 64));
  }
}

/** The player as the entry recorded them, else as the page knows them, else by a short id (not yet through `name`). */
function playerOf(entry: AuditEntry, args: Json, context: SentenceContext): string {
  return recordedPlayerName(entry) ?? context.playerName ?? shortId('player', str(args.playerId) ?? str(obj(entry.after)?.playerId));
}

function limitSentence(entry: AuditEntry, args: Json, executed: boolean, context: SentenceContext): string {
  const before = obj(entry.before);
  const after = obj(entry.after);
  const field = str(args.limitType) ?? str(after?.limitType);
  const label = (field && Object.hasOwn(LIMIT_FIELDS, field) ? LIMIT_FIELDS[field as keyof typeof LIMIT_FIELDS] : 'limit').toLowerCase();
  const from = paisa(executed ? after?.before : undefined) ?? paisa(before?.before);
  const to = paisa(executed ? after?.after : undefined) ?? paisa(args.newValue);
  const whose = `${name(playerOf(entry, args, context))}'s ${label}`;
  const target = to === null ? 'a new value' : formatPoints(to);
  if (entry.outcome === 'no_op') return `${whose} was already ${target}; nothing was written.`;
  const change = from === null ? ` to ${target}` : ` from ${formatPoints(from)} to ${target}`;
  return `${executed ? 'Changed' : 'Change'} ${whose}${change}.`;
}

function settlementSentence(entry: AuditEntry, args: Json, executed: boolean, context: SentenceContext): string {
  const after = obj(entry.after);
  const player = playerOf(entry, args, context);
  const who = name(player);
  const period = str(args.periodId);
  const forPeriod = period ? ` for ${clip(period, 20)}` : '';
  const amount = paisa(after?.amount);
  const direction = str(after?.direction);
  if (executed && amount !== null && (direction === 'player_pays' || direction === 'agent_pays')) {
    return `${direction === 'player_pays' ? `${who} paid you` : `You paid ${who}`} ${formatPoints(amount)}${forPeriod}.`;
  }
  const asked = paisa(args.amount);
  const takeThen = paisa(obj(entry.before)?.takeBefore);
  const what = args.mode === 'amount' && asked !== null ? `Settle ${formatPoints(asked)} with ${who}` : `Settle ${who}'s full take`;
  // The take as the desk says a take everywhere.
  const then = takeThen === null ? '' : ` (take then: ${takeSentence(player, takeThen).replace(/\.$/, '')})`;
  return `${what}${forPeriod}${then}.`;
}

function hedgeSentence(entry: AuditEntry, args: Json, executed: boolean): string {
  const before = obj(entry.before);
  const after = obj(entry.after);
  const fixture = recorded(entry, 'fixtureName');
  const market = recorded(entry, 'marketName');
  const outcome = recorded(entry, 'outcomeName');
  const side = str(args.side) ?? str(after?.side);
  const stake = paisa(args.stake) ?? paisa(after?.stake);
  const odds = paisa(before?.odds) ?? paisa(after?.odds);
  const outcomeWords = outcome ? name(outcome) : shortId('outcome', str(args.outcomeId));
  const verb = side === 'lay' ? (executed ? 'Laid' : 'Lay') : side === 'back' ? (executed ? 'Backed' : 'Back') : 'Bet on';
  const terms = `${stake === null ? '' : ` for ${formatPoints(stake)}`}${odds === null ? '' : ` at ${formatOdds(odds)}`}`;
  const where = `${fixture ? name(fixture) : shortId('fixture', str(args.fixtureId))} (${market ? name(market) : shortId('market', str(args.marketId))})`;
  // Executed: what the backend read once the bet stood; otherwise what the slip said it would be.
  const from = paisa(executed ? after?.exposureBefore : undefined) ?? paisa(before?.exposureBefore);
  const to = paisa(executed ? after?.exposureAfter : undefined) ?? paisa(before?.exposureAfter);
  const risk = from !== null && to !== null
    ? `; the worst case on the market ${worstCaseMove(from, to, executed)}${to > from ? ' (the bet added to the risk)' : ''}` : '';
  return `${verb} ${outcomeWords}${terms} in ${where}${risk}.`;
}

function shareSentence(entry: AuditEntry, args: Json, executed: boolean): string {
  const title = recorded(entry, 'title');
  const recipientName = recorded(entry, 'recipientName');
  const recipient = str(args.recipient);
  const report = title ? `the report “${clip(title.replace(/[“”\n]/g, ' '), 120)}”` : shortId('report', str(args.artifactId));
  const to = recipientName ? name(recipientName) : recipient === 'self' ? 'yourself' : shortId('account', recipient);
  const again = obj(entry.before)?.alreadyShared === true ? ' again' : '';
  if (entry.outcome === 'no_op') return `${to} already had ${report}; nothing was sent.`;
  return `${executed ? 'Sent' : 'Send'} ${report} to ${to}${again}.`;
}

function muteSentence(args: Json, executed: boolean, timeZone: string): string {
  const kindWords = (v: unknown): string => {
    const kind = eventKind.safeParse(v);
    return kind.success ? `alerts of ${KIND_LABELS[kind.data].toLowerCase()}` : 'alerts';
  };
  if (args.unmute !== undefined) return `${executed ? 'Turned' : 'Turn'} ${kindWords(args.unmute)} back on.`;
  const until = str(args.until);
  const minutes = paisa(args.forMinutes);
  const at = str(args.at);
  const end = until && !Number.isNaN(Date.parse(until)) ? ` until ${formatDateTime(until, timeZone)}`
    : minutes !== null ? ` for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}` : at ? ` until ${clip(at, 10)}` : ' until unmuted';
  return `${executed ? 'Muted' : 'Mute'} ${kindWords(args.kind)}${end}.`;
}

/** A kind without a sentence of its own: its name in words, and its plain arguments, money as points. */
function otherSentence(args: Json, label: string): string {
  const parts = Object.entries(args).slice(0, 6).map(([k, v]) => {
    const money = /amount|value|stake|limit/i.test(k) && paisa(v) !== null;
    const shown = money ? formatPoints(v as number) : typeof v === 'string' ? clip(v, 60) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '…';
    return `${clip(k, 30)} ${shown}`;
  });
  const what = label.charAt(0).toUpperCase() + label.slice(1);
  return parts.length > 0 ? `${what}, with ${parts.join(', ')}.` : `${what}.`;
}
