/**
 * The amount guard: the amount of a change (a limit's new value, a settlement, a hedge's stake)
 * is one the user typed, plainly, once. A message whose amount could be read two ways — hidden
 * or direction-changing characters, digits of another script, another currency or unit, an
 * exponent or arithmetic, commas that group no number, a scale word the amount left out, or two
 * different amounts — is asked about, never turned into a preview with one reading of it. Both
 * planners go through it: the rule planner before it plans a change, and a model's change is
 * held to the amounts the user's own message gives.
 */
import { type FoundAmount, findAmounts } from '../../../shared/parse/amount.js';

/** Zero-width and bidirectional controls: "4\u200b5\u200b0" or "\u202e000,01\u202c" shows one number and holds another. */
const HIDDEN = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
/** Digits of other scripts, superscripts and subscripts ("५०,०००", "５０", "10⁶"): no amount is read from them. */
const OTHER_DIGITS = /(?![0-9])\p{Nd}|[\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]/u;
/** Money that is not points, or points' hundredths typed as the unit. */
const OTHER_UNIT = /[$€£¥]|\b(?:usd|dollars?|eur|euros?|gbp|pounds?|paisa|paise|cents?)\b/i;
const EXPONENT = /\b\d+(?:\.\d+)?e[+-]?\d+\b/i;
/** An amount worked out rather than said: "45,000 x 100", "5000+500", "2^10". */
const ARITHMETIC = /\d\s*(?:k|l|cr|m|lakh|crore)?\s*(?:[x×*^+]|\btimes\b|\binto\b)\s*\d/i;
/** A run of digits with separators inside it, to check its grouping. */
const GROUPED = /\d[\d,.]*[,.]\d+/g;
/** Plain ("45000", "2.5"), western ("45,000", "1,250,000.50") and Indian ("1,00,000", "4,50,00,000") grouping. */
const WELL_GROUPED = /^(?:\d+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,2}(?:,\d{2})*,\d{3}(?:\.\d+)?)$/;
/** A scale word right after an amount that did not take it: "5 lakh crore". */
const LOOSE_SCALE = /^\s*(?:k|thousand|hazaar|hazar|lakh|lakhs|lac|lacs|crore|crores|cr|million|mn|billion|bn|trillion)\b/i;

/**
 * Why the amount in `text` can't be taken for a change as typed, or null when it can. `amounts`
 * are the message's amounts as the planner read them (its grammar leaves out dates, counts and
 * over/under lines); an amount typed after "from" is the current value, not a second amount.
 */
export function amountDoubt(text: string, amounts: readonly FoundAmount[] = findAmounts(text)): string | null {
  if (HIDDEN.test(text)) {
    return 'Your message has hidden characters (zero-width or text-direction marks) that can make an amount look different from what it is. Type the amount again plainly.';
  }
  if (OTHER_DIGITS.test(text)) return 'Type the amount with the digits 0-9, please: I read no amount in other digits, superscripts or subscripts.';
  if (OTHER_UNIT.test(text)) return 'Amounts here are in points (₹). What is the amount in points?';
  if (EXPONENT.test(text) || ARITHMETIC.test(text)) return 'Say the amount itself, written out (like 45,000 or 4.5 lakh): I don\'t work an amount out for a change.';
  for (const run of text.match(GROUPED) ?? []) {
    if (!WELL_GROUPED.test(run)) return `I can't tell which number "${run}" is: its commas and points don't group it. Type the amount again, like 45,000 or 4,50,000.`;
  }
  for (const a of amounts) {
    if (LOOSE_SCALE.test(text.slice(a.end))) return `I can't tell which amount "${text.slice(a.start, a.end + (LOOSE_SCALE.exec(text.slice(a.end))?.[0].length ?? 0)).trim()}" is. Type it again, like 5 lakh or 5 crore.`;
  }
  // "from 40k to 60k", Hindi's "40k se 60k": the first is the current value, not a second amount.
  const meant = amounts.filter((a) => !/\bfrom\s*$/i.test(text.slice(0, a.start)) && !/^\s+se\s+\d/i.test(text.slice(a.end)));
  // Told apart by value ("45k" and "45,000" are one amount), shown as typed.
  const byValue = new Map(meant.map((a) => [a.paisa ?? a.raw, a.raw.trim()]));
  if (byValue.size > 1) return `I found more than one amount (${[...byValue.values()].slice(0, 3).join(', ')}). Which one did you mean?`;
  return null;
}
