import { describe, expect, it } from 'vitest';
import { rowAskOf, withRowAsk } from '../../../../src/main/assistant/frame/plan.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT, type PlannerInput } from '../../../../src/main/assistant/planner/types.js';

const planner = new RulePlanner();
async function framed(text: string, previous: Parameters<typeof withRowAsk>[3] = null) {
  const input: PlannerInput = { requestId: 'r', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT };
  const decision = await planner.plan(input);
  return { planned: decision, ...withRowAsk(decision, rowAskOf(input), input, previous) };
}

describe('the frame laid on a plan', () => {
  it('is not sure of a plan whose reads cannot carry the superlative asked: "which sub-agent has the most players"', async () => {
    const { planned, decision, asks } = await framed('which sub-agent has the most players');
    expect(asks).toEqual([]);
    expect(planned.confidence).toBeGreaterThanOrEqual(0.85);
    expect(decision.confidence).toBeLessThan(0.85);
    const carried = await framed('who owes me the most');
    expect(carried.asks.length).toBeGreaterThan(0);
    expect(carried.decision.confidence).toBeGreaterThanOrEqual(0.85);
    expect((await framed('top 5 markets this month')).decision.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('keeps a plain read as a frame, so "only those over 10k" filters the rows just read (the hedge the classifier guessed is no change said)', async () => {
    const first = await framed('who owes me money');
    expect(first.frame).toEqual({ call: { tool: 'agent.getTake', args: {} }, ask: expect.objectContaining({ asks: false }) });
    const { decision } = await framed('only those over 10k', first.frame);
    expect(decision.calls).toEqual([{ tool: 'agent.getTake', args: { where: [{ column: 'take', op: 'gt', value: 1_000_000 }], limit: 500 } }]);
    // A change's detail the rules asked for stays the change's question.
    expect((await framed('hedge 10k', first.frame)).decision).toMatchObject({ action: 'clarify', intent: 'hedge' });
  });

  it('never turns an order, or a detail a change is asking for, into a read', async () => {
    for (const text of ['set the highest CL player to 50k', 'set CL to 50k for the player with the lowest credit limit']) {
      const { planned, decision } = await framed(text);
      expect(decision).toEqual(planned);
    }
  });

  it('plans the read a question is about when the planner could not read it: "avg stake today"', async () => {
    const { planned, decision, asks } = await framed('avg stake today');
    expect(planned.action).toBe('clarify');
    expect(decision.calls).toEqual([{ tool: 'agent.getBetHistory', args: { from: '2026-11-20', to: '2026-11-20', limit: 200 } }]);
    expect(asks).toMatchObject([{ aggregate: 'avg', column: 'stake' }]);
  });

  it('answers a question that averages even where the planner heard a change: "average stake on ind v aus"', async () => {
    const { decision, asks } = await framed('average stake on ind v aus');
    expect(decision.calls).toMatchObject([{ tool: 'agent.getBetHistory', args: { fixture: expect.any(String) } }]);
    expect(asks).toMatchObject([{ aggregate: 'avg', column: 'stake' }]);
  });

  it('keeps an order the planner read from the words: "10 most recent bets" is not ranked by stake', async () => {
    const { decision, asks } = await framed('anitas 10 most recent bets');
    expect(asks).toEqual([]);
    expect(decision.calls[0]!.args).toMatchObject({ sort: { by: 'placedAt', dir: 'desc' }, limit: 10 });
  });

  it('ranks by the column the words name over an order the planner guessed: "sorted by potential win" is not by stake', async () => {
    const { planned, decision } = await framed('open bets sorted by potential win, highest first');
    const bets = (d: typeof decision) => d.calls.find((c) => c.tool === 'agent.getBetHistory')!.args;
    expect(bets(planned)).toMatchObject({ sort: { by: 'stake' } });
    expect(bets(decision)).toMatchObject({ status: ['open'], sort: { by: 'potentialWin', dir: 'desc' } });
    // The bets' liability is a column the backend orders by too.
    expect(bets((await framed('top 5 open bets by liability')).decision)).toMatchObject({ sort: { by: 'liability', dir: 'desc' }, limit: 5 });
  });

  it('drops a read the column word echoed when the rows named have the column: "lay bets with liability over 10k" reads no live exposure', async () => {
    const { planned, decision } = await framed('lay bets with liability over 10k in the last 7 days');
    // The planner hears "liability" as the live exposure too; the frame puts the threshold on the bets' own column.
    expect(planned.calls.map((c) => c.tool)).toContain('agent.getLiveExposure');
    expect(decision.calls).toEqual([{
      tool: 'agent.getBetHistory',
      args: { from: '2026-11-14', to: '2026-11-20', side: 'lay', where: [{ column: 'liability', op: 'gt', value: 1_000_000 }], limit: 200 },
    }]);
    // A read with something of its own asked (a match) is no echo, and stays.
    expect((await framed('bets with liability over 10k and exposure on ind aus')).decision.calls.map((c) => c.tool)).toEqual(['agent.getLiveExposure', 'agent.getBetHistory']);
  });

  it('reads "closest to maxing out their credit" as the least available credit first (rows.json)', async () => {
    const { decision } = await framed("who's closest to maxing out their credit");
    expect(decision.calls).toEqual([{ tool: 'agent.getCreditLimit', args: { orderBy: { by: 'available', dir: 'asc' }, limit: 10 } }]);
  });

  it('reads a capitalised name as the name, never as an operator: "show Max bets"', async () => {
    const { decision, asks } = await framed('show Max bets');
    expect(asks).toEqual([]);
    expect(decision.calls).toEqual([{ tool: 'agent.getBetHistory', args: { player: 'max' } }]);
  });

  it('edits the last frame for a follow-up that names no column: "and the least?" after "who owes me the most"', async () => {
    const first = await framed('who owes me the most');
    expect(first.frame).not.toBeNull();
    const { decision, asks } = await framed('and the least?', first.frame);
    expect(decision.calls).toEqual([{ tool: 'agent.getTake', args: { direction: 'owes_you', orderBy: { by: 'take', dir: 'asc' }, limit: 10 } }]);
    expect(asks).toMatchObject([{ extreme: 'min', direction: 'owes_you', column: 'take' }]);
  });
  it('reads a threshold corrected in the same breath as corrected: "bets above 40k no sorry 45k"', async () => {
    const { asks } = await framed('show me bets above 40k no sorry 45k on india australia today');
    expect(asks).toMatchObject([{ filters: [{ column: 'stake', op: 'gt', value: 4_500_000 }] }]);
  });
});
