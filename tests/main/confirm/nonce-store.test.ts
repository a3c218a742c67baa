import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MAX_NONCE_TTL_MS, NonceStore, payloadHashOf } from '../../../src/main/confirm/nonce-store.js';

const START = Date.parse('2026-11-20T06:30:00.000Z');
const TTL = 5 * 60_000;

/** A clock the test moves by hand. */
const manualClock = (start = START) => {
  const c = { t: start, now: () => c.t };
  return c;
};

const proposal = () => ({
  userId: 'agent-priya',
  tool: 'agent.setCreditLimit',
  args: { playerId: 'p-17', limit: { amount: 5_000_000, currency: 'PTS' }, tags: ['vip', 'north'] },
  snapshot: { before: { limit: 2_500_000 } },
});

describe('nonce store', () => {
  it('issues a random 256-bit nonce, the hash of the call and the expiry', () => {
    const clock = manualClock();
    const store = new NonceStore({ now: clock.now });
    const call = proposal();
    const issued = store.issue(call);
    expect(issued.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(issued.nonce, 'base64url')).toHaveLength(32);
    // Written out by hand: sorted keys, no whitespace.
    const canonical = '{"args":{"limit":{"amount":5000000,"currency":"PTS"},"playerId":"p-17","tags":["vip","north"]},"tool":"agent.setCreditLimit","userId":"agent-priya"}';
    expect(issued.payloadHash).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(issued.payloadHash).toBe(payloadHashOf(call));
    expect(issued.expiresAt).toBe('2026-11-20T06:35:00.000Z');
    expect(store.issue(proposal()).nonce).not.toBe(issued.nonce);
  });

  it('keeps the call on issue and hands it back to its user on consume', () => {
    const clock = manualClock();
    const store = new NonceStore({ now: clock.now });
    const { nonce, payloadHash } = store.issue(proposal());
    expect(store.size).toBe(1);
    clock.t += 60_000;
    const taken = store.consume(nonce, { userId: 'agent-priya', payloadHash });
    expect(taken).toEqual({
      ok: true,
      entry: { ...proposal(), payloadHash, issuedAt: '2026-11-20T06:30:00.000Z', expiresAt: '2026-11-20T06:35:00.000Z' },
    });
  });

  it('refuses another user without using the nonce up', () => {
    const store = new NonceStore();
    const { nonce, payloadHash } = store.issue(proposal());
    expect(store.consume(nonce, { userId: 'agent-ravi', payloadHash })).toEqual({ ok: false, reason: 'wrong_user' });
    expect(store.cancel(nonce, 'agent-ravi')).toEqual({ ok: false, reason: 'wrong_user' });
    expect(store.consume(nonce, { userId: 'agent-priya', payloadHash }).ok).toBe(true);
  });

  it('refuses an expired nonce, and it stays used up even if the clock steps back', () => {
    const clock = manualClock();
    const store = new NonceStore({ now: clock.now });
    const early = store.issue(proposal());
    const late = store.issue(proposal());
    clock.t = START + TTL - 1;
    expect(store.consume(early.nonce, { userId: 'agent-priya', payloadHash: early.payloadHash }).ok).toBe(true);
    clock.t = START + TTL;
    // The attempt that used it up hands the entry back, for the audit log; later ones do not.
    expect(store.consume(late.nonce, { userId: 'agent-priya', payloadHash: late.payloadHash })).toMatchObject({ ok: false, reason: 'expired', entry: { tool: expect.any(String) } });
    expect(store.consume(late.nonce, { userId: 'agent-priya', payloadHash: late.payloadHash })).toEqual({ ok: false, reason: 'expired' });
    clock.t = START;
    expect(store.consume(late.nonce, { userId: 'agent-priya', payloadHash: late.payloadHash })).toEqual({ ok: false, reason: 'used' });
  });

  it('refuses a replay as used', () => {
    const store = new NonceStore();
    const { nonce, payloadHash } = store.issue(proposal());
    expect(store.consume(nonce, { userId: 'agent-priya', payloadHash }).ok).toBe(true);
    expect(store.consume(nonce, { userId: 'agent-priya', payloadHash })).toEqual({ ok: false, reason: 'used' });
    expect(store.cancel(nonce, 'agent-priya')).toEqual({ ok: false, reason: 'used' });
  });

  it('refuses a payload hash that is not the frozen call\'s, and that uses the nonce up', () => {
    const store = new NonceStore();
    const { nonce, payloadHash } = store.issue(proposal());
    const otherCall = payloadHashOf({ ...proposal(), args: { ...proposal().args, limit: { amount: 9_000_000, currency: 'PTS' } } });
    expect(store.consume(nonce, { userId: 'agent-priya', payloadHash: otherCall })).toMatchObject({ ok: false, reason: 'tampered', entry: { userId: 'agent-priya' } });
    expect(store.consume(nonce, { userId: 'agent-priya', payloadHash })).toEqual({ ok: false, reason: 'used' });
  });

  it('answers unknown for a nonce it never issued', () => {
    const store = new NonceStore();
    const { payloadHash } = store.issue(proposal());
    expect(store.consume('A'.repeat(43), { userId: 'agent-priya', payloadHash })).toEqual({ ok: false, reason: 'unknown' });
    expect(store.cancel('', 'agent-priya')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('cancel uses the nonce up and returns the entry to log', () => {
    const store = new NonceStore();
    const { nonce, payloadHash } = store.issue(proposal());
    const cancelled = store.cancel(nonce, 'agent-priya');
    expect(cancelled.ok && cancelled.entry.args).toEqual(proposal().args);
    expect(cancelled.ok && cancelled.entry.snapshot).toEqual(proposal().snapshot);
    expect(store.consume(nonce, { userId: 'agent-priya', payloadHash })).toEqual({ ok: false, reason: 'used' });
  });

  it('freezes a copy: the caller\'s object changes nothing, and the entry cannot be changed', () => {
    const store = new NonceStore();
    const call = proposal();
    const { nonce, payloadHash } = store.issue(call);
    call.args.playerId = 'p-99';
    call.args.limit.amount = 1;
    call.args.tags.push('changed');
    call.snapshot.before.limit = 0;
    const taken = store.consume(nonce, { userId: 'agent-priya', payloadHash });
    if (!taken.ok) throw new Error(`consume refused: ${taken.reason}`);
    const { entry } = taken;
    expect(entry.args).toEqual(proposal().args);
    expect(entry.snapshot).toEqual(proposal().snapshot);
    // ES modules run in strict mode: writing to a frozen object throws.
    const args = entry.args as { playerId: string; limit: { amount: number }; tags: string[] };
    expect(() => { args.playerId = 'p-99'; }).toThrow(TypeError);
    expect(() => { args.limit.amount = 1; }).toThrow(TypeError);
    expect(() => args.tags.push('x')).toThrow(TypeError);
    expect(() => { (entry.snapshot as { before: { limit: number } }).before.limit = 0; }).toThrow(TypeError);
    expect(() => { (entry as { tool: string }).tool = 'agent.settle'; }).toThrow(TypeError);
    expect(() => { delete (entry.args as Record<string, unknown>).playerId; }).toThrow(TypeError);
    expect(payloadHashOf(entry)).toBe(payloadHash);
  });

  it('refuses a call that has no JSON form, and a proposal without a user or tool', () => {
    const store = new NonceStore();
    expect(() => store.issue({ ...proposal(), args: { amount: 10n } })).toThrow(/bigint/);
    expect(() => store.issue({ ...proposal(), args: { amount: NaN } })).toThrow(/NaN/);
    expect(() => store.issue({ ...proposal(), snapshot: { at: new Map() } })).toThrow(/Map/);
    expect(() => store.issue({ ...proposal(), userId: '' })).toThrow(TypeError);
    expect(() => store.issue({ ...proposal(), tool: '' })).toThrow(TypeError);
    expect(store.size).toBe(0);
  });

  it('takes a TTL from one to five minutes, five by default', () => {
    for (const ttlMs of [59_999, 300_001, 0, -60_000, NaN, Infinity, 60_000.5]) {
      expect(() => new NonceStore({ ttlMs })).toThrow(RangeError);
    }
    const clock = manualClock();
    expect(new NonceStore({ ttlMs: 60_000, now: clock.now }).issue(proposal()).expiresAt).toBe('2026-11-20T06:31:00.000Z');
    expect(new NonceStore({ ttlMs: MAX_NONCE_TTL_MS, now: clock.now }).issue(proposal()).expiresAt).toBe('2026-11-20T06:35:00.000Z');
    expect(new NonceStore({ now: clock.now }).issue(proposal()).expiresAt).toBe('2026-11-20T06:35:00.000Z');
  });

  it('remembers a nonce, live or used, for one TTL past its expiry, then forgets it', () => {
    const clock = manualClock();
    const store = new NonceStore({ ttlMs: 60_000, now: clock.now });
    const used = store.issue(proposal());
    const left = store.issue(proposal());
    expect(store.consume(used.nonce, { userId: 'agent-priya', payloadHash: used.payloadHash }).ok).toBe(true);
    clock.t = START + 2 * 60_000 - 1;
    expect(store.size).toBe(2);
    expect(store.consume(used.nonce, { userId: 'agent-priya', payloadHash: used.payloadHash })).toEqual({ ok: false, reason: 'expired' });
    clock.t = START + 2 * 60_000;
    expect(store.size).toBe(0);
    expect(store.consume(used.nonce, { userId: 'agent-priya', payloadHash: used.payloadHash })).toEqual({ ok: false, reason: 'unknown' });
    expect(store.consume(left.nonce, { userId: 'agent-priya', payloadHash: left.payloadHash })).toEqual({ ok: false, reason: 'unknown' });
  });

  it('offers no way to list nonces, nor to read an entry but by presenting its nonce and hash as its owner (check) or using it up', () => {
    const store = new NonceStore();
    const { nonce } = store.issue(proposal());
    expect(Object.getOwnPropertyNames(NonceStore.prototype).sort()).toEqual(['cancel', 'check', 'constructor', 'consume', 'issue', 'size']);
    // A check that fails its hash uses the proposal up, as consume would: probing costs the proposal.
    expect(store.check(nonce, { userId: 'agent-priya', payloadHash: '0'.repeat(64) })).toMatchObject({ ok: false, reason: 'tampered' });
    expect(store.check(nonce, { userId: 'agent-priya', payloadHash: payloadHashOf(proposal()) })).toEqual({ ok: false, reason: 'used' });
    expect(Object.keys(store)).toEqual([]);
    expect(JSON.stringify(store)).toBe('{}');
    const shown = inspect(store, { depth: Infinity, showHidden: true });
    expect(shown).not.toContain(nonce);
    expect(shown).not.toContain('p-17');
  });
});
