/**
 * What a failed model call means for the turn: try again (after how long), or give the turn to
 * the offline planner with a reason the chat can show. Never a raw error, never a hung turn: a
 * rate limit that asks for a long wait is not waited out.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, AuthenticationError, PermissionDeniedError, RateLimitError } from '@anthropic-ai/sdk';

/** Retries after the first attempt. */
export const MAX_MODEL_RETRIES = 2;
/** The longest `retry-after` a turn waits; a longer one is answered offline at once. */
export const MAX_RETRY_WAIT_MS = 5_000;

export interface ModelFailure {
  retry: boolean;
  waitMs: number;
  /** For the chat: "Claude is overloaded", completing "…, so the offline planner answered." */
  reason: string;
  /** For the log and the turn record. */
  kind: 'rate_limited' | 'overloaded' | 'server_error' | 'stream_error' | 'timeout' | 'connection' | 'auth' | 'refused' | 'unknown';
}

export class TurnStopped extends Error {
  constructor() {
    super('stopped by the user');
  }
}

/** Exponential backoff with jitter from `random`: 250 ms, 500 ms, … (±25%). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.round(250 * 2 ** attempt * (0.75 + random() * 0.5));
}

export function classifyFailure(error: unknown, attempt: number, timedOut: boolean, random?: () => number): ModelFailure {
  const backoff = backoffMs(attempt, random);
  if (timedOut || error instanceof APIConnectionTimeoutError) return { retry: true, waitMs: backoff, reason: 'Claude did not answer in time', kind: 'timeout' };
  if (error instanceof APIUserAbortError) return { retry: false, waitMs: 0, reason: 'the request to Claude was cancelled', kind: 'unknown' };
  if (error instanceof RateLimitError) {
    const waitMs = retryAfterMs(error.headers) ?? backoff;
    return waitMs <= MAX_RETRY_WAIT_MS
      ? { retry: true, waitMs, reason: 'Claude is rate-limiting this key', kind: 'rate_limited' }
      : { retry: false, waitMs, reason: `Claude is rate-limiting this key (try again in ${Math.ceil(waitMs / 1000)} s)`, kind: 'rate_limited' };
  }
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return { retry: false, waitMs: 0, reason: 'the API key was refused (check it in Settings)', kind: 'auth' };
  }
  if (error instanceof APIConnectionError) return { retry: true, waitMs: backoff, reason: 'the connection to Claude dropped', kind: 'connection' };
  if (error instanceof APIError) {
    if (error.status === 529 || error.type === 'overloaded_error') return { retry: true, waitMs: backoff, reason: 'Claude is overloaded', kind: 'overloaded' };
    if (error.status === undefined) return { retry: true, waitMs: backoff, reason: 'Claude\'s answer broke off', kind: 'stream_error' };
    if (error.status >= 500) return { retry: true, waitMs: backoff, reason: 'Claude\'s service had an error', kind: 'server_error' };
    return { retry: false, waitMs: 0, reason: `Claude refused the request (${error.status})`, kind: 'refused' };
  }
  // A stream cut short surfaces as a plain error from the body's reader.
  return { retry: true, waitMs: backoff, reason: 'the connection to Claude dropped', kind: 'connection' };
}

function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && headers?.get('retry-after-ms')) return ms;
  const raw = headers?.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Waits, unless the turn is stopped first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new TurnStopped());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new TurnStopped());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
