import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalJsonError, canonicalJson } from '../../src/shared/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps arrays in order and writes no whitespace', () => {
    const value = { b: 1, a: { d: [3, { z: true, y: null }, 'x'], c: 'text with spaces' } };
    expect(canonicalJson(value)).toBe('{"a":{"c":"text with spaces","d":[3,{"y":null,"z":true},"x"]},"b":1}');
  });

  it('gives one text whatever order the keys were inserted in', () => {
    const one = { user: 'u1', tool: 't', args: { amount: 5, playerId: 'p' } };
    const other = { args: { playerId: 'p', amount: 5 }, tool: 't', user: 'u1' };
    expect(JSON.stringify(one)).not.toBe(JSON.stringify(other));
    expect(canonicalJson(one)).toBe(canonicalJson(other));
  });

  it('sorts keys as strings by code unit, integer-like keys included', () => {
    // Object.keys lists integer-like keys first in numeric order; the canonical order must not.
    expect(canonicalJson({ 9: 'a', 10: 'b', B: 'c', a: 'd', é: 'e' })).toBe('{"10":"b","9":"a","B":"c","a":"d","é":"e"}');
  });

  it('drops undefined properties and refuses undefined anywhere else', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(() => canonicalJson(undefined)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson([1, undefined])).toThrow(/\$\[1\]/);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => canonicalJson([1, , 3])).toThrow(CanonicalJsonError);
  });

  it('writes numbers and strings as JSON does', () => {
    expect(canonicalJson([-0, 0.1, 1e21, 1e-7, -5, 2 ** 53])).toBe('[0,0.1,1e+21,1e-7,-5,9007199254740992]');
    const awkward = 'quote " backslash \\ newline \n tab \t nul \u0000 lone \ud800 emoji 🎲';
    expect(canonicalJson(awkward)).toBe(JSON.stringify(awkward));
    expect(JSON.parse(canonicalJson(awkward))).toBe(awkward);
  });

  it('refuses non-finite numbers, bigint, functions and symbols, and says where', () => {
    for (const bad of [NaN, Infinity, -Infinity, 10n, () => 1, Symbol('s')]) {
      expect(() => canonicalJson(bad)).toThrow(CanonicalJsonError);
      expect(() => canonicalJson({ deep: [{ x: bad }] })).toThrow(/\$\.deep\[0\]\.x/);
    }
  });

  it('refuses cycles but not the same object twice side by side', () => {
    const shared = { n: 1 };
    expect(canonicalJson({ a: shared, b: [shared, shared] })).toBe('{"a":{"n":1},"b":[{"n":1},{"n":1}]}');
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = { back: loop };
    expect(() => canonicalJson(loop)).toThrow(/cycle/);
    const list: unknown[] = [1];
    list.push(list);
    expect(() => canonicalJson(list)).toThrow(/cycle/);
    const mirror = { toJSON() { return mirror; } };
    expect(() => canonicalJson(mirror)).toThrow(/cycle/);
  });

  it('refuses objects JSON would flatten to {} and accepts plain ones without a prototype', () => {
    class Point { constructor(readonly x: number) {} }
    for (const bad of [new Map([['a', 1]]), new Set([1]), new Point(1), new String('s'), /re/]) {
      expect(() => canonicalJson({ v: bad })).toThrow(CanonicalJsonError);
    }
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 2, a: 1 });
    expect(canonicalJson(bare)).toBe('{"a":1,"b":2}');
  });

  it('honours toJSON as JSON.stringify does, so a Date hashes as its ISO text', () => {
    const at = new Date('2026-11-20T06:30:00.000Z');
    expect(canonicalJson({ at })).toBe('{"at":"2026-11-20T06:30:00.000Z"}');
  });

  it('is stable through a parse, and independent of key order, for any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const text = canonicalJson(value);
      expect(canonicalJson(JSON.parse(text))).toBe(text);
      expect(JSON.parse(text)).toStrictEqual(JSON.parse(JSON.stringify(value)));
      expect(canonicalJson(reversedKeys(value))).toBe(text);
    }), { numRuns: 300 });
  });
});

/** The same value with every object's keys inserted in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(out, key, { value: reversedKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
