import { create } from 'zustand';
import { setBusinessNow } from './clock';
import { desk } from './desk';
import { isUnauthorized, isUnreachable } from './errors';

/**
 * Whether the backend answers, watched while a user is signed in. A page whose call finds it
 * unreachable keeps what it shows (with its age, for the banner) and reports it here; from then
 * on one loop probes with exponential backoff (1 s, 2 s, 4 s … 30 s at most) and, when the
 * backend answers again, bumps `epoch`, on which every page fetches its data afresh. While the
 * backend answers, a heartbeat notices an outage even on a page that is only being looked at.
 */
export interface ReachabilityState {
  /** When the backend was first found not answering (ms since the epoch); null while it answers. */
  downSince: number | null;
  /** When the next probe is due (ms since the epoch), while down. */
  retryAt: number | null;
  /** Bumped each time the backend answers again after an outage. */
  epoch: number;
  /** When each piece of data on screen was fetched, by the query that holds it. */
  shown: Record<string, number>;
}

export const HEARTBEAT_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

/** The wait before probe `attempt` (0-based) of an outage: 1 s, 2 s, 4 s … capped at 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempt));
}

export const useReachability = create<ReachabilityState>(() => ({ downSince: null, retryAt: null, epoch: 0, shown: {} }));

let watching = false;
let timer: ReturnType<typeof setTimeout> | null = null;
let attempt = 0;
let probing = false;
let onUnauthorized: () => void = () => undefined;

function schedule(ms: number): void {
  if (timer) clearTimeout(timer);
  timer = watching ? setTimeout(() => void probe(), ms) : null;
  if (useReachability.getState().downSince !== null) useReachability.setState({ retryAt: watching ? Date.now() + ms : null });
}

/** One look at the backend: the business clock, which also keeps "today" right. */
async function probe(): Promise<void> {
  timer = null;
  if (probing || !watching) return;
  probing = true;
  try {
    const { now, kind } = await desk.session.clock.query();
    setBusinessNow(now, kind);
    reportReachable();
  } catch (error) {
    if (isUnreachable(error)) {
      if (useReachability.getState().downSince === null) reportUnreachable();
      else schedule(backoffMs(++attempt));
    } else {
      // It answered, if only to refuse: it is reachable.
      reportReachable();
      if (isUnauthorized(error)) onUnauthorized();
    }
  } finally {
    probing = false;
    if (watching && !timer) schedule(useReachability.getState().downSince === null ? HEARTBEAT_MS : backoffMs(attempt));
  }
}

/** A call found the backend not answering: start the backoff loop (once per outage). */
export function reportUnreachable(): void {
  if (useReachability.getState().downSince !== null) return;
  attempt = 0;
  useReachability.setState({ downSince: Date.now() });
  schedule(backoffMs(0));
}

/** A call got the backend's answer: an outage, if any, is over and every page refreshes. */
export function reportReachable(): void {
  if (useReachability.getState().downSince === null) return;
  attempt = 0;
  useReachability.setState((s) => ({ downSince: null, retryAt: null, epoch: s.epoch + 1 }));
  schedule(HEARTBEAT_MS);
}

/** Probes now instead of waiting for the next turn of the backoff. */
export function retryNow(): void {
  if (watching) void probe();
}

/** Watches while a user is signed in; returns the stop. `unauthorized`: a probe found the session gone. */
export function watchBackend(unauthorized: () => void): () => void {
  watching = true;
  onUnauthorized = unauthorized;
  const wake = () => { if (watching) void probe(); };
  window.addEventListener('online', wake);
  schedule(useReachability.getState().downSince === null ? HEARTBEAT_MS : backoffMs(attempt));
  return () => {
    watching = false;
    window.removeEventListener('online', wake);
    if (timer) clearTimeout(timer);
    timer = null;
    attempt = 0;
    useReachability.setState({ downSince: null, retryAt: null });
  };
}

/** Why a write cannot be confirmed now, shown beside every disabled Confirm. */
export const WRITES_BLOCKED_REASON = 'The backend is unreachable — this can\'t be confirmed until it\'s back.';

/**
 * Whether writes are held back: while the backend is unreachable a confirm could not reach it,
 * and a money-moving click must never sit queued to fire later. Back by itself with the backend.
 */
export function useWritesBlocked(): boolean {
  return useReachability((s) => s.downSince !== null);
}

/** Records when the data a query shows was fetched; the returned function forgets it. */
export function trackShown(id: string, fetchedAt: number): () => void {
  useReachability.setState((s) => ({ shown: { ...s.shown, [id]: fetchedAt } }));
  return () => useReachability.setState((s) => {
    if (s.shown[id] !== fetchedAt) return s;
    const shown = { ...s.shown };
    delete shown[id];
    return { shown };
  });
}
