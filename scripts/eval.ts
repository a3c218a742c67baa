/**
 * `npm run eval -- FILE.jsonl… [--only PREFIX,…] [--min 0.95] [--planner claude [--record DIR | --replay DIR | --stand-in] [--always-model]]`:
 * runs every case (of the files given, or only those whose id starts with one of the prefixes) through the assistant against the embedded demo book at the case's clock,
 * prints a line per case, then the accuracy per category and the confusion table of expected
 * against planned intent (first tool or action), and last `eval: N passed, M failed`. Exits 1
 * when the pass rate is below --min (default 0.95), 2 on a usage error.
 *
 * With `--planner claude` each case's assistant has Claude behind the rule planner, as the desk
 * has once a key is added: the key from ANTHROPIC_API_KEY, the endpoint from ANTHROPIC_BASE_URL
 * (else the real API). `--record DIR` keeps a transcript of every model call (a real key is
 * needed); `--replay DIR` answers from one, offline, and fails naming the recorded turn a request
 * no longer matches. `--stand-in` answers from a local stand-in that answers each case correctly
 * (eval-harness.ts, `standInModel`), so what fails is what the fast path kept from the model: the
 * last lines count the cases the model answered and the fast path's confidently wrong ones.
 * `--always-model` skips the fast path. A last line then says how many turns called the model, their
 * tokens, cache-read share and cost.
 */
import { readFile } from 'node:fs/promises';
import {
  type ClaudeEndpointMode, EvalUsageError, claudeEndpoint, formatClaudeSummary, formatReport, formatStandIn, parseCases, runEval, standInModel, summarizeClaude, summarizeResults,
} from './eval-harness.js';
import { RulePlanner } from '../src/main/assistant/planner/rule-planner.js';

const USAGE = 'usage: npm run eval -- FILE.jsonl… [--only PREFIX,…] [--min 0.95] [--planner claude [--record DIR | --replay DIR | --stand-in] [--always-model]]\n';
const fail = (why: string): never => {
  process.stderr.write(`${why}\n${USAGE}`);
  process.exit(2);
};

const WITH_VALUE = new Set(['--min', '--planner', '--record', '--replay', '--only']);
const FLAGS = new Set(['--always-model', '--stand-in']);
const values = new Map<string, string>();
const flags = new Set<string>();
const files: string[] = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (WITH_VALUE.has(arg)) {
    const value = args[++i];
    if (value === undefined || value.startsWith('--')) fail(`${arg} needs a value`);
    values.set(arg, value!);
  } else if (FLAGS.has(arg)) flags.add(arg);
  else if (arg.startsWith('--')) fail(`unknown option ${arg}`);
  else files.push(arg);
}
const min = values.has('--min') ? Number(values.get('--min')) : 0.95;
if (files.length === 0 || !(min >= 0 && min <= 1)) fail('at least one case file, and --min between 0 and 1');
const planner = values.get('--planner') ?? 'rules';
if (planner !== 'rules' && planner !== 'claude') fail(`--planner: rules or claude, not ${planner}`);
const claudeOnly = ['--record', '--replay', '--always-model', '--stand-in'].filter((o) => values.has(o) || flags.has(o));
if (planner !== 'claude' && claudeOnly.length > 0) fail(`${claudeOnly.join(', ')} only with --planner claude`);
if (['--record', '--replay', '--stand-in'].filter((o) => values.has(o) || flags.has(o)).length > 1) fail('one of --record, --replay and --stand-in');
const standIn = flags.has('--stand-in') ? standInModel() : null;

let endpoint: Awaited<ReturnType<typeof claudeEndpoint>> | null = null;
if (planner === 'claude') {
  const mode: ClaudeEndpointMode = standIn ? { kind: 'stand-in', standIn } : values.has('--record') ? { kind: 'record', dir: values.get('--record')! }
    : values.has('--replay') ? { kind: 'replay', dir: values.get('--replay')! } : { kind: 'live' };
  try {
    endpoint = await claudeEndpoint(mode, process.env);
  } catch (error) {
    if (error instanceof EvalUsageError) fail(error.message);
    throw error;
  }
  if (!endpoint!.env.ANTHROPIC_API_KEY) process.stderr.write('eval: ANTHROPIC_API_KEY is not set, so every turn is answered offline (use --replay DIR to run without one)\n');
}

const prefixes = values.get('--only')?.split(',').map((p) => p.trim()).filter(Boolean) ?? [];
const cases = (await Promise.all(files.map(async (f) => parseCases(await readFile(f, 'utf8'))))).flat()
  .filter((c) => prefixes.length === 0 || prefixes.some((p) => c.id.startsWith(p)));
const results = await runEval(cases, {
  planners: () => [new RulePlanner()],
  ...(endpoint && { claude: { env: endpoint.env, alwaysModel: flags.has('--always-model'), ...(standIn && { standIn }) } }),
  // "FAIL (sure)": planned at or above the fast-path confidence, so a key would not have sent it to Claude.
  onResult: ({ id, difference, confident }) => process.stdout.write(difference === null ? `pass  ${id}\n` : `FAIL${confident ? ' (sure)' : ''}  ${id}: ${difference}\n`),
}).finally(() => endpoint?.close());
const passed = results.filter((r) => r.difference === null).length;
process.stdout.write(`${formatReport(summarizeResults(results)).join('\n')}\n`);
process.stdout.write(`eval: ${passed} passed, ${results.length - passed} failed\n`);
if (endpoint) process.stdout.write(`${formatClaudeSummary(summarizeClaude(results))}\n`);
if (standIn) process.stdout.write(`${formatStandIn(results).join('\n')}\n`);
// A replay whose prompts drifted from the recording measures nothing: it fails, saying where.
for (const m of endpoint?.drift ?? []) process.stderr.write(`replay: request ${m.request} matches no recording: recorded turn ${m.recording} differs first in ${m.differs}\n`);
const drifted = (endpoint?.drift.length ?? 0) > 0;
process.exit(!drifted && passed / Math.max(1, results.length) >= min ? 0 : 1);
