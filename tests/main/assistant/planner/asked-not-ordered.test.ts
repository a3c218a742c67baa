import { describe, expect, it } from 'vitest';
import { fold } from '../../../../src/main/assistant/planner/grammar.js';
import { INTENTS, RulePlanner, unansweredClause } from '../../../../src/main/assistant/planner/rule-planner.js';
import { asksPermission, howToOf, questionKind } from '../../../../src/main/assistant/planner/question-kind.js';
import { type ConversationContext, EMPTY_CONTEXT, type PlannerInput } from '../../../../src/main/assistant/planner/types.js';
import kinds from '../../../../src/main/assistant/planner/lexicon/question-kinds.json' with { type: 'json' };
import howTo from '../../../../src/main/assistant/planner/lexicon/how-to.json' with { type: 'json' };
import negatives from '../../../../src/main/assistant/planner/lexicon/alert-negatives.json' with { type: 'json' };

const planner = new RulePlanner();
const plan = (text: string, over: Partial<PlannerInput> = {}) => planner.plan({
  requestId: 'r1', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT, ...over,
});
const SYNTAX = ['\\', '|', '(', ')', '[', ']', '*', '+', '?', '{', '}', '^', '$'];

describe('the lexicons of how a request is asked', () => {
  it('holds words and phrases only, each example asking the way its entry says', () => {
    for (const e of [...kinds, ...negatives]) expect(SYNTAX.filter((c) => e.phrase.includes(c)), e.phrase).toEqual([]);
    for (const e of kinds.filter((k) => k.concept !== 'opener' && k.concept !== 'permission')) expect(questionKind(fold(e.example)), e.example).toBe(e.concept);
    // A question of permission is a kind of its own, which the how-to and what-if readers leave alone.
    for (const e of kinds.filter((k) => k.concept === 'permission')) {
      expect(asksPermission(fold(e.example)), e.example).toBe(true);
      expect(questionKind(fold(e.example)), e.example).toBeNull();
    }
    // "can I get …", "may I see …" ask for a thing, not whether the user may.
    for (const text of ['can I get that as an excel?', "may i see rahul's take", 'can we have the pnl']) expect(asksPermission(fold(text)), text).toBe(false);
  });

  it('explains only changes the planner has', () => {
    const ids = new Set(INTENTS.map((i) => i.id));
    expect(Object.keys(howTo).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('reads the kind from the first words only, after an opener', () => {
    expect(questionKind(fold('ok, how do I settle a player?'))).toBe('how_to');
    expect(questionKind(fold('bhai agar main karan ko settle karu'))).toBe('hypothetical');
    expect(questionKind(fold('show me how do i look today'))).toBeNull();
    expect(questionKind(fold("what's my pnl if india wins"))).toBeNull();
  });
});

describe('a change asked about is explained, never proposed', () => {
  it.each([
    ['how do I mute large bet alerts?', 'how_to:mute_alerts'],
    ["how do I change a player's credit limit?", 'how_to:edit_limit'],
    ['what happens if I settle a player who owes me nothing', 'how_to:settle'],
    ['report kaise banaye', 'how_to:report'],
  ])('%s → %s', (text, intent) => {
    const d = plan(text);
    expect(d.action).toBe('direct');
    expect(d.intent).toBe(intent);
    expect(howToOf(d.intent)).toMatch(/confirm|Tell me|Ask for it/);
  });

  it('leaves a hypothetical that names someone to the read of what it would move', () => {
    expect(plan('what if I lay india?').intent).not.toMatch(/^how_to:/);
  });
});

describe('alerts refused in words of their own are muted', () => {
  it.each(negatives.map((e) => [e.example] as const))('%s', (text) => {
    expect(plan(text).calls.map((c) => c.tool)).toEqual(['agent.muteAlerts']);
  });
  it('not when no kind of alert is said', () => {
    expect(plan('stop telling me').calls.map((c) => c.tool)).not.toContain('agent.muteAlerts');
  });
});

describe('a hedge changed only in its side or outcome keeps its stake', () => {
  const after: ConversationContext = {
    ...EMPTY_CONTEXT, lastIntent: 'hedge',
    lastCalls: [{ tool: 'agent.placeHedgeBet', args: { fixture: 'ind v aus', market: 'match odds', outcome: 'india', side: 'back', stake: 1_000_000 } }],
  };
  it('flips the side', () => {
    expect(plan('make it a lay', { context: after }).calls).toEqual([
      { tool: 'agent.placeHedgeBet', args: { fixture: 'ind v aus', market: 'match odds', outcome: 'india', side: 'lay', stake: 1_000_000 } },
    ]);
    expect(plan('khai kar do', { context: after }).calls[0]?.args).toMatchObject({ side: 'lay', stake: 1_000_000 });
  });
  it('moves to another outcome', () => {
    expect(plan('actually on australia', { context: after }).calls[0]?.args).toMatchObject({ outcome: 'australia', side: 'back', stake: 1_000_000 });
  });
  it('proposes nothing when asked, or with nothing of a hedge changed', () => {
    expect(plan('would a lay be better?', { context: after }).calls.filter((c) => c.tool === 'agent.placeHedgeBet')).toEqual([]);
    expect(plan('what about rahul', { context: after }).calls.filter((c) => c.tool === 'agent.placeHedgeBet')).toEqual([]);
  });
});

describe('reports in both formats, or the other one after', () => {
  it('makes one report in each format asked', () => {
    const d = plan('pnl per player last month in excel and pdf both');
    expect(d.calls.map((c) => [c.tool, c.args.format])).toEqual([['agent.generateReport', 'xlsx'], ['agent.generateReport', 'pdf']]);
    expect(d.calls[0]!.args.template).toBe('per_player_pnl');
    expect(d.calls[1]!.args.template).toBe('per_player_pnl');
  });
  it('makes the last report again in the format asked next', () => {
    const context: ConversationContext = {
      ...EMPTY_CONTEXT, lastIntent: 'report',
      lastCalls: [{ tool: 'agent.generateReport', args: { template: 'per_player_pnl', format: 'xlsx', filters: { from: '2026-10-01', to: '2026-10-31' } } }],
    };
    expect(plan('pdf bhi chahiye', { context }).calls).toEqual([
      { tool: 'agent.generateReport', args: { template: 'per_player_pnl', format: 'pdf', filters: { from: '2026-10-01', to: '2026-10-31' } } },
    ]);
  });
});

describe('confidence of a plan that guesses', () => {
  it('is below the fast path when one clause that joins nothing is read as two reads', () => {
    const guessed = plan('Has Neha Gupta paid what she owes us yet?');
    expect(guessed.calls.length).toBeGreaterThan(1);
    expect(guessed.confidence).toBeLessThan(0.85);
    const joined = plan('my pnl and my exposure');
    expect(joined.calls.map((c) => c.tool).sort()).toEqual(['agent.getLiveExposure', 'agent.getPnL']);
    expect(joined.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('is below the fast path when a payment asked about is read as what happened or what is owed', () => {
    expect(plan('did Karan pay?').confidence).toBeLessThan(0.85);
    expect(plan('settle Karan').confidence).toBeGreaterThanOrEqual(0.85);
  });
});

describe('a payment still owed, asked about', () => {
  it('is the take, not the settlements that happened', () => {
    expect(plan('how much do I have to pay vikram').calls.map((c) => c.tool)).toEqual(['agent.getTake']);
    expect(plan('what must Karan pay me').calls.map((c) => c.tool)).toEqual(['agent.getTake']);
    expect(plan('did Karan pay?').calls.map((c) => c.tool)).toEqual(['agent.getSettlementHistory']);
  });
});

describe('a plan that leaves a clause unanswered', () => {
  const input: PlannerInput = { requestId: 'r1', text: 'pnl today, and how much did Karan bet?', page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT };
  const pnl = { tool: 'agent.getPnL', args: {} };
  const bets = { tool: 'agent.getBetHistory', args: { player: 'karan' } };
  it('is below the fast path', () => {
    expect(unansweredClause({ request_id: 'r1', intent: 'pnl', action: 'tools', calls: [pnl], confidence: 0.9 }, input).confidence).toBeLessThan(0.85);
  });
  it('keeps its confidence when every clause has its call', () => {
    expect(unansweredClause({ request_id: 'r1', intent: 'pnl+bets', action: 'tools', calls: [pnl, bets], confidence: 0.9 }, input).confidence).toBe(0.9);
    expect(unansweredClause({ request_id: 'r1', intent: 'pnl', action: 'tools', calls: [pnl], confidence: 0.9 }, { ...input, text: 'pnl today' }).confidence).toBe(0.9);
  });
});

describe('a change with a read asked beside it in words no clause splitter knows', () => {
  it('is below the fast path when the read is missing from the plan', () => {
    const d = plan('deepak nu CL 25k kar ane eno balance pan dikha');
    expect(d.calls.map((c) => c.tool)).toEqual(['agent.editLimit']);
    expect(d.confidence).toBeLessThan(0.85);
    expect(plan("set Rahul Sharma's credit limit to 50k").confidence).toBeGreaterThanOrEqual(0.85);
    expect(plan('settle 5k with Deepak').confidence).toBeGreaterThanOrEqual(0.85);
  });
});

