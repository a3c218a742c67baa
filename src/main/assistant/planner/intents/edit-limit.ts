import * as actions from '../../../../shared/contracts/agent-actions.js';
import { formatPoints } from '../../../../shared/format.js';
import { AMOUNT_WORDS } from '../../../../shared/parse/amount.js';
import { BULK, TOP_UP, ask, hasAny, newValueOf } from '../slots.js';
import { thresholdsIn } from '../../frame/row-ask.js';
import { type Reading, isGrammarWord } from '../grammar.js';
import { ORDER_MARKER } from '../speech-act.js';
import type { ToolPlanning } from '../types.js';
import { means, opensWithFigure, ruleAt, said, spacedBefore, tokensIn } from './concepts.js';


/** Verbs of a limit change; "make" only counts beside a limit word, so it is no vocabulary of its own. */
const EDIT_VERBS = ['set', 'change', 'update', 'increase', 'decrease', 'raise', 'lower', 'reduce', 'bump', 'edit', 'modify', 'adjust', 'put', 'cut', 'double', 'halve', 'lift', 'drop', 'give', 'allow', 'grant', 'add',
  // "knock Sneha's limit down to 20 grand", "chuck Suresh's limit up to 50k".
  'knock', 'chuck', 'bring', 'push',
  // Hindi: "CL 50k badha do", "limit ghata do".
  'badha', 'badhao', 'badhado', 'badhana', 'ghata', 'ghatao', 'ghatado', 'ghatana'];

/**
 * The words that name one limit each, as the grammar folds them ("CL", "per bet win", "min bet",
 * "ADW"); the first one a message has is its limit.
 */
const LIMIT_NAMES: ReadonlyArray<readonly [string, actions.LimitType]> = [
  ['minstake', 'minStake'], ['perclickwin', 'perClickWin'], ['dailywin', 'aggregateDailyWin'], ['creditlimit', 'creditLimit'], ['credit', 'creditLimit'],
];

/** "limit", and what the grammar folds into it ("cap", "ceiling", "lim"). */
const BARE_LIMIT = ['limit', 'limits'];

/**
 * Words that may stand beside a bare "limit" without saying which limit it is, so it stays the
 * credit limit: "Karan ki max limit", "his overall limit", "naya limit", "a bigger limit".
 */
const LIMIT_AS_SAID: ReadonlySet<string> = new Set(['max', 'maximum', 'total', 'overall', 'current', 'existing', 'own', 'khud', 'khudka', 'khudki', 'asli', 'pura', 'puri', 'poora', 'poori',
  'naya', 'nayi', 'naye', 'purana', 'purani', 'purane', 'bigger', 'larger', 'smaller', 'temporary', 'temp', 'extra']);

/** A period a limit runs over ("daily limit", "din ka limit", "weekly cap"): the credit limit runs over none. */
const perPeriod = (w: string | undefined) => means(w, 'limit:period');

/** Hindi's (and Punjabi's, Marathi's, Gujarati's) "of" between what a limit is on and the limit: "jeet ki limit". */
const of = (w: string | undefined) => means(w, 'limit:of');

/** Words that say whose a thing is: "his xyz limit", "uski xyz limit". */
const OWNERS: ReadonlySet<string> = new Set(['his', 'her', 'their', 'uska', 'uski', 'uske', 'iska', 'iski', 'iske', 'unka', 'unki', 'unke', 'inka', 'inki', 'inke']);

/** English words after a limit that say what it is on: "limit on bets", "limit per bet"; or, before a name, whose it is ("limit for Rahul"). */
const ON = ['on', 'per', 'of', 'for'];

const OWNED_BY = ['of', 'for'];

/**
 * How many of the message's amounts could be a new value: an amount a comparison stands beside
 * ("Arjun's players with a CL above 20k", "available credit below 5,000") says which rows are
 * asked for, not what a limit becomes. A message with none and no change's verb is no change.
 */
function valuesIn(r: Reading): number {
  if (r.amounts.length === 0) return Infinity;
  return r.amounts.length - thresholdsIn(r.folded).length;
}

/** Words that cap what follows them: "max jeet", "maximum payout" ("min bet" is already the min stake). */
const CAPS = ['max', 'maximum', 'min', 'minimum'];

/**
 * Each token of a name the message names, and whether that name follows its owner: "Rahul's xyz
 * limit", "Karan ki xyz limit", "uski xyz limit" (xyz is what of theirs the limit is on).
 */
function nameTokens(r: Reading): Map<number, { owned: boolean }> {
  const at = new Map<number, { owned: boolean }>();
  let from = 0;
  let lastEnd = -2;
  for (const n of r.names) {
    const words = n.text.split(' ');
    const start = r.tokens.findIndex((t, i) => i >= from && words.every((w, k) => r.tokens[i + k]?.word === w));
    if (start < 0) continue;
    const owner = of(r.tokens[start - 1]?.word) ? start - 2 : start - 1;
    const owned = owner === lastEnd || OWNERS.has(r.tokens[owner]?.word ?? '');
    for (let k = 0; k < words.length; k++) at.set(start + k, { owned });
    lastEnd = start + words.length - 1;
    from = lastEnd + 1;
  }
  return at;
}

/**
 * The word that says what a limit is on, when the message says it is a limit the desk has no name
 * for: "wager cap", "daily jeet limit", "jeet ki limit", "limit on bets", "Rahul's xyz limit", or
 * what a "max" caps ("max jeet", "max payout"). Null when nothing beside the limit says what it is
 * on: a name, a pronoun, a grammar word, an amount.
 */
function limitQualifier(r: Reading): string | null {
  const names = nameTokens(r);
  const t = r.tokens;
  const limitWord = (w: string) => BARE_LIMIT.includes(w) || LIMIT_NAMES.some(([name]) => name === w);
  const plain = (w: string) => LIMIT_AS_SAID.has(w) || isGrammarWord(w) || AMOUNT_WORDS.has(w) || opensWithFigure(w) || EDIT_VERBS.includes(w) || w === 'make' || limitWord(w);
  // A name beside a limit is whose it is, unless it follows its owner.
  const qualifies = (i: number) => {
    const w = t[i]?.word;
    if (w === undefined) return false;
    if (perPeriod(w)) return true;
    return !plain(w) && (names.get(i)?.owned ?? true);
  };
  // A period beside a limit or a cap: the date reader takes "weekly", "per day", "max daily" for a period of its own.
  const period = ruleAt(r.folded, 'limit:per_period');
  if (period) return tokensIn(r.folded).slice(period.from, period.to).join(' ');
  for (const [i, token] of t.entries()) {
    if (BARE_LIMIT.includes(token.word)) {
      const before = of(t[i - 1]?.word) ? i - 2 : i - 1;
      const after = ON.includes(t[i + 1]?.word ?? '') ? i + 2 : -1;
      // "the xyz limit for Rahul", "the limit on xyz for Rahul": a name is what the limit is on when another is whose it is.
      const whoseAfter = after > 0 && OWNED_BY.includes(t[i + 1]!.word) && names.has(after);
      if (qualifies(before) || (whoseAfter && names.has(before) && !plain(t[before]!.word))) return t[before]!.word;
      if (after > 0 && (qualifies(after) || (!OWNED_BY.includes(t[i + 1]!.word) && names.has(after) && !plain(t[after]!.word) && r.names.length > 1))) return t[after]!.word;
    }
    // Whatever follows a cap word is what it caps, a name-like word too ("max xyzwin").
    const capped = t[i + 1]?.word;
    if (CAPS.includes(token.word) && capped !== undefined && !plain(capped)) return capped;
  }
  return null;
}

/**
 * The limit a message names: "min stake", "per click win", "daily win", "CL"; a bare "limit" is the
 * credit limit, as agents say it (AGENT.md lists it with CL), unless a word beside it says it is a
 * limit on something else ("wager cap", "max jeet"): null then, for the change to ask which.
 */
function limitTypeOf(r: Reading): actions.LimitType | null {
  const named = LIMIT_NAMES.find(([name]) => r.words.has(name));
  if (named) return named[1];
  // "one of Rahul's limits", "koi ek limit": one limit of several, not said which.
  if (r.words.has('limits') && [...PICKS_ONE].some((w) => r.words.has(w))) return null;
  return hasAny(r, ...BARE_LIMIT) && limitQualifier(r) === null ? 'creditLimit' : null;
}

/** Words that pick one of several things without naming it. */
const PICKS_ONE: ReadonlySet<string> = new Set(['one', 'any', 'either', 'koi', 'kisi', 'ek']);

/** Words that answer "Which limit…?" beside the limits' own names: "the daily one", "per bet wala", "min". */
const LIMIT_ANSWERS: ReadonlyArray<readonly [concept: string, actions.LimitType]> = [
  ['limit:answer_daily', 'aggregateDailyWin'], ['limit:answer_per_click', 'perClickWin'], ['limit:answer_min', 'minStake'],
];

/** The one limit a short answer names ("daily win", "credit", "the per bet one"), or null when it names none or several, or says more. */
export function limitAnswered(r: Reading): actions.LimitType | null {
  if (r.names.length > 0 || r.amounts.length > 0 || r.range !== null || r.tokens.length > 6) return null;
  const types = new Set([...LIMIT_NAMES.filter(([name]) => r.words.has(name)), ...LIMIT_ANSWERS.filter(([concept]) => said(r.folded, concept))].map(([, type]) => type));
  return types.size === 1 ? [...types][0]! : null;
}


/** "to 50k", "= 50k", "-> 50k", "→ ₹50,000", "to -3k": the new value after its arrow or "to". */
function toFigure(folded: string): boolean {
  const t = tokensIn(folded);
  return t.some((w, i) => {
    let j = w === 'to' && spacedBefore(folded, i + 1) ? i + 1 : w === '=' ? (t[i + 1] === '>' ? i + 2 : i + 1)
      : w === '-' && t[i + 1] === '>' ? i + 2 : w === '→' ? i + 1 : -1;
    if (j < 0) return false;
    if (t[j] === '-' || t[j] === '−' || means(t[j], 'limit:minus')) j++;
    if (t[j] === '₹') j++;
    return opensWithFigure(t[j]);
  });
}

/** "Sam's CL +5k": a "+" standing free before what it adds. */
const plusSign = (folded: string) => tokensIn(folded).some((w, i, t) => w === '+' && (i === 0 || spacedBefore(folded, i)) && i + 1 < t.length);

/** What a change whose limit the words leave open asks, whichever planner planned it (`needs_limit_type`). */
export const WHICH_LIMIT = 'Which limit: credit limit, min stake, per-click win or aggregate daily win?';

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'edit_limit', precedence: 30, exclusive: true, amount: { arg: 'newValue' }, asQuestion: 'credit_limit', follows: { player: true },
  // "Sneha ka per click win kitna hai" … "usko 5k kar do": the limit that was asked about.
  // A read that named no limit asked about the credit limit's room ("how much more can Karan bet");
  // one about a limit the desk has no name for leaves the change to ask which.
  afterRead: { intent: 'credit_limit', args: (asked) => {
    const limitType = limitTypeOf(asked) ?? (limitQualifier(asked) === null ? 'creditLimit' : null);
    return limitType ? { limitType } : {};
  } },
  vocabulary: EDIT_VERBS,
  triggers: (r) => (valuesIn(r) > 0 || hasAny(r, ...EDIT_VERBS)) && (hasAny(r, 'creditlimit', 'limit', 'limits', 'minstake', 'perclickwin', 'dailywin', 'credit')
    // "Rahul ka max jeet 50k kar do", "set Rahul's max payout to 50k": a cap set to an amount, by order, is a limit
    // change, whichever limit it is (asked when no word says); never the read or the settlement its other words name.
    || (r.amounts.length > 0 && CAPS.some((w) => r.words.has(w)) && limitQualifier(r) !== null && (hasAny(r, ...EDIT_VERBS, 'make') || ORDER_MARKER.test(r.folded))))
    && (hasAny(r, ...EDIT_VERBS, 'make') || TOP_UP.test(r.folded)
      || toFigure(r.folded)
      // "Imran ka CL 40k kar do", "min bet should be 200": an order with the new value.
      || (r.amounts.length > 0 && ORDER_MARKER.test(r.folded))
      // "deepak cl 30k": a player, a limit and one amount, typed as agents type an order; asked
      // ("deepak cl 30k hai kya?") the speech act makes it the credit-limit read.
      || (r.amounts.length === 1 && r.names.length > 0)
      // "iska CL 35k" on a player's page, "cl 50k": the ledger's terse order, its player from the
      // pronoun or the page (asked for when neither gives one).
      || (r.amounts.length === 1 && (r.pronounPlayer || r.tokens.length <= 3))
      // "per click win for Sam -3k": a limit given a negative or zero value is a change to refuse, not a read;
      // "Sam's CL +5k" a change by an amount, to ask about.
      || r.amounts.some((a) => a.negative || a.paisa === 0) || (r.amounts.length > 0 && plusSign(r.folded))),
  fill(s) {
    const r = s.r;
    if (BULK.test(r.folded)) return ask('not_allowed', 'I change one player’s limit at a time, and only after you confirm it. Which player?');
    const target = newValueOf(s.amountReading);
    // An amount given but not usable (negative, zero, a change by it) is said first: asking which
    // limit, then planning that amount once the user answers, would lose the reason.
    if ('problem' in target && s.amountReading.amounts.length > 0) return ask('needs_amount', target.problem);
    // "daily win", "CL 60k" in reply to "Which limit…?": the limit the reply names.
    const limitType = (s.answer && (limitAnswered(s.answer) ?? limitTypeOf(s.answer))) ?? limitTypeOf(r);
    if (!limitType) return ask('needs_limit_type', WHICH_LIMIT);
    // "aggregate daily win 2 lakh kar do" right after Anita's limits: hers (the preview names her before anything changes).
    const player = s.player({ takesFixture: false }) ?? (r.names.length === 0 ? s.lastAnswerPlayer() : null);
    if (!player) return ask('needs_player', 'Which player’s limit should I change?');
    if ('problem' in target) return ask('needs_amount', target.problem);
    // "increase Anita's limit by 10k": the gate reads her limit and proposes where it lands (changeBy).
    if ('by' in target) return { args: { player, limitType, changeBy: target.by } };
    // DOMAIN.md: "set CL to 1 trillion" is refused with its reason, before any preview is made.
    if (limitType === 'creditLimit' && target.paisa > actions.PLATFORM_MAX_CREDIT_LIMIT) {
      return ask('needs_amount', `${formatPoints(target.paisa)} is above the platform maximum credit limit of ${formatPoints(actions.PLATFORM_MAX_CREDIT_LIMIT)}. What should the new limit be?`);
    }
    return { args: { player, limitType, newValue: target.paisa } };
  },
  examples: ['set CL for Rahul Sharma to 50,000', "increase Anita's credit limit to 1 lakh", 'set min stake for Karan to 500'],
} satisfies ToolPlanning;
