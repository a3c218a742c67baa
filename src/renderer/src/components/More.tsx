/** The "show more" line under a keyset-paged table. */
export function More({ hasMore, loading, error, loadMore, shown }: { hasMore: boolean; loading: boolean; error: string | null; loadMore(): void; shown: number }) {
  if (!hasMore && !error) return null;
  return (
    <p className="more">
      <span className="muted">{shown} shown</span>{' '}
      {error && <span className="error" role="alert">{error} </span>}
      <button type="button" onClick={loadMore} disabled={loading}>{loading ? 'Loading…' : error ? 'Try again' : 'Show more'}</button>
    </p>
  );
}
