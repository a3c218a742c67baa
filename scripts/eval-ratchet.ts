/**
 * `npm run eval:ratchet -- [FILE.jsonl...] [--update | --baseline] [--jobs N] [--verbose]`: runs every
 * planner case file (the golden set and tests/fixtures/eval/*.jsonl, or the files named) through
 * the harness and judges the run against tests/fixtures/eval/expected-failures.json
 * (docs/eval.md). Prints a line a file (passes, failures, confident-wrong), then each
 * `NEWLY FAILING <file> <id>: <why>`, each change planned unasked, each case naming what the
 * book lacks, and the `newly passing` ids the list can lose.
 *
 * Exit 1 when a case fails that the list does not expect, a change is planned that no case asked
 * for, a case names what the book lacks, or the golden set passes below 95%; 2 on a usage error.
 * `--update` rewrites the list without the ids that now pass (it never adds one: adding is a
 * deliberate edit, its reason in the commit); `--baseline` writes the list from what fails now.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { type CaseResult, type EvalCase, runEval } from './eval-harness.js';
import {
  EXPECTED_FAILURES_FILE, type ExpectedFailures, GOLDEN_MIN_PASS_RATE, baseline, duplicateIds, failedRun, formatExpectedFailures,
  formatVerdictTable, judge, withConfidenceBound, CONFIDENT_WRONG_MAX_SHARE, listCaseFiles, parseExpectedFailures, readCaseFiles, shardByClock, staleEntries, tightened,
} from './eval-expected.js';
import type { ShardMessage } from './eval-shard.js';
import { RulePlanner } from '../src/main/assistant/planner/rule-planner.js';
import { TOOL_MODULES } from '../src/main/tools/index.js';

const USAGE = 'usage: npm run eval:ratchet -- [FILE.jsonl...] [--update | --baseline] [--jobs N] [--verbose]\n';
const usageError = (why: string): never => {
  process.stderr.write(`eval:ratchet: ${why}\n${USAGE}`);
  process.exit(2);
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OPTIONS = {
  update: { type: 'boolean' }, baseline: { type: 'boolean' }, jobs: { type: 'string' }, verbose: { type: 'boolean' }, help: { type: 'boolean' },
} as const;
let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
try {
  parsed = parseArgs({ args: process.argv.slice(2), options: OPTIONS, allowPositionals: true, strict: true });
} catch (error) {
  usageError(error instanceof Error ? error.message : String(error));
}
const { values, positionals } = parsed!;
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (values.update && values.baseline) usageError('--update or --baseline, not both');
// Two runners match CI's two cores; more only splits the same cores further.
const jobs = values.jobs === undefined ? Math.min(2, availableParallelism()) : Number(values.jobs);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 16) usageError(`--jobs must be a whole number from 1 to 16, got "${values.jobs}"`);

const known = await listCaseFiles(root);
const chosen = positionals.map((p) => relative(root, resolve(p)).split('\\').join('/'));
const unknown = chosen.filter((f) => !known.includes(f));
if (unknown.length > 0) usageError(`not a case file of the ratchet: ${unknown.join(', ')} (they are ${known.join(', ')})`);
const fileNames = chosen.length > 0 ? known.filter((f) => chosen.includes(f)) : known;

let files: Awaited<ReturnType<typeof readCaseFiles>>;
try {
  files = await readCaseFiles(root, fileNames);
} catch (error) {
  usageError(error instanceof Error ? error.message : String(error));
}
const duplicates = duplicateIds(files!);
if (duplicates.length > 0) usageError(`case ids must be unique across the case files: ${duplicates.join('; ')}`);

const expectedPath = join(root, EXPECTED_FAILURES_FILE);
let expected: ExpectedFailures = {};
if (existsSync(expectedPath)) {
  try {
    expected = parseExpectedFailures(await readFile(expectedPath, 'utf8'));
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
} else if (!values.baseline) usageError(`${EXPECTED_FAILURES_FILE} is missing: record it with --baseline`);

const resultSchema = z.looseObject({
  id: z.string(), difference: z.string().nullable(), tools: z.array(z.string()).optional(), confident: z.boolean().optional(),
});
const shardMessageSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('result'), result: resultSchema }), z.strictObject({ kind: z.literal('done') }),
]);

const all: EvalCase[] = files!.flatMap((f) => f.cases);
const results = new Map<string, CaseResult>();
const started = Date.now();
let lastProgress = started;
const onResult = (result: CaseResult) => {
  results.set(result.id, result);
  // A line now and then, so a CI log shows a long run moving.
  if (Date.now() - lastProgress >= 30_000 || results.size === all.length) {
    lastProgress = Date.now();
    process.stderr.write(`eval:ratchet: ${results.size}/${all.length} cases, ${Math.round((lastProgress - started) / 1000)} s\n`);
  }
};

const children: ChildProcess[] = [];
/** A runner of its own per shard: a child process, so two books seed and plan on two cores at once. */
function runShard(cases: EvalCase[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = fork(join(root, 'scripts/eval-shard.ts'), [], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    let finished = false;
    child.on('message', (raw: unknown) => {
      const read = shardMessageSchema.safeParse(raw);
      if (!read.success) return fail(new Error(`an eval runner sent what the ratchet cannot read: ${read.error.issues[0]?.message ?? 'invalid'}`));
      const message = read.data as ShardMessage;
      if (message.kind === 'result') onResult(message.result);
      else finished = true;
    });
    child.on('error', fail);
    child.on('exit', (code, signal) => (finished ? done() : fail(new Error(`an eval runner stopped (${signal ?? `exit ${code}`}) before its cases were done`))));
    child.send({ cases });
  });
}

const shards = shardByClock(all, jobs);
if (shards.length <= 1) await runEval(all, { planners: () => [new RulePlanner()], onResult });
else {
  try {
    await Promise.all(shards.map(runShard));
  } catch (error) {
    for (const child of children) if (child.exitCode === null) child.kill();
    process.stderr.write(`eval:ratchet: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
const seconds = Math.round((Date.now() - started) / 1000);

const writes: ReadonlySet<string> = new Set(TOOL_MODULES.filter((m) => m.isDestructive).map((m) => m.name));
let list = expected;
if (values.baseline) list = baseline(expected, files!, results);
else if (values.update) list = tightened(expected, files!, results);
const judged = judge(files!, results, list, writes);
// The bound is of the whole set: a run of some files only reports the share.
const verdict = chosen.length === 0 ? withConfidenceBound(judged) : judged;

const out: string[] = [`eval:ratchet: ${all.length} cases in ${files!.length} files, ${seconds} s, ${shards.length} runner${shards.length === 1 ? '' : 's'}`];
out.push(...formatVerdictTable(verdict));
if (values.verbose) {
  for (const { file, cases } of files!) {
    for (const c of cases) {
      const why = results.get(c.id)?.difference;
      if (why) out.push(`fail ${file} ${c.id}: ${why}`);
    }
  }
}
for (const f of verdict.newlyFailing) out.push(`NEWLY FAILING ${f.file} ${f.id}: ${f.why}`);
for (const u of verdict.unaskedChanges) out.push(`UNASKED CHANGE ${u.file} ${u.id}: planned ${u.tools.join(', ')} where the case asks for no change`);
for (const e of verdict.caseErrors) out.push(`CASE ERROR ${e.file} ${e.id}: ${e.why} (the case names what the book lacks: fix the case)`);
if (verdict.goldenBelowBound) {
  const { passed, total } = verdict.goldenBelowBound;
  out.push(`GOLDEN SET BELOW ${GOLDEN_MIN_PASS_RATE * 100}%: ${passed}/${total}`);
}
if (verdict.confidentWrongAboveBound) {
  const { wrong, total } = verdict.confidentWrongAboveBound;
  out.push(`CONFIDENT-WRONG ABOVE ${CONFIDENT_WRONG_MAX_SHARE * 100}%: ${wrong} of ${total} cases`);
}
const hint = values.update ? 'removed from the list' : `remove it from ${EXPECTED_FAILURES_FILE} (npm run eval:ratchet -- --update does)`;
if (!values.baseline) for (const p of verdict.newlyPassing) out.push(`newly passing ${p.file} ${p.id}: ${hint}`);
for (const s of staleEntries(expected, files!)) {
  if (s.id !== null) out.push(`not a case of ${s.file} any more: ${s.id}: ${values.update || values.baseline ? 'removed from the list' : hint}`);
}
for (const file of Object.keys(list).filter((f) => !known.includes(f))) out.push(`${EXPECTED_FAILURES_FILE} lists ${file}, which is not a case file of the ratchet`);

if (values.update || values.baseline) {
  const text = formatExpectedFailures(list);
  const before = existsSync(expectedPath) ? await readFile(expectedPath, 'utf8') : '';
  if (text !== before) {
    await writeFile(expectedPath, text);
    out.push(`wrote ${EXPECTED_FAILURES_FILE}`);
  } else out.push(`${EXPECTED_FAILURES_FILE} unchanged`);
}
const bad = failedRun(verdict);
out.push(bad
  ? `eval:ratchet: FAILED — ${verdict.newlyFailing.length} newly failing, ${verdict.unaskedChanges.length} unasked changes, ${verdict.caseErrors.length} case errors${verdict.goldenBelowBound ? ', golden set below its bound' : ''}${verdict.confidentWrongAboveBound ? ', confident-wrong above its bound' : ''}`
  : `eval:ratchet: ok${verdict.newlyPassing.length > 0 && !values.update && !values.baseline ? ` (${verdict.newlyPassing.length} newly passing: tighten the list)` : ''}`);
process.stdout.write(`${out.join('\n')}\n`);
process.exit(bad ? 1 : 0);
