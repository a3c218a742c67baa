/**
 * The planner case files and the ratchet's list of expected failures, checked without planning
 * anything: the planner runs over them are `npm run eval:ratchet`, a CI step of its own
 * (docs/eval.md), too slow for every `npm test`.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVAL_CATEGORIES } from '../../scripts/eval-harness.js';
import {
  type CaseFile, EXPECTED_FAILURES_FILE, type ExpectedFailures, GOLDEN_FILE, duplicateIds, listCaseFiles, parseExpectedFailures, readCaseFiles,
  staleEntries,
} from '../../scripts/eval-expected.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('planner case files (tests/fixtures/eval, tests/fixtures/golden.jsonl)', () => {
  let files: CaseFile[];
  let expected: ExpectedFailures;
  beforeAll(async () => {
    // Reading them parses every line against the case schema: a bad line fails here, with its file and line.
    files = await readCaseFiles(root, await listCaseFiles(root));
    expected = parseExpectedFailures(await readFile(new URL(`../../${EXPECTED_FAILURES_FILE}`, import.meta.url), 'utf8'));
  });

  it('are the golden set and the topic files, none of them empty', () => {
    expect(files[0]!.file).toBe(GOLDEN_FILE);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => f.cases.length === 0).map((f) => f.file)).toEqual([]);
  });

  it('give every case an id of its own, across all the files', () => {
    expect(duplicateIds(files)).toEqual([]);
  });

  it("give every project case one of the report's categories (the public set has none)", () => {
    const outside = files.filter((f) => f.file !== GOLDEN_FILE).flatMap((f) => f.cases)
      .filter((c) => !(EVAL_CATEGORIES as readonly string[]).includes(c.category ?? '')).map((c) => `${c.id}: ${c.category}`);
    expect(outside).toEqual([]);
  });

  it('are what the ratchet lists: only case files, and in each only ids it has', () => {
    expect(staleEntries(expected, files)).toEqual([]);
  });

  it('expect no failure of the public golden set, which passes in full', () => {
    expect(expected[GOLDEN_FILE] ?? []).toEqual([]);
  });
});
