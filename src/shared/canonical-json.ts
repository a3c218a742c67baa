/**
 * One text per value, so that a hash of it means the value and not the way it happened to be
 * written: the nonce store's payload hash and the audit chain both depend on it. Keys are sorted
 * by UTF-16 code units (as RFC 8785 does), there is no whitespace, and numbers and strings are
 * written as JSON.stringify writes them (shortest round-trip numbers, -0 as 0).
 *
 * Whatever JSON.stringify would silently drop or mangle is refused instead: a hash over a value
 * that lost a function, a Map's contents or an Infinity would vouch for something else than what
 * the caller holds. For every value it accepts,
 * canonicalJson(JSON.parse(canonicalJson(v))) === canonicalJson(v), which is what lets a reader
 * re-hash a line it parsed.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '', new Set(), '$');
}

export class CanonicalJsonError extends TypeError {
  override readonly name = 'CanonicalJsonError';
}

function write(value: unknown, key: string, ancestors: Set<object>, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`${path}: ${value} has no JSON form`);
      return JSON.stringify(value);
    case 'bigint':
      throw new CanonicalJsonError(`${path}: a bigint has no JSON form (write it as a string)`);
    case 'undefined':
      // Only an object property may be undefined (it is dropped); anywhere else JSON would turn
      // it into null or into nothing, and either would hash as something the caller did not hold.
      throw new CanonicalJsonError(`${path}: undefined has no JSON form here`);
    case 'function':
    case 'symbol':
      throw new CanonicalJsonError(`${path}: a ${typeof value} has no JSON form`);
  }
  const object = value as object;
  if (ancestors.has(object)) throw new CanonicalJsonError(`${path}: cycle`);
  ancestors.add(object);
  try {
    // toJSON is honoured as JSON.stringify honours it, so a Date hashes as the ISO text it is
    // stored as; what it returns is checked like any other value (a toJSON answering its own
    // object is a cycle, not an endless loop).
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return write(toJSON.call(object, key), key, ancestors, path);
    if (Array.isArray(object)) {
      const items: string[] = [];
      for (let i = 0; i < object.length; i++) items.push(write(object[i], String(i), ancestors, `${path}[${i}]`));
      return `[${items.join(',')}]`;
    }
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      // A Map, Set, class instance or boxed primitive would come out as {} or as a bare value.
      const kind = (object as { constructor?: { name?: unknown } }).constructor?.name;
      throw new CanonicalJsonError(`${path}: ${typeof kind === 'string' && kind ? kind : 'an object that is not plain'} has no JSON form`);
    }
    const record = object as Record<string, unknown>;
    const members: string[] = [];
    for (const k of Object.keys(record).sort()) {
      const v = record[k];
      if (v === undefined) continue;
      members.push(`${JSON.stringify(k)}:${write(v, k, ancestors, `${path}.${k}`)}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    // Only the path from the root counts: the same object twice side by side is not a cycle.
    ancestors.delete(object);
  }
}
