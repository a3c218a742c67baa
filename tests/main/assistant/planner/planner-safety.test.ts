/**
 * The planner's safety rules over generated wordings, not only the eval cases:
 * a question never plans a change, a negative or zero amount never becomes a change, and a player
 * the user named is in the plan or asked about, never dropped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../../src/shared/contracts/assistant.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT } from '../../../../src/main/assistant/planner/types.js';
import { TOOL_MODULES } from '../../../../src/main/tools/index.js';

const planner = new RulePlanner();
const WRITES = new Set<string>(TOOL_MODULES.filter((m) => m.isDestructive).map((m) => m.name));
const plan = (text: string): Decision =>
  planner.plan({ requestId: 'r', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT }) as Decision;
const writesIn = (d: Decision) => d.calls.filter((c) => WRITES.has(c.tool));

// 'Happy Singh' and 'Major' are everyday words too (grammar.ts EVERYDAY): typed as names, they stay names.
const name = fc.constantFrom('Rahul', 'Karan Malhotra', 'Tanvir', 'Bhavna Rao', 'Sneha', 'Jugnu', 'Oswald Pinto', 'Meher', 'Happy Singh', 'Major');
const amount = fc.constantFrom('5000', '50k', '1 lakh', '2.5L', '₹20,000', 'fifty thousand', 'do lakh', '10 hazaar');
/** Wordings a property: 100 in `npm test`, more in `npm run test:stress` (CI) through PLANNER_SAFETY_RUNS. */
const run = { numRuns: Number(process.env.PLANNER_SAFETY_RUNS) || 100, seed: 4242 };

describe('planner safety over generated wordings', () => {
  it('a question about money or limits never plans a change', () => {
    const question = fc.tuple(name, amount, fc.constantFrom(
      'has {n} paid?', 'did {n} settle up?', 'has {n} sent the {a}?', 'did {n} pay the {a} yet', 'is {n} all clear?',
      'kya {n} ne {a} diye?', '{n} ne paisa bheja kya', 'should I settle {n}?', "is {n}'s CL {a}?", 'can I set CL for {n} to {a}?',
      'what is the credit limit of {n}?', 'did I settle with {n} last week?', 'has {n} cleared the {a}', '{n} ka hisaab clear hai kya?',
      'who still owes me?', 'did anyone pay today?', 'how much should I collect from {n}?', 'was the limit for {n} raised to {a}?',
      'should I hedge {a} on India?', '{n} paid {a}?',
    )).map(([n, a, t]) => t.replaceAll('{n}', n).replaceAll('{a}', a));
    fc.assert(fc.property(question, (text) => {
      expect(writesIn(plan(text)), text).toEqual([]);
    }), run);
  });

  it('a negative or zero amount is refused with the reason, never planned as a change', () => {
    const order = fc.tuple(name, fc.constantFrom('-50000', '-50k', '−5 lakh', 'minus 20000', '0', '0 points', '-1'), fc.constantFrom(
      'set CL for {n} to {a}', "change {n}'s credit limit to {a}", 'settle {a} with {n}', '{n} ka CL {a} kar do', 'set min stake for {n} to {a}',
    )).map(([n, a, t]) => t.replaceAll('{n}', n).replaceAll('{a}', a));
    fc.assert(fc.property(order, (text) => {
      const d = plan(text);
      expect(writesIn(d), text).toEqual([]);
      expect(d.action, text).toBe('clarify');
      expect(d.clarify?.reason, text).toBe('needs_amount');
    }), run);
  });

  it('a limit changed by an amount (more, extra, add, by) is a change by it, up or down as said, never the amount as the new value', () => {
    const change = fc.tuple(name, amount, fc.constantFrom(
      ['give {n} {a} more credit', 1], ['give {n} another {a} of credit', 1], ["add {a} to {n}'s credit limit", 1], ["increase {n}'s CL by {a}", 1],
      ['{n} ka CL {a} aur badha do', 1], ['{n} ki limit {a} zyada kar do', 1], ["top up {n}'s credit limit with {a}", 1], ["{n}'s credit limit +{a}", 1],
      ["bump {n}'s limit an extra {a}", 1], ["raise {n}'s credit by an additional {a}", 1], ["cut {n}'s CL by {a}", -1], ['{n} ka CL {a} kam kar do', -1],
      ["lower {n}'s credit limit {a} less", -1],
    )).map(([n, a, [t, sign]]) => [t.replaceAll('{n}', n).replaceAll('{a}', a), sign] as const);
    let planned = 0;
    fc.assert(fc.property(change, ([text, sign]) => {
      const d = plan(text);
      const writes = writesIn(d);
      // Asked about ("how much?") is safe too; a change is only ever by the amount, the way it was said.
      if (writes.length === 0) {
        expect([d.action, d.clarify?.reason], text).toEqual(['clarify', 'needs_amount']);
        return;
      }
      planned++;
      expect(writes.map((c) => c.tool), text).toEqual(['agent.editLimit']);
      expect(writes[0]!.args.newValue, text).toBeUndefined();
      expect(Math.sign(writes[0]!.args.changeBy as number), text).toBe(sign);
    }), run);
    expect(planned).toBeGreaterThan(run.numRuns / 2);
  });

  it('a change by an amount whose direction is not said is asked about', () => {
    for (const text of ["change Karan's limit by 10k", "adjust sneha's CL by 5000"]) {
      const d = plan(text);
      expect(writesIn(d), text).toEqual([]);
      expect([d.action, d.clarify?.reason], text).toEqual(['clarify', 'needs_amount']);
    }
  });

  it('a player named with a read is in the plan (for the gate to resolve), never dropped', () => {
    const read = fc.tuple(name, fc.constantFrom(
      'pnl for {n} yesterday', "{n}'s commission last month", 'how much does {n} owe', "{n} ka udhaar", 'bets of {n} this week', 'comission for {n}',
      'open bets for {n}', 'credit limit of {n}', '{n} ka pnl aaj',
    )).map(([n, t]) => [n, t.replaceAll('{n}', n)] as const);
    fc.assert(fc.property(read, ([who, text]) => {
      const d = plan(text);
      expect(d.action, text).toBe('tools');
      expect(d.calls.some((c) => typeof c.args.player === 'string' && c.args.player.toLowerCase() === who.toLowerCase()), `${text} → ${JSON.stringify(d.calls)}`).toBe(true);
    }), run);
  });

  it('an amount in words is planned as said, or not at all: never a part of it read as the whole', () => {
    const said: Array<[string, number | null]> = [
      ['half a lakh', 5_000_000], ['half lakh', 5_000_000], ['aadha lakh', 5_000_000], ['a quarter of a lakh', 2_500_000],
      ['two and a quarter lakh', 22_500_000], ['one and a half lakh', 15_000_000], ['five two lakh', null],
    ];
    for (const [words, paisa] of said) {
      const text = `settle ${words} with Karan`;
      const d = plan(text);
      if (paisa === null) {
        expect([d.action, d.clarify?.reason], text).toEqual(['clarify', 'needs_amount']);
      } else {
        expect(writesIn(d).map((c) => c.args.amount), text).toEqual([paisa]);
      }
    }
  });

  it('after a proposal, a new amount asked as a question proposes nothing', () => {
    const proposals = [
      { tool: 'agent.settlePlayer', args: { player: 'karan', mode: 'amount', amount: 2_000_000 } },
      { tool: 'agent.editLimit', args: { player: 'karan', limitType: 'creditLimit', newValue: 5_000_000 } },
    ];
    const asked = fc.tuple(fc.constantFrom(...proposals), amount, fc.constantFrom(
      'should I make it {a}?', 'would {a} be better?', 'can I change it to {a}?', 'is {a} instead ok?', 'kya {a} kar du?',
    )).map(([last, a, t]) => [last, t.replaceAll('{a}', a)] as const);
    fc.assert(fc.property(asked, ([last, text]) => {
      const d = planner.plan({
        requestId: 'r', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent',
        context: { ...EMPTY_CONTEXT, lastCalls: [last], lastIntent: 'settle' },
      }) as Decision;
      expect(writesIn(d), text).toEqual([]);
    }), run);
  });

  it('a change whose limit is a word the desk has no limit for asks which limit, never defaults to the credit limit', () => {
    const unknown = fc.constantFrom('wager', 'betting', 'bet', 'stake', 'loss', 'daily', 'weekly', 'xyz', 'spending', 'jeet', 'payout', 'haar');
    const order = fc.tuple(name, amount, unknown, fc.constantFrom(
      "set {n}'s {w} limit to {a}", "set {n}'s {w} cap to {a}", '{n} ki {w} limit {a} kar do', '{n} ki {w} ki limit {a} kar do', '{n} ka max {w} {a} kar do',
      "change the {w} limit for {n} to {a}", "set {n}'s max {w} to {a}", 'set the limit on {w} for {n} to {a}',
    )).map(([n, a, w, t]) => t.replaceAll('{n}', n).replaceAll('{a}', a).replaceAll('{w}', w));
    fc.assert(fc.property(order, (text) => {
      const d = plan(text);
      expect(writesIn(d), text).toEqual([]);
      expect(d.action, text).toBe('clarify');
      // "change the bet limit…" also reads as changing a bet, which is refused outright: either way, no credit limit.
      expect(['needs_limit_type', 'not_allowed'], text).toContain(d.clarify?.reason);
    }), run);
  });

  it('a change naming its limit proposes that limit; a bare "limit" is the credit limit', () => {
    const said = fc.tuple(name, amount, fc.constantFrom(
      ["set {n}'s daily win limit to {a}", 'aggregateDailyWin'], ["set {n}'s per bet win to {a}", 'perClickWin'], ["set {n}'s min stake to {a}", 'minStake'],
      ["set {n}'s CL to {a}", 'creditLimit'], ['{n} ka credit limit {a} kar do', 'creditLimit'], ["raise {n}'s limit to {a}", 'creditLimit'], ['{n} ki max limit {a} kar do', 'creditLimit'],
    )).map(([n, a, [t, type]]) => [t.replaceAll('{n}', n).replaceAll('{a}', a), type] as const);
    fc.assert(fc.property(said, ([text, type]) => {
      const d = plan(text);
      // An amount the rules refuse (beyond the platform maximum, say) is asked about: never another limit.
      if (d.action === 'clarify') expect(d.clarify?.reason, text).toBe('needs_amount');
      else expect(writesIn(d).map((c) => c.args.limitType), text).toEqual([type]);
    }), run);
  });
});
