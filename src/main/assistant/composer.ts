/**
 * The offline composer: a short answer in words for every card, money with its direction
 * stated ("Rahul Sharma owes you 1,200.00"). Cards stay the authority; the number guard checks
 * every figure here against the turn's tool results before the text leaves main.
 */
import type { Card, Envelope } from '../../shared/contracts/assistant.js';
import type { ToolModule } from '../tools/define.js';
import { TOOLS, isToolName } from '../tools/index.js';
import { betSlipSentence, betWords } from '../tools/place-hedge-bet.js';
import { hedgeRisk } from '../../shared/hedge-risk.js';
import { money, name } from '../../shared/sentences.js';

export { name };

/** One or two sentences for a tool's result; instants are dated in `timeZone`, the user's. */
export function sentenceFor(tool: string, envelope: Envelope, args: Record<string, unknown>, timeZone = 'UTC'): string {
  if (!envelope.ok) return envelope.error.message;
  // Each tool's module says its own sentence (src/main/tools); a tool with none adds no words.
  const module = isToolName(tool) ? (TOOLS[tool] as ToolModule) : undefined;
  return module?.say?.(envelope.data, args, timeZone) ?? '';
}

export const DIRECT_ANSWERS = {
  greeting: 'Hello! Ask me about your book: PnL, exposure, who owes you, credit limits, commission, bets, settlements or your downline.',
  capabilities: 'I answer from your own book: PnL and commission for any period, live exposure by match, take (who owes whom), credit limits, bets, settlements, your downline and upline, top markets. I can also prepare limit changes and settlements; nothing moves until you confirm it.',
  off_topic: 'I can only help with your book: PnL, exposure, take, limits, commission, bets, settlements and your downline.',
  declined: 'Okay, left as it was: nothing was changed, and any preview still open here can no longer be confirmed.',
} as const;


const FIELD_NAMES = { creditLimit: 'credit limit', perClickWin: 'per-click win', aggregateDailyWin: 'aggregate daily win', minStake: 'min stake' } as const;

/** The words on a proposal (a preview waiting for the user, or refused by the guardrails). */
export function proposalSentence(card: Card): string {
  if (card.type === 'diff_card') {
    const d = card.data;
    const change = `${name(d.playerName)}'s ${FIELD_NAMES[d.field]} from ${money(d.before)} to ${money(d.after)}`;
    if (!d.refusal && d.state === 'unchanged') return unchangedSentence(card);
    return d.refusal ? `I can't change ${change}: ${d.refusal}` : `Confirm to change ${change}. Nothing changes until you do.`;
  }
  if (card.type === 'settlement_summary') {
    const d = card.data;
    const who = d.direction === 'player_pays' ? `${name(d.playerName)} pays you ${money(d.amount)}` : `you pay ${name(d.playerName)} ${money(d.amount)}`;
    if (d.refusal) return `I can't settle with ${name(d.playerName)}: ${d.refusal}`;
    return `Confirm to settle: ${who}, and the take goes from ${money(d.takeBefore)} to ${money(d.takeAfter)}. No money moves until you do.`;
  }
  if (card.type === 'report_share') {
    const d = card.data;
    if (d.refusal) return `I can't send that report to ${name(d.recipientName)}: ${d.refusal}`;
    const again = d.alreadyShared ? ` ${name(d.recipientName)} has it already; confirming sends it again.` : '';
    return `Confirm to send ${reportName(d.title)} to ${name(d.recipientName)}.${again} Nothing is sent until you do.`;
  }
  if (card.type === 'bet_slip') return betSlipSentence(card);
  return '';
}

/**
 * The change a preview would make, in one line and no instructions to the reader: what an
 * approval waiting in the desk says in its notification and its list.
 */
export function changeSummary(card: Card): string {
  switch (card.type) {
    case 'diff_card': return `Change ${name(card.data.playerName)}'s ${FIELD_NAMES[card.data.field]} from ${money(card.data.before)} to ${money(card.data.after)}`;
    case 'settlement_summary': {
      const d = card.data;
      return d.direction === 'player_pays' ? `Settle: ${name(d.playerName)} pays you ${money(d.amount)}` : `Settle: you pay ${name(d.playerName)} ${money(d.amount)}`;
    }
    case 'report_share': return `Send ${reportName(card.data.title)} to ${name(card.data.recipientName)}`;
    case 'bet_slip': {
      const d = card.data;
      // An approval is answered from this line too: a bet that adds to the risk says so in it.
      const adds = d.exposureBefore !== undefined && d.exposureAfter !== undefined && hedgeRisk(d.exposureBefore, d.exposureAfter).change === 'increases';
      return `Hedge: ${betWords(d)} in ${name(d.fixtureName)}${adds ? ` (increases your worst case on the market from ${money(d.exposureBefore!)} to ${money(d.exposureAfter!)})` : ''}`;
    }
    default: return 'A change';
  }
}

/** The words for a change that changes nothing: the value is already set. */
export function unchangedSentence(card: Card): string {
  if (card.type === 'diff_card') return `No change: ${name(card.data.playerName)}'s ${FIELD_NAMES[card.data.field]} is already ${money(card.data.after)}. Nothing was written.`;
  return 'No change: nothing was written.';
}

/** The words after a confirmed change. */
export function confirmedSentence(card: Card): string {
  if (card.type === 'diff_card') return `Done: ${name(card.data.playerName)}'s ${FIELD_NAMES[card.data.field]} is now ${money(card.data.after)} (was ${money(card.data.before)}).`;
  if (card.type === 'settlement_summary') {
    const d = card.data;
    const who = d.direction === 'player_pays' ? `${name(d.playerName)} paid you ${money(d.amount)}` : `you paid ${name(d.playerName)} ${money(d.amount)}`;
    return `Settled: ${who}. The take is now ${money(d.takeAfter)}.`;
  }
  if (card.type === 'report_share') return `Sent: ${name(card.data.recipientName)} can now download ${reportName(card.data.title)} from their Reports page.`;
  if (card.type === 'bet_slip') return betSlipSentence(card);
  return 'Done.';
}

/** A report's title inside a sentence: quoted, since it carries names and dates of its own. */
const reportName = (title: string) => `“${title.replaceAll('“', ' ').replaceAll('”', ' ').replaceAll('\n', ' ').slice(0, 120)}”`;
