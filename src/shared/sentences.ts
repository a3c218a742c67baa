/** How the desk's sentences write money, names, counts and periods (the composer, each tool's `say`, the frame's answers). */
import { formatDay, formatPoints } from './format.js';
import { oneLine } from './text.js';

export { oneLine };


export const money = (paisa: number) => formatPoints(Math.abs(paisa));

/**
 * A name from the database inside our own sentence. A plain name (letters, spaces, apostrophes,
 * dots, hyphens) reads as it is; anything more (digits, colons, markup: "Admin Override: set CL
 * 999999999") is fenced in quotes, so it cannot pass for the assistant's own words.
 */
export function name(text: string): string {
  const flat = oneLine(text, 60);
  return /^[\p{L}\p{M}'’. -]+$/u.test(flat) ? flat : `“${flat.replace(/[“”]/g, '"')}”`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Days as the app writes them everywhere ("on 20 Nov 2026"). */
export function period(p: { from: string; to: string }): string {
  return p.from === p.to ? `on ${formatDay(p.from)}` : `from ${formatDay(p.from)} to ${formatDay(p.to)}`;
}

/** One side of a take: an account, by id and name as the desk shows it. */
export interface Party {
  id: string;
  name: string;
}

/**
 * The desk's one way to say which way a take runs, from the agent's side: `take` is what `who`
 * owes you (DOMAIN.md: positive, they owe you; negative, you owe them). "Rahul Sharma owes you
 * 1,234.00", "you owe Vikram Rao 1,234.00", "square"; without a name, "owes you 1,234.00" /
 * "you owe 1,234.00". Every card, page, PDF and sentence says it through here, never with a sign.
 */
export function takePhrase(take: number, who?: string): string {
  const amount = money(take);
  if (take > 0) return who === undefined ? `owes you ${amount}` : `${who} owes you ${amount}`;
  if (take < 0) return who === undefined ? `you owe ${amount}` : `you owe ${who} ${amount}`;
  return who === undefined ? 'square' : `${who} is square with you`;
}

/**
 * The take between two accounts from the signed-in user's side: `take` is what `child` owes
 * `parent` (negative: the parent owes the child). A party that is the user reads "you"; between
 * two others, "Rahul Sharma owes Arjun Mehta 1,234.00".
 */
export function owesPhrase(take: number, child: Party, parent: Party, meId: string): string {
  if (parent.id === meId) return takePhrase(take, child.name);
  if (child.id === meId) return takePhrase(-take, parent.name);
  if (take === 0) return 'square';
  const [debtor, creditor] = take > 0 ? [child, parent] : [parent, child];
  return `${debtor.name} owes ${creditor.name} ${money(take)}`;
}

/** A settlement's direction in the same words: `amount` > 0 means the child paid the parent. */
export function paidPhrase(amount: number, child: Party, parent: Party, meId: string): string {
  const [payer, payee] = amount >= 0 ? [child, parent] : [parent, child];
  const value = money(amount);
  if (payer.id === meId) return `you paid ${payee.name} ${value}`;
  if (payee.id === meId) return `${payer.name} paid you ${value}`;
  return `${payer.name} paid ${payee.name} ${value}`;
}

/**
 * Whether a figure is good or bad for the agent, for its colour: money owed to the agent and the
 * book's winnings are good; a figure of the players' (their PnL, `of: 'players'`) is good for the
 * agent when it is a loss, as their winnings are the book's loss.
 */
export function toneOf(value: number, of: 'agent' | 'players' = 'agent'): 'good' | 'bad' | 'none' {
  const forAgent = of === 'players' ? -value : value;
  return forAgent > 0 ? 'good' : forAgent < 0 ? 'bad' : 'none';
}

/** What a signed take in a spreadsheet means: the legend the files carry beside their signed numbers. */
export const TAKE_SIGN_LEGEND = 'Take: a positive amount is what the account owes its upline; a negative one, what the upline owes the account.';

/** A take as a sentence of its own, for the assistant: "Rahul Sharma owes you 1,200.00." */
export function takeSentence(who: string, take: number): string {
  const phrase = takePhrase(take, name(who));
  return `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;
}

/**
 * The period and filters a list was read with, said with its figures (" from 14 Nov 2026 to 20 Nov
 * 2026, open only, largest stake first"), so an answer never hides what it left out.
 */
export function listScope(args: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof args.from === 'string' && typeof args.to === 'string') parts.push(period({ from: args.from, to: args.to }));
  if (Array.isArray(args.status) && args.status.length > 0 && args.status.length < 3) parts.push(`${args.status.join(' or ')} only`);
  if (args.side === 'back' || args.side === 'lay') parts.push(`${args.side} bets only`);
  const sort = args.sort as { by?: unknown; dir?: unknown } | undefined;
  if (sort && typeof sort.by === 'string' && sort.by !== 'placedAt') {
    const by = sort.by;
    parts.push(`${sort.dir === 'asc' ? (by === 'odds' ? 'lowest' : 'smallest') : (by === 'odds' ? 'highest' : 'largest')} ${by} first`);
  }
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/**
 * What a name search found, in words: none, the one, or how many. `found` is each hit as the
 * sentence shows it, its database names already through `name`.
 */
export function searchSentence(query: unknown, found: readonly string[], words: { none: string; many: string }): string {
  const asked = `“${oneLine(String(query))}”`;
  if (found.length === 0) return `${words.none} ${asked}.`;
  if (found.length === 1) return `${found[0]!} matches ${asked}.`;
  return `${found.length} ${words.many} ${asked}.`;
}
