import { useEffect, useId, useState } from 'react';
import { errorCode, isUnauthorized, isUnreachable, userMessage } from './errors';
import { reportReachable, reportUnreachable, trackShown, useReachability } from './reachability';
import { useSession } from './session';

export type QueryState<T> =
  /** `waiting`: the backend is unreachable and nothing has been fetched yet (the loop retries). */
  | { status: 'loading'; waiting?: boolean }
  /** `message` is for people (lib/errors.ts); `code` is the desk's, for pages that tell cases apart. */
  | { status: 'error'; message: string; code: string | null }
  /** `fetchedAt`: when `data` came (ms since the epoch); it stays on screen through an outage. */
  | { status: 'ready'; data: T; fetchedAt: number };

interface Held<T> { key: string; state: QueryState<T> }

/**
 * Runs a desk call when its key changes, and again when the backend answers after an outage
 * (keeping what is on screen until the fresh answer comes). An UNAUTHORIZED answer signs the
 * user out; an unreachable backend is reported to the reachability loop, which retries.
 */
export function useDeskQuery<T>(key: string, run: () => Promise<T>): QueryState<T> & { reload(): void } {
  const id = useId();
  const epoch = useReachability((s) => s.epoch);
  const [held, setHeld] = useState<Held<T>>({ key, state: { status: 'loading' } });
  const [nonce, setNonce] = useState(0);
  // Another key is another query: what the old one held is not shown for it.
  const state: QueryState<T> = held.key === key ? held.state : { status: 'loading' };

  useEffect(() => {
    let live = true;
    setHeld((h) => (h.key === key && h.state.status === 'ready' ? h : { key, state: { status: 'loading' } }));
    run().then(
      (data) => {
        if (!live) return;
        reportReachable();
        setHeld({ key, state: { status: 'ready', data, fetchedAt: Date.now() } });
      },
      (error: unknown) => {
        if (!live) return;
        if (isUnreachable(error)) {
          reportUnreachable();
          // What is on screen stays, with its age; with nothing yet, the page waits for the backend.
          setHeld((h) => (h.key === key && h.state.status === 'ready' ? h : { key, state: { status: 'loading', waiting: true } }));
          return;
        }
        reportReachable();
        if (isUnauthorized(error)) useSession.getState().expired();
        setHeld({ key, state: { status: 'error', message: userMessage(error), code: errorCode(error) } });
      },
    );
    return () => { live = false; };
    // `run` is a fresh closure each render; the key, a reload and the backend's return decide the call.
  }, [key, nonce, epoch]);

  const fetchedAt = state.status === 'ready' ? state.fetchedAt : null;
  useEffect(() => (fetchedAt === null ? undefined : trackShown(id, fetchedAt)), [id, fetchedAt]);

  return { ...state, reload: () => setNonce((n) => n + 1) };
}
