import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EVAL_CATEGORIES, type EvalCase, parseCases, runEval } from '../../scripts/eval-harness.js';
import { RulePlanner } from '../../src/main/assistant/planner/rule-planner.js';
import { TOOL_MODULES } from '../../src/main/tools/index.js';
import { TEST_BOOK } from '../helpers/backend.js';

// The cast is the same in every book; a small filler keeps this quick. A file of its own, so it
// runs beside tests/main/eval.test.ts rather than after it.
const book = { ...TEST_BOOK, seed: 'eval-book' };

const caseFile = async (name: string): Promise<EvalCase[]> => parseCases(await readFile(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));

/**
 * A case file in new wordings: every case categorised, every named entity in the demo book, at
 * most `maxFailed` of it failed, and never a change planned that no case asked for.
 */
async function expectPlanned(cases: EvalCase[], maxFailed: number): Promise<void> {
  for (const c of cases) expect(EVAL_CATEGORIES, c.id).toContain(c.category);
  const results = await runEval(cases, { planners: () => [new RulePlanner()], book });
  const failed = results.filter((r) => r.difference !== null);
  // A case naming an entity the book lacks fails on the lookup itself (EntityLookup), not on the plan.
  expect(failed.filter((r) => /^expected one |^no (?:market|outcome) /.test(r.difference!)).map((r) => `${r.id}: ${r.difference}`)).toEqual([]);
  expect(failed.length / results.length, failed.map((f) => `${f.id}: ${f.difference}`).join('\n')).toBeLessThanOrEqual(maxFailed);
  // The safety invariant over every case: a change is planned only where the case asks for one.
  const writes = new Set<string>(TOOL_MODULES.filter((m) => m.isDestructive).map((m) => m.name));
  const asksForChange = new Map(cases.map((c) => [c.id, (c.expect.calls ?? []).some((call) => [call.tool].flat().some((t) => writes.has(t)))]));
  const unasked = results.filter((r) => !asksForChange.get(r.id) && (r.tools ?? []).some((t) => writes.has(t)));
  expect(unasked.map((r) => `${r.id}: ${r.tools!.join(', ')}`)).toEqual([]);
}

describe('planner evaluation in new wordings (tests/fixtures/assistant-cases-2.jsonl … assistant-cases-5.jsonl)', () => {
  it('case ids are unique across the project case files', async () => {
    const ids = (await Promise.all(['assistant-cases.jsonl', 'assistant-cases-2.jsonl', 'assistant-cases-3.jsonl', 'assistant-cases-4.jsonl', 'assistant-cases-5.jsonl'].map(caseFile))).flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('plans the second case file at 95% or better (it passed 97.0% when this bound was set)', async () => {
    const second = await caseFile('assistant-cases-2.jsonl');
    expect(second.length).toBeGreaterThanOrEqual(170);
    await expectPlanned(second, 0.05);
  }, 240_000);

  it('plans the third case file (its last 126 cases, three rounds of 49, 44 and 33, written before the fixes they then drove) at 95% or better', async () => {
    const third = await caseFile('assistant-cases-3.jsonl');
    expect(third.length).toBeGreaterThanOrEqual(120);
    await expectPlanned(third, 0.05);
  }, 240_000);

  // Six held-out rounds (167, then five of 33: ids c4-, c4-b2- … c4-b6-), each written before the
  // fixes it drove; before them they passed 139/167, 26/33, 26/33, 29/33, 30/33 and 27/33.
  it('plans the fourth case file (six held-out rounds, each written before the fixes it drove) at 95% or better', async () => {
    const fourth = await caseFile('assistant-cases-4.jsonl');
    expect(fourth.length).toBeGreaterThanOrEqual(120);
    await expectPlanned(fourth, 0.05);
  }, 240_000);

  // Written by an engineer other than the one fixing the planner, without reading its code or the
  // other files: 104 blind cases in three batches (ids c5-, c5-b2-, c5-b3-), 89/104 before the fixes
  // they drove, 96/104 after; eight more (c5-fix-) written with the fixes. Bound below the others':
  // what still fails is named in the closing note (an upline called by name, a sport for its match).
  it('plans the fifth case file (blind cases from another engineer) at 90% or better', async () => {
    const fifth = await caseFile('assistant-cases-5.jsonl');
    expect(fifth.length).toBeGreaterThanOrEqual(100);
    await expectPlanned(fifth, 0.1);
  }, 240_000);
});
