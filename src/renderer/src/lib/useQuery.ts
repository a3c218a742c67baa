import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { errorCode, isUnreachable, userMessage } from './errors';
import { trackShown } from './reachability';

export type QueryState<T> =
  /** `waiting`: the backend is unreachable and nothing has been fetched yet (the loop retries). */
  | { status: 'loading'; waiting?: boolean }
  /** `message` is for people (lib/errors.ts); `code` is the desk's, for pages that tell cases apart. */
  | { status: 'error'; message: string; code: string | null }
  /** `fetchedAt`: when `data` came (ms since the epoch); it stays on screen through an outage. */
  | { status: 'ready'; data: T; fetchedAt: number };

/**
 * What a page shows of a query: its data, kept (with its age, for the banner) while the backend
 * is unreachable; "waiting" while unreachable with nothing yet; any other failure in words.
 */
export function viewOf<T>(q: { data: T | undefined; error: unknown; dataUpdatedAt: number; status: 'pending' | 'error' | 'success' }): QueryState<T> {
  if (q.status === 'error' && !isUnreachable(q.error)) {
    return { status: 'error', message: userMessage(q.error), code: errorCode(q.error) };
  }
  if (q.data !== undefined) return { status: 'ready', data: q.data, fetchedAt: q.dataUpdatedAt };
  return q.status === 'error' ? { status: 'loading', waiting: true } : { status: 'loading' };
}

/** Tells the backend banner how old the data on screen is, while it is on screen. */
export function useTrackShown(fetchedAt: number | null): void {
  const id = useId();
  useEffect(() => (fetchedAt === null ? undefined : trackShown(id, fetchedAt)), [id, fetchedAt]);
}

/** A desk query (options from lib/queries.ts) as a page shows it; `reload` fetches it afresh. */
export function useDeskQuery<F, T, K extends QueryKey>(options: UseQueryOptions<F, Error, T, K>): QueryState<T> & { reload(): void } {
  const q = useQuery(options);
  const state = viewOf(q);
  useTrackShown(state.status === 'ready' ? state.fetchedAt : null);
  return { ...state, reload: () => void q.refetch() };
}
