/**
 * The eval ratchet's pieces (`npm run eval:ratchet`, scripts/eval-ratchet.ts): the case files it
 * runs, the file of the ids expected to fail today (tests/fixtures/eval/expected-failures.json),
 * and the judgement of a run against it. A pass rate lets a change break a few passing cases
 * unnoticed; the ratchet fails on any case that passed before, and only ever tightens.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { type CaseResult, type EvalCase, parseCases } from './eval-harness.js';

/** Paths are relative to the repository root, as the ratchet prints them and `npm run eval` takes them. */
export const CASE_DIR = 'tests/fixtures/eval';
/** The public golden set, a copy of ../shared/eval/golden.jsonl. */
export const GOLDEN_FILE = 'tests/fixtures/golden.jsonl';
export const EXPECTED_FAILURES_FILE = `${CASE_DIR}/expected-failures.json`;
/** The public set is held to this pass rate whatever its list says. */
export const GOLDEN_MIN_PASS_RATE = 0.95;
/** The most failing cases, as a share of all of them, the fast path may take without Claude (ClaudeBrain.confident). */
export const CONFIDENT_WRONG_MAX_SHARE = 0.01;

const entrySchema = z.union([
  z.string().min(1),
  z.strictObject({ id: z.string().min(1), reason: z.string().min(1).max(300) }),
]);
type Entry = z.infer<typeof entrySchema>;

const CASE_FILE_PATH = /^tests\/fixtures\/(?:[\w-]+\/)*[\w.-]+\.jsonl$/;

/** Per case file, the ids expected to fail, each bare or with a short reason. */
export const expectedFailuresSchema = z.record(z.string(), z.array(entrySchema))
  .superRefine((files, ctx) => {
    for (const [file, entries] of Object.entries(files)) {
      // Checked here rather than as the record's key schema, whose error would not say what a key must be.
      if (!CASE_FILE_PATH.test(file)) ctx.addIssue({ code: 'custom', path: [file], message: 'not a case file under tests/fixtures (a .jsonl path from the repository root)' });
      const seen = new Set<string>();
      for (const id of entries.map(entryId)) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [file], message: `${id} is listed twice` });
        seen.add(id);
      }
    }
  });
export type ExpectedFailures = z.infer<typeof expectedFailuresSchema>;

export const entryId = (entry: Entry): string => (typeof entry === 'string' ? entry : entry.id);

/** The file's text as the ratchet's data: JSON, then the schema, with the file named in any error. */
export function parseExpectedFailures(text: string, file = EXPECTED_FAILURES_FILE): ExpectedFailures {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const parsed = expectedFailuresSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** One line an id, so that a change to the list reads as a change of those lines. */
export function formatExpectedFailures(expected: ExpectedFailures): string {
  const files = Object.entries(expected);
  if (files.length === 0) return '{}\n';
  const lines = files.map(([file, entries]) => {
    const items = entries.map((e) => `    ${typeof e === 'string' ? JSON.stringify(e) : `{ "id": ${JSON.stringify(e.id)}, "reason": ${JSON.stringify(e.reason)} }`}`);
    return `  ${JSON.stringify(file)}: ${items.length === 0 ? '[]' : `[\n${items.join(',\n')}\n  ]`}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** The golden set first, then every case file of CASE_DIR by name. */
export async function listCaseFiles(root: string): Promise<string[]> {
  const names = (await readdir(join(root, CASE_DIR))).filter((n) => n.endsWith('.jsonl')).sort();
  return [GOLDEN_FILE, ...names.map((n) => `${CASE_DIR}/${n}`)];
}

export interface CaseFile {
  file: string;
  cases: EvalCase[];
}

export async function readCaseFiles(root: string, files: readonly string[]): Promise<CaseFile[]> {
  return Promise.all(files.map(async (file) => {
    try {
      return { file, cases: parseCases(await readFile(join(root, file), 'utf8')) };
    } catch (error) {
      throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }));
}

/** Ids used more than once across the files, each with where: an id must name one case. */
export function duplicateIds(files: readonly CaseFile[]): string[] {
  const where = new Map<string, string[]>();
  for (const { file, cases } of files) for (const c of cases) where.set(c.id, [...(where.get(c.id) ?? []), file]);
  return [...where].filter(([, in_]) => in_.length > 1).map(([id, in_]) => `${id} (${in_.join(', ')})`);
}

/** Listed ids no case of their file has, and listed files that are not case files. */
export function staleEntries(expected: ExpectedFailures, files: readonly CaseFile[]): Array<{ file: string; id: string | null }> {
  const ids = new Map(files.map((f) => [f.file, new Set(f.cases.map((c) => c.id))]));
  return Object.entries(expected).flatMap(([file, entries]): Array<{ file: string; id: string | null }> => {
    const have = ids.get(file);
    if (!have) return [{ file, id: null }];
    return entries.map(entryId).filter((id) => !have.has(id)).map((id) => ({ file, id }));
  });
}

/** A case that failed because it names an entity the book lacks: the case is wrong, not the plan. */
export const isLookupFailure = (difference: string): boolean => /^expected one |^no (?:market|outcome) /.test(difference);

export interface FileVerdict {
  file: string;
  total: number;
  passed: number;
  /** Failing cases the list expects. */
  expectedFailed: number;
  /** Failing cases whose last plan was sure enough for the fast path (`CaseResult.confident`). */
  confidentWrong: number;
  /** Cases, failing or not, whose last plan was that sure: what a key leaves offline. */
  fastPath: number;
}

export interface Verdict {
  files: FileVerdict[];
  /** Failing, and not listed: what fails the run. */
  newlyFailing: Array<{ file: string; id: string; why: string }>;
  /** Listed, and passing: to come off the list. */
  newlyPassing: Array<{ file: string; id: string }>;
  /** A change planned where the case asks for none: fails the run, listed or not. */
  unaskedChanges: Array<{ file: string; id: string; tools: string[] }>;
  /** A case naming what the book lacks: fails the run, listed or not. */
  caseErrors: Array<{ file: string; id: string; why: string }>;
  /** Set when the golden set passes below GOLDEN_MIN_PASS_RATE. */
  goldenBelowBound: { passed: number; total: number } | null;
  /** Set when a whole run's confident-wrong share is above CONFIDENT_WRONG_MAX_SHARE (checked only over every case file). */
  confidentWrongAboveBound: { wrong: number; total: number } | null;
}

/**
 * A run judged against the list. `writes` names the tools that change something: one planned by a
 * case whose expectation asks for none is the planner's safety invariant broken, never an expected
 * failure.
 */
export function judge(files: readonly CaseFile[], results: ReadonlyMap<string, CaseResult>, expected: ExpectedFailures, writes: ReadonlySet<string>): Verdict {
  const verdict: Verdict = { files: [], newlyFailing: [], newlyPassing: [], unaskedChanges: [], caseErrors: [], goldenBelowBound: null, confidentWrongAboveBound: null };
  for (const { file, cases } of files) {
    const listed = new Set((expected[file] ?? []).map(entryId));
    const row: FileVerdict = { file, total: cases.length, passed: 0, expectedFailed: 0, confidentWrong: 0, fastPath: 0 };
    for (const c of cases) {
      const result = results.get(c.id);
      if (!result) throw new Error(`${file}: no result for ${c.id}`);
      const why = result.difference;
      if (result.confident) row.fastPath++;
      const asksForChange = (c.expect.calls ?? []).some((call) => [call.tool].flat().some((t) => writes.has(t)));
      const unasked = asksForChange ? [] : (result.tools ?? []).filter((t) => writes.has(t));
      if (unasked.length > 0) verdict.unaskedChanges.push({ file, id: c.id, tools: unasked });
      if (why === null) {
        row.passed++;
        if (listed.has(c.id)) verdict.newlyPassing.push({ file, id: c.id });
        continue;
      }
      if (result.confident) row.confidentWrong++;
      if (isLookupFailure(why)) verdict.caseErrors.push({ file, id: c.id, why });
      else if (listed.has(c.id)) row.expectedFailed++;
      else verdict.newlyFailing.push({ file, id: c.id, why });
    }
    if (file === GOLDEN_FILE && row.passed < GOLDEN_MIN_PASS_RATE * row.total) verdict.goldenBelowBound = { passed: row.passed, total: row.total };
    verdict.files.push(row);
  }
  return verdict;
}

export const failedRun = (v: Verdict): boolean =>
  v.newlyFailing.length > 0 || v.unaskedChanges.length > 0 || v.caseErrors.length > 0 || v.goldenBelowBound !== null || v.confidentWrongAboveBound !== null;

/**
 * The list less what now passes and what no longer exists, for the files that ran; never more.
 * An id joins the list only by a deliberate edit, with the reason in its commit.
 */
export function tightened(expected: ExpectedFailures, files: readonly CaseFile[], results: ReadonlyMap<string, CaseResult>): ExpectedFailures {
  const ran = new Map(files.map((f) => [f.file, new Set(f.cases.map((c) => c.id))]));
  const out: ExpectedFailures = {};
  for (const [file, entries] of Object.entries(expected)) {
    const ids = ran.get(file);
    out[file] = ids ? entries.filter((e) => ids.has(entryId(e)) && results.get(entryId(e))?.difference !== null) : entries;
  }
  for (const { file } of files) out[file] ??= [];
  return inRunOrder(out);
}

/**
 * The list as the run found it: every failing case of the files that ran (keeping the reason of one
 * already listed), the other files' entries as they were. Recording a baseline, not a ratchet step.
 */
export function baseline(expected: ExpectedFailures, files: readonly CaseFile[], results: ReadonlyMap<string, CaseResult>): ExpectedFailures {
  const out: ExpectedFailures = { ...expected };
  for (const { file, cases } of files) {
    const reasons = new Map((expected[file] ?? []).map((e) => [entryId(e), e]));
    out[file] = cases.filter((c) => results.get(c.id)?.difference !== null).map((c) => reasons.get(c.id) ?? c.id);
  }
  return inRunOrder(out);
}

/** The golden set first, then by file name: the order the ratchet runs them in. */
function inRunOrder(expected: ExpectedFailures): ExpectedFailures {
  const rank = (file: string) => (file === GOLDEN_FILE ? 0 : 1);
  const order = Object.keys(expected).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Object.fromEntries(order.map((f) => [f, expected[f]!]));
}

const pct = (n: number, d: number) => `${d === 0 ? '0.0' : ((100 * n) / d).toFixed(1)}%`;

/** `confident-wrong: N of M cases (x.x%)`: failing cases planned sure enough to skip the model, of all cases. */
export const formatConfidentWrong = (wrong: number, total: number): string => `confident-wrong: ${wrong} of ${total} cases (${pct(wrong, total)})`;

/** Every file's counts added up. */
export const totalOf = (files: readonly FileVerdict[]): Omit<FileVerdict, 'file'> => files.reduce((s, f) => ({
  total: s.total + f.total, passed: s.passed + f.passed, expectedFailed: s.expectedFailed + f.expectedFailed,
  confidentWrong: s.confidentWrong + f.confidentWrong, fastPath: s.fastPath + f.fastPath,
}), { total: 0, passed: 0, expectedFailed: 0, confidentWrong: 0, fastPath: 0 });

/**
 * The confident-wrong bound, judged once every case file has run (a file alone is too small a
 * sample): a verdict with `confidentWrongAboveBound` set when the share is over the bound.
 */
export function withConfidenceBound(v: Verdict): Verdict {
  const all = totalOf(v.files);
  return all.total > 0 && all.confidentWrong > all.total * CONFIDENT_WRONG_MAX_SHARE
    ? { ...v, confidentWrongAboveBound: { wrong: all.confidentWrong, total: all.total } } : v;
}

/** A line a file and one for all of them: passes, failures (expected ones), confident-wrong. */
export function formatVerdictTable(v: Verdict): string[] {
  const width = Math.max(...v.files.map((f) => f.file.length), 3);
  const line = (name: string, f: Omit<FileVerdict, 'file'>) => {
    const failed = f.total - f.passed;
    return `${name.padEnd(width)}  ${`${f.passed}/${f.total}`.padStart(9)} passed  ${String(failed).padStart(4)} failed (${f.expectedFailed} expected)  ${formatConfidentWrong(f.confidentWrong, f.total)}`;
  };
  const all = totalOf(v.files);
  const failed = all.total - all.passed;
  return [
    ...v.files.map((f) => line(f.file, f)),
    line('all', all),
    `${all.confidentWrong} of the ${failed} failing cases were planned at or above the fast-path confidence (ClaudeBrain.confident): a key would not have sent them to Claude`,
    `fast path: ${all.fastPath} of ${all.total} cases (${pct(all.fastPath, all.total)}) planned that sure, ${pct(all.confidentWrong, all.fastPath)} of them wrong`,
  ];
}

/**
 * Cases split over `n` runners so each seeds as few books as it can: a book is seeded per distinct
 * clock, which costs about as long as `seedCost` cases take, so a small clock's cases stay
 * together and only a large one is dealt round all runners. Deterministic: the same cases give
 * the same split, and each case runs in a conversation of its own, so the split never changes
 * a result.
 */
export function shardByClock<T extends { now: string }>(cases: readonly T[], n: number, seedCost = 120): T[][] {
  const groups = new Map<string, T[]>();
  for (const c of cases) groups.set(c.now, [...(groups.get(c.now) ?? []), c]);
  const ordered = [...groups].sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b)).map(([, g]) => g);
  const shards: T[][] = Array.from({ length: n }, () => []);
  const load: number[] = Array.from({ length: n }, () => 0);
  for (const group of ordered) {
    if (n > 1 && group.length >= n * seedCost) {
      group.forEach((c, i) => shards[i % n]!.push(c));
      for (let i = 0; i < n; i++) load[i]! += seedCost + group.length / n;
    } else {
      const i = load.indexOf(Math.min(...load));
      shards[i]!.push(...group);
      load[i]! += seedCost + group.length;
    }
  }
  return shards.filter((s) => s.length > 0);
}
