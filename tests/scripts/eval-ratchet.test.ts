// The eval ratchet's judgement (scripts/eval-expected.ts): what fails a run, what the list may lose,
// and that nothing but a deliberate edit ever adds to it.
import { describe, expect, it } from 'vitest';
import { type CaseResult, type EvalCase, evalCaseSchema } from '../../scripts/eval-harness.js';
import {
  type CaseFile, type ExpectedFailures, GOLDEN_FILE, baseline, duplicateIds, failedRun, formatConfidentWrong, formatExpectedFailures,
  formatVerdictTable, judge, parseExpectedFailures, withConfidenceBound, shardByClock, staleEntries, tightened,
} from '../../scripts/eval-expected.js';

const WRITES = new Set(['agent.editLimit', 'agent.settlePlayer']);
const PNL = 'tests/fixtures/eval/pnl.jsonl';
const LIMITS = 'tests/fixtures/eval/limit-changes.jsonl';

const evalCase = (id: string, over: Record<string, unknown> = {}): EvalCase => evalCaseSchema.parse({
  id, user: 'priya', now: '2026-11-20T12:00:00+05:30', query: 'q', expect: { action: 'tools', calls: [{ tool: 'agent.getPnL', args: {} }] }, ...over,
});
const passes = (id: string, over: Partial<CaseResult> = {}): CaseResult => ({ id, difference: null, tools: ['agent.getPnL'], confident: true, ...over });
const fails = (id: string, over: Partial<CaseResult> = {}): CaseResult => ({ id, difference: 'action: expected tools, got clarify', tools: [], confident: false, ...over });
const byId = (...results: CaseResult[]) => new Map(results.map((r) => [r.id, r]));

const files: CaseFile[] = [
  { file: PNL, cases: [evalCase('p1'), evalCase('p2'), evalCase('p3'), evalCase('p4')] },
  { file: LIMITS, cases: [evalCase('l1', { expect: { action: 'tools', calls: [{ tool: 'agent.editLimit', args: {} }] } })] },
];

describe('judge', () => {
  it('fails the run on a case that fails unlisted, and names the listed ones that now pass', () => {
    const expected: ExpectedFailures = { [PNL]: ['p2', { id: 'p3', reason: 'named, not fixed' }] };
    const v = judge(files, byId(passes('p1'), fails('p2'), passes('p3'), fails('p4', { confident: true }), passes('l1', { tools: ['agent.editLimit'] })), expected, WRITES);
    expect(v.newlyFailing).toEqual([{ file: PNL, id: 'p4', why: 'action: expected tools, got clarify' }]);
    expect(v.newlyPassing).toEqual([{ file: PNL, id: 'p3' }]);
    expect(v.files).toEqual([
      { file: PNL, total: 4, passed: 2, expectedFailed: 1, confidentWrong: 1, fastPath: 3 },
      { file: LIMITS, total: 1, passed: 1, expectedFailed: 0, confidentWrong: 0, fastPath: 1 },
    ]);
    expect(failedRun(v)).toBe(true);
  });

  it('passes a run whose failures are all listed, however many', () => {
    const v = judge(files, byId(fails('p1'), fails('p2'), passes('p3'), passes('p4'), fails('l1')), { [PNL]: ['p1', 'p2'], [LIMITS]: ['l1'] }, WRITES);
    expect(v.newlyFailing).toEqual([]);
    expect(failedRun(v)).toBe(false);
  });

  it('fails on a change planned where the case asks for none, even a listed case', () => {
    const v = judge(files, byId(fails('p1', { tools: ['agent.settlePlayer'] }), passes('p2'), passes('p3'), passes('p4'), passes('l1', { tools: ['agent.editLimit'] })), { [PNL]: ['p1'] }, WRITES);
    expect(v.unaskedChanges).toEqual([{ file: PNL, id: 'p1', tools: ['agent.settlePlayer'] }]);
    expect(failedRun(v)).toBe(true);
  });

  it('fails on a case naming an entity the book lacks, even a listed one: the case is wrong', () => {
    const v = judge(files, byId(fails('p1', { difference: 'expected one player “Nobody” in the user\'s downline, found 0' }), passes('p2'), passes('p3'), passes('p4'), passes('l1')), { [PNL]: ['p1'] }, WRITES);
    expect(v.caseErrors.map((e) => e.id)).toEqual(['p1']);
    expect(failedRun(v)).toBe(true);
  });

  it('holds the golden set to 95% whatever the list says', () => {
    const golden: CaseFile = { file: GOLDEN_FILE, cases: Array.from({ length: 20 }, (_, i) => evalCase(`g${i}`)) };
    const two = byId(...golden.cases.map((c, i) => (i < 2 ? fails(c.id) : passes(c.id))));
    const v = judge([golden], two, { [GOLDEN_FILE]: ['g0', 'g1'] }, WRITES);
    expect(v.goldenBelowBound).toEqual({ passed: 18, total: 20 });
    const one = byId(...golden.cases.map((c, i) => (i < 1 ? fails(c.id) : passes(c.id))));
    expect(judge([golden], one, { [GOLDEN_FILE]: ['g0'] }, WRITES).goldenBelowBound).toBeNull();
  });

  it('prints confident-wrong per file and in all, of all the cases', () => {
    expect(formatConfidentWrong(3, 200)).toBe('confident-wrong: 3 of 200 cases (1.5%)');
    expect(formatConfidentWrong(0, 0)).toBe('confident-wrong: 0 of 0 cases (0.0%)');
    const v = judge(files, byId(fails('p1', { confident: true }), passes('p2'), passes('p3'), passes('p4'), fails('l1', { confident: true })), { [PNL]: ['p1'], [LIMITS]: ['l1'] }, WRITES);
    const lines = formatVerdictTable(v);
    expect(lines[0]).toMatch(/^tests\/fixtures\/eval\/pnl\.jsonl .* confident-wrong: 1 of 4 cases \(25\.0%\)$/);
    expect(lines[2]).toMatch(/^all .* 2 failed \(2 expected\) .*confident-wrong: 2 of 5 cases \(40\.0%\)$/);
    expect(lines.at(-1)).toBe('fast path: 5 of 5 cases (100.0%) planned that sure, 40.0% of them wrong');
  });

  it('fails a whole run whose confident-wrong share is over 1%, and not one at 1%', () => {
    const many: CaseFile = { file: PNL, cases: Array.from({ length: 200 }, (_, i) => evalCase(`c${i}`)) };
    const run = (sure: number) => byId(...many.cases.map((c, i) => (i < sure ? fails(c.id, { confident: true }) : i < 10 ? fails(c.id) : passes(c.id))));
    const listed = { [PNL]: many.cases.slice(0, 10).map((c) => c.id) };
    const atBound = withConfidenceBound(judge([many], run(2), listed, WRITES));
    expect(atBound.confidentWrongAboveBound).toBeNull();
    expect(failedRun(atBound)).toBe(false);
    const over = withConfidenceBound(judge([many], run(3), listed, WRITES));
    expect(over.confidentWrongAboveBound).toEqual({ wrong: 3, total: 200 });
    expect(failedRun(over)).toBe(true);
  });
});

describe('the list of expected failures', () => {
  const results = byId(passes('p1'), fails('p2'), passes('p3'), fails('p4'), fails('l1'));

  it('tightens without ever adding: ids that pass or are gone come off, new failures do not go on', () => {
    const expected: ExpectedFailures = { [PNL]: ['p1', { id: 'p2', reason: 'why' }, 'gone'], 'tests/fixtures/eval/other.jsonl': ['x'] };
    expect(tightened(expected, files, results)).toEqual({
      [LIMITS]: [], 'tests/fixtures/eval/other.jsonl': ['x'], [PNL]: [{ id: 'p2', reason: 'why' }],
    });
  });

  it('records a baseline from what fails now, keeping the reasons it had', () => {
    expect(baseline({ [PNL]: [{ id: 'p2', reason: 'why' }, 'p1'] }, files, results)).toEqual({
      [LIMITS]: ['l1'], [PNL]: [{ id: 'p2', reason: 'why' }, 'p4'],
    });
  });

  it('reads only what the schema allows, and round-trips the way --update writes it', () => {
    const list: ExpectedFailures = { [GOLDEN_FILE]: [], [PNL]: ['p2', { id: 'p4', reason: 'says "x", means y' }] };
    const text = formatExpectedFailures(list);
    expect(text).toContain('\n    { "id": "p4", "reason": "says \\"x\\", means y" }\n');
    expect(parseExpectedFailures(text)).toEqual(list);
    expect(() => parseExpectedFailures('{"tests/fixtures/eval/pnl.jsonl": ["p2", "p2"]}')).toThrow(/listed twice/);
    expect(() => parseExpectedFailures('{"../secrets.jsonl": []}')).toThrow(/not a case file under tests\/fixtures/);
    expect(() => parseExpectedFailures('{"tests/fixtures/eval/pnl.jsonl": [{"id": "p2", "extra": 1}]}')).toThrow();
    expect(() => parseExpectedFailures('[')).toThrow(/not JSON/);
  });

  it('finds listed ids a file lacks, files that are not case files, and ids used twice', () => {
    expect(staleEntries({ [PNL]: ['p1', 'nope'], 'tests/fixtures/eval/gone.jsonl': [] }, files)).toEqual([
      { file: PNL, id: 'nope' }, { file: 'tests/fixtures/eval/gone.jsonl', id: null },
    ]);
    expect(duplicateIds([...files, { file: 'tests/fixtures/eval/x.jsonl', cases: [evalCase('p1')] }])).toEqual([`p1 (${PNL}, tests/fixtures/eval/x.jsonl)`]);
  });
});

describe('shardByClock', () => {
  const at = (now: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${now}-${i}`, now }));
  const cases = [...at('A', 500), ...at('B', 30), ...at('C', 20), ...at('D', 5)];

  it('deals a large clock round the runners and keeps a small one on one runner, the same way every time', () => {
    const shards = shardByClock(cases, 2);
    expect(shards).toEqual(shardByClock(cases, 2));
    expect(shards.flat().map((c) => c.id).sort()).toEqual(cases.map((c) => c.id).sort());
    for (const clock of ['B', 'C', 'D']) expect(shards.filter((s) => s.some((c) => c.now === clock))).toHaveLength(1);
    expect(shards.map((s) => s.filter((c) => c.now === 'A').length)).toEqual([250, 250]);
  });

  it('gives one runner everything when there is one', () => {
    expect(shardByClock(cases, 1)).toEqual([[...at('A', 500), ...at('B', 30), ...at('C', 20), ...at('D', 5)]]);
  });
});
