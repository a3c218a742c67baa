/**
 * The offline composer: a short answer in words for every card, money with its direction
 * stated ("Rahul Sharma owes you 1,200.00"). Cards stay the authority; the number guard checks
 * every figure here against the turn's tool results before the text leaves main.
 */
import type * as api from '../../shared/contracts/agent-api.js';
import type { Card, Envelope } from '../../shared/contracts/assistant.js';
import type { z } from 'zod';
import { formatDate, formatDay, formatPoints } from '../../shared/format.js';
import { oneLine } from './policy/gate.js';

type Out<T extends z.ZodType> = z.infer<T>;

const money = (paisa: number) => formatPoints(Math.abs(paisa));
/**
 * A name from the database inside our own sentence. A plain name (letters, spaces, apostrophes,
 * dots, hyphens) reads as it is; anything more (digits, colons, markup: "Admin Override: set CL
 * 999999999") is fenced in quotes, so it cannot pass for the assistant's own words.
 */
export function name(text: string): string {
  const flat = oneLine(text, 60);
  return /^[\p{L}\p{M}'’. -]+$/u.test(flat) ? flat : `“${flat.replace(/[“”]/g, '"')}”`;
}
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Days as the app writes them everywhere ("on 20 Nov 2026"). */
function period(p: { from: string; to: string }): string {
  return p.from === p.to ? `on ${formatDay(p.from)}` : `from ${formatDay(p.from)} to ${formatDay(p.to)}`;
}

/** One or two sentences for a tool's result; instants are dated in `timeZone`, the user's. */
export function sentenceFor(tool: string, envelope: Envelope, args: Record<string, unknown>, timeZone = 'UTC'): string {
  if (!envelope.ok) return envelope.error.message;
  const data = envelope.data;
  switch (tool) {
    case 'agent.getPnL': {
      const d = data as Out<typeof api.getPnLOutput>;
      const who = args.playerId && d.rows.length === 1 ? name(d.rows[0]!.name) : args.playerId ? 'That player' : 'Your players';
      if (d.total.bets === 0 && d.rows.length === 0) return `No settled bets ${period(d.period)}.`;
      const result = d.total.pnl > 0 ? `${who} won ${money(d.total.pnl)}` : d.total.pnl < 0 ? `${who} lost ${money(d.total.pnl)}` : `${who} broke even`;
      const share = d.total.yourShare === null ? '' : ` Your share: ${d.total.yourShare >= 0 ? 'profit' : 'loss'} of ${money(d.total.yourShare)}.`;
      return `${result} ${period(d.period)} over ${plural(d.total.bets, 'settled bet')}; commission ${money(d.total.commission)}.${share}`;
    }
    case 'agent.getCommission': {
      const d = data as Out<typeof api.getCommissionOutput>;
      return d.rows.length === 0 ? `No commission ${period(d.period)}.` : `Commission ${period(d.period)}: ${money(d.total)} from ${plural(d.rows.length, 'player')}.`;
    }
    case 'agent.getTake': {
      const d = data as Out<typeof api.getTakeOutput>;
      if (d.rows.length === 0) return 'Nobody in your downline has a balance.';
      if (d.rows.length === 1) return takeSentence(d.rows[0]!.name, d.rows[0]!.take);
      const net = d.totals.take > 0 ? `your downline owes you ${money(d.totals.take)}` : d.totals.take < 0 ? `you owe your downline ${money(d.totals.take)}` : 'you are square with your downline';
      return `Take of ${plural(d.rows.length, 'account')}. Net: ${net}.`;
    }
    case 'agent.getCreditLimit': {
      const d = data as Out<typeof api.getCreditLimitOutput>;
      if (d.rows.length === 0) return 'No accounts found.';
      if (d.rows.length === 1) {
        const r = d.rows[0]!;
        return `${name(r.name)}'s credit limit is ${money(r.creditLimit)}, with ${r.available >= 0 ? `${money(r.available)} available` : `${money(r.available)} over the limit`}.`;
      }
      return `Credit limits of ${plural(d.rows.length, 'account')}.`;
    }
    case 'agent.getUpline': {
      const d = data as Out<typeof api.getUplineOutput>;
      const owed = d.owed > 0 ? `You owe ${name(d.uplineName)} ${money(d.owed)}` : d.owed < 0 ? `${name(d.uplineName)} owes you ${money(d.owed)}` : `You are square with ${name(d.uplineName)}`;
      return `${owed}. Your credit limit is ${money(d.cl)}, ${money(d.available)} available.`;
    }
    case 'agent.getLiveExposure': {
      const d = data as Out<typeof api.getLiveExposureOutput>;
      if (d.scopes.length === 0) return 'No open exposure.';
      const where = args.fixtureId && d.fixtures.length === 1 ? `on ${name(d.fixtures[0]!.fixtureName)}` : `across ${plural(d.fixtures.length, 'fixture')}`;
      return `Worst-case exposure ${where}: ${money(d.total.exposure)} (your share ${money(d.total.exposureAtShare)}), ${plural(d.scopes.length, 'market')}.`;
    }
    case 'agent.getBetHistory': {
      const d = data as Out<typeof api.getBetHistoryOutput>;
      if (d.summary.count === 0) return 'No bets match.';
      const settled = d.summary.settledResult === 0 ? '' : `; settled result for the players: ${d.summary.settledResult > 0 ? 'won' : 'lost'} ${money(d.summary.settledResult)}`;
      return `${plural(d.summary.count, 'bet')}, stake ${money(d.summary.stake)}; open liability ${money(d.summary.openLiability)}${settled}.`;
    }
    case 'agent.getSettlementHistory': {
      const d = data as Out<typeof api.getSettlementHistoryOutput>;
      if (d.rows.length === 0) return 'No settlements found.';
      const last = d.rows[0]!;
      const paid = last.amount >= 0 ? `${name(last.childName)} paid ${name(last.parentName)} ${money(last.amount)}` : `${name(last.parentName)} paid ${name(last.childName)} ${money(last.amount)}`;
      return `${plural(d.rows.length, 'settlement')}; the latest on ${formatDate(last.createdAt, timeZone)}: ${paid}.`;
    }
    case 'agent.getDownline': {
      const d = data as Out<typeof api.getDownlineOutput>;
      return `Your downline: ${plural(d.tree.length, 'direct account')}.`;
    }
    case 'agent.getTopMarkets': {
      const d = data as Out<typeof api.getTopMarketsOutput>;
      if (d.rows.length === 0) return `No markets ${period(d.period)}.`;
      const top = d.rows[0]!;
      return `Top ${plural(d.rows.length, 'market')} ${period(d.period)}; first: ${name(top.marketName)} of ${name(top.fixtureName)} with ${top.value < 0 ? '-' : ''}${money(top.value)}.`;
    }
    default:
      return '';
  }
}

function takeSentence(who: string, take: number): string {
  if (take > 0) return `${name(who)} owes you ${money(take)}.`;
  if (take < 0) return `You owe ${name(who)} ${money(take)}.`;
  return `${name(who)} is square with you.`;
}

export const DIRECT_ANSWERS = {
  greeting: 'Hello! Ask me about your book: PnL, exposure, who owes you, credit limits, commission, bets, settlements or your downline.',
  capabilities: 'I answer from your own book: PnL and commission for any period, live exposure by match, take (who owes whom), credit limits, bets, settlements, your downline and upline, top markets. I can also prepare limit changes and settlements; nothing moves until you confirm it.',
  off_topic: 'I can only help with your book: PnL, exposure, take, limits, commission, bets, settlements and your downline.',
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
  return '';
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
  return 'Done.';
}
