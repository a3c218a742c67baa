import { type Operation, type TRPCClient, TRPCClientError, type TRPCLink, TRPCUntypedClient, createTRPCClientProxy } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';

/**
 * `createTRPCClient` with one terminating link, whose queries and mutations are answered by a
 * plain promise instead of tRPC's `observableToPromise`.
 *
 * Why: `observableToPromise` (@trpc/server/observable, 11.25) aborts an AbortController of its own
 * when the call's observable completes, which it does on every call right after its answer: a
 * DOMException made (a stack trace captured) and an abort event dispatched to reject a promise
 * that is already resolved. A CPU profile of 4,000 reads (`bench/http-read-profile.ts`) put 30 µs
 * a call into that `abort()`, over HTTP and in process alike, out of the 0.2–0.3 ms tRPC and
 * HTTP add to a read. What a caller gets is the same: the envelope's `result.data`; a failure as
 * `TRPCClientError.from` of what the link gave (the link's own TRPCClientError, as before); a
 * call that ends without an answer rejects with an AbortError, as `observableToPromise` does.
 * Subscriptions, and everything else, are the stock client's. `tests/main/backend/promise-client.test.ts`.
 */
export function createPromiseClient<TRouter extends AnyRouter>(link: TRPCLink<TRouter>): TRPCClient<TRouter> {
  return createTRPCClientProxy(new PromiseClient<TRouter>(link));
}

/** What a call takes besides its path and input (context, signal): `TRPCRequestOptions`, which @trpc/client does not export. */
type RequestOptions = Parameters<TRPCUntypedClient<AnyRouter>['query']>[2];

class PromiseClient<TRouter extends AnyRouter> extends TRPCUntypedClient<TRouter> {
  private readonly operationLink;
  // Ids of queries and mutations; the base class numbers subscriptions. No link of ours reads op.id.
  private lastId = 0;

  constructor(link: TRPCLink<TRouter>) {
    super({ links: [link] });
    this.operationLink = link(this.runtime);
  }

  override query(path: string, input?: unknown, opts?: RequestOptions): Promise<unknown> {
    return this.call('query', path, input, opts);
  }

  override mutation(path: string, input?: unknown, opts?: RequestOptions): Promise<unknown> {
    return this.call('mutation', path, input, opts);
  }

  private call(type: 'query' | 'mutation', path: string, input: unknown, opts: RequestOptions): Promise<unknown> {
    const op: Operation = { id: ++this.lastId, type, path, input, context: opts?.context ?? {}, signal: opts?.signal ?? null };
    return new Promise((resolve, reject) => {
      let answered = false;
      try {
        this.operationLink({ op, next: () => { throw new Error('the client\'s link must be a terminating link'); } }).subscribe({
          next: (envelope) => {
            answered = true;
            resolve((envelope.result as { data?: unknown }).data);
          },
          error: (error) => reject(TRPCClientError.from(error)),
          complete: () => {
            if (!answered) reject(TRPCClientError.from(new DOMException('This operation was aborted', 'AbortError')));
          },
        });
      } catch (error) {
        reject(TRPCClientError.from(error as Error));
      }
    });
  }
}
