import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { belowFastPath, compare, parseCases, runEval } from '../../scripts/eval-harness.js';
import { RulePlanner } from '../../src/main/assistant/planner/rule-planner.js';
import type { TurnRecord } from '../../src/main/assistant/assistant.js';
import { testBookSnapshot } from '../helpers/backend.js';

describe('planner evaluation (npm run eval, npm run eval:ratchet)', () => {
  // The pass rates are the ratchet's (docs/eval.md), a CI step of its own; here only the harness itself, on two cases.
  it('runs a case end to end, and marks a plan sure enough for the fast path as confident', async () => {
    const golden = parseCases(await readFile(new URL('../fixtures/golden.jsonl', import.meta.url), 'utf8'));
    const cases = golden.filter((c) => c.id === 'pnl-today');
    expect(cases).toHaveLength(1);
    const [sure] = await runEval(cases, { planners: () => [new RulePlanner()], from: await testBookSnapshot() });
    expect(sure).toMatchObject({ id: 'pnl-today', difference: null, confident: true });
    // The same plan held under the threshold: the desk would have asked Claude, so it is not a confident one.
    const [unsure] = await runEval(cases, { planners: () => [belowFastPath(new RulePlanner())], from: await testBookSnapshot() });
    expect(unsure).toMatchObject({ id: 'pnl-today', difference: null, confident: false });
  }, 120_000);

  const record = (over: Partial<TurnRecord>): TurnRecord => ({
    requestId: 'r', userId: 'u', planner: 'rules', intent: 'pnl', outcome: 'answered', calls: [], clarify: null, picker: null,
    envelopes: [], flaggedFigures: [], notes: [], timingsMs: { plan: 0, gate: 0, tools: 0, total: 0 }, epochMs: { start: 0, card: null }, usage: null, fallback: null, rowAsks: [], ...over,
  });

  it('compares plans as AGENT.md says: subset args, dates by day, calls in any order, tool lists', () => {
    const calls = [{ tool: 'agent.getPnL', args: { from: '2026-11-20', to: '2026-11-20', limit: 200 } }, { tool: 'agent.getLiveExposure', args: {} }];
    expect(compare({ action: 'tools', calls: [{ tool: 'agent.getLiveExposure', args: {} }, { tool: 'agent.getPnL', args: { from: '2026-11-20T00:00:00Z' } }] }, record({ calls }))).toBeNull();
    expect(compare({ action: 'tools', calls: [{ tool: ['agent.getTake', 'agent.getPnL'], args: {} }] }, record({ calls: calls.slice(0, 1) }))).toBeNull();
    expect(compare({ action: 'tools', calls: [{ tool: 'agent.getPnL', args: { from: '2026-11-19' } }] }, record({ calls: calls.slice(0, 1) }))).toMatch(/no planned call/);
    expect(compare({ action: 'tools', calls: [{ tool: 'agent.getPnL', args: {} }] }, record({ calls }))).toMatch(/expected 1, got 2/);
    expect(compare({ action: ['clarify', 'direct'] }, record({ outcome: 'direct' }))).toBeNull();
    expect(compare({ action: 'clarify', picker: ['A', 'B'] }, record({ clarify: { reason: 'ambiguous_player', question: '?' }, picker: { kind: 'player', candidates: [{ id: '1', name: 'B' }, { id: '2', name: 'A' }] } }))).toBeNull();
    expect(compare({ action: 'clarify', picker: ['A'] }, record({ clarify: { reason: 'ambiguous_player', question: '?' }, picker: { kind: 'player', candidates: [{ id: '1', name: 'B' }, { id: '2', name: 'A' }] } }))).toMatch(/picker/);
    expect(compare({ action: 'clarify', reason: 'needs_amount' }, record({ clarify: { reason: 'needs_player', question: '?' } }))).toMatch(/reason/);
  });

  it('refuses a malformed case file with its line number', () => {
    expect(() => parseCases('{"id":"a"}\n')).toThrow(/line 1/);
    expect(() => parseCases('\nnot json')).toThrow(/line 2: not JSON/);
  });
});
