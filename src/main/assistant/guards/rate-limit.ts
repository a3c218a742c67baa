/**
 * Per-agent rate limit on assistant turns (AGENT.md, Guards; seed 000: cost runaway from heavy
 * agents). A sliding window of the turns actually taken, not fixed minute buckets, so a burst
 * straddling a minute boundary cannot get twice the allowance.
 */

export interface RateLimitOptions {
  /** Turns allowed per window. */
  limit?: number;
  windowMs?: number;
  /** Milliseconds since the epoch; injectable so tests move time by hand. */
  now?: () => number;
}

export type RateLimitResult = { ok: true } | { ok: false; retryAfterMs: number };

export class RateLimiter {
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  /** Per user, the times of the turns taken within the window, oldest first. */
  private readonly taken = new Map<string, number[]>();
  private sweeps = 0;

  constructor(options: RateLimitOptions = {}) {
    this.limit = options.limit ?? 30;
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? Date.now;
    if (!Number.isInteger(this.limit) || this.limit < 1) throw new RangeError('limit must be a positive integer');
    if (!(this.windowMs > 0)) throw new RangeError('windowMs must be positive');
  }

  /** Takes one turn for the user if the window has room; a refused turn does not count. */
  take(userId: string): RateLimitResult {
    const now = this.now();
    const cutoff = now - this.windowMs;
    const times = (this.taken.get(userId) ?? []).filter((t) => t > cutoff);
    if (times.length >= this.limit) {
      this.taken.set(userId, times);
      // Room opens when the oldest turn in the window falls out of it.
      return { ok: false, retryAfterMs: Math.max(1, times[0]! + this.windowMs - now) };
    }
    times.push(now);
    this.taken.set(userId, times);
    this.sweep(cutoff);
    return { ok: true };
  }

  /** Forgets users idle for a whole window, now and then, so the map does not grow with every agent ever seen. */
  private sweep(cutoff: number): void {
    if (++this.sweeps % 256 !== 0) return;
    for (const [user, times] of this.taken) if (times.at(-1)! <= cutoff) this.taken.delete(user);
  }
}
