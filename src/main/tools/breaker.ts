/**
 * When a tool's circuit breaker opens (AGENT.md, Guards): cockatiel's circuit breaker (in
 * registry.ts) keeps the states — closed, open for a cool-down, half-open with one probe that
 * closes or re-opens it — and asks this rule, on each failure, whether to open: at least
 * `minCalls` calls in the last `windowMs`, of which at least `failureRatio` failed. (cockatiel's
 * own SamplingBreaker counts a rate, not calls, and opens only above the ratio, not at it.)
 */
import { CircuitState, type IBreaker } from 'cockatiel';

export interface BreakerOptions {
  /** How far back calls count. */
  windowMs?: number;
  /** Share of failed calls in the window that opens the breaker. */
  failureRatio?: number;
  /** Fewer calls than this in the window never open it: two failures of three say little. */
  minCalls?: number;
  /** How long an open breaker refuses before letting a probe through. */
  coolDownMs?: number;
}

export const BREAKER_DEFAULTS = { windowMs: 5 * 60_000, failureRatio: 0.2, minCalls: 10, coolDownMs: 30_000 };

export class WindowBreaker implements IBreaker {
  private readonly windowMs: number;
  private readonly failureRatio: number;
  private readonly minCalls: number;
  /** Outcomes in the window, oldest first (Date.now(), the clock cockatiel opens and closes by). */
  private calls: Array<{ at: number; failed: boolean }> = [];

  constructor(options: BreakerOptions = {}) {
    this.windowMs = options.windowMs ?? BREAKER_DEFAULTS.windowMs;
    this.failureRatio = options.failureRatio ?? BREAKER_DEFAULTS.failureRatio;
    this.minCalls = options.minCalls ?? BREAKER_DEFAULTS.minCalls;
  }

  get state(): unknown {
    return { calls: this.calls };
  }

  set state(value: unknown) {
    this.calls = (value as { calls?: Array<{ at: number; failed: boolean }> } | undefined)?.calls ?? [];
  }

  success(state: CircuitState): void {
    // A good probe closes it afresh: the failures that opened it are history.
    if (state === CircuitState.HalfOpen) this.calls = [];
    else this.push(false);
  }

  failure(state: CircuitState): boolean {
    if (state !== CircuitState.Closed) {
      this.calls = [];
      return true;
    }
    this.push(true);
    const failures = this.calls.reduce((n, c) => n + (c.failed ? 1 : 0), 0);
    if (this.calls.length >= this.minCalls && failures / this.calls.length >= this.failureRatio) {
      this.calls = [];
      return true;
    }
    return false;
  }

  private push(failed: boolean): void {
    const now = Date.now();
    this.calls.push({ at: now, failed });
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.calls.length && this.calls[drop]!.at <= cutoff) drop++;
    if (drop > 0) this.calls = this.calls.slice(drop);
  }
}
