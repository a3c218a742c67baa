import { describe, expect, it } from 'vitest';
import { fold } from '../../../../src/main/assistant/planner/grammar.js';
import { INTENT_LEXICONS, INTENT_RULES, found, holds, ruleHolds } from '../../../../src/main/assistant/planner/intents/concepts.js';
import { entrySchema } from '../../../../src/main/assistant/planner/lexicon.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { type ConversationContext, EMPTY_CONTEXT } from '../../../../src/main/assistant/planner/types.js';

const plan = (text: string, context: ConversationContext = EMPTY_CONTEXT) => new RulePlanner().plan({
  requestId: 'r', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context,
});

describe("the intents' words, as data", () => {
  const entries = Object.entries(INTENT_LEXICONS).flatMap(([file, list]) => list.map((e) => [file, e.phrase, e.concept, e.example] as const));

  it.each(entries)('%s: "%s" → %s is said in its example "%s"', (_file, _phrase, concept, example) => {
    expect(found(fold(example), concept).length, `"${example}" says ${concept}`).toBeGreaterThan(0);
  });

  it.each(INTENT_RULES.map((r) => [r.id, r.example, r] as const))('rule %s holds for its example "%s"', (_id, example, rule) => {
    expect(ruleHolds(fold(example), rule)).toBe(true);
  });

  it('names each concept by its intent, and refuses a pattern for a phrase', () => {
    for (const [, , concept] of entries) expect(concept).toContain(':');
    expect(() => entrySchema.parse({ phrase: 'bets?', concept: 'bets:bet_noun', lang: 'en', example: 'bets' })).toThrow();
    expect(() => found('settle deepak', 'settle:no_such_concept')).toThrow();
    expect(() => holds('settle deepak', 'settle:no_such_rule')).toThrow();
  });

  it('reads concepts in order, on tokens', () => {
    expect(holds(fold('will sneha open bets settle today'), 'settle:bets_settle')).toBe(true);
    expect(holds(fold('settle sneha, her bets are open'), 'settle:bets_settle')).toBe(false);
    // "…3": at most three words between.
    expect(holds(fold('mujhe upar kitna dene hai'), 'up:i_owe')).toBe(true);
    expect(holds(fold('mujhe aaj upar waale ko kitna dene hai'), 'up:i_owe')).toBe(false);
  });
});

describe('what the intents read from their words', () => {
  const args = (text: string, context?: ConversationContext) => {
    const d = plan(text, context);
    expect(d.calls, text).toHaveLength(1);
    return d.calls[0]!.args;
  };

  it.each([
    ['deepak ke bets chhote stake se bade tak', { by: 'stake', dir: 'asc' }],
    ['show rahul bets sorted by odds', { by: 'odds', dir: 'desc' }],
    ['rahul ke bets purani se nayi', { by: 'placedAt', dir: 'asc' }],
    ['smallest stakes of rahul bets', { by: 'stake', dir: 'asc' }],
  ])('bets: %s', (text, sort) => expect(args(text).sort).toEqual(sort));

  it.each([
    ['open lay bets over 5k', 'lay'],
    ['karan ke back bets', 'back'],
    ['aaj ki khai wali bets', 'lay'],
    ['bets on the lay side today', 'lay'],
    // Both sides said, or the trade's "khai lagai" (lay and back), is every bet.
    ['back and lay bets today', undefined],
    ['karan ki saari khai lagai dikha', undefined],
    ['show bets of karan', undefined],
  ])('bets of one side: %s', (text, side) => expect(args(text).side).toBe(side));

  it('a follow-up names the side of the bets just listed', () => {
    const context: ConversationContext = { ...EMPTY_CONTEXT, lastIntent: 'bets', lastCalls: [{ tool: 'agent.getBetHistory', args: { player: 'karan' } }] };
    expect(args('only the lay ones', context)).toEqual({ player: 'karan', side: 'lay' });
  });

  it.each([
    ['mute large bet alerts for 2hrs', { kind: 'large_bet', forMinutes: 120 }],
    ['mute login alerts for half an hour', { kind: 'player_login', forMinutes: 30 }],
    ['mute large bet alerts until 18:30', { kind: 'large_bet', at: '18:30' }],
    ['mute large bet alerts till 6 p m', { kind: 'large_bet', at: '6:00pm' }],
  ])('mute: %s', (text, expected) => expect(args(text)).toMatchObject(expected));

  it.each([
    ['hedge 20k on the draw in eng pak', { outcome: 'the draw', side: 'back' }],
    ['lay 10k on over 2.5 in eng pak', { outcome: 'over 2.5', side: 'lay' }],
    ['lay india for 10k in ind v aus', { outcome: 'india', side: 'lay' }],
  ])('hedge: %s', (text, expected) => expect(args(text)).toMatchObject(expected));

  it('settle: part of a balance asks how much; "sab kuch" is all of it', () => {
    expect(plan('settle part of Ishaan balance').clarify?.reason).toBe('needs_amount');
    expect(plan('karan ka sab kuch settle kar do').clarify?.reason).not.toBe('needs_amount');
  });
});
