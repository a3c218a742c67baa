import { defineConfig } from 'vitest/config';

const seed = process.env.TEST_SEED ? Number(process.env.TEST_SEED) : Date.now() % 1_000_000;

export default defineConfig({
  test: {
    // The test book is written once per run; every test backend starts from a copy of it.
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
      // loader faster than forked processes (113 s against 131 s for the suite under load).
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: ['tests/stress/**'], pool: 'threads' } },
      // `npm run test:stress` (CI runs it too): soak tests, and the property tests at many more runs.
      {
        extends: true,
        test: {
          name: 'stress',
          // A process of its own per file: the soak test measures this process's heap.
          pool: 'forks',
          include: ['tests/stress/**/*.test.ts', 'tests/server/fuzz.test.ts', 'tests/main/web/web-shell-hostile.test.ts'],
          env: { FUZZ_RUNS: '3000', HOSTILE_RUNS: '1000' },
        },
      },
    ],
  },
});
