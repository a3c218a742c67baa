import { useDeferredValue, useMemo, useState } from 'react';
import { nameMatcher } from '../../../shared/text';

export { nameMatcher };

/**
 * A page table's search box state: the rows whose names contain every word typed (client-side,
 * over the rows loaded so far).
 */
export function useNameSearch<R>(rows: readonly R[], names: (row: R) => ReadonlyArray<string | null | undefined>) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const filtered = useMemo(() => {
    const match = nameMatcher(deferred);
    return match ? rows.filter((r) => match(...names(r))) : rows;
    // `names` is a fresh closure each render; the rows and the words decide the result.
  }, [rows, deferred]);
  return { query, setQuery, rows: filtered };
}

export function TableSearch({ query, onChange, label, shown, total, testId }: {
  query: string; onChange(query: string): void; label: string; shown: number; total: number; testId: string;
}) {
  return (
    <div className="table-search" role="search">
      <input type="search" value={query} placeholder="Search by name" aria-label={label} data-testid={testId}
        onChange={(e) => onChange(e.target.value)} />
      {query.trim() !== '' && <span className="muted" aria-live="polite" data-testid={`${testId}-count`}>{shown} of {total}</span>}
    </div>
  );
}
