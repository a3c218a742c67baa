/**
 * Proposals waiting for a human answer (ARCHITECTURE.md, Confirmation). A destructive tool's
 * preview leaves its call here, frozen, under a random nonce bound to the user; only that user,
 * presenting that nonce and the hash of that call, gets the call back, once, within the TTL.
 * The model never produces a nonce and never sees inside one: the store has no way to list
 * nonces, nor to read an entry but by presenting its nonce and payload hash as its owner, and its
 * records sit in #private fields that neither JSON.stringify nor util.inspect reach.
 *
 * Decisions:
 * - Refusal order is unknown → wrong_user → expired → used → tampered. The owner check comes
 *   first and changes nothing, so someone else holding the nonce learns only "not yours" and
 *   cannot burn it; every later refusal uses the nonce up, so nothing refused can succeed on a
 *   second try (nor an expired one if the wall clock steps back).
 * - A record, live or spent, is kept for one TTL past its expiry, so a late click hears
 *   'expired' and a replay hears 'used' (or 'expired' once past the expiry) rather than
 *   'unknown'; after that it is swept and the nonce is 'unknown'. Sweeping happens on every
 *   call, so memory holds at most two TTLs of proposals.
 * - The frozen copy is the canonical JSON of the call parsed back, not a structuredClone: a
 *   cloned Date or Map keeps its contents mutable under Object.freeze, plain JSON does not, and
 *   the copy is then exactly what the payload hash covers.
 * - A proposal may be issued for less than the store's TTL (a large change: a minute, step-up.ts)
 *   and may need the user's password again; `check` runs every refusal of `consume` without
 *   using the proposal up when it passes, so a password typed wrong can be typed again while a
 *   refusal of the nonce itself still ends it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson } from '../../shared/canonical-json.js';

export const MIN_NONCE_TTL_MS = 60_000;
export const MAX_NONCE_TTL_MS = 5 * 60_000;

export interface NonceStoreOptions {
  /** How long a proposal can be answered; 1 to 5 minutes. */
  ttlMs?: number;
  now?: () => number;
}

export interface ProposedCall {
  userId: string;
  tool: string;
  args: Record<string, unknown>;
  /** The state the preview showed, which the confirmed write must still find (a PreviewSnapshot, src/main/confirm/proposals.ts). */
  snapshot: unknown;
  /** Confirming needs the user's password again (a large change). */
  stepUp?: boolean;
  /** Shorter than the store's TTL, for this proposal (at least MIN_NONCE_TTL_MS). */
  ttlMs?: number;
}

export interface IssuedNonce {
  nonce: string;
  payloadHash: string;
  /** ISO 8601. */
  expiresAt: string;
}

/** A used-up proposal: deeply frozen. */
export interface ProposalEntry {
  readonly userId: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly snapshot: unknown;
  readonly payloadHash: string;
  readonly issuedAt: string;
  readonly expiresAt: string;
  /** Present only on a proposal whose confirmation needs the user's password again. */
  readonly stepUp?: true;
}

export type NonceRefusal = 'unknown' | 'expired' | 'wrong_user' | 'used' | 'tampered';

/**
 * A refusal carries the entry only when this very attempt used the proposal up (its owner asked,
 * too late or with another hash), so the audit log can record how it ended; never otherwise.
 */
export type NonceResult = { ok: true; entry: ProposalEntry } | { ok: false; reason: NonceRefusal; entry?: ProposalEntry };

/** sha256 hex of the canonical JSON of { userId, tool, args }: what a confirm must present. */
export function payloadHashOf(call: { userId: string; tool: string; args: unknown }): string {
  return createHash('sha256').update(canonicalJson({ userId: call.userId, tool: call.tool, args: call.args })).digest('hex');
}

interface NonceRecord {
  readonly entry: ProposalEntry;
  readonly expiresAtMs: number;
  spent: boolean;
}

export class NonceStore {
  readonly #records = new Map<string, NonceRecord>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor({ ttlMs = MAX_NONCE_TTL_MS, now = Date.now }: NonceStoreOptions = {}) {
    // Below a minute a human cannot read a diff card and answer; above five the previewed state
    // is too old to trust.
    if (!Number.isSafeInteger(ttlMs) || ttlMs < MIN_NONCE_TTL_MS || ttlMs > MAX_NONCE_TTL_MS) {
      throw new RangeError(`nonce TTL must be a whole number of ms from ${MIN_NONCE_TTL_MS} to ${MAX_NONCE_TTL_MS}, got ${ttlMs}`);
    }
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** Records, live or spent, currently held: a count for tests and health lines, never which. */
  get size(): number {
    this.#sweep();
    return this.#records.size;
  }

  issue(call: ProposedCall): IssuedNonce {
    const { userId, tool, args, snapshot, stepUp = false, ttlMs = this.#ttlMs } = call;
    if (typeof userId !== 'string' || userId === '') throw new TypeError('a proposal needs the user id it is bound to');
    if (typeof tool !== 'string' || tool === '') throw new TypeError('a proposal needs a tool name');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new TypeError('a proposal\'s args must be an object');
    if (!Number.isSafeInteger(ttlMs) || ttlMs < MIN_NONCE_TTL_MS || ttlMs > this.#ttlMs) {
      throw new RangeError(`a proposal's TTL must be a whole number of ms from ${MIN_NONCE_TTL_MS} to the store's ${this.#ttlMs}, got ${ttlMs}`);
    }
    this.#sweep();
    const frozenArgs = frozenCopy(args) as Readonly<Record<string, unknown>>;
    const frozenSnapshot = snapshot === undefined ? undefined : frozenCopy(snapshot);
    const issuedAtMs = this.#now();
    const expiresAtMs = issuedAtMs + ttlMs;
    const payloadHash = payloadHashOf({ userId, tool, args: frozenArgs });
    const entry: ProposalEntry = Object.freeze({
      userId, tool, args: frozenArgs, snapshot: frozenSnapshot, payloadHash,
      issuedAt: new Date(issuedAtMs).toISOString(), expiresAt: new Date(expiresAtMs).toISOString(),
      ...(stepUp && { stepUp: true as const }),
    });
    const nonce = randomBytes(32).toString('base64url');
    this.#records.set(nonce, { entry, expiresAtMs, spent: false });
    return { nonce, payloadHash, expiresAt: entry.expiresAt };
  }

  /** The confirm: the frozen call back, once, to its user, if the presented hash is its hash. */
  consume(nonce: string, presented: { userId: string; payloadHash: string }): NonceResult {
    return this.#presented(nonce, presented, true);
  }

  /**
   * Everything `consume` checks, without using the proposal up when it passes (a refusal uses it
   * up all the same): what has to hold before the user's password is checked, or a new preview
   * made from this one; `consume` then takes it.
   */
  check(nonce: string, presented: { userId: string; payloadHash: string }): NonceResult {
    return this.#presented(nonce, presented, false);
  }

  #presented(nonce: string, presented: { userId: string; payloadHash: string }, spend: boolean): NonceResult {
    const taken = this.#take(nonce, presented.userId, spend);
    if (!taken.ok) return taken;
    const { record } = taken;
    // The second test can only fail if something got past the freeze; it costs one hash.
    if (presented.payloadHash !== record.entry.payloadHash || payloadHashOf(record.entry) !== record.entry.payloadHash) {
      record.spent = true;
      return { ok: false, reason: 'tampered', entry: record.entry };
    }
    return { ok: true, entry: record.entry };
  }

  /** The user declined: the nonce is used up and its entry handed back for the audit log. */
  cancel(nonce: string, userId: string): NonceResult {
    const taken = this.#take(nonce, userId);
    return taken.ok ? { ok: true, entry: taken.record.entry } : taken;
  }

  /**
   * The checks consume, check and cancel share; a refusal spends the nonce unless it is unknown or
   * not the caller's, and a pass spends it when `spend`.
   */
  #take(nonce: string, userId: string, spend = true): { ok: true; record: NonceRecord } | { ok: false; reason: NonceRefusal; entry?: ProposalEntry } {
    this.#sweep();
    const record = typeof nonce === 'string' ? this.#records.get(nonce) : undefined;
    if (!record) return { ok: false, reason: 'unknown' };
    if (record.entry.userId !== userId) return { ok: false, reason: 'wrong_user' };
    const wasSpent = record.spent;
    const expired = this.#now() >= record.expiresAtMs;
    if (spend || expired || wasSpent) record.spent = true;
    if (expired) return wasSpent ? { ok: false, reason: 'expired' } : { ok: false, reason: 'expired', entry: record.entry };
    if (wasSpent) return { ok: false, reason: 'used' };
    return { ok: true, record };
  }

  #sweep(): void {
    const now = this.#now();
    for (const [nonce, record] of this.#records) {
      if (now >= record.expiresAtMs + this.#ttlMs) this.#records.delete(nonce);
    }
  }
}

/** Plain JSON, detached from the caller's object and frozen all the way down. */
function frozenCopy(value: unknown): unknown {
  return deepFreeze(JSON.parse(canonicalJson(value)) as unknown);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
