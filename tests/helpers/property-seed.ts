/**
 * Every fast-check property of a run draws from the run's seed (printed as TEST_SEED by the
 * summary reporter), so a property that fails once fails again with TEST_SEED=N: its
 * counterexample is a bug to fix, never a flake to rerun past.
 */
import fc from 'fast-check';

const seed = Number(process.env.TEST_SEED);
if (Number.isSafeInteger(seed)) fc.configureGlobal({ seed });
