import { randomBytes } from 'node:crypto';

export interface SlotRegistryOptions {
  /** True while the slot holds a signed-in session: such a slot is never forgotten here. */
  hasSession(slot: string): boolean;
  /** How many slots are kept at most; past it the least recently seen unbound ones go. */
  max?: number;
  /** An unbound slot not seen for this long is forgotten. */
  idleMs?: number;
  now?: () => number;
}

interface SlotState {
  lastSeen: number;
  /** Open desk WebSockets on this slot. */
  connections: number;
  /** The one claim for this slot's cookie not yet traded, if any. */
  claim?: { value: string; expiresAt: number };
}

/** How long a claim for a slot's cookie can be traded: the page trades it as soon as it has it. */
export const CLAIM_TTL_MS = 60_000;

/**
 * The slots the browser shell has issued (one per browser, in a cookie), bounded: anything can
 * ask the shell for a page, so issuing must not grow memory without end. A slot is *bound* while
 * a desk WebSocket is open on it or it holds a signed-in session; bound slots are never evicted.
 * Unbound ones (a page loaded, no desk open) are forgotten when idle for `idleMs`, and the least
 * recently seen of them go first when more than `max` are kept. A browser whose slot was
 * forgotten gets a new one with its next page load.
 *
 * A slot's cookie is issued with the page, or traded for a one-time *claim* that only a desk
 * connection already acting for that slot can get (`claim`, `redeem`): how a page learns the new
 * slot a sign-in moved it to.
 */
export class SlotRegistry {
  readonly #slots = new Map<string, SlotState>();
  /** Claim value → its slot. */
  readonly #claims = new Map<string, string>();
  readonly #hasSession: (slot: string) => boolean;
  readonly #max: number;
  readonly #idleMs: number;
  readonly #now: () => number;
  #lastSweep: number;

  constructor(options: SlotRegistryOptions) {
    this.#hasSession = options.hasSession;
    this.#max = options.max ?? 1_000;
    this.#idleMs = options.idleMs ?? 30 * 60_000;
    this.#now = options.now ?? Date.now;
    this.#lastSweep = this.#now();
  }

  get size(): number {
    return this.#slots.size;
  }

  /** A new slot, remembered; room is made first by forgetting idle or the oldest unbound slots. */
  issue(): string {
    const now = this.#now();
    if (now - this.#lastSweep >= Math.min(this.#idleMs, 60_000)) this.#sweepIdle(now);
    if (this.#slots.size >= this.#max) this.#evict(this.#slots.size - this.#max + 1 + Math.floor(this.#max / 10));
    const slot = randomBytes(32).toString('base64url');
    this.#slots.set(slot, { lastSeen: now, connections: 0 });
    return slot;
  }

  /** Whether the shell issued this slot and still knows it; a known slot counts as seen now. */
  has(slot: string): boolean {
    const state = this.#slots.get(slot);
    if (!state) return false;
    if (!this.#bound(slot, state) && this.#now() - state.lastSeen >= this.#idleMs) {
      this.#delete(slot, state);
      return false;
    }
    this.#touch(slot, state);
    return true;
  }

  /** Binds a slot to an open desk connection; the returned function releases it (once). */
  attach(slot: string): () => void {
    const state = this.#slots.get(slot) ?? { lastSeen: this.#now(), connections: 0 };
    state.connections += 1;
    this.#touch(slot, state);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.connections -= 1;
      // Still the slot's state (it is never evicted while connected): it was seen until now.
      if (this.#slots.get(slot) === state) this.#touch(slot, state);
    };
  }

  /** Forgets a slot now, bound or not: its cookie is worth nothing from here on. */
  forget(slot: string): void {
    const state = this.#slots.get(slot);
    if (state) this.#delete(slot, state);
  }

  /**
   * A one-time claim for this slot's cookie, good for `CLAIM_TTL_MS` (it replaces the slot's
   * earlier claim); null when the slot is not known.
   */
  claim(slot: string): string | null {
    const state = this.#slots.get(slot);
    if (!state) return null;
    if (state.claim) this.#claims.delete(state.claim.value);
    const value = randomBytes(32).toString('base64url');
    state.claim = { value, expiresAt: this.#now() + CLAIM_TTL_MS };
    this.#claims.set(value, slot);
    return value;
  }

  /** The slot a claim was made for, once, while the claim is fresh and the slot still known; else null. */
  redeem(claim: string): string | null {
    const slot = this.#claims.get(claim);
    if (slot === undefined) return null;
    this.#claims.delete(claim);
    const state = this.#slots.get(slot);
    if (!state || state.claim?.value !== claim) return null;
    const { expiresAt } = state.claim;
    delete state.claim;
    return this.#now() <= expiresAt && this.has(slot) ? slot : null;
  }

  #delete(slot: string, state: SlotState): void {
    if (state.claim) this.#claims.delete(state.claim.value);
    this.#slots.delete(slot);
  }

  #bound(slot: string, state: SlotState): boolean {
    return state.connections > 0 || this.#hasSession(slot);
  }

  /** Moves the slot to the recent end (a Map iterates in insertion order: the front is the least recently seen). */
  #touch(slot: string, state: SlotState): void {
    state.lastSeen = this.#now();
    this.#slots.delete(slot);
    this.#slots.set(slot, state);
  }

  #sweepIdle(now: number): void {
    this.#lastSweep = now;
    for (const [slot, state] of this.#slots) {
      if (now - state.lastSeen >= this.#idleMs && !this.#bound(slot, state)) this.#delete(slot, state);
    }
  }

  /** Forgets up to `count` unbound slots, least recently seen first (in batches, so issuing stays cheap). */
  #evict(count: number): void {
    let left = count;
    for (const [slot, state] of this.#slots) {
      if (left <= 0) break;
      if (this.#bound(slot, state)) continue;
      this.#delete(slot, state);
      left -= 1;
    }
  }
}
