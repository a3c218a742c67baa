import { isoWeekId } from '../../../../shared/dates.js';
import { amountRefusal } from '../../../../shared/parse/amount.js';
import { BULK, PAID_IN_FULL, ask, hasAny } from '../slots.js';
import { ORDER_MARKER, supposes } from '../speech-act.js';
import type { ToolPlanning } from '../types.js';
import { matchPhrases, phraseTable, tokensOf } from '../../../../shared/parse/phrases.js';

/** "how much do I have to pay Vikram", "what must Karan pay": a payment still owed, not one that happened. */
const OWED_STILL = phraseTable([['have to', true], ['has to', true], ['must', true], ['gotta', true], ['got to', true], ['supposed to', true], ['due to', true]] as const);
const owedStill = (folded: string) => matchPhrases(OWED_STILL, tokensOf(folded)).length > 0;

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'settle', precedence: 40, exclusive: true, amount: { arg: 'amount', with: { mode: 'amount' } }, // "Did Karan pay?" asks what happened (settlements); "is Anita all clear?", "who still hasn't paid?" ask what is owed now (take).
  asQuestion: 'settlements',
  // Asked what happened ("did Karan pay?", "karan ne pay kiya", "settle kiya kya"): the settlements; else what is owed now.
  // "Anita ka hisaab clear ho gaya kya?": whether the account is square now is its balance, not a payment.
  asQuestionFor: (r) => (!supposes(r.folded) && !owedStill(r.folded) && !/\b(?:balance|account)\s+(?:clear|saaf|barabar|nil|zero)\b/.test(r.folded) && (/\b(?:did|has|have|had)\b/.test(r.folded) || /\b(?:kiya|kiye|kari|kar\s+diya|kar\s+diye|ho\s+gaya|hua)\b/.test(r.folded))
    // "did he settle last week or not" asks what happened ("or not", "ki nahi" close the question); "not yet" asks what is still owed.
    && !/\b(?:still|yet|not|hasnt|havent|need|needs|nahi|nahin)\b/.test(r.folded.replace(/\b(?:or|ya|ki)\s+(?:not|nahi|nahin)\s*[?!.]*$/, '')) ? 'settlements' : 'take'), follows: { player: true },
  vocabulary: ['settle', 'settling', 'clear', 'collect', 'pay', 'payout', 'record', 'mark'],
  // "sett history Lakshmi", "last week ka sett dikhao": settle words asked to be shown are the history.
  triggers: (r) => !hasAny(r, 'history', 'log', 'ledger', 'show', 'dikhao', 'dikha', 'batao', 'list', 'view', 'display')
    // "will Sneha's open bets settle today?": bets and markets settle by their result; no one is settled with.
    && !/\b(?:bets?|markets?|match|matches|games?)\s+(?:will\s+|to\s+|gets?\s+|got\s+|be\s+|been\s+|are\s+|is\s+)*(?:settle|settled|settling)\b/.test(r.folded)
    && (hasAny(r, 'settle', 'settling', 'collect', 'payout') || (hasAny(r, 'settlement') && ORDER_MARKER.test(r.folded))
      // "record 7,500 received from Lakshmi", "record a settlement of 4k": booking a payment is settling that amount.
      || (hasAny(r, 'record', 'mark') && hasAny(r, 'received', 'paid', 'payment', 'got', 'settlement'))
      || (/\b(?:clear|pay)\b/.test(r.folded) && !hasAny(r, 'chat', 'conversation', 'screen'))),
  fill(s) {
    const r = s.r;
    // "deepak ka lena dena sab clear kar do": "all" of one player's balance is that player's full
    // settlement; "settle everyone (except Karan)" is many players, asked one at a time.
    const wholeBalanceOfOne = s.namedPlayer() !== null && !/\b(?:except|but|siwa|sivay|chhod|chod|other|others|baaki|baki)\b/.test(r.folded)
      && /\b(?:outstanding|receivable|payable|balance|dues?)\s+(?:sab|sabhi|saara|sara|all|everything)\b|\b(?:sab|sabhi|saara|sara|all)\s+(?:clear|settle|outstanding|balance|dues?|kuch|paisa)\b/.test(r.folded);
    if (BULK.test(r.folded) && !wholeBalanceOfOne) return ask('not_allowed', 'I settle one player at a time, and only after you confirm it. Which player?');
    const player = s.player({ takesFixture: false }) ?? (r.names.length === 0 && r.tokens.length <= 6 ? s.lastAnswerPlayer() : null);
    if (!player) return ask('needs_player', 'Which player should I settle with?');
    const args: Record<string, unknown> = { player, mode: 'auto' };
    if (r.amounts.length > 1) return ask('needs_amount', 'I found more than one amount. How much should be settled?');
    const amount = r.amounts[0];
    // A payment to book ("Deepak paid something in cash, record it") is of what was paid, never the whole balance.
    // "Karan paid me everything he owed, record that": all of it was paid, the whole balance.
    if (!amount && hasAny(r, 'recorded') && !PAID_IN_FULL.test(r.folded)) {
      return ask('needs_amount', 'How much was paid? I record it as a settlement of that amount.');
    }
    // "settle part of Ishaan's balance", "thoda settle kar do": some of it, never silently all of it.
    if (!amount && /\b(?:part|partly|partial|partially|portion|some|thoda|thodi|half|aadha|adha)\b|(?<!\b(?:sab|sabhi|sara|saara)\s)\bkuch\b/.test(r.folded)) {
      return ask('needs_amount', 'How much of it should be settled?');
    }
    if (amount) {
      const refusal = amountRefusal(amount);
      if (refusal !== null || amount.paisa === null) return ask('needs_amount', refusal ?? 'How much should be settled?');
      args.mode = 'amount';
      args.amount = amount.paisa;
    }
    if (r.range && /\b(?:week|hafte|hafta|athvadiy\w*)\b/.test(r.range.raw)) args.periodId = isoWeekId(r.range.from);
    return { args };
  },
  // "Sneha paid 15k cash", "usne 15k de diye", "got 20k from Deepak": a payment told with its amount
  // may be told to be booked. "paid me 5k yesterday" (another day's) may be booked already: looked up.
  // Not a payment promised, denied or reported second-hand, nor one the user made ("maine diye").
  toldAsOrder: (r) => r.amounts.length === 1 && (r.names.length === 1 || r.pronounPlayer)
    && (r.range === null || (r.range.from === r.range.to && /\b(?:today|aaj|abhi|just\s+now)\b/.test(r.folded)))
    && /\b(?:paid|sent|deposited|transferred|diya|diye|di|bheja|bheje|bheji|aaya|aaye|aa\s+gaya|aa\s+gaye|received|got|mila|mile)\b/.test(r.folded)
    && !/\b(?:not|no|never|nahi|nahin|didnt|hasnt|havent|will|would|going|gonna|promised|promises|said|says|claims?|told|bola|boli|kaha|keh|dega|degi|denge|wants?|should|shall|if|agar)\b/.test(r.folded)
    && !/^(?:i|we|main|mai|maine|humne|hum)\b(?!.*\b(?:received|got|mila|mile)\b)/.test(r.folded),
  examples: ['settle Deepak', 'settle 5,000 with Suresh'],
} satisfies ToolPlanning;
