import type { User } from '../../shared/contracts/agent-api.js';

export interface DeskSession {
  token: string;
  user: User;
  expiresAt: Date;
}

/**
 * Backend sessions held by main, one per slot (a desktop window, or a browser-shell cookie).
 * The renderer only ever names its slot through the transport; it never sees the token.
 */
export class DeskSessions {
  private readonly bySlot = new Map<string, DeskSession>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  get(slot: string): DeskSession | null {
    const session = this.bySlot.get(slot);
    if (!session) return null;
    if (session.expiresAt <= this.now()) {
      this.bySlot.delete(slot);
      return null;
    }
    return session;
  }

  set(slot: string, session: DeskSession): void {
    this.bySlot.set(slot, session);
  }

  clear(slot: string): void {
    this.bySlot.delete(slot);
  }
}
