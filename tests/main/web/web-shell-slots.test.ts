import { describe, expect, it } from 'vitest';
import { slotFromCookie } from '../../../src/main/desk/senders.js';
import { SlotRegistry } from '../../../src/main/web/session-slots.js';

describe('the slots the browser shell issues', () => {
  it('keeps at most `max`, forgetting the least recently seen unbound ones first', () => {
    const slots = new SlotRegistry({ hasSession: () => false, max: 10 });
    const first = slots.issue();
    const second = slots.issue();
    for (let i = 0; i < 7; i++) slots.issue();
    expect(slots.has(first)).toBe(true); // seen again: now the most recent
    for (let i = 0; i < 1_000; i++) {
      slots.issue();
      expect(slots.size).toBeLessThanOrEqual(10);
    }
    expect(slots.has(second)).toBe(false);
  });

  it('never forgets a slot while a desk connection is open on it or it holds a session', () => {
    const signedIn = new Set<string>();
    let now = 0;
    const slots = new SlotRegistry({ hasSession: (slot) => signedIn.has(slot), max: 5, idleMs: 1_000, now: () => now });
    const connected = slots.issue();
    const withSession = slots.issue();
    const release = slots.attach(connected);
    signedIn.add(withSession);
    for (let i = 0; i < 100; i++) {
      now += 100;
      slots.issue();
    }
    now += 10_000;
    slots.issue();
    expect(slots.has(connected)).toBe(true);
    expect(slots.has(withSession)).toBe(true);
    expect(slots.size).toBeLessThanOrEqual(5);

    // Unbound again (closed, signed out) and idle: forgotten.
    release();
    release(); // a second release changes nothing
    signedIn.delete(withSession);
    now += 10_000;
    expect(slots.has(connected)).toBe(false);
    expect(slots.has(withSession)).toBe(false);
  });

  it('forgets an unbound slot idle for `idleMs`, and keeps one that is seen', () => {
    let now = 0;
    const slots = new SlotRegistry({ hasSession: () => false, idleMs: 60_000, now: () => now });
    const idle = slots.issue();
    const seen = slots.issue();
    for (let minute = 1; minute <= 5; minute++) {
      now = minute * 50_000;
      expect(slots.has(seen)).toBe(true);
    }
    expect(slots.has(idle)).toBe(false);
    // The periodic sweep drops idle slots that are never asked about again.
    for (let i = 0; i < 50; i++) slots.issue();
    now += 120_000;
    slots.issue();
    expect(slots.size).toBe(1);
  });

  it('reads the slot cookie only when it is the one slot cookie sent (a second, planted beside it, voids both)', () => {
    const own = 'a'.repeat(43);
    const planted = 'b'.repeat(43);
    expect(slotFromCookie(`theme=dark; desk_slot=${own}`)).toBe(own);
    expect(slotFromCookie(`desk_slot=${planted}; desk_slot=${own}`)).toBeNull();
    expect(slotFromCookie(`desk_slot=${own}; other=1; desk_slot=${own}`)).toBeNull();
    expect(slotFromCookie('desk_slot=short')).toBeNull();
    expect(slotFromCookie(undefined)).toBeNull();
  });
});
