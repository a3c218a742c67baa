/**
 * The desk's one "now": the backend's business clock. A demo book runs on its own clock (its own
 * moment, days away from the wall clock, running on at the wall clock's pace), so every time the
 * desk records or shows — audit entries, previews' expiry, mutes, report stamps, settlements,
 * alerts — is read from the backend's clock, never from the machine's. Instants are kept as UTC
 * and shown in the user's timezone through `format.ts`.
 */
import { z } from 'zod';

/** `real`: the wall clock. `book`: a demo book's own moment, run on. `set`: an instant given by CLOCK (or a test), run on or held. */
export const clockKind = z.enum(['real', 'book', 'set']);
export type ClockKind = z.infer<typeof clockKind>;

/** Where a clock reads its time when it can call the backend's own clock directly (an embedded backend). */
export interface ClockSource {
  now(): Date;
  readonly kind: ClockKind;
}

/**
 * The backend's clock as seen from elsewhere (main, the page): followed exactly where the backend
 * is in-process, else run on from its last reading (`read`), by the offset from this machine's clock.
 */
export class BusinessClock implements ClockSource {
  #offsetMs = 0;
  #kind: ClockKind = 'real';
  #source: ClockSource | null = null;

  constructor(private readonly wall: () => number = Date.now) {}

  nowMs(): number {
    return this.#source ? this.#source.now().getTime() : this.wall() + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  get kind(): ClockKind {
    return this.#source ? this.#source.kind : this.#kind;
  }

  /** Takes the backend's time as just answered (an ISO instant), and its kind when said. */
  read(now: string, kind?: ClockKind): void {
    // A clock that follows another passes the reading on; one that follows the backend itself needs none.
    if (this.#source instanceof BusinessClock) this.#source.read(now, kind);
    if (this.#source) return;
    const at = Date.parse(now);
    if (Number.isFinite(at)) this.#offsetMs = at - this.wall();
    if (kind) this.#kind = kind;
  }

  /**
   * An instant stamped on this machine's own clock, as this clock shows it: what the desk records
   * against real time on purpose (an MCP approval's expiry, which its client waits on) is still
   * shown on the one clock of the screen.
   */
  fromWall(iso: string): string {
    const at = Date.parse(iso);
    return Number.isFinite(at) ? new Date(at + this.nowMs() - this.wall()).toISOString() : iso;
  }

  /** From now on the time is `source`'s own (the backend's clock function, or another BusinessClock). */
  follow(source: ClockSource): void {
    this.#source = source;
  }
}
