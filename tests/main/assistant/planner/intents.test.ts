import { describe, expect, it } from 'vitest';
import { TOOL_PLANNING } from '../../../../src/main/assistant/planner/intents/index.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT } from '../../../../src/main/assistant/planner/types.js';
import { TOOL_NAMES } from '../../../../src/main/tools/index.js';

describe('how people ask for each tool', () => {
  it('has an intent for every tool a request can name, each id once', () => {
    // A report is shared only as a follow-up of the report the conversation made.
    expect(TOOL_NAMES.filter((n) => TOOL_PLANNING[n] === undefined)).toEqual(['agent.shareReport']);
    const ids = Object.values(TOOL_PLANNING).map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(Object.entries(TOOL_PLANNING))('%s: its example requests plan to it', (name, planning) => {
    const planner = new RulePlanner();
    expect(planning.examples.length).toBeGreaterThan(0);
    for (const text of planning.examples) {
      const decision = planner.plan({ requestId: 'r1', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT });
      expect(decision.calls.map((c) => c.tool), text).toContain(name);
    }
  });
});
