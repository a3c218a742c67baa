import { formatPoints } from '../../../shared/money';

export { formatPoints };

/** A take in words, from the agent's side: "owes you 1,200.00" / "you owe 1,200.00" / "square". */
export function takeInWords(take: number): string {
  if (take > 0) return `owes you ${formatPoints(take)}`;
  if (take < 0) return `you owe ${formatPoints(-take)}`;
  return 'square';
}

export function formatDateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-IN', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function formatOdds(hundredths: number): string {
  return (hundredths / 100).toFixed(2);
}
