// A reply to the desk's question fills the detail the last request left out: the amount, the
// limit, the player or the outcome. The request is planned again with the reply's slots; the reply
// is never read as a request of its own, and a request of its own is never read as a reply.
import { describe, expect, it } from 'vitest';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT } from '../../../../src/main/assistant/planner/types.js';
import { parseChatRoute } from '../../../../src/shared/contracts/chat.js';

const planner = new RulePlanner();
const after = (lastText: string, text: string) => planner.plan({
  requestId: 'r1', text, page: parseChatRoute('/agent/dashboard'), today: '2026-11-20', role: 'agent', context: { ...EMPTY_CONTEXT, lastText },
});

describe('a reply to "What amount?"', () => {
  it('sets the limit the request named, for its player', () => {
    expect(after('set CL for Sneha', '50k').calls).toEqual([{ tool: 'agent.editLimit', args: { player: 'sneha', limitType: 'creditLimit', newValue: 5_000_000 } }]);
    expect(after('set CL for Sneha', '50k kar do').calls).toEqual([{ tool: 'agent.editLimit', args: { player: 'sneha', limitType: 'creditLimit', newValue: 5_000_000 } }]);
  });

  it("keeps the request's own limit type (the daily win limit stays the daily win limit)", () => {
    expect(after("set Anita's daily win limit", '1 lakh').calls).toEqual([{ tool: 'agent.editLimit', args: { player: 'anita', limitType: 'aggregateDailyWin', newValue: 10_000_000 } }]);
    expect(after('karan ka per click win limit change karo', '25k').calls[0]?.args).toMatchObject({ limitType: 'perClickWin', newValue: 2_500_000 });
  });

  it('is the stake of a hedge that named its outcome', () => {
    expect(after('hedge on India vs Australia match odds, back australia', '5k').calls[0]).toMatchObject({ tool: 'agent.placeHedgeBet', args: { outcome: 'australia', stake: 500_000 } });
  });

  it('refuses an amount that is no amount, as the request would have', () => {
    const d = after('set CL for Sneha', '-5k');
    expect(d.action).toBe('clarify');
    expect(d.calls).toEqual([]);
  });
});

describe('a reply that names who or what', () => {
  it('is the player a change asked for, with the amount said with it', () => {
    expect(after('set the credit limit to 40k', 'sneha').calls).toEqual([{ tool: 'agent.editLimit', args: { player: 'sneha', limitType: 'creditLimit', newValue: 4_000_000 } }]);
    expect(after('set CL for Rahul', 'Rahul Verma, 15k').calls).toEqual([{ tool: 'agent.editLimit', args: { player: 'rahul verma', limitType: 'creditLimit', newValue: 1_500_000 } }]);
    expect(after('settle karna hai', 'lakshmi 12500').calls).toEqual([{ tool: 'agent.settlePlayer', args: { player: 'lakshmi', mode: 'amount', amount: 1_250_000 } }]);
  });

  it('is the outcome of a hedge that had its match and stake, the stake kept', () => {
    expect(after('hedge 10k on India vs Australia match odds', 'australia').calls[0]).toMatchObject({ tool: 'agent.placeHedgeBet', args: { outcome: 'australia', stake: 1_000_000, side: 'back' } });
    expect(after('hedge 10k on India vs Australia match odds', 'lay australia').calls[0]?.args).toMatchObject({ outcome: 'australia', side: 'lay' });
  });

  it('names the limit, with or without the amount', () => {
    expect(after('neha ka limit badhana hai', 'CL 60k').calls).toEqual([{ tool: 'agent.editLimit', args: { player: 'neha', limitType: 'creditLimit', newValue: 6_000_000 } }]);
    expect(after("set Rahul's wager cap to 50k", 'daily win').calls[0]?.args).toMatchObject({ limitType: 'aggregateDailyWin', newValue: 5_000_000 });
  });
});

describe('not a reply', () => {
  it('a question of its own after the desk asked is that question, never the change', () => {
    const d = after('set the credit limit to 40k', "what's sneha's pnl today?");
    expect(d.calls.map((c) => c.tool)).toEqual(['agent.getPnL']);
  });

  it('a message after a request that asked nothing is planned on its own', () => {
    expect(after("what is sneha's pnl", '50k').calls.map((c) => c.tool)).not.toContain('agent.editLimit');
  });
});
