import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commissionOn } from '../../src/server/domain/bets.js';
import { type HierarchyNode, type Movement, type Posting, postingsOf, settleMarket } from '../../src/server/domain/cascade.js';

/**
 * For random trees, bets, market results and settlements: the ledger sums to zero, every entry
 * balances, and each take equals its ledger sum and the DOMAIN.md formula for it.
 */
const treeArb = fc.record({
  shares: fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 3 }),
  playersPerAgent: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }),
  commissions: fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 9, maxLength: 9 }),
});

const betArb = fc.record({
  player: fc.nat(),
  outcome: fc.integer({ min: 0, max: 2 }),
  side: fc.constantFrom('back' as const, 'lay' as const),
  stake: fc.integer({ min: 1, max: 5_000_000 }),
  odds: fc.integer({ min: 101, max: 5_000 }),
});

const marketArb = fc.record({
  outcomes: fc.integer({ min: 2, max: 3 }),
  winner: fc.nat(),
  bets: fc.array(betArb, { maxLength: 12 }),
  settleAfter: fc.array(fc.record({ who: fc.nat(), fraction: fc.integer({ min: -100, max: 100 }) }), { maxLength: 3 }),
});

describe('ledger invariants (property)', () => {
  it('sums to zero and every take equals its ledger sum and the domain formula', () => {
    fc.assert(fc.property(treeArb, fc.array(marketArb, { minLength: 1, maxLength: 6 }), (tree, marketsIn) => {
      const nodes = new Map<string, HierarchyNode>();
      nodes.set('admin', { id: 'admin', role: 'platform_admin', parentId: null, depth: 0, shareBps: 0, commissionBps: 0 });
      const agents: string[] = [];
      tree.shares.forEach((shareBps, i) => {
        const id = `A${i}`;
        nodes.set(id, { id, role: 'agent', parentId: i === 0 ? 'admin' : `A${i - 1}`, depth: i + 1, shareBps, commissionBps: 0 });
        agents.push(id);
      });
      const players: string[] = [];
      agents.forEach((agent, i) => {
        for (let k = 0; k < tree.playersPerAgent[i]!; k++) {
          const id = `P${i}.${k}`;
          nodes.set(id, { id, role: 'player', parentId: agent, depth: i + 2, shareBps: 0, commissionBps: tree.commissions[(i * 3 + k) % 9]! });
          players.push(id);
        }
      });
      if (players.length === 0) return;
      const node = (id: string) => nodes.get(id)!;

      const postings: Posting[] = [];
      const movements: Movement[] = [];
      const results = new Map<string, number>(); // player → Σ bet results
      const commissions = new Map<string, number>();
      const settled = new Map<string, number>(); // child → Σ paid to parent
      const takes = new Map<string, number>();
      let entry = 0;
      const record = (m: Movement) => {
        movements.push(m);
        postings.push(...postingsOf(m, `e${entry++}`, new Date(0)));
        takes.set(m.childId, (takes.get(m.childId) ?? 0) + m.amount);
      };

      marketsIn.forEach((market, mi) => {
        const outcomeIds = Array.from({ length: market.outcomes }, (_, i) => `m${mi}o${i}`);
        const bets = market.bets.map((b, bi) => ({
          id: `m${mi}b${bi}`, playerId: players[b.player % players.length]!, side: b.side, stake: b.stake, odds: b.odds,
          outcomeId: outcomeIds[b.outcome % market.outcomes]!,
        }));
        const winner = outcomeIds[market.winner % market.outcomes]!;
        const settledMarket = settleMarket(`m${mi}`, winner, bets, node);
        const netByPlayer = new Map<string, number>();
        for (const bet of bets) {
          const r = settledMarket.results.get(bet.id)!;
          results.set(bet.playerId, (results.get(bet.playerId) ?? 0) + r);
          netByPlayer.set(bet.playerId, (netByPlayer.get(bet.playerId) ?? 0) + r);
        }
        for (const [p, net] of netByPlayer) commissions.set(p, (commissions.get(p) ?? 0) + commissionOn(net, node(p).commissionBps));
        settledMarket.movements.forEach(record);
        for (const s of market.settleAfter) {
          const all = [...agents, ...players];
          const child = all[s.who % all.length]!;
          const take = takes.get(child) ?? 0;
          const amount = Math.trunc((take * s.fraction) / 100);
          if (amount === 0 || Math.abs(amount) > Math.abs(take) || Math.sign(amount) !== Math.sign(take)) continue;
          settled.set(child, (settled.get(child) ?? 0) + amount);
          record({ kind: 'settlement', childId: child, parentId: node(child).parentId!, amount: -amount });
        }
      });

      // All rows sum to zero, and so does every entry.
      expect(postings.reduce((s, p) => s + p.amount, 0)).toBe(0);
      const byEntry = new Map<string, number>();
      for (const p of postings) byEntry.set(p.entryId, (byEntry.get(p.entryId) ?? 0) + p.amount);
      for (const sum of byEntry.values()) expect(sum).toBe(0);

      for (const id of [...agents, ...players]) {
        const parentId = node(id).parentId!;
        const ledgerSum = postings.filter((p) => p.accountId === parentId && p.counterpartyId === id).reduce((s, p) => s + p.amount, 0);
        expect(ledgerSum).toBe(takes.get(id) ?? 0);
        if (node(id).role === 'player') {
          // −(settled net PnL) − paid + received, the PnL after commission.
          const formula = -(results.get(id) ?? 0) + (commissions.get(id) ?? 0) - (settled.get(id) ?? 0);
          expect(ledgerSum).toBe(formula);
        } else {
          const passedUp = movements.filter((m) => m.kind === 'share' && m.childId === id).reduce((s, m) => s + m.amount, 0);
          expect(ledgerSum).toBe(passedUp - (settled.get(id) ?? 0));
        }
      }
    }), { numRuns: 300 });
  });
});
