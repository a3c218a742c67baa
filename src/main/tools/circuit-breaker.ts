/**
 * Circuit breaker per tool (AGENT.md, Guards): when a tool keeps failing, stop sending it calls for
 * a while and answer "temporarily unavailable" at once, instead of making every turn wait for the
 * same failure; then let a single probe through to find out whether it has recovered.
 */

export interface CircuitBreakerOptions {
  /** Milliseconds since the epoch; injectable so tests move time by hand. */
  now?: () => number;
  /** How far back calls count. */
  windowMs?: number;
  /** Share of failed calls in the window that opens the breaker. */
  failureRatio?: number;
  /** Fewer calls than this in the window never open it: two failures of three say little. */
  minCalls?: number;
  /** How long an open breaker refuses before letting a probe through. */
  coolDownMs?: number;
}

export type BreakerState = 'closed' | 'open' | 'half_open';

/** A permit to call; `probe` marks the one half-open trial call. */
export type BreakerPermit = { ok: true; probe: boolean } | { ok: false; retryAfterMs: number };

const DEFAULTS = { windowMs: 5 * 60_000, failureRatio: 0.2, minCalls: 10, coolDownMs: 30_000 };

export class CircuitBreaker {
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly failureRatio: number;
  private readonly minCalls: number;
  private readonly coolDownMs: number;
  /** Outcomes in the window, oldest first. */
  private calls: Array<{ at: number; failed: boolean }> = [];
  private current: BreakerState = 'closed';
  private openedAt = 0;
  private probeSince: number | null = null;

  constructor(options: CircuitBreakerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.windowMs = options.windowMs ?? DEFAULTS.windowMs;
    this.failureRatio = options.failureRatio ?? DEFAULTS.failureRatio;
    this.minCalls = options.minCalls ?? DEFAULTS.minCalls;
    this.coolDownMs = options.coolDownMs ?? DEFAULTS.coolDownMs;
  }

  state(): BreakerState {
    if (this.current === 'open' && this.now() - this.openedAt >= this.coolDownMs) return 'half_open';
    return this.current;
  }

  /** Asks to make a call. Every granted permit must be followed by exactly one `record`. */
  acquire(): BreakerPermit {
    const now = this.now();
    if (this.current === 'closed') return { ok: true, probe: false };
    if (this.current === 'open') {
      const waited = now - this.openedAt;
      if (waited < this.coolDownMs) return { ok: false, retryAfterMs: this.coolDownMs - waited };
      this.current = 'half_open';
    }
    // Half-open: one probe at a time. A probe that never reported back (a lost promise) must not
    // wedge the tool shut, so after another cool-down a new probe may go.
    if (this.probeSince !== null && now - this.probeSince < this.coolDownMs) {
      return { ok: false, retryAfterMs: this.coolDownMs - (now - this.probeSince) };
    }
    this.probeSince = now;
    return { ok: true, probe: true };
  }

  /**
   * The outcome of a permitted call. `failed` is for failures that are the tool's own (it broke,
   * timed out, could not reach the backend); a refusal or a not-found is the tool working.
   */
  record(failed: boolean, permit?: BreakerPermit): void {
    const now = this.now();
    if (permit?.ok && permit.probe) {
      this.probeSince = null;
      if (failed) this.trip(now);
      else this.reset();
      return;
    }
    // A call granted before the breaker opened may report after; it says nothing new then.
    if (this.current !== 'closed') return;
    this.calls.push({ at: now, failed });
    this.prune(now);
    const failures = this.calls.reduce((n, c) => n + (c.failed ? 1 : 0), 0);
    if (this.calls.length >= this.minCalls && failures / this.calls.length >= this.failureRatio) this.trip(now);
  }

  private trip(now: number): void {
    this.current = 'open';
    this.openedAt = now;
    this.calls = [];
  }

  private reset(): void {
    // Closed afresh: the failures that opened it are history, not a reason to re-open at once.
    this.current = 'closed';
    this.calls = [];
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.calls.length && this.calls[drop]!.at <= cutoff) drop++;
    if (drop > 0) this.calls = this.calls.slice(drop);
  }
}

/** One breaker per tool name, made on first use. */
export class CircuitBreakers {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(private readonly options: CircuitBreakerOptions = {}) {}

  for(tool: string): CircuitBreaker {
    let breaker = this.breakers.get(tool);
    if (!breaker) {
      breaker = new CircuitBreaker(this.options);
      this.breakers.set(tool, breaker);
    }
    return breaker;
  }
}
