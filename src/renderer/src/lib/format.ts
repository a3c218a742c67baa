/**
 * The renderer's formatting, in one place: dates, times and money come from the shared module
 * the assistant's sentences use too (one format across the app, in the user's timezone), and
 * `tests/renderer/format-guard.test.ts` fails when another renderer file formats them itself.
 */
import { isoWeekRange } from '../../../shared/dates';
import { formatDateTime, formatDay, formatPoints } from '../../../shared/format';
import { owesPhrase, paidPhrase, takePhrase, toneOf } from '../../../shared/sentences';

export { formatAge, formatDate, formatDateTime, formatDay, formatFileSize, formatOdds, formatPeriod, formatPoints, formatReadAt, formatTime } from '../../../shared/format';

/** A take in words, from the agent's side (`who` owes you `take`): "Rahul Sharma owes you 1,200.00" / "you owe 1,200.00" / "square". */
export function takeInWords(take: number, who?: string): string {
  return takePhrase(take, who);
}

/** An instant held as a Date (the business clock's now) as every instant is written: "20 Nov 2026, 14:05". */
export function formatInstant(at: Date, timeZone: string): string {
  return formatDateTime(at.toISOString(), timeZone);
}

/**
 * A figure's colour class by what it means for the agent: "pos" (good: owed to the agent, the
 * book's winnings), "neg" (bad), "" (neither). `of: 'players'` for the players' own figures
 * (their PnL), whose winnings are the book's loss. Colour only: the words carry the direction.
 */
export function signClass(value: number, of: 'agent' | 'players' = 'agent'): string {
  const tone = toneOf(value, of);
  return tone === 'good' ? 'pos' : tone === 'bad' ? 'neg' : '';
}

/** Who owes whom, in words, from the signed-in user's side (the shared `owesPhrase`). */
export const owesInWords = owesPhrase;

/** A settlement's direction in words (the shared `paidPhrase`): `amount` > 0 means the child paid the parent. */
export const paidInWords = paidPhrase;

export function formatBps(bps: number | null): string {
  return bps === null ? '—' : `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;
}

/** A row's take towards its own upline, the row's account being understood: "owes you X", "you owe X", "owes Arjun X", "Arjun owes X". */
export function takeTowards(take: number, parent: { id: string; name: string }, meId: string): string {
  if (parent.id === meId) return takePhrase(take);
  if (take > 0) return `owes ${parent.name} ${formatPoints(take)}`;
  if (take < 0) return `${parent.name} owes ${formatPoints(-take)}`;
  return 'square';
}

/** A settlement's ISO week ("2026-W47") as the days it covers: "week of 16 Nov 2026". */
export function formatWeek(periodId: string): string {
  try {
    return `week of ${formatDay(isoWeekRange(periodId).from)}`;
  } catch {
    return periodId;
  }
}

/** A count with the same thousands separators as points: 12,345. */
export function formatCount(n: number): string {
  return Math.trunc(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
/** "a", "a and b", "a, b and c" (names repeated once only). */
export function listInWords(items: string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `${unique.slice(0, -1).join(', ')} and ${unique[unique.length - 1]}`;
}
