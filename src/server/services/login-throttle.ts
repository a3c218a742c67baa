import { isIPv4, isIPv6 } from 'node:net';
import { TRPCError } from '@trpc/server';
import type { ServiceDeps } from './caller.js';

/*
 * Why not rate-limiter-flexible here: its memory store reads Date.now() and expires records with
 * setTimeout, so it cannot run on the backend's wall clock (`deps.realNow`, which tests move),
 * and its fixed-window-plus-block model has no growing wait per failure. What sign-in needs is
 * small and exact: a failure count per key, the time of the last one, and a wait derived from
 * both — so it is written out below.
 */

export interface ThrottlePolicy {
  /** Failures allowed before any wait. */
  freeFailures: number;
  /** The wait after the first failure past the free ones; it doubles with each further failure. */
  baseDelayMs: number;
  /** The longest backoff wait (the lockout aside). */
  maxDelayMs: number;
  /** From this many failures on, the key is locked out for `lockoutMs` after each one. */
  lockoutAfter: number;
  lockoutMs: number;
  /** A key with no failure for this long starts over (longer than the lockout). */
  forgetAfterMs: number;
}

/** Per account name: a person mistyping gets a few free tries; a guesser gets ten, then one per quarter hour. */
export const USERNAME_POLICY: ThrottlePolicy = {
  freeFailures: 5, baseDelayMs: 1_000, maxDelayMs: 60_000, lockoutAfter: 10, lockoutMs: 15 * 60_000, forgetAfterMs: 60 * 60_000,
};

/** Per client address: higher, because one address can be a whole office behind NAT. */
export const ADDRESS_POLICY: ThrottlePolicy = {
  freeFailures: 20, baseDelayMs: 1_000, maxDelayMs: 60_000, lockoutAfter: 50, lockoutMs: 15 * 60_000, forgetAfterMs: 60 * 60_000,
};

/** Keys kept per counter; past it the least recently failed key goes (bounded memory under a flood). */
export const MAX_KEYS = 100_000;

interface Entry {
  failures: number;
  lastAt: number;
}

/** The failure count of one kind of key (account names, or addresses), with the waits of its policy. */
class FailureCounter {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly policy: ThrottlePolicy, private readonly maxKeys: number) {}

  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && now - entry.lastAt >= this.policy.forgetAfterMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitMs(key: string, now: number): number {
    const entry = this.#live(key, now);
    if (!entry) return 0;
    const { failures, lastAt } = entry;
    const p = this.policy;
    let wait = 0;
    if (failures >= p.lockoutAfter) wait = p.lockoutMs;
    else if (failures >= p.freeFailures) wait = Math.min(p.baseDelayMs * 2 ** (failures - p.freeFailures), p.maxDelayMs);
    return Math.max(0, lastAt + wait - now);
  }

  /** Counts an attempt as a failure up front; returns the count and the previous entry, to undo it. */
  charge(key: string, now: number): { failures: number; previous: Entry | undefined } {
    const previous = this.#live(key, now);
    const entry = { failures: (previous?.failures ?? 0) + 1, lastAt: now };
    // Re-inserted so the map's order is least recently failed first: the one to evict.
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxKeys) this.#evict(now);
    this.#entries.set(key, entry);
    return { failures: entry.failures, previous: previous && { ...previous } };
  }

  /** Takes back one charge (the attempt succeeded), restoring its time if nothing failed since. */
  refund(key: string, charged: { failures: number; lastAt: number; previous: Entry | undefined }): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    if (entry.failures <= 1) {
      this.#entries.delete(key);
      return;
    }
    const untouched = entry.failures === charged.failures && entry.lastAt === charged.lastAt;
    entry.failures -= 1;
    if (untouched && charged.previous) entry.lastAt = charged.previous.lastAt;
  }

  reset(key: string): void {
    this.#entries.delete(key);
  }

  /** Drops forgotten keys from the front (the least recently failed), else the oldest live one. */
  #evict(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (now - entry.lastAt < this.policy.forgetAfterMs) break;
      this.#entries.delete(key);
    }
    const oldest = this.#entries.keys().next();
    if (this.#entries.size >= this.maxKeys && !oldest.done) this.#entries.delete(oldest.value);
  }
}

/** One sign-in attempt let through: its failure counts so far, and how to mark it a success. */
export interface LoginAttempt {
  usernameFailures: number;
  addressFailures: number;
  /** The password was right: the account name starts over, and the address gets this try back. */
  succeeded(): void;
}

/** The cause of a TOO_MANY_REQUESTS refusal, carrying the wait to the error data and the Retry-After header. */
export class LoginThrottledError extends Error {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
    this.name = 'LoginThrottledError';
  }
}

/**
 * The address a throttle counts by: IPv4 as is (an IPv4-mapped IPv6 address too), IPv6 by its
 * /64, since one host commonly holds a whole /64 and could otherwise rotate through it.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * Sign-in throttling, per account name (lower-cased, known or not: the same for both, so it
 * tells nothing about which exist) and per client address. Every attempt is counted as a failure
 * before the password is checked, so parallel guesses are counted as they arrive rather than
 * after their slow hash; a success takes its count back. A refused attempt is not counted.
 */
export class LoginThrottle {
  readonly #usernames: FailureCounter;
  readonly #addresses: FailureCounter;

  constructor(private readonly clock: () => Date, options: { maxKeys?: number } = {}) {
    this.#usernames = new FailureCounter(USERNAME_POLICY, options.maxKeys ?? MAX_KEYS);
    this.#addresses = new FailureCounter(ADDRESS_POLICY, options.maxKeys ?? MAX_KEYS);
  }

  /** Lets the attempt through, charged, or throws TOO_MANY_REQUESTS with the wait. */
  begin(username: string, clientAddress: string): LoginAttempt {
    const now = this.clock().getTime();
    const name = username.toLowerCase();
    const address = addressKey(clientAddress);
    const byName = this.#usernames.waitMs(name, now);
    const byAddress = this.#addresses.waitMs(address, now);
    if (byName > 0 || byAddress > 0) {
      const retryAfterSeconds = Math.max(1, Math.ceil(Math.max(byName, byAddress) / 1000));
      const whose = byName >= byAddress ? 'for this account' : 'from this address';
      const message = `too many failed sign-ins ${whose}: try again in ${retryAfterSeconds} s`;
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message, cause: new LoginThrottledError(message, retryAfterSeconds) });
    }
    const nameCharge = this.#usernames.charge(name, now);
    const addressCharge = this.#addresses.charge(address, now);
    return {
      usernameFailures: nameCharge.failures,
      addressFailures: addressCharge.failures,
      succeeded: () => {
        this.#usernames.reset(name);
        this.#addresses.refund(address, { ...addressCharge, lastAt: now });
      },
    };
  }
}

const throttles = new WeakMap<ServiceDeps, LoginThrottle>();

/** The backend's throttle: one per backend instance, on its wall clock. */
export function loginThrottle(deps: ServiceDeps): LoginThrottle {
  let throttle = throttles.get(deps);
  if (!throttle) {
    throttle = new LoginThrottle(deps.realNow);
    throttles.set(deps, throttle);
  }
  return throttle;
}

/** The Retry-After value (seconds) of a response whose errors include a sign-in refusal. */
export function retryAfterSeconds(errors: readonly TRPCError[]): number | null {
  const waits = errors.map((e) => (e.cause instanceof LoginThrottledError ? e.cause.retryAfterSeconds : 0)).filter((s) => s > 0);
  return waits.length > 0 ? Math.max(...waits) : null;
}
