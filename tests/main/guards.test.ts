import { describe, expect, it } from 'vitest';
import { CircuitBreaker, CircuitBreakers } from '../../src/main/tools/circuit-breaker.js';
import { RateLimiter } from '../../src/main/assistant/guards/rate-limit.js';

/** A clock the test moves by hand. */
const manualClock = (start = Date.parse('2026-11-20T06:30:00Z')) => {
  const c = { t: start, now: () => c.t };
  return c;
};

/** One call through the breaker: refused, or permitted and reported as failed or not. */
function call(breaker: CircuitBreaker, failed: boolean): boolean {
  const permit = breaker.acquire();
  if (!permit.ok) return false;
  breaker.record(failed, permit);
  return true;
}

describe('circuit breaker', () => {
  it('opens at 20% failures over at least 10 calls, and refuses until the cool-down', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker({ now: clock.now });
    for (let i = 0; i < 8; i++) expect(call(breaker, false)).toBe(true);
    expect(call(breaker, true)).toBe(true);
    expect(breaker.state()).toBe('closed'); // 1 of 9
    expect(call(breaker, true)).toBe(true); // 2 of 10: 20%
    expect(breaker.state()).toBe('open');
    const refused = breaker.acquire();
    expect(refused).toEqual({ ok: false, retryAfterMs: 30_000 });
    clock.t += 29_999;
    expect(breaker.acquire()).toEqual({ ok: false, retryAfterMs: 1 });
  });

  it('stays closed below the threshold', () => {
    const breaker = new CircuitBreaker({ now: manualClock().now });
    // 1 failure in 10 calls is 10%, and stays under 20% as good calls follow.
    for (let i = 0; i < 9; i++) call(breaker, false);
    call(breaker, true);
    for (let i = 0; i < 20; i++) call(breaker, false);
    expect(breaker.state()).toBe('closed');
  });

  it('never opens on fewer than 10 calls, however many fail', () => {
    const breaker = new CircuitBreaker({ now: manualClock().now });
    for (let i = 0; i < 9; i++) expect(call(breaker, true)).toBe(true);
    expect(breaker.state()).toBe('closed');
    call(breaker, true);
    expect(breaker.state()).toBe('open');
  });

  it('lets one half-open probe through after the cool-down; its success closes it', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker({ now: clock.now });
    for (let i = 0; i < 10; i++) call(breaker, true);
    clock.t += 30_000;
    expect(breaker.state()).toBe('half_open');
    const probe = breaker.acquire();
    expect(probe).toEqual({ ok: true, probe: true });
    // While the probe is out, nobody else goes.
    expect(breaker.acquire().ok).toBe(false);
    breaker.record(false, probe);
    expect(breaker.state()).toBe('closed');
    expect(breaker.acquire()).toEqual({ ok: true, probe: false });
    // Closed afresh: one new failure does not re-open it on the old ones.
    expect(call(breaker, true)).toBe(true);
    expect(breaker.state()).toBe('closed');
  });

  it('re-opens when the probe fails, for another full cool-down', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker({ now: clock.now });
    for (let i = 0; i < 10; i++) call(breaker, true);
    clock.t += 30_000;
    const probe = breaker.acquire();
    breaker.record(true, probe);
    expect(breaker.state()).toBe('open');
    clock.t += 29_000;
    expect(breaker.acquire().ok).toBe(false);
    clock.t += 1_000;
    expect(breaker.acquire()).toEqual({ ok: true, probe: true });
  });

  it('lets a new probe go if the last one never reported back', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker({ now: clock.now });
    for (let i = 0; i < 10; i++) call(breaker, true);
    clock.t += 30_000;
    expect(breaker.acquire().ok).toBe(true); // lost
    clock.t += 10_000;
    expect(breaker.acquire().ok).toBe(false);
    clock.t += 20_000;
    expect(breaker.acquire()).toEqual({ ok: true, probe: true });
  });

  it('slides its window: failures older than 5 minutes no longer count', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker({ now: clock.now });
    for (let i = 0; i < 9; i++) call(breaker, false);
    call(breaker, true); // 1 of 10
    clock.t += 4 * 60_000;
    call(breaker, true); // 2 of 11: 18%, still closed
    expect(breaker.state()).toBe('closed');
    clock.t += 60_001; // the first ten fall out of the window
    for (let i = 0; i < 8; i++) call(breaker, false);
    call(breaker, true); // 2 of the last 10: 20%; had the old calls still counted, 3 of 20
    expect(breaker.state()).toBe('open');
  });

  it('keeps one breaker per tool', () => {
    const breakers = new CircuitBreakers({ now: manualClock().now });
    for (let i = 0; i < 10; i++) call(breakers.for('agent.getPnL'), true);
    expect(breakers.for('agent.getPnL').state()).toBe('open');
    expect(breakers.for('agent.getTake').state()).toBe('closed');
    expect(breakers.for('agent.getPnL')).toBe(breakers.for('agent.getPnL'));
  });
});

describe('rate limiter', () => {
  it('refuses the 31st turn in a minute with the wait until room opens', () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ now: clock.now });
    for (let i = 0; i < 30; i++) {
      expect(limiter.take('priya')).toEqual({ ok: true });
      clock.t += 1_000;
    }
    // The first turn was 30 s ago: room opens 30 s from now.
    expect(limiter.take('priya')).toEqual({ ok: false, retryAfterMs: 30_000 });
    // Another agent has their own allowance.
    expect(limiter.take('arjun')).toEqual({ ok: true });
  });

  it('frees up as turns leave the window, one by one', () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ now: clock.now });
    for (let i = 0; i < 30; i++) limiter.take('priya');
    clock.t += 59_999;
    expect(limiter.take('priya').ok).toBe(false);
    // Refused turns do not count: the window is still the 30 taken at the start.
    clock.t += 1;
    for (let i = 0; i < 30; i++) expect(limiter.take('priya')).toEqual({ ok: true });
    expect(limiter.take('priya')).toEqual({ ok: false, retryAfterMs: 60_000 });
  });

  it('slides rather than resetting on the minute', () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ now: clock.now, limit: 3, windowMs: 60_000 });
    limiter.take('u');
    clock.t += 40_000;
    limiter.take('u');
    limiter.take('u');
    clock.t += 20_000; // the first turn leaves; the two at 40 s stay
    expect(limiter.take('u')).toEqual({ ok: true });
    expect(limiter.take('u')).toEqual({ ok: false, retryAfterMs: 40_000 });
  });

  it('rejects a nonsensical configuration', () => {
    expect(() => new RateLimiter({ limit: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ windowMs: 0 })).toThrow(RangeError);
  });
});
