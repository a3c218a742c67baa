import { useEffect, useState } from 'react';
import { formatAge } from '../lib/format';
import { retryNow, useReachability, watchBackend } from '../lib/reachability';
import { useSession } from '../lib/session';

/**
 * "Backend unreachable — retrying (data from 42 s ago)" over the page while the backend does not
 * answer; the page keeps what it showed. Mounted with the signed-in panel, it also starts the
 * watch (heartbeat and backoff, lib/reachability.ts) and stops it on sign-out.
 */
export function BackendBanner() {
  const downSince = useReachability((s) => s.downSince);
  const shown = useReachability((s) => s.shown);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => watchBackend(() => useSession.getState().expired()), []);
  useEffect(() => {
    if (downSince === null) return undefined;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [downSince]);

  if (downSince === null) return null;
  // The oldest figures on screen decide the age: nothing shown is newer than that.
  const times = Object.values(shown);
  const oldest = times.length > 0 ? Math.min(...times) : null;
  return (
    <div className="banner warn" role="status" aria-live="polite" data-testid="backend-banner">
      <span>
        Backend unreachable — retrying
        {oldest !== null && <span data-testid="backend-banner-age"> (data from {formatAge(now - oldest)} ago)</span>}
      </span>
      <button type="button" onClick={retryNow}>Retry now</button>
    </div>
  );
}
