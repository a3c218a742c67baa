/**
 * The renderer's formatting, in one place: dates, times and money come from the shared module
 * the assistant's sentences use too (one format across the app, in the user's timezone), and
 * `tests/renderer/format-guard.test.ts` fails when another renderer file formats them itself.
 */
import { isoWeekRange } from '../../../shared/dates';
import { formatDay, formatPoints } from '../../../shared/format';

export { formatAge, formatDate, formatDateTime, formatDay, formatFileSize, formatOdds, formatPeriod, formatPoints, formatReadAt, formatTime } from '../../../shared/format';

/** A take in words, from the agent's side: "owes you 1,200.00" / "you owe 1,200.00" / "square". */
export function takeInWords(take: number): string {
  if (take > 0) return `owes you ${formatPoints(take)}`;
  if (take < 0) return `you owe ${formatPoints(-take)}`;
  return 'square';
}

/** The signed class of a figure: "pos" / "neg" / "" (for colouring only; the sign is in the text). */
export function signClass(value: number): string {
  return value > 0 ? 'pos' : value < 0 ? 'neg' : '';
}

/**
 * Who owes whom, in words, from the signed-in user's side: `take` is what `child` owes `parent`
 * (negative: the parent owes the child). A party that is the user reads "you".
 */
export function owesInWords(take: number, child: { id: string; name: string }, parent: { id: string; name: string }, meId: string): string {
  if (take === 0) return 'square';
  const [debtor, creditor] = take > 0 ? [child, parent] : [parent, child];
  const amount = formatPoints(Math.abs(take));
  if (debtor.id === meId) return `you owe ${creditor.name} ${amount}`;
  if (creditor.id === meId) return `${debtor.name} owes you ${amount}`;
  return `${debtor.name} owes ${creditor.name} ${amount}`;
}

/** A settlement's direction in words: `amount` > 0 means the child paid the parent. */
export function paidInWords(amount: number, child: { id: string; name: string }, parent: { id: string; name: string }, meId: string): string {
  const [payer, payee] = amount >= 0 ? [child, parent] : [parent, child];
  const value = formatPoints(Math.abs(amount));
  if (payer.id === meId) return `you paid ${payee.name} ${value}`;
  if (payee.id === meId) return `${payer.name} paid you ${value}`;
  return `${payer.name} paid ${payee.name} ${value}`;
}

export function formatBps(bps: number | null): string {
  return bps === null ? '—' : `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;
}

/** A row's take towards its own upline, the row's account being understood: "owes you X", "you owe X", "owes Arjun X", "Arjun owes X". */
export function takeTowards(take: number, parent: { id: string; name: string }, meId: string): string {
  if (parent.id === meId) return takeInWords(take);
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
