import { create } from 'zustand';
import type { User } from '../../../shared/contracts/agent-api';
import { SLOT_CLAIM_HEADER, SLOT_CLAIM_PATH } from '../../../shared/contracts/slot-claim';
import { setBusinessNow } from './clock';
import { desk } from './desk';
import { SESSION_ENDED, isUnreachable, userMessage } from './errors';
import { reportReachable, reportUnreachable } from './reachability';
import { readStartup } from './startup';

export { businessNow } from './clock';

type Status = 'checking' | 'signed-out' | 'signed-in';

async function syncClock(): Promise<void> {
  const { now, kind } = await desk.session.clock.query();
  setBusinessNow(now, kind);
}

/**
 * The browser shell moved the sign-in to a new slot: the page trades the desk's one-time claim for
 * that slot's cookie, so a reload (and a reconnect) finds the session. Electron has no claim.
 */
async function takeSlotCookie(): Promise<void> {
  const claim = await desk.session.cookieClaim.mutate();
  if (claim === null) return;
  const response = await fetch(SLOT_CLAIM_PATH, { method: 'POST', headers: { [SLOT_CLAIM_HEADER]: claim }, cache: 'no-store' });
  if (!response.ok) throw new Error(`the desk refused the new session cookie (HTTP ${response.status})`);
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

export const useSession = create<SessionState>((set, get) => ({
  status: 'checking',
  user: null,
  error: null,
  async check() {
    // The browser shell says at once whether this page has a session; the desk's own answer
    // below waits while the shell's runtime loads (about a second after `npm start`). Signed out,
    // the login page need not wait for it; should the desk then name a user, that answer wins.
    void readStartup().then((startup) => {
      if (startup?.signedIn === false && get().status === 'checking') set({ status: 'signed-out', user: null, error: null });
    });
    let user: User | null;
    try {
      user = await desk.session.me.query();
    } catch (error) {
      set({ status: 'signed-out', user: null, error: userMessage(error) });
      return;
    }
    if (!user) {
      set({ status: 'signed-out', user: null, error: null });
      return;
    }
    try {
      await syncClock();
      set({ status: 'signed-in', user, error: null });
    } catch (error) {
      if (isUnreachable(error)) {
        // Main still holds the session; the backend is only away. The panel opens and waits for it.
        reportUnreachable();
        set({ status: 'signed-in', user, error: null });
        return;
      }
      // Main still had a slot, but the backend no longer knows the session.
      set({ status: 'signed-out', user: null, error: SESSION_ENDED });
    }
  },
  async login(username, password) {
    try {
      const user = await desk.session.login.mutate({ username, password });
      await takeSlotCookie();
      await syncClock();
      reportReachable();
      set({ status: 'signed-in', user, error: null });
    } catch (error) {
      set({ status: 'signed-out', user: null, error: userMessage(error, 'Signing in failed. Try again.') });
    }
  },
  async logout() {
    await desk.session.logout.mutate();
    set({ status: 'signed-out', user: null, error: null });
  },
  expired() {
    set({ status: 'signed-out', user: null, error: SESSION_ENDED });
  },
}));
