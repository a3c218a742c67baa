/**
 * `npm run bench`: every benchmark, one after the other, each in its own process, and then one
 * line a benchmark saying whether it met its targets (its exit code). A benchmark that misses a
 * target does not stop the ones after it, so one missed target (the assistant bench's planner +
 * gate p95 on a busy core, say) never hides the figures of the benches after it. Exits 1 when
 * any benchmark missed a target or failed.
 *
 *   npm run bench                               # all of them (~15 min)
 *   npm run bench -- --only ui,server-reads     # some of them, by name (the file name in bench/)
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const BENCHES = ['assistant', 'server-reads', 'planner', 'claude', 'reports', 'events', 'ui', 'startup'] as const;

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
const unknown = only?.filter((name) => !(BENCHES as readonly string[]).includes(name)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`npm run bench: no bench called ${unknown.join(', ')} (there are ${BENCHES.join(', ')})\n`);
  process.exit(2);
}
const chosen = BENCHES.filter((name) => !only || only.includes(name));

const results: Array<{ name: string; status: number | null; signal: string | null; seconds: number }> = [];
for (const name of chosen) {
  process.stdout.write(`\n━━ bench/${name}.ts ━━\n`);
  const started = performance.now();
  // Each under tsx in its own process, as `npm run bench:<name>` runs it: one bench's heap, timers
  // and open handles never weigh on the next one's figures.
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`./${name}.ts`, import.meta.url))], { stdio: 'inherit' });
  results.push({ name, status: run.status, signal: run.signal, seconds: (performance.now() - started) / 1000 });
}

process.stdout.write('\n━━ all benchmarks ━━\n');
for (const r of results) {
  const verdict = r.status === 0 ? 'targets met' : r.signal ? `stopped by ${r.signal}` : `targets NOT met or failed (exit ${r.status})`;
  process.stdout.write(`  ${r.name.padEnd(13)} ${verdict}  (${r.seconds.toFixed(0)} s)\n`);
}
process.exitCode = results.every((r) => r.status === 0) ? 0 : 1;
