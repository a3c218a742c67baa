import type { ReactNode } from 'react';
import type { QueryState } from '../lib/useQuery';

/** Loading, error and empty states, the same everywhere. */
export function Loadable<T>({ state, empty, children }: {
  state: QueryState<T> & { reload(): void };
  empty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (state.status === 'loading') return <p className="state" role="status" aria-live="polite">Loading…</p>;
  if (state.status === 'error') {
    return (
      <div className="state error" role="alert">
        <p>{state.message}</p>
        <button type="button" onClick={state.reload}>Try again</button>
      </div>
    );
  }
  if (empty?.(state.data)) return <p className="state empty">Nothing here yet.</p>;
  return <>{children(state.data)}</>;
}
