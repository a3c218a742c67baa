/**
 * `npm run fault -- <name>` (docs/faults.md): one fault run, or `all`, printing what it did and
 * each check's result. Every run brings up its own PostgreSQL cluster, backend and (for
 * disk-full) tmpfs, and removes them after.
 *
 * Exit: 0 every check passed; 1 a check failed; 2 a bad command line; 3 the run could not happen
 * on this machine (the reason is printed: no PostgreSQL server programs, not root for a mount).
 */
import { resolve } from 'node:path';
import { backendKill } from './backend-kill.js';
import type { FaultReport } from './desk-under-fault.js';
import { diskFull } from './disk-full.js';
import { eventStreamDrop } from './event-stream-drop.js';
import { postgresRestart } from './postgres-restart.js';

const FAULTS: Record<string, (print: (line: string) => void) => Promise<FaultReport>> = {
  'backend-kill': (print) => backendKill(undefined, print),
  'postgres-restart': (print) => postgresRestart(undefined, print),
  'event-stream-drop': (print) => eventStreamDrop(undefined, print),
  'disk-full': (print) => diskFull(undefined, print),
};

const USAGE = `usage: npm run fault -- <${[...Object.keys(FAULTS), 'all'].join(' | ')}>`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || rest.length > 0 || (name !== 'all' && !FAULTS[name])) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const names = name === 'all' ? Object.keys(FAULTS) : [name];
  let failedRuns = 0;
  let skipped = 0;
  for (const n of names) {
    const started = performance.now();
    const report = await FAULTS[n]!((line) => process.stdout.write(`${line}\n`));
    if (report.skipped) {
      process.stdout.write(`${n}: not run here: ${report.skipped}\n`);
      skipped++;
      continue;
    }
    const failed = report.checks.filter((c) => !c.ok);
    process.stdout.write(`${n}: ${failed.length === 0 ? 'every check passed' : `${failed.length} of ${report.checks.length} checks failed`} (${((performance.now() - started) / 1000).toFixed(1)} s)\n\n`);
    if (failed.length > 0) failedRuns++;
  }
  return failedRuns > 0 ? 1 : skipped > 0 ? 3 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    process.stderr.write(`fault run failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
