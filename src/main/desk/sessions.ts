import type { User } from '../../shared/contracts/agent-api.js';

export interface DeskSession {
  token: string;
  user: User;
  /** As the backend stated it, on its wall clock (never the demo book's); shown, never enforced here. */
  expiresAt: string;
}

/**
 * Backend sessions held by main, one per slot (a desktop window, or a browser-shell cookie).
 * The renderer only ever names its slot through the transport; it never sees the token. The
 * backend alone decides when a session has ended: an UNAUTHORIZED answer clears the slot.
 */
export class DeskSessions {
  private readonly bySlot = new Map<string, DeskSession>();

  get(slot: string): DeskSession | null {
    return this.bySlot.get(slot) ?? null;
  }

  set(slot: string, session: DeskSession): void {
    this.bySlot.set(slot, session);
  }

  clear(slot: string): void {
    this.bySlot.delete(slot);
  }
}
