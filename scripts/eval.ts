/**
 * `npm run eval -- FILE.jsonl [--min 0.95]`: runs every case through the assistant against the
 * embedded demo book at the case's clock, prints a line per case, then the accuracy per category
 * and the confusion table of expected against planned intent (first tool or action), and last
 * `eval: N passed, M failed`. Exits 1 when the pass rate is below --min (default 0.95).
 */
import { readFile } from 'node:fs/promises';
import { formatReport, parseCases, runEval, summarizeResults } from './eval-harness.js';
import { RulePlanner } from '../src/main/assistant/planner/rule-planner.js';

const args = process.argv.slice(2);
const minAt = args.indexOf('--min');
const min = minAt >= 0 ? Number(args[minAt + 1]) : 0.95;
const file = args.find((a, i) => !a.startsWith('--') && (minAt < 0 || i !== minAt + 1));
if (!file || !(min >= 0 && min <= 1)) {
  process.stderr.write('usage: npm run eval -- FILE.jsonl [--min 0.95]\n');
  process.exit(2);
}

const results = await runEval(parseCases(await readFile(file, 'utf8')), {
  planners: () => [new RulePlanner()],
  onResult: ({ id, difference }) => process.stdout.write(difference === null ? `pass  ${id}\n` : `FAIL  ${id}: ${difference}\n`),
});
const passed = results.filter((r) => r.difference === null).length;
process.stdout.write(`${formatReport(summarizeResults(results)).join('\n')}\n`);
process.stdout.write(`eval: ${passed} passed, ${results.length - passed} failed\n`);
process.exit(passed / Math.max(1, results.length) >= min ? 0 : 1);
