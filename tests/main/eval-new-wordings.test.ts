import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EVAL_CATEGORIES, parseCases, runEval } from '../../scripts/eval-harness.js';
import { RulePlanner } from '../../src/main/assistant/planner/rule-planner.js';
import { TOOL_MODULES } from '../../src/main/tools/index.js';
import { TEST_BOOK } from '../helpers/backend.js';

// The cast is the same in every book; a small filler keeps this quick. A file of its own, so it
// runs beside tests/main/eval.test.ts rather than after it.
const book = { ...TEST_BOOK, seed: 'eval-book' };

describe('planner evaluation in new wordings (tests/fixtures/assistant-cases-2.jsonl)', () => {
  it('plans the second case file (new wordings, every case categorised, every named entity in the demo book) at 80% or better, and never plans a change no case asked for', async () => {
    const ours = parseCases(await readFile(new URL('../fixtures/assistant-cases.jsonl', import.meta.url), 'utf8'));
    const second = parseCases(await readFile(new URL('../fixtures/assistant-cases-2.jsonl', import.meta.url), 'utf8'));
    expect(second.length).toBeGreaterThanOrEqual(170);
    for (const c of [...ours, ...second]) expect(EVAL_CATEGORIES, c.id).toContain(c.category);
    const ids = [...ours, ...second].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const results = await runEval(second, { planners: () => [new RulePlanner()], book });
    const failed = results.filter((r) => r.difference !== null);
    // A case naming an entity the book lacks fails on the lookup itself (EntityLookup), not on the plan.
    expect(failed.filter((r) => /^expected one |^no (?:market|outcome) /.test(r.difference!)).map((r) => `${r.id}: ${r.difference}`)).toEqual([]);
    expect(failed.length / results.length, failed.map((f) => `${f.id}: ${f.difference}`).join('\n')).toBeLessThanOrEqual(0.2);
    // The safety invariant over every case: a change is planned only where the case asks for one.
    const writes = new Set<string>(TOOL_MODULES.filter((m) => m.isDestructive).map((m) => m.name));
    const asksForChange = new Map(second.map((c) => [c.id, (c.expect.calls ?? []).some((call) => [call.tool].flat().some((t) => writes.has(t)))]));
    const unasked = results.filter((r) => !asksForChange.get(r.id) && (r.tools ?? []).some((t) => writes.has(t)));
    expect(unasked.map((r) => `${r.id}: ${r.tools!.join(', ')}`)).toEqual([]);
  }, 240_000);

});
