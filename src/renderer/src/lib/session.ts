import { create } from 'zustand';
import type { User } from '../../../shared/contracts/agent-api';
import { desk } from './desk';

type Status = 'checking' | 'signed-out' | 'signed-in';

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
    set({ status: user ? 'signed-in' : 'signed-out', user, error: null });
  },
  async login(username, password) {
    try {
      const user = await desk.session.login.mutate({ username, password });
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
