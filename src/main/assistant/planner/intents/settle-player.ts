import { isoWeekId } from '../../../../shared/dates.js';
import { amountRefusal } from '../../../../shared/parse/amount.js';
import { BULK, PAID_IN_FULL, ask, hasAny } from '../slots.js';
import { ORDER_MARKER, supposes } from '../speech-act.js';
import type { ToolPlanning } from '../types.js';
import { found, holds, said, tokensIn } from './concepts.js';

/** "how much do I have to pay Vikram", "what must Karan pay": a payment still owed, not one that happened. */
const owedStill = (folded: string) => said(folded, 'settle:owed_still');

/** "did he settle last week or not": "or not" closing the question asks what happened, it says no "not" of its own. */
function stillOwed(folded: string): boolean {
  const tokens = tokensIn(folded);
  const closing = found(folded, 'settle:or_not').find((m) => tokens.slice(m.to).every((t) => t === '?' || t === '!' || t === '.'));
  return found(folded, 'settle:still_owed').some((m) => closing === undefined || m.from < closing.from);
}

/** "settle part of it", "thoda", "kuch": some of a balance; "sab kuch" is all of it. */
const partOf = (folded: string) => found(folded, 'settle:some')
  .some((m) => !found(folded, 'settle:all_kuch').some((all) => all.to === m.to));

/** "maine 5k diye": a payment the user made, not one received ("maine 5k liye, mila" aside). */
const paidByUser = (folded: string) => found(folded, 'settle:self').some((m) => m.from === 0)
  && !said(folded, 'settle:received');

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'settle', precedence: 40, exclusive: true, amount: { arg: 'amount', with: { mode: 'amount' } }, // "Did Karan pay?" asks what happened (settlements); "is Anita all clear?", "who still hasn't paid?" ask what is owed now (take).
  asQuestion: 'settlements',
  // Asked what happened ("did Karan pay?", "karan ne pay kiya", "settle kiya kya"): the settlements; else what is owed now.
  // "Anita ka hisaab clear ho gaya kya?": whether the account is square now is its balance, not a payment.
  asQuestionFor: (r) => (!supposes(r.folded) && !owedStill(r.folded) && !said(r.folded, 'settle:account_square') && said(r.folded, 'settle:happened')
    // "did he settle last week or not" asks what happened ("or not", "ki nahi" close the question); "not yet" asks what is still owed.
    && !stillOwed(r.folded) ? 'settlements' : 'take'), follows: { player: true },
  vocabulary: ['settle', 'settling', 'clear', 'collect', 'pay', 'payout', 'record', 'mark'],
  // "sett history Lakshmi", "last week ka sett dikhao": settle words asked to be shown are the history.
  triggers: (r) => !hasAny(r, 'history', 'log', 'ledger', 'show', 'dikhao', 'dikha', 'batao', 'list', 'view', 'display')
    // "will Sneha's open bets settle today?": bets and markets settle by their result; no one is settled with.
    && !holds(r.folded, 'settle:bets_settle')
    && (hasAny(r, 'settle', 'settling', 'collect', 'payout') || (hasAny(r, 'settlement') && ORDER_MARKER.test(r.folded))
      // "record 7,500 received from Lakshmi", "record a settlement of 4k": booking a payment is settling that amount.
      || (hasAny(r, 'record', 'mark') && hasAny(r, 'received', 'paid', 'payment', 'got', 'settlement'))
      || (said(r.folded, 'settle:clear_or_pay') && !hasAny(r, 'chat', 'conversation', 'screen'))),
  fill(s) {
    const r = s.r;
    // "deepak ka lena dena sab clear kar do": "all" of one player's balance is that player's full
    // settlement; "settle everyone (except Karan)" is many players, asked one at a time.
    const wholeBalanceOfOne = s.namedPlayer() !== null && !said(r.folded, 'settle:except')
      && holds(r.folded, 'settle:whole_balance');
    if (BULK.test(r.folded) && !wholeBalanceOfOne) return ask('not_allowed', 'I settle one player at a time, and only after you confirm it. Which player?');
    const player = s.player({ takesFixture: false }) ?? (r.names.length === 0 && r.tokens.length <= 6 ? s.lastAnswerPlayer() : null);
    if (!player) return ask('needs_player', 'Which player should I settle with?');
    const args: Record<string, unknown> = { player, mode: 'auto' };
    const amounts = s.amountReading.amounts;
    if (amounts.length > 1) return ask('needs_amount', 'I found more than one amount. How much should be settled?');
    const amount = amounts[0];
    // A payment to book ("Deepak paid something in cash, record it") is of what was paid, never the whole balance.
    // "Karan paid me everything he owed, record that": all of it was paid, the whole balance.
    if (!amount && hasAny(r, 'recorded') && !PAID_IN_FULL.test(r.folded)) {
      return ask('needs_amount', 'How much was paid? I record it as a settlement of that amount.');
    }
    // "just pick whatever amount you think is fair": an amount is the user's to say, never the desk's to choose.
    if (!amount && said(r.folded, 'settle:amount_left_to_me')) {
      return ask('needs_amount', 'How much should be settled? The amount is yours to say: I don\u2019t choose one.');
    }
    // "settle part of Ishaan's balance", "thoda settle kar do": some of it, never silently all of it.
    if (!amount && partOf(r.folded)) {
      return ask('needs_amount', 'How much of it should be settled?');
    }
    if (amount) {
      const refusal = amountRefusal(amount);
      if (refusal !== null || amount.paisa === null) return ask('needs_amount', refusal ?? 'How much should be settled?');
      args.mode = 'amount';
      args.amount = amount.paisa;
    }
    if (r.range && said(r.range.raw, 'settle:week')) args.periodId = isoWeekId(r.range.from);
    return { args };
  },
  // "Sneha paid 15k cash", "usne 15k de diye", "got 20k from Deepak": a payment told with its amount
  // may be told to be booked. "paid me 5k yesterday" (another day's) may be booked already: looked up.
  // Not a payment promised, denied or reported second-hand, nor one the user made ("maine diye").
  toldAsOrder: (r) => r.amounts.length === 1 && (r.names.length === 1 || r.pronounPlayer)
    && (r.range === null || (r.range.from === r.range.to && said(r.folded, 'settle:now')))
    && said(r.folded, 'settle:paid_verb') && !said(r.folded, 'settle:not_booked') && !paidByUser(r.folded),
  examples: ['settle Deepak', 'settle 5,000 with Suresh'],
} satisfies ToolPlanning;
