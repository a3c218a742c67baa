import { describe, expect, it } from 'vitest';
import { BusinessClock } from '../../src/shared/business-clock.js';
import { clockKindOf, createClock } from '../../src/server/backend.js';

const BOOK = new Date('2026-11-20T06:30:00.000Z');

describe('the business clock', () => {
  it('runs on from the backend time it last read, at the wall clock\'s pace, whatever this machine\'s own clock says', () => {
    let wall = Date.parse('2026-12-02T05:03:00.000Z');
    const clock = new BusinessClock(() => wall);
    expect(clock.kind).toBe('real');
    expect(clock.now().toISOString()).toBe('2026-12-02T05:03:00.000Z');
    clock.read(BOOK.toISOString(), 'book');
    expect(clock.kind).toBe('book');
    expect(clock.now().toISOString()).toBe('2026-11-20T06:30:00.000Z');
    wall += 5 * 60_000;
    expect(clock.now().toISOString()).toBe('2026-11-20T06:35:00.000Z');
    clock.read('not a time');
    expect(clock.nowMs()).toBe(BOOK.getTime() + 5 * 60_000);
  });

  it('follows a source exactly, and a clock that follows another hands its readings on', () => {
    let backendNow = BOOK;
    const embedded = new BusinessClock(() => 0);
    embedded.follow({ now: () => backendNow, kind: 'set' });
    const opening = new BusinessClock(() => 0);
    opening.follow(embedded);
    backendNow = new Date(BOOK.getTime() + 1000);
    expect(opening.now().toISOString()).toBe('2026-11-20T06:30:01.000Z');
    expect(opening.kind).toBe('set');

    const remote = new BusinessClock(() => 0);
    const outer = new BusinessClock(() => 0);
    outer.follow(remote);
    outer.read(BOOK.toISOString(), 'book');
    expect(remote.now().toISOString()).toBe(BOOK.toISOString());
    expect(remote.kind).toBe('book');
  });
});

describe('CLOCK', () => {
  it('says which clock it makes: the book\'s by default, the wall clock for real or without a book, a set one for an instant', () => {
    expect(clockKindOf(undefined, BOOK)).toBe('book');
    expect(clockKindOf('', BOOK)).toBe('book');
    expect(clockKindOf('real', BOOK)).toBe('real');
    expect(clockKindOf(undefined, null)).toBe('real');
    expect(clockKindOf('2026-11-21T10:00:00Z', BOOK)).toBe('set');
  });

  it('starts a demo book\'s clock at the book\'s moment and runs it on', () => {
    let wall = Date.parse('2026-12-02T05:03:00.000Z');
    const now = createClock(undefined, BOOK, () => wall);
    expect(now().toISOString()).toBe(BOOK.toISOString());
    wall += 60_000;
    expect(now().toISOString()).toBe('2026-11-20T06:31:00.000Z');
    expect(createClock('real', BOOK, () => wall)().getTime()).toBe(wall);
    expect(() => createClock('yesterday', BOOK)).toThrow(/CLOCK must be/);
  });
});

describe('an instant of the machine\'s own clock, shown on the business clock', () => {
  it('moves by the offset the backend\'s reading set', () => {
    let wall = Date.parse('2026-12-02T05:00:00.000Z');
    const clock = new BusinessClock(() => wall);
    clock.read('2026-11-20T12:00:00.000Z', 'book');
    expect(clock.fromWall('2026-12-02T05:05:00.000Z')).toBe('2026-11-20T12:05:00.000Z');
    wall += 60_000;
    expect(clock.fromWall('2026-12-02T05:05:00.000Z')).toBe('2026-11-20T12:05:00.000Z');
    expect(clock.fromWall('not a time')).toBe('not a time');
  });
});
