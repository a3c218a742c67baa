// The guess rules (planner/confidence.ts): each way a rules plan is known to be unsure puts it
// below the fast path, named in its notes; what the plan does stays the same.
import { describe, expect, it } from 'vitest';
import { ClaudeBrain } from '../../../../src/main/assistant/claude/brain.js';
import { GUESSED, GUESSES, withGuesses } from '../../../../src/main/assistant/planner/confidence.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT, type PlannerInput } from '../../../../src/main/assistant/planner/types.js';
import type { Decision } from '../../../../src/shared/contracts/assistant.js';

const planner = new RulePlanner();
const plan = (text: string, over: Partial<PlannerInput> = {}) => planner.plan({
  requestId: 'r1', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT, ...over,
});
const guessOf = (d: Decision) => /guess: (\w+)/.exec(d.notes ?? '')?.[1] ?? null;

describe('a plan the rules guess at', () => {
  it('is below the fast path when a change asks a detail while the words ask for another request too', () => {
    const d = plan("set anita's limit and show her pnl");
    expect(d.action).toBe('clarify');
    expect(guessOf(d)).toBe('clarify_beside_request');
    expect(ClaudeBrain.confident(d)).toBe(false);
  });

  it('is below the fast path when a statement of a payment is read as the payments made', () => {
    const d = plan('sneha paid 15k cash this morning');
    expect(d.calls.map((c) => c.tool)).toEqual(['agent.getSettlementHistory']);
    expect(guessOf(d)).toBe('statement_read_as_history');
    expect(d.confidence).toBe(GUESSED);
  });

  it('is below the fast path when words read as a name are carried by no call', () => {
    const d = plan('exposure on Ind v Aus and on the tennis');
    expect(d.calls).toHaveLength(1);
    expect(guessOf(d)).toBe('name_left_unread');
    expect(ClaudeBrain.confident(d)).toBe(false);
  });

  it('is below the fast path when a match is named and no call reads it', () => {
    const d = plan('how deep in the hole am i on india australia');
    expect(d.calls.every((c) => c.args.fixture === undefined)).toBe(true);
    expect(guessOf(d)).toBe('match_left_unread');
    expect(ClaudeBrain.confident(d)).toBe(false);
  });

  it('is below the fast path when a market is named and no call reads it', () => {
    // No match is said, so the market is of none the plan knows: the whole book's exposure is a guess.
    const d = plan('total runs over 300.5 market ka expo', { page: { path: '/agent/exposure', query: {} } });
    expect(d.calls).toEqual([{ tool: 'agent.getLiveExposure', args: {} }]);
    expect(guessOf(d)).toBe('match_left_unread');
    expect(ClaudeBrain.confident(d)).toBe(false);
  });

  it('is below the fast path when an order is read as a read while a change\'s verb stands in a form no lexicon has', () => {
    for (const text of ["I want Arjun's CL doubled", "Arjun's limit should be doubled"]) {
      const d = plan(text);
      expect(d.calls.map((c) => c.tool), text).toEqual(['agent.getCreditLimit']);
      expect(guessOf(d), text).toBe('change_word_left_unread');
      expect(ClaudeBrain.confident(d), text).toBe(false);
    }
    // A question about a change ("would lowering …") is no order: its read stands.
    expect(guessOf(plan("would lowering Irfan's per click help do u think?"))).toBeNull();
  });

  it('leaves a plan that reads every word sure', () => {
    for (const text of ['show my pnl', "what is Rahul Sharma's credit limit", 'top 5 markets by exposure today', 'settle Rahul Sharma fully']) {
      const d = plan(text);
      expect(guessOf(d), text).toBeNull();
      expect(ClaudeBrain.confident(d), text).toBe(true);
    }
  });

  it('a supposition answered with someone\'s figures is a guess; the same figures asked plainly are not', () => {
    expect(guessOf(plan("If I lower Vivek's CL below his take, what happens?"))).toBe('supposed_read');
    expect(guessOf(plan("what is Vivek's CL"))).toBeNull();
    // A supposed change with its amount is still read as the figures it would move offline, and still a guess: what would happen is asked.
    for (const text of ["what if I set Karan's CL to 1 lakh?", "what happens if I set Karan's CL to 0", 'agar main sneha ka limit 0 kar doon toh kya hoga']) {
      const d = plan(text);
      expect(d.calls.map((c) => c.tool), text).toEqual(['agent.getCreditLimit']);
      expect(guessOf(d), text).toBe('supposed_read');
    }
  });

  it('is below the fast path when a change is planned beside a sum of money no call carries', () => {
    const d = plan('vivek ne 5k diye, aur uska CL 30k kar do');
    expect(d.calls.map((c) => c.tool)).toEqual(['agent.editLimit']);
    expect(guessOf(d)).toBe('amount_left_unread');
    expect(ClaudeBrain.confident(d)).toBe(false);
    // A question naming a figure is no change left aside (a question of permission is its own guess).
    expect(guessOf(plan("can I raise Karan's CL to 60k?"))).toBe('permission_read');
    expect(guessOf(plan('set rahul cl 50k'))).toBeNull();
  });

  it('is below the fast path when a question of what the user may do is answered with the figures of the change it names', () => {
    for (const text of ["can I edit limits for arjun's players from my login?", "Can I change the credit limit of one of Priya's players myself, or does it have to go through her?"]) {
      const d = plan(text);
      expect(d.calls.map((c) => c.tool), text).toEqual(['agent.getCreditLimit']);
      expect(guessOf(d), text).toBe('permission_read');
    }
    // A polite request is no question of permission: it names no change.
    expect(guessOf(plan("can i see rahul's pnl"))).toBeNull();
  });

  it('is below the fast path when the message corrects itself where the planner cannot tell what the correction replaces', () => {
    for (const text of [
      "Ugh sorry, long day. Show me Karan's open bets. No wait, I meant Sneha, Sneha Iyer, Karan's fine.",
      'Which bets on the India match have a stake of more than 50k? Sorry, I mean India vs Australia, not the South Africa one from October.',
    ]) {
      const d = plan(text);
      expect(guessOf(d), text).toBe('correction_left_unread');
      expect(ClaudeBrain.confident(d), text).toBe(false);
    }
    // A slip put right in the same breath is read as corrected, and an apology opening a question corrects nothing.
    expect(guessOf(plan("show me anita's no sorry sneha's bets"))).not.toBe('correction_left_unread');
    expect(guessOf(plan('ten thousand no sorry fifteen thousand for rahul ka CL'))).not.toBe('correction_left_unread');
    expect(guessOf(plan('sorry, what does CL mean'))).toBeNull();
  });

  it('is below the fast path when a follow-up naming nothing leaves both the last read\'s table and who it was of', () => {
    const first = plan("Karan's statement");
    const context = { ...EMPTY_CONTEXT, lastCalls: first.calls, lastIntent: first.intent };
    const d = plan('just the settlements', { context });
    expect(d.calls.map((c) => c.tool)).not.toContain('agent.getStatement');
    expect(guessOf(d)).toBe('subject_dropped');
    expect(ClaudeBrain.confident(d)).toBe(false);
    // A follow-up that keeps him, or names someone itself, is sure.
    expect(guessOf(plan('and his bets', { context }))).toBeNull();
    expect(guessOf(plan("sneha's settlements", { context }))).not.toBe('subject_dropped');
  });

  it('leaves a follow-up alone: it leans on the conversation, not on its words', () => {
    const context = { ...EMPTY_CONTEXT, lastCalls: [{ tool: 'agent.getPnL', args: { from: '2026-11-20', to: '2026-11-20' } }], lastIntent: 'pnl' };
    expect(guessOf(plan('and for the tennis', { context }))).not.toBe('name_left_unread');
  });

  it('never raises a confidence, and names each rule once', () => {
    const low: Decision = { request_id: 'r', intent: 'pnl', action: 'tools', calls: [{ tool: 'agent.getPnL', args: {} }], confidence: 0.5 };
    const evidence = { act: 'statement' as const, triggered: new Set(['pnl', 'take']), writes: new Set<string>(), twins: new Map([['settle', 'pnl']]), unusedNames: ['x'], unusedFixture: false, unusedAmounts: 0, followsUp: false, changeWordUnread: false, supposes: false, asksPermission: false, correctionLeft: false, subjectDropped: false };
    expect(withGuesses(low, evidence)).toBe(low);
    expect(withGuesses({ ...low, confidence: 0.9 }, evidence).confidence).toBe(GUESSED);
    expect(new Set(GUESSES.map((g) => g.id)).size).toBe(GUESSES.length);
  });
});
