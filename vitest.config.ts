import { defineConfig } from 'vitest/config';

const seed = process.env.TEST_SEED ? Number(process.env.TEST_SEED) : Date.now() % 1_000_000;

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The test book is written once per run; every test backend starts from a copy of it.
    globalSetup: ['./tests/helpers/global-setup.ts'],
    // Each database suite opens its own engine; two workers match the two cores.
    maxWorkers: 2,
    // Files and the tests in each run in a random order every time, so no test can lean on
    // another's writes; the summary line prints the seed, and TEST_SEED=N replays that order.
    sequence: { shuffle: { files: true, tests: true }, seed },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
  },
});
