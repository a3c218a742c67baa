import type { LedgerKind } from '../db/schema.js';
import { type BetTerms, betResult, commissionOn, passUp } from './bets.js';

/** One movement between a child account and its parent: `amount` is what the child now owes more. */
export interface Movement {
  kind: LedgerKind;
  childId: string;
  parentId: string;
  amount: number;
  marketId?: string;
  betId?: string;
  settlementId?: string;
}

export interface HierarchyNode {
  id: string;
  role: 'platform_admin' | 'agent' | 'player';
  parentId: string | null;
  depth: number;
  shareBps: number;
  commissionBps: number;
}

export interface SettledBet extends BetTerms {
  id: string;
  playerId: string;
}

export interface MarketSettlement {
  results: Map<string, number>;
  movements: Movement[];
}

/**
 * Settles one market (DOMAIN.md, Commission and The book): each bet's result against the player's
 * agent, commission on each player's positive net, then each agent's gross flows up, level by
 * level, keeping its share and passing the rest to its upline, until the platform.
 */
export function settleMarket(
  marketId: string,
  winnerOutcomeId: string,
  marketBets: readonly SettledBet[],
  node: (id: string) => HierarchyNode,
): MarketSettlement {
  const results = new Map<string, number>();
  const movements: Movement[] = [];
  const netByPlayer = new Map<string, number>();

  for (const bet of marketBets) {
    const result = betResult(bet, winnerOutcomeId);
    results.set(bet.id, result);
    const player = node(bet.playerId);
    if (player.parentId === null) throw new Error(`player ${player.id} has no agent`);
    if (result !== 0) movements.push({ kind: 'bet_result', childId: player.id, parentId: player.parentId, amount: -result, marketId, betId: bet.id });
    netByPlayer.set(player.id, (netByPlayer.get(player.id) ?? 0) + result);
  }

  const grossByAgent = new Map<string, number>();
  for (const [playerId, net] of netByPlayer) {
    const player = node(playerId);
    const commission = commissionOn(net, player.commissionBps);
    if (commission > 0) movements.push({ kind: 'commission', childId: playerId, parentId: player.parentId!, amount: commission, marketId });
    grossByAgent.set(player.parentId!, (grossByAgent.get(player.parentId!) ?? 0) - net + commission);
  }

  // Deepest agents first, so each agent's gross is complete before it passes its part up.
  const pending = [...grossByAgent.keys()].map(node);
  while (pending.length > 0) {
    pending.sort((a, b) => b.depth - a.depth || (a.id < b.id ? -1 : 1));
    const agent = pending.shift()!;
    if (agent.role !== 'agent' || agent.parentId === null) continue;
    const amount = passUp(grossByAgent.get(agent.id) ?? 0, agent.shareBps);
    if (amount === 0) continue;
    movements.push({ kind: 'share', childId: agent.id, parentId: agent.parentId, amount, marketId });
    const parent = node(agent.parentId);
    if (!grossByAgent.has(parent.id)) pending.push(parent);
    grossByAgent.set(parent.id, (grossByAgent.get(parent.id) ?? 0) + amount);
  }
  return { results, movements };
}

export interface Posting {
  entryId: string;
  kind: LedgerKind;
  accountId: string;
  counterpartyId: string;
  amount: number;
  occurredAt: Date;
  marketId: string | null;
  betId: string | null;
  settlementId: string | null;
}

/** A movement as its two double-entry postings: the parent's +amount and the child's −amount. */
export function postingsOf(movement: Movement, entryId: string, occurredAt: Date): [Posting, Posting] {
  // Written out rather than spread from a shared part: a large book makes millions of these.
  const marketId = movement.marketId ?? null;
  const betId = movement.betId ?? null;
  const settlementId = movement.settlementId ?? null;
  const { kind, parentId, childId, amount } = movement;
  return [
    { entryId, kind, occurredAt, marketId, betId, settlementId, accountId: parentId, counterpartyId: childId, amount },
    { entryId, kind, occurredAt, marketId, betId, settlementId, accountId: childId, counterpartyId: parentId, amount: -amount },
  ];
}
