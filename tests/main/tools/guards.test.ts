import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/main/tools/define.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import type { ToolContext } from '../../../src/main/tools/types.js';
import { userSchema } from '../../../src/shared/contracts/agent-api.js';
import { RateLimiter } from '../../../src/main/assistant/guards/rate-limit.js';

/** A clock the test moves by hand. */
const manualClock = (start = Date.parse('2026-11-20T06:30:00Z')) => {
  const c = { t: start, now: () => c.t };
  return c;
};

/**
 * The circuit breaker per tool, through the registry (cockatiel's breaker, WindowBreaker's rule):
 * a tool whose handler fails (INTERNAL, the tool's own failure) or answers as told. cockatiel reads
 * Date.now, so only the Date is faked and moved by hand; no test waits.
 */
function breakerDesk() {
  const plan = { fail: false, calls: 0, hang: null as Promise<void> | null };
  const tool = (name: string) => defineTool({
    name, label: 'breaker test', description: 'A tool made only for the breaker tests: it fails or answers as the test says.',
    input: z.strictObject({}), output: z.object({ n: z.number() }), allowedRoles: ['agent'], isDestructive: false, card: null, entities: {},
    invoke: async () => {
      plan.calls++;
      if (plan.hang) await plan.hang;
      if (plan.fail) throw new Error('broken');
      return { n: plan.calls };
    },
    say: () => 'ok',
  });
  const registry = createToolRegistry({ tools: [tool('agent.flaky'), tool('agent.other')], retries: 0 });
  /** One call: 'ok', 'failed' (it ran and failed) or 'refused' (the breaker answered without running it). */
  const call = async (fail: boolean, name = 'agent.flaky'): Promise<'ok' | 'failed' | 'refused'> => {
    plan.fail = fail;
    const before = plan.calls;
    const env = await registry.call(name, {}, ctx);
    if (env.ok) return 'ok';
    if (plan.calls === before) {
      expect(env.error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/temporarily unavailable; try again in \d+ s$/) });
      return 'refused';
    }
    expect(env.error.code).toBe('INTERNAL');
    return 'failed';
  };
  return { plan, registry, call };
}

const user = userSchema.parse({ id: '33333333-3333-4333-8333-333333333333', username: 'tester', name: 'Tester', role: 'agent', timezone: 'Asia/Kolkata' });
const ctx = { api: null as never, user, requestId: 'r1' } satisfies ToolContext;

describe('circuit breaker', () => {
  let clock = 0;
  const at = (t: number) => { clock = t; vi.setSystemTime(clock); };
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(Date.parse('2026-11-20T06:30:00Z'));
  });
  afterEach(() => { vi.useRealTimers(); });

  it('opens at 20% failures over at least 10 calls, and refuses until the cool-down', async () => {
    const { call } = breakerDesk();
    for (let i = 0; i < 8; i++) expect(await call(false)).toBe('ok');
    expect(await call(true)).toBe('failed'); // 1 of 9: closed
    expect(await call(true)).toBe('failed'); // 2 of 10: 20%, opens (cockatiel's SamplingBreaker would want more than 20%)
    expect(await call(false)).toBe('refused');
    at(clock + 29_999);
    expect(await call(false)).toBe('refused');
  });

  it('stays closed below 20%, and with fewer than 10 calls whatever their outcome', async () => {
    const low = breakerDesk();
    for (let i = 0; i < 9; i++) await low.call(false);
    await low.call(true);
    for (let i = 0; i < 20; i++) expect(await low.call(false)).toBe('ok');
    const few = breakerDesk();
    for (let i = 0; i < 9; i++) expect(await few.call(true)).toBe('failed');
    expect(await few.call(true)).toBe('failed'); // the 10th: opens
    expect(await few.call(false)).toBe('refused');
  });

  it('after the cool-down lets one probe through at a time; a good probe closes it afresh', async () => {
    const { plan, call } = breakerDesk();
    for (let i = 0; i < 10; i++) await call(true);
    at(clock + 30_000);
    let release!: () => void;
    plan.hang = new Promise<void>((resolve) => { release = resolve; });
    plan.fail = false;
    const probe = call(false);
    // While the probe is out, the others are refused, not queued behind it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    plan.hang = null;
    expect(await call(false)).toBe('refused');
    release();
    expect(await probe).toBe('ok');
    // Closed afresh: one failure now is 1 of 1, not a reason to re-open.
    expect(await call(true)).toBe('failed');
    expect(await call(false)).toBe('ok');
  });

  it('a failed probe re-opens it for another cool-down', async () => {
    const { call } = breakerDesk();
    for (let i = 0; i < 10; i++) await call(true);
    at(clock + 30_000);
    expect(await call(true)).toBe('failed');
    at(clock + 29_000);
    expect(await call(false)).toBe('refused');
    at(clock + 1_000);
    expect(await call(false)).toBe('ok');
  });

  it('forgets calls older than five minutes', async () => {
    const { call } = breakerDesk();
    for (let i = 0; i < 9; i++) await call(false);
    await call(true); // 1 of 10
    at(clock + 1_000);
    await call(true); // 2 of 11: 18%, still closed
    at(clock + 4 * 60_000 + 59_000); // five minutes after the first ten: they drop out
    for (let i = 0; i < 8; i++) expect(await call(false)).toBe('ok');
    expect(await call(true)).toBe('failed'); // 2 of the last 10: 20%; had the old calls still counted, 3 of 20
    expect(await call(false)).toBe('refused');
  });

  it('keeps one breaker per tool', async () => {
    const { call } = breakerDesk();
    for (let i = 0; i < 10; i++) await call(true);
    expect(await call(false)).toBe('refused');
    expect(await call(false, 'agent.other')).toBe('ok');
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
