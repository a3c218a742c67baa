// The eval report (scripts/eval.ts): accuracy per category and the confusion table of expected
// against planned intent, aggregated by pure functions of the harness.
import { describe, expect, it } from 'vitest';
import {
  type CaseResult, type EvalCase, EVAL_CATEGORIES, categoryOf, evalCaseSchema, expectedLabel, formatReport, labelMatches,
  plannedLabel, summarizeResults,
} from '../../scripts/eval-harness.js';
import type { TurnRecord } from '../../src/main/assistant/assistant.js';

const result = (id: string, category: string | undefined, expected: string, planned: string, pass: boolean): CaseResult => ({
  id, difference: pass ? null : 'differs', ...(category !== undefined && { category }), expected, planned,
});

const evalCase = (over: Record<string, unknown>): EvalCase => evalCaseSchema.parse({
  id: 'c', user: 'priya', now: '2026-11-20T12:00:00+05:30', query: 'q', expect: { action: 'tools' }, ...over,
});

const record = (over: Partial<TurnRecord>): TurnRecord => ({
  requestId: 'r', userId: 'u', planner: 'rules', intent: 'pnl', outcome: 'answered', calls: [], clarify: null, picker: null,
  envelopes: [], flaggedFigures: [], notes: [], timingsMs: { plan: 0, gate: 0, tools: 0, total: 0 }, epochMs: { start: 0, card: null }, usage: null, fallback: null, rowAsks: [], ...over,
});

describe('summarizeResults', () => {
  it('counts passes per category, in the fixed order and then others by name', () => {
    const report = summarizeResults([
      result('a', 'typos', 'agent.getPnL', 'agent.getPnL', true),
      result('b', 'names', 'agent.getTake', 'agent.getTake', false),
      result('c', 'typos', 'agent.getPnL', 'clarify', false),
      result('d', 'zzz', 'direct', 'direct', true),
      result('e', 'names', 'agent.getTake', 'agent.getTake', true),
      result('f', undefined, 'direct', 'direct', true),
    ]);
    expect(report.passed).toBe(4);
    expect(report.total).toBe(6);
    expect(report.categories).toEqual([
      { category: 'names', passed: 1, total: 2 },
      { category: 'typos', passed: 1, total: 2 },
      { category: 'uncategorised', passed: 1, total: 1 },
      { category: 'zzz', passed: 1, total: 1 },
    ]);
  });

  it('lists only the off-diagonal pairs, most frequent first, and the diagonal per expected label', () => {
    const report = summarizeResults([
      result('1', 'question_not_write', 'agent.getSettlementHistory', 'agent.settlePlayer', false),
      result('2', 'question_not_write', 'agent.getSettlementHistory', 'agent.settlePlayer', false),
      result('3', 'question_not_write', 'agent.getSettlementHistory', 'agent.getSettlementHistory', true),
      result('4', 'refusal', 'clarify', 'agent.editLimit', false),
      result('5', 'ranking', 'agent.getTake|agent.getPnL', 'agent.getPnL', true),
      result('6', 'refusal', 'clarify|direct', 'direct', true),
      // A diagonal plan can still fail the case (wrong arguments): the table is about intent only.
      result('7', 'dates', 'agent.getPnL', 'agent.getPnL', false),
    ]);
    expect(report.confusion).toEqual([
      { expected: 'agent.getSettlementHistory', planned: 'agent.settlePlayer', count: 2 },
      { expected: 'clarify', planned: 'agent.editLimit', count: 1 },
    ]);
    expect(report.diagonal).toEqual([
      { expected: 'agent.getPnL', count: 1, total: 1 },
      { expected: 'agent.getSettlementHistory', count: 1, total: 3 },
      { expected: 'agent.getTake|agent.getPnL', count: 1, total: 1 },
      { expected: 'clarify', count: 0, total: 1 },
      { expected: 'clarify|direct', count: 1, total: 1 },
    ]);
  });

  it('is empty for no results', () => {
    expect(summarizeResults([])).toEqual({ passed: 0, total: 0, categories: [], diagonal: [], confusion: [] });
  });
});

describe('formatReport', () => {
  it('prints the accuracy per category with a total, the off-diagonal pairs and the diagonal totals', () => {
    const lines = formatReport(summarizeResults([
      result('1', 'names', 'agent.getTake', 'agent.getTake', true),
      result('2', 'names', 'agent.getTake', 'agent.settlePlayer', false),
      result('3', 'direct', 'direct', 'direct', true),
    ]));
    expect(lines[0]).toBe('accuracy by category:');
    expect(lines[1]).toMatch(/^ {2}names +1\/2 +50\.0%$/);
    expect(lines[2]).toMatch(/^ {2}direct +1\/1 +100\.0%$/);
    expect(lines[3]).toMatch(/^ {2}all +2\/3 +66\.7%$/);
    expect(lines).toContain('  getTake → settlePlayer: 1');
    expect(lines).toContain('diagonal (planned as expected): 2/3');
    expect(lines).toContain('  getTake: 1/2');
    expect(lines.some((l) => /^eval:/.test(l))).toBe(false);
  });

  it('says so when nothing is off the diagonal', () => {
    expect(formatReport(summarizeResults([result('1', 'direct', 'direct', 'direct', true)]))).toContain('  (none)');
  });
});

describe('labels', () => {
  it('expected: the first expected tool, its alternatives, search, or the action', () => {
    expect(expectedLabel({ action: 'tools', calls: [{ tool: 'agent.getPnL', args: {} }, { tool: 'agent.getTake', args: {} }] })).toBe('agent.getPnL');
    expect(expectedLabel({ action: 'tools', calls: [{ tool: ['agent.getTake', 'agent.getPnL'], args: {} }] })).toBe('agent.getTake|agent.getPnL');
    expect(expectedLabel({ action: 'tools', calls: [] })).toBe('search');
    expect(expectedLabel({ action: ['clarify', 'direct'] })).toBe('clarify|direct');
    expect(expectedLabel({ action: 'tools' })).toBe('tools');
  });

  it('planned: the first tool other than a name search, search alone, else the action', () => {
    expect(plannedLabel(record({ calls: [{ tool: 'agent.searchPlayers', args: {} }, { tool: 'agent.getTake', args: {} }] }))).toBe('agent.getTake');
    expect(plannedLabel(record({ calls: [{ tool: 'agent.searchPlayers', args: {} }] }))).toBe('search');
    expect(plannedLabel(record({ calls: [{ tool: 'agent.searchPlayers', args: {} }], clarify: { reason: 'ambiguous_player', question: '?' } }))).toBe('clarify');
    expect(plannedLabel(record({ outcome: 'direct' }))).toBe('direct');
    // Calls match in any order: the expected tool, when planned, is the one the table counts.
    const two = record({ calls: [{ tool: 'agent.getTake', args: {} }, { tool: 'agent.getBetHistory', args: {} }] });
    expect(plannedLabel(two, 'agent.getBetHistory')).toBe('agent.getBetHistory');
    expect(plannedLabel(two, 'agent.getPnL|agent.getBetHistory')).toBe('agent.getBetHistory');
    expect(plannedLabel(two, 'agent.getPnL')).toBe('agent.getTake');
  });

  it('a planned label matches one of the alternatives, and any tool matches `tools`', () => {
    expect(labelMatches('agent.getTake|agent.getPnL', 'agent.getPnL')).toBe(true);
    expect(labelMatches('tools|clarify', 'agent.getTake')).toBe(true);
    expect(labelMatches('tools|clarify', 'direct')).toBe(false);
    expect(labelMatches('search', 'search')).toBe(true);
  });
});

describe('categoryOf', () => {
  it('keeps a case’s own category', () => {
    expect(categoryOf(evalCase({ category: 'typos', expect: { action: 'direct' } }))).toBe('typos');
  });

  it('derives one of the fixed categories for a case without one (the public golden set)', () => {
    const derived = (over: Record<string, unknown>) => categoryOf(evalCase(over));
    expect(derived({ history: ['pnl last week'], expect: { action: 'tools', calls: [{ tool: 'agent.getPnL', args: {} }] } })).toBe('follow_up');
    expect(derived({ expect: { action: 'direct' } })).toBe('direct');
    expect(derived({ expect: { action: 'clarify', picker: ['A', 'B'] } })).toBe('names');
    expect(derived({ expect: { action: 'clarify', reason: 'player_not_found' } })).toBe('names');
    expect(derived({ expect: { action: 'clarify', reason: 'fixture_not_found' } })).toBe('fixtures');
    expect(derived({ expect: { action: ['clarify', 'direct'] } })).toBe('refusal');
    expect(derived({ expect: { action: 'clarify', reason: 'needs_amount' } })).toBe('refusal');
    expect(derived({ expect: { action: 'tools', calls: [{ tool: 'agent.getPnL', args: {} }, { tool: 'agent.getTake', args: {} }] } })).toBe('multi_part');
    expect(derived({ expect: { action: 'tools', calls: [] } })).toBe('search');
    expect(derived({ expect: { action: 'tools', calls: [{ tool: 'agent.settlePlayer', args: { playerId: 'x' } }] } })).toBe('actions');
    expect(derived({ expect: { action: 'tools', calls: [{ tool: 'agent.generateReport', args: {} }] } })).toBe('actions');
    expect(derived({ expect: { action: 'tools', calls: [{ tool: 'agent.getPnL', args: { fixtureId: 'f', from: '2026-11-20' } }] } })).toBe('fixtures');
    expect(derived({ expect: { action: 'tools', calls: [{ tool: 'agent.getPnL', args: { playerId: 'p', from: '2026-11-20' } }] } })).toBe('names');
    expect(derived({ expect: { action: 'tools', calls: [{ tool: 'agent.getPnL', args: { from: '2026-11-20' } }] } })).toBe('dates');
    expect(derived({ expect: { action: 'tools', calls: [{ tool: 'agent.getTopMarkets', args: { period: 'week' } }] } })).toBe('ranking');
    expect(derived({ expect: { action: 'tools', calls: [{ tool: 'agent.getDownline', args: {} }] } })).toBe('everyday_words');
    for (const over of [{ expect: { action: 'direct' } }, { expect: { action: 'tools', calls: [] } }]) {
      expect(EVAL_CATEGORIES).toContain(derived(over));
    }
  });
});
