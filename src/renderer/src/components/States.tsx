import type { ReactNode } from 'react';
import type { QueryState } from '../lib/useQuery';

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
  if (empty?.(state.data)) return <p className="state empty">Nothing here yet.</p>;
  return <>{children(state.data)}</>;
}
