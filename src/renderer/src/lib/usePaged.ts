import { type InfiniteData, type QueryKey, type UseInfiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { userMessage } from './errors';
import { type QueryState, useTrackShown, viewOf } from './useQuery';

export type PagedState<P, R> = QueryState<{ first: P; rows: R[]; nextCursor: string | null; loadingMore: boolean; moreError: string | null }> & {
  reload(): void;
  loadMore(): void;
};

/**
 * A keyset-paged desk list (options from `panelPages`, lib/queries.ts): the first page decides
 * loading and error; further pages are appended on demand, and a failed one is reported beside
 * the rows already shown. A new key or a reload starts over.
 */
export function usePaged<P extends { nextCursor: string | null }, R, K extends QueryKey>(
  options: UseInfiniteQueryOptions<P, Error, InfiniteData<P>, K, string | undefined>,
  rowsOf: (page: P) => R[],
): PagedState<P, R> {
  const q = useInfiniteQuery(options);
  const pages = q.data?.pages;
  // rowsOf is a fresh closure each render; the pages decide the rows.
  const rows = useMemo(() => (pages ? pages.flatMap(rowsOf) : []), [pages]);
  const moreFailed = q.isFetchNextPageError;
  const view = viewOf({ ...q, status: moreFailed ? 'success' : q.status });
  useTrackShown(view.status === 'ready' ? view.fetchedAt : null);
  const loadMore = () => {
    if (q.hasNextPage && !q.isFetching) void q.fetchNextPage();
  };
  const reload = () => void q.refetch();
  if (view.status !== 'ready' || !pages?.[0]) return { ...(view.status === 'ready' ? { status: 'loading' } : view), reload, loadMore };
  return {
    status: 'ready', fetchedAt: view.fetchedAt, reload, loadMore,
    data: {
      first: pages[0], rows, nextCursor: pages[pages.length - 1]!.nextCursor,
      loadingMore: q.isFetchingNextPage,
      moreError: moreFailed ? userMessage(q.error) : null,
    },
  };
}
