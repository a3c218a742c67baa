import { useEffect, useState } from 'react';
import { useSession } from './session';

export type QueryState<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T };

function isUnauthorized(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { data?: { code?: string } }).data?.code === 'UNAUTHORIZED';
}

/** Runs a desk call when its key changes; an UNAUTHORIZED answer signs the user out. */
export function useDeskQuery<T>(key: string, run: () => Promise<T>): QueryState<T> & { reload(): void } {
  const [state, setState] = useState<QueryState<T>>({ status: 'loading' });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    run().then(
      (data) => { if (live) setState({ status: 'ready', data }); },
      (error: unknown) => {
        if (!live) return;
        if (isUnauthorized(error)) useSession.getState().expired();
        setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => { live = false; };
  }, [key, nonce]);
  return { ...state, reload: () => setNonce((n) => n + 1) };
}
