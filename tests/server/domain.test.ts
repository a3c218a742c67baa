import { describe, expect, it } from 'vitest';
import {
  betResult, checkBetAcceptance, commissionOn, liability, marketPositions, passUp, potentialWin, worstCaseExposure,
} from '../../src/server/domain/bets.js';
import { type HierarchyNode, settleMarket } from '../../src/server/domain/cascade.js';

const back = (stake: number, odds: number, outcomeId = 'X') => ({ side: 'back' as const, stake, odds, outcomeId });
const lay = (stake: number, odds: number, outcomeId = 'X') => ({ side: 'lay' as const, stake, odds, outcomeId });

describe('bet results (hand-computed)', () => {
  it('back: wins stake × (odds − 1), loses the stake', () => {
    expect(betResult(back(100_000, 185), 'X')).toBe(85_000);
    expect(betResult(back(100_000, 185), 'Y')).toBe(-100_000);
  });
  it('lay: wins the stake, loses stake × (odds − 1)', () => {
    expect(betResult(lay(100_000, 185), 'Y')).toBe(100_000);
    expect(betResult(lay(100_000, 185), 'X')).toBe(-85_000);
  });
  it('rounds to the paisa, half away from zero', () => {
    expect(potentialWin(back(333, 185))).toBe(283); // 283.05
    expect(potentialWin(back(10, 105))).toBe(1); // 0.5
    expect(betResult(lay(10, 105), 'X')).toBe(-1); // −0.5
  });
  it('liability and potential win by side', () => {
    expect(liability(back(50_000, 300))).toBe(50_000);
    expect(liability(lay(50_000, 300))).toBe(100_000);
    expect(potentialWin(lay(50_000, 300))).toBe(50_000);
  });
});

describe('commission on net market winnings', () => {
  it('floors net × bps, and losers pay none', () => {
    expect(commissionOn(15_000, 200)).toBe(300);
    expect(commissionOn(999, 200)).toBe(19);
    expect(commissionOn(-5_000, 200)).toBe(0);
    expect(commissionOn(0, 200)).toBe(0);
  });

  it('stays exact at the largest amounts an input may carry', () => {
    // 10^15 paisa is the inputs' bound; net × bps there is past 2^53, where a float floor is a paisa short.
    expect(commissionOn(999_999_999_999_800, 150)).toBe(14_999_999_999_997);
    expect(commissionOn(999_999_999_999_069, 333)).toBe(33_299_999_999_968);
  });
});

describe('exposure per outcome and worst case', () => {
  it('is −Σ of the players\' results if each outcome wins', () => {
    const bets = [back(10_000, 300, 'X'), back(5_000, 200, 'Y')];
    const positions = marketPositions(bets, ['X', 'Y']);
    expect(positions.get('X')).toBe(-15_000); // +20,000 − 5,000 paid out
    expect(positions.get('Y')).toBe(5_000); // −10,000 + 5,000
    expect(worstCaseExposure(positions.values())).toBe(15_000);
  });
  it('is zero when every outcome gains', () => {
    expect(worstCaseExposure(marketPositions([back(1_000, 150, 'X'), lay(1_000, 150, 'X')], ['X', 'Y']).values())).toBe(0);
  });
});

describe('the share flow, three agent levels', () => {
  // admin ← A1 (20%) ← A2 (80%) ← A3 (60%) ← P (2% commission)
  const nodes: Record<string, HierarchyNode> = {
    admin: { id: 'admin', role: 'platform_admin', parentId: null, depth: 0, shareBps: 0, commissionBps: 0 },
    A1: { id: 'A1', role: 'agent', parentId: 'admin', depth: 1, shareBps: 2000, commissionBps: 0 },
    A2: { id: 'A2', role: 'agent', parentId: 'A1', depth: 2, shareBps: 8000, commissionBps: 0 },
    A3: { id: 'A3', role: 'agent', parentId: 'A2', depth: 3, shareBps: 6000, commissionBps: 0 },
    P: { id: 'P', role: 'player', parentId: 'A3', depth: 4, shareBps: 0, commissionBps: 200 },
  };
  const node = (id: string) => nodes[id]!;

  it('a losing player: each agent keeps its share and passes the rest up', () => {
    const { movements } = settleMarket('m', 'Y', [{ ...back(10_000, 250, 'X'), id: 'b1', playerId: 'P' }], node);
    expect(movements.map((m) => [m.kind, m.childId, m.parentId, m.amount])).toEqual([
      ['bet_result', 'P', 'A3', 10_000],
      ['share', 'A3', 'A2', 4_000], // A3 keeps 6,000
      ['share', 'A2', 'A1', 800], // A2 keeps 3,200
      ['share', 'A1', 'admin', 640], // A1 keeps 160, the platform 640
    ]);
    expect(passUp(800, 2000)).toBe(640);
  });

  it('a winning player pays commission, and the loss flows up with rounding at each level', () => {
    const { movements, results } = settleMarket('m', 'X', [{ ...back(10_000, 250, 'X'), id: 'b1', playerId: 'P' }], node);
    expect(results.get('b1')).toBe(15_000);
    expect(movements.map((m) => [m.kind, m.childId, m.amount])).toEqual([
      ['bet_result', 'P', -15_000], // the agent owes the player the win
      ['commission', 'P', 300], // 2% of 15,000
      ['share', 'A3', -5_880], // (−15,000 + 300) × 40%
      ['share', 'A2', -1_176], // −5,880 × 20%
      ['share', 'A1', -941], // −1,176 × 80% = −940.8
    ]);
    // Take direction: the player is owed 14,700 (negative take: the parent owes the child).
    const playerTake = movements.filter((m) => m.childId === 'P').reduce((s, m) => s + m.amount, 0);
    expect(playerTake).toBe(-14_700);
  });
});

describe('bet acceptance', () => {
  const limits = { minStake: 10_000, perClickWin: 500_000, aggregateDailyWin: 1_000_000, creditLimit: 2_000_000 };
  const state = { marketStatus: 'open', realisedWinToday: 0, openLiability: 0, take: 0 };
  it('accepts a bet within every limit', () => {
    expect(checkBetAcceptance(back(100_000, 200), limits, state)).toEqual({ ok: true });
  });
  it('names the first limit a bet breaks', () => {
    expect(checkBetAcceptance(back(100_000, 200), limits, { ...state, marketStatus: 'settled' })).toEqual({ ok: false, reason: 'market_not_open' });
    expect(checkBetAcceptance(back(5_000, 200), limits, state)).toEqual({ ok: false, reason: 'below_min_stake' });
    expect(checkBetAcceptance(back(600_000, 200), limits, state)).toEqual({ ok: false, reason: 'above_per_click_win' });
    expect(checkBetAcceptance(back(400_000, 200), limits, { ...state, realisedWinToday: 700_000 })).toEqual({ ok: false, reason: 'above_aggregate_daily_win' });
    // available = CL − take = 2,000,000 − 1,950,000 = 50,000 < 100,000 liability
    expect(checkBetAcceptance(back(100_000, 200), limits, { ...state, take: 1_950_000 })).toEqual({ ok: false, reason: 'insufficient_available' });
  });
});
