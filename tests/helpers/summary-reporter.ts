import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * Ends the run with one plain line, "tests: N passed, N failed, N skipped in S s", that CI reads,
 * and the shuffle seed before it, so a failure that depends on order can be replayed. S is the
 * wall time since this process started, the global setup's book included: what `npm test` costs
 * the person waiting on it (docs/benchmarks.md, "Test suite").
 */
export default class SummaryReporter implements Reporter {
  #seed: number | undefined;

  onInit(vitest: Vitest): void {
    this.#seed = vitest.config.sequence.seed;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    process.stdout.write(`\norder: shuffled with TEST_SEED=${this.#seed}\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped in ${(performance.now() / 1000).toFixed(1)} s\n`);
  }
}
