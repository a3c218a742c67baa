import { useCallback, useMemo, useRef, useState } from 'react';
import { type QueryState, useDeskQuery } from './useQuery';
import { isUnauthorized, isUnreachable, userMessage } from './errors';
import { reportUnreachable } from './reachability';
import { useSession } from './session';

interface More<R> { base: unknown; rows: R[]; nextCursor: string | null; loading: boolean; error: string | null }

export type PagedState<P, R> = QueryState<{ first: P; rows: R[]; nextCursor: string | null; loadingMore: boolean; moreError: string | null }> & {
  reload(): void;
  loadMore(): void;
};

/**
 * A keyset-paged desk list: the first page through useDeskQuery (loading/error states), further
 * pages appended on demand. A new key or a reload starts over.
 */
export function usePaged<P extends { nextCursor: string | null }, R>(
  key: string, fetchPage: (cursor: string | undefined) => Promise<P>, rowsOf: (page: P) => R[],
): PagedState<P, R> {
  const first = useDeskQuery(key, () => fetchPage(undefined));
  const [more, setMore] = useState<More<R> | null>(null);
  const current = useRef<unknown>(null);
  /** The cursor being fetched: a second call for it (a re-run effect) is dropped. */
  const pending = useRef<string | null>(null);
  const base = first.status === 'ready' ? first.data : null;
  current.current = base;
  const own = more && base !== null && more.base === base ? more : null;
  const nextCursor = own ? own.nextCursor : base ? base.nextCursor : null;
  const loading = own?.loading ?? false;

  const loadMore = useCallback(() => {
    if (!base || !nextCursor || loading || pending.current === nextCursor) return;
    pending.current = nextCursor;
    setMore((m) => ({ base, rows: m && m.base === base ? m.rows : [], nextCursor, loading: true, error: null }));
    fetchPage(nextCursor).then(
      (page) => {
        pending.current = null;
        if (current.current !== base) return;
        setMore((m) => ({ base, rows: [...(m && m.base === base ? m.rows : []), ...rowsOf(page)], nextCursor: page.nextCursor, loading: false, error: null }));
      },
      (error: unknown) => {
        pending.current = null;
        if (current.current !== base) return;
        if (isUnauthorized(error)) useSession.getState().expired();
        if (isUnreachable(error)) reportUnreachable();
        setMore((m) => ({ base, rows: m && m.base === base ? m.rows : [], nextCursor, loading: false, error: userMessage(error) }));
      },
    );
    // fetchPage and rowsOf are fresh closures each render; base and the cursor decide the call.
  }, [base, nextCursor, loading]);

  const ownRows = own?.rows;
  const rows = useMemo(
    () => (base ? (ownRows ? [...rowsOf(base), ...ownRows] : rowsOf(base)) : []),
    // rowsOf is a fresh closure each render; the pages decide the rows.
    [base, ownRows],
  );
  if (first.status !== 'ready') return { ...first, loadMore };
  return {
    status: 'ready', fetchedAt: first.fetchedAt, reload: first.reload, loadMore,
    data: { first: first.data, rows, nextCursor, loadingMore: loading, moreError: own?.error ?? null },
  };
}
