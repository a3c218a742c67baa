/**
 * The scripts' command lines (`npm run load`, `npm run simulate`): strict flags, numbers checked
 * with the flag named in the message, and one error type a script turns into exit code 2 with its
 * usage text.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

export class UsageError extends Error {}

export interface Flags {
  values: Record<string, string | boolean | undefined>;
  /** A number flag: its value, the fallback when absent, or a UsageError (required, not a number, below `min`). */
  num(name: string, fallback?: number): number;
}

export function parseFlags(argv: string[], options: NonNullable<ParseArgsConfig['options']>, min = -Infinity): Flags {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options }) as { values: Record<string, string | boolean | undefined> });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const num = (name: string, fallback?: number): number => {
    const raw = values[name];
    if (raw === undefined) {
      if (fallback === undefined) throw new UsageError(`--${name} is required`);
      return fallback;
    }
    const n = Number(raw);
    if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(n) || n < min) {
      throw new UsageError(`--${name} must be a number${min > -Infinity ? ` ≥ ${min}` : ''}, got "${String(raw)}"`);
    }
    return n;
  };
  return { values, num };
}
