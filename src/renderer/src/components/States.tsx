import { type ReactNode, useEffect, useState } from 'react';
import { formatReadAt } from '../lib/format';
import { useReachability } from '../lib/reachability';
import { useSession } from '../lib/session';
import type { QueryState } from '../lib/useQuery';

/**
 * "as of 12:04 (3 min ago)" over data kept on screen while the backend is unreachable, so no one
 * takes remembered figures for live ones; nothing while it answers (the data is then fresh).
 */
export function AsOf({ fetchedAt }: { fetchedAt: number }) {
  const down = useReachability((s) => s.downSince !== null);
  const timezone = useSession((s) => s.user?.timezone ?? 'UTC');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!down) return undefined;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 10_000);
    return () => clearInterval(tick);
  }, [down]);
  if (!down) return null;
  return <p className="state muted stale" data-testid="stale-as-of" data-fetched-at={fetchedAt}>as of {formatReadAt(fetchedAt, Math.max(now, fetchedAt), timezone)}</p>;
}

/** Loading, error and empty states, the same everywhere; the error's message is already in words (lib/errors.ts). */
export function Loadable<T>({ state, empty, children }: {
  state: QueryState<T> & { reload(): void };
  empty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (state.status === 'loading') {
    // The banner above says why and keeps retrying; this spot says what it waits for.
    return <p className="state" role="status" aria-live="polite">{state.waiting ? 'Waiting for the backend…' : 'Loading…'}</p>;
  }
  if (state.status === 'error') {
    return (
      <div className="state error" role="alert">
        <p>{state.message}</p>
        <button type="button" onClick={state.reload}>Try again</button>
      </div>
    );
  }
  if (empty?.(state.data)) return <><AsOf fetchedAt={state.fetchedAt} /><p className="state empty">Nothing here yet.</p></>;
  return <><AsOf fetchedAt={state.fetchedAt} />{children(state.data)}</>;
}
