/**
 * The bounds every input of the API is held to, in one place: the contracts build their fields
 * from these, so "how long may a name be", "which dates exist" and "how many rows a page holds"
 * have one answer each. Anything outside them is the client's mistake and gets a 400 that says
 * which bound it broke, never a crash further in (a far date in date arithmetic, a NUL byte in
 * a PostgreSQL text parameter, an integer past its column).
 */
import { z } from 'zod';
import { FIRST_DAY, LAST_DAY, isBookDay, isIsoDate, isoWeekRange } from '../dates.js';

export { PAGE_SIZE_MAX } from './page-size.js';

/**
 * The largest amount any input may carry, in paisa (10,000,000,000,000.00 points): a million
 * times the platform's ceiling on a credit limit, so an absurd request still gets the
 * guardrail's own answer, while sums and differences of a few such amounts stay inside
 * JavaScript's safe integers (2^53 ≈ 9 × 10^15) and PostgreSQL's bigint.
 */
export const MAX_INPUT_PAISA = 1_000_000_000_000_000;

// C0 controls (NUL among them), DEL and C1 controls: invisible, and NUL is refused by PostgreSQL
// text outright. A lone surrogate is no character at all and cannot be encoded as UTF-8.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /\p{Cs}/u;

/** Text of at most `max` characters with no control characters and well-formed Unicode. */
export function boundedText(max: number) {
  return z.string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL_CHARACTER.test(s), 'must not contain control characters')
    .refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode text');
}

/** A calendar day, YYYY-MM-DD, that exists (no 2026-02-30) and lies from 2000-01-01 to 2100-12-31. */
export const isoDate = z.string()
  .max(10, 'must be a calendar date YYYY-MM-DD')
  .refine(isIsoDate, 'must be a calendar date YYYY-MM-DD')
  .refine(isBookDay, `must be a date from ${FIRST_DAY} to ${LAST_DAY}`);

/** An ISO week (`2026-W46`) that exists and whose seven days all lie in the book's calendar. */
export const isoWeek = z.string().trim()
  .regex(/^\d{4}-W\d{2}$/, 'must be an ISO week like 2026-W46')
  .refine((week) => {
    try {
      const { from, to } = isoWeekRange(week);
      return isBookDay(from) && isBookDay(to);
    } catch {
      return false;
    }
  }, `must be an ISO week from ${FIRST_DAY.slice(0, 4)} to ${LAST_DAY.slice(0, 4)} (some years have no week 53)`);

/**
 * The schemas money is built from, marked as paisa, so that what reads a tool's data (the number
 * guard) tells a field of paisa from a count by the field's own schema. A schema derived from one
 * (`.positive()`, `.min(0)`) reads as money too: a registry's `get` follows the derivation.
 */
export const moneySchemas = z.registry<{ unit: 'paisa' }>();

/** Money in an input: whole paisa within ±MAX_INPUT_PAISA. */
export const paisaInput = z.number().int('must be a whole number of paisa')
  .min(-MAX_INPUT_PAISA, `must be at least -${MAX_INPUT_PAISA} paisa`)
  .max(MAX_INPUT_PAISA, `must be at most ${MAX_INPUT_PAISA} paisa`)
  .register(moneySchemas, { unit: 'paisa' });

/** How many rows a page holds: 1 to `max`, `fallback` when not given. */
export function pageSize(max: number, fallback: number) {
  return z.number().int().min(1).max(max, `a page holds at most ${max} rows`).default(fallback);
}
