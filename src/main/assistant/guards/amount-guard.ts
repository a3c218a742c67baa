/**
 * The amount guard: the amount of a change (a limit's new value, a settlement, a hedge's stake)
 * is one the user typed, plainly, once. A message whose amount could be read two ways — hidden
 * or direction-changing characters, digits of another script, another currency or unit, an
 * exponent or arithmetic, commas that group no number, a scale word the amount left out, or two
 * different amounts — is asked about, never turned into a preview with one reading of it. Both
 * planners go through it: the rule planner before it plans a change, and a model's change is
 * held to the amounts the user's own message gives.
 */
import { type FoundAmount, findAmounts, glued } from '../../../shared/parse/amount.js';
import { isDigits as isDigit } from '../../../shared/parse/date-words.js';
import { tokenSpans } from '../../../shared/parse/phrases.js';

/** Zero-width and bidirectional controls: "4\u200b5\u200b0" or "\u202e000,01\u202c" shows one number and holds another. */
const HIDDEN = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
/** Digits of other scripts, superscripts and subscripts ("५०,०००", "５０", "10⁶"): no amount is read from them. */
const OTHER_DIGITS = /(?![0-9])\p{Nd}|[\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]/u;
/** Money that is not points, or points' hundredths typed as the unit. */
const OTHER_UNITS: ReadonlySet<string> = new Set(['$', '€', '£', '¥', 'usd', 'dollar', 'dollars', 'eur', 'euro', 'euros', 'gbp',
  'pound', 'pounds', 'paisa', 'paise', 'cent', 'cents']);
/** What works an amount out rather than says it: "45,000 x 100", "5000+500", "2^10", "5 lakh times 2". */
const OPERATORS: ReadonlySet<string> = new Set(['x', '×', '*', '^', '+', 'times', 'into']);
/** The scales that may stand between a number and an operator ("5k x 2"). */
const OPERAND_SCALES: readonly string[] = ['lakh', 'crore', 'cr', 'k', 'l', 'm'];
/** Plain ("45000", "2.5"), western ("45,000", "1,250,000.50") and Indian ("1,00,000", "4,50,00,000") grouping. */
const WELL_GROUPED = /^(?:\d+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,2}(?:,\d{2})*,\d{3}(?:\.\d+)?)$/;
/** Scale words that, right after an amount that did not take them, leave it unclear: "5 lakh crore". */
const LOOSE_SCALES: ReadonlySet<string> = new Set(['k', 'thousand', 'hazaar', 'hazar', 'lakh', 'lakhs', 'lac', 'lacs', 'crore', 'crores', 'cr',
  'million', 'mn', 'billion', 'bn', 'trillion']);

interface Span {
  token: string;
  start: number;
  end: number;
}
/** The digits a token ends with ("12" of "a12") or starts with ("5" of "5k"). */
const trailingDigits = (token: string): string => {
  let at = token.length;
  while (at > 0 && isDigit(token[at - 1])) at--;
  return token.slice(at);
};
const leadingDigits = (token: string): string => {
  let at = 0;
  while (at < token.length && isDigit(token[at])) at++;
  return token.slice(0, at);
};

/** "1e6", "2.5e9", "1e+6": an amount as a power of ten. */
function exponent(spans: readonly Span[]): boolean {
  return spans.some((s, i) => {
    const [mantissa, power, ...more] = s.token.split('e');
    if (more.length > 0 || power === undefined || mantissa === '' || leadingDigits(mantissa!) !== mantissa) return false;
    if (power !== '') return leadingDigits(power) === power;
    const sign = spans[i + 1];
    const digits = spans[i + 2];
    return (sign?.token === '+' || sign?.token === '-') && glued(s, sign) && glued(sign, digits) && leadingDigits(digits!.token) === digits!.token;
  });
}

/** Whether `left` (a token, or its part before an "x") ends on a number, a scale after it allowed ("5k", "5 lakh"); `before` is the token ahead of it. */
function endsOnNumber(left: string, before: string | undefined): boolean {
  if (isDigit(left.at(-1))) return true;
  const scale = OPERAND_SCALES.find((w) => left.endsWith(w));
  if (scale === undefined) return false;
  const rest = left.slice(0, -scale.length);
  return rest === '' ? isDigit(before?.at(-1)) : isDigit(rest.at(-1));
}

/** An amount worked out: a number, an operator, a number ("45,000 x 100", "5000+500", "5x5", "2^10"). */
function arithmetic(spans: readonly Span[]): boolean {
  return spans.some((s, i) => {
    const before = spans[i - 1]?.token;
    const after = spans[i + 1]?.token;
    if (OPERATORS.has(s.token)) return endsOnNumber(before ?? '', spans[i - 2]?.token) && isDigit(after?.[0]);
    // An "x" inside a word: "5x5", "5kx5", "x5" after a number, "5x" before one.
    const parts = s.token.split('x');
    return parts.slice(1).some((right, k) => {
      const left = parts[k]!;
      const leftOk = left === '' && k === 0 ? endsOnNumber(before ?? '', spans[i - 2]?.token) : endsOnNumber(left, k === 0 ? before : undefined);
      const rightOk = right === '' && k === parts.length - 2 ? isDigit(after?.[0]) : isDigit(right[0]);
      return leftOk && rightOk;
    });
  });
}

/** Runs of digits with commas or points inside them ("4,50,000", "50.000,00"), to check their grouping. */
function groupedRuns(spans: readonly Span[]): string[] {
  const runs: string[] = [];
  for (let i = 0; i < spans.length; i++) {
    if (!isDigit(spans[i]!.token.at(-1))) continue;
    let run = trailingDigits(spans[i]!.token);
    let k = i;
    let grouped = false;
    for (;;) {
      let m = k + 1;
      let marks = '';
      while ((spans[m]?.token === ',' || spans[m]?.token === '.') && glued(spans[m - 1], spans[m])) marks += spans[m++]!.token;
      if (marks === '' || !glued(spans[m - 1], spans[m]) || !isDigit(spans[m]!.token[0])) break;
      const digits = leadingDigits(spans[m]!.token);
      run += marks + digits;
      k = m;
      grouped = true;
      // Letters after the digits end the run; the digits they end with ("000from50") may start the next.
      if (digits !== spans[m]!.token) {
        k = m - 1;
        break;
      }
    }
    if (grouped) runs.push(run);
    i = k;
  }
  return runs;
}

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
  const spans = tokenSpans(text).map((t) => ({ ...t, token: t.token.toLowerCase() }));
  if (spans.some((s) => OTHER_UNITS.has(s.token))) return 'Amounts here are in points (₹). What is the amount in points?';
  if (exponent(spans) || arithmetic(spans)) return 'Say the amount itself, written out (like 45,000 or 4.5 lakh): I don\'t work an amount out for a change.';
  for (const run of groupedRuns(spans)) {
    if (!WELL_GROUPED.test(run)) return `I can't tell which number "${run}" is: its commas and points don't group it. Type the amount again, like 45,000 or 4,50,000.`;
  }
  for (const a of amounts) {
    const next = spans.findIndex((s) => s.start >= a.end);
    const scale = spans[next];
    if (scale && LOOSE_SCALES.has(scale.token) && !(glued(scale, spans[next + 1]) && spans[next + 1]!.token === '_')) {
      return `I can't tell which amount "${text.slice(a.start, scale.end).trim()}" is. Type it again, like 5 lakh or 5 crore.`;
    }
  }
  // "from 40k to 60k", Hindi's "40k se 60k": the first is the current value, not a second amount.
  const meant = amounts.filter((a) => {
    const next = spans.findIndex((s) => s.start >= a.end);
    const before = spans.findLast((s) => s.end <= a.start);
    const se = spans[next];
    const isCurrent = before?.token === 'from'
      || (se?.token === 'se' && se.start > a.end && !glued(se, spans[next + 1]) && isDigit(spans[next + 1]?.token[0]));
    return !isCurrent;
  });
  // Told apart by value ("45k" and "45,000" are one amount), shown as typed.
  const byValue = new Map(meant.map((a) => [a.paisa ?? a.raw, a.raw.trim()]));
  if (byValue.size > 1) return `I found more than one amount (${[...byValue.values()].slice(0, 3).join(', ')}). Which one did you mean?`;
  return null;
}
