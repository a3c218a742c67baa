import { create } from 'zustand';
import type { User } from '../../../shared/contracts/agent-api';
import { desk } from './desk';

type Status = 'checking' | 'signed-out' | 'signed-in';

/** Backend business time minus this machine's clock; "today" is the backend's today. */
let clockOffsetMs = 0;
export function businessNow(): Date {
  return new Date(Date.now() + clockOffsetMs);
}
async function syncClock(): Promise<void> {
  const { now } = await desk.session.clock.query();
  clockOffsetMs = new Date(now).getTime() - Date.now();
}

interface SessionState {
  status: Status;
  user: User | null;
  error: string | null;
  check(): Promise<void>;
  login(username: string, password: string): Promise<void>;
  logout(): Promise<void>;
  /** A call answered UNAUTHORIZED: the backend session ended (expired or signed out elsewhere). */
  expired(): void;
}

export const useSession = create<SessionState>((set) => ({
  status: 'checking',
  user: null,
  error: null,
  async check() {
    const user = await desk.session.me.query();
    if (!user) {
      set({ status: 'signed-out', user: null, error: null });
      return;
    }
    try {
      await syncClock();
      set({ status: 'signed-in', user, error: null });
    } catch {
      // Main still had a slot, but the backend no longer knows the session.
      set({ status: 'signed-out', user: null, error: 'Your session has ended. Sign in again.' });
    }
  },
  async login(username, password) {
    try {
      const user = await desk.session.login.mutate({ username, password });
      await syncClock();
      set({ status: 'signed-in', user, error: null });
    } catch (error) {
      set({ status: 'signed-out', user: null, error: error instanceof Error ? error.message : String(error) });
    }
  },
  async logout() {
    await desk.session.logout.mutate();
    set({ status: 'signed-out', user: null, error: null });
  },
  expired() {
    set({ status: 'signed-out', user: null, error: 'Your session has ended. Sign in again.' });
  },
}));
