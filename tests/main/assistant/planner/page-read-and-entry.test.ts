// Two ways a short message leans on what is already there: the read a page shows is the answer a
// narrowing ("only last week", "only the open ones") narrows when the chat has none yet; and an
// entry asked for in Hindi ("entry kar do") is an order to record the payment told before it.
import { describe, expect, it } from 'vitest';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT, type PlannerInput } from '../../../../src/main/assistant/planner/types.js';
import { parseChatRoute } from '../../../../src/shared/contracts/chat.js';

const planner = new RulePlanner();
const KARAN = '61cff577-e273-4155-bc2f-5d0eb926d578';
const plan = (text: string, href = '/agent/dashboard', over: Partial<PlannerInput> = {}) => planner.plan({
  requestId: 'r1', text, page: parseChatRoute(href), today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT, ...over,
});

describe('a narrowing on a page that shows a read', () => {
  it("narrows the page's own read, for the page's own player", () => {
    expect(plan('only last week', '/agent/settlements').calls).toEqual([{ tool: 'agent.getSettlementHistory', args: { from: '2026-11-09', to: '2026-11-15' } }]);
    expect(plan('only the open ones', `/agent/bets?playerId=${KARAN}`).calls).toEqual([{ tool: 'agent.getBetHistory', args: { player: KARAN, status: ['open'] } }]);
  });

  it('is below the fast path, and leaves a request of its own and a page with no read alone', () => {
    expect(plan('only last week', '/agent/settlements').confidence).toBeLessThan(0.85);
    expect(plan('pnl last week', '/agent/settlements').calls).toEqual([{ tool: 'agent.getPnL', args: { from: '2026-11-09', to: '2026-11-15' } }]);
    expect(plan('only last week', '/agent/dashboard').action).toBe('clarify');
  });

  it('yields to the conversation: after a read in the chat, the narrowing is of that read', () => {
    const context = { ...EMPTY_CONTEXT, lastCalls: [{ tool: 'agent.getPnL', args: { from: '2026-11-20', to: '2026-11-20' } }], lastIntent: 'pnl' };
    expect(plan('only last week', '/agent/settlements', { context }).calls).toEqual([{ tool: 'agent.getPnL', args: { from: '2026-11-09', to: '2026-11-15' } }]);
  });
});

describe('an entry asked for', () => {
  it('records the payment told in the same breath', () => {
    expect(plan('Deepak se 10k aa gaye entry kar do').calls).toEqual([{ tool: 'agent.settlePlayer', args: { player: 'deepak', mode: 'amount', amount: 1_000_000 } }]);
    expect(plan('deepak ki entry daal do 5k').calls).toEqual([{ tool: 'agent.settlePlayer', args: { player: 'deepak', mode: 'amount', amount: 500_000 } }]);
  });

  it('is no order when the entry is only told', () => {
    expect(plan('deepak se 10k aa gaye').calls.map((c) => c.tool)).not.toContain('agent.settlePlayer');
  });
});
