import { defineConfig } from 'vitest/config';

const seed = process.env.TEST_SEED ? Number(process.env.TEST_SEED) : Date.now() % 1_000_000;

/**
 * `npm run test:integration`, a step of its own in CI: what runs the product whole rather than a
 * part of it — child processes (the CLIs, the standalone server, the MCP server over stdio, two
 * processes on one data folder), whole books written from the generator, the eval harness over
 * the demo book, the event stream from the backend's outbox to the desk's notifier (a backend per
 * test, dropped links, restarts), and the attack suites (a chat turn through the whole runtime per
 * attack). They
 * are most of the suite's time and none of its quick feedback. Also here: a file that replaces a
 * module with vi.mock, which needs a module registry of its own.
 */
export const INTEGRATION_TESTS = [
  'tests/adversarial/**/*.test.ts',
  'tests/scripts/report-cli.test.ts',
  'tests/scripts/simulate.test.ts',
  'tests/scripts/load.test.ts',
  'tests/scripts/eval.test.ts',
  'tests/scripts/eval-claude.test.ts',
  'tests/server/standalone.test.ts',
  'tests/server/data-dir-lock.test.ts',
  'tests/server/book.test.ts',
  'tests/server/book-progress.test.ts',
  'tests/server/demo-book-snapshot.test.ts',
  'tests/server/login-throttle.test.ts',
  'tests/server/events.test.ts',
  'tests/main/desk/alerts-desk.test.ts',
  'tests/main/data-dirs.test.ts',
  'tests/main/mcp/mcp.test.ts',
];

/**
 * `npm run test:stress` (CI runs it too): soak tests, and the property tests at many more runs
 * (the unit suite runs the last three at a few).
 */
const STRESS_TESTS = [
  'tests/stress/**/*.test.ts', 'tests/server/fuzz.test.ts', 'tests/main/web/web-shell-hostile.test.ts', 'tests/main/assistant/planner/planner-safety.test.ts',
];

export default defineConfig({
  test: {
    // The test book is written once (and kept between runs while its inputs are unchanged); every
    // test backend starts from a copy of it.
    globalSetup: ['./tests/helpers/global-setup.ts'],
    setupFiles: ['./tests/helpers/property-seed.ts'],
    env: { TEST_SEED: String(seed) },
    // Each database suite opens its own engine; two workers match the two cores.
    maxWorkers: 2,
    // Files and the tests in each run in a random order every time, so no test can lean on
    // another's writes; the summary line prints the seed, and TEST_SEED=N replays that order.
    sequence: { shuffle: { files: true, tests: true }, seed },
    // A timeout is for a test that hangs, not for a slow machine: CI's shares its two cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    projects: [
      // `npm test`: the quick, deterministic suite. Worker threads start and share the module
      // loader faster than forked processes, and a worker keeps the modules it imported from one
      // file to the next (isolate: false): importing the planner and the server again for every
      // file was more than half the suite's time. So a test file leaves no state behind in a
      // module (a spy is restored, a registry put back), which the shuffled order checks.
      {
        extends: true,
        test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: ['tests/stress/**', ...INTEGRATION_TESTS], pool: 'threads', isolate: false },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION_TESTS, pool: 'threads' } },
      {
        extends: true,
        test: {
          name: 'stress',
          // A process of its own per file: the soak test measures this process's heap.
          pool: 'forks',
          include: STRESS_TESTS,
          env: { FUZZ_RUNS: '3000', HOSTILE_RUNS: '1000', PLANNER_SAFETY_RUNS: '1000' },
        },
      },
    ],
  },
});
