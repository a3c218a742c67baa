import { TRPCClientError, type TRPCLink, createTRPCClient } from '@trpc/client';
import { initTRPC } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createPromiseClient } from '../../../src/main/backend/promise-client.js';

const t = initTRPC.create();
const _router = t.router({
  ping: t.procedure.input(z.object({ n: z.number() }).optional()).query(({ input }) => ({ n: input?.n ?? 0 })),
  bump: t.procedure.mutation(() => 'bumped'),
  ticks: t.procedure.subscription(async function* () { yield 1; yield 2; }),
});
type Router = typeof _router;

/** A terminating link answering by `respond`, keeping the operations it saw. */
function fakeLink(respond: (op: { path: string; input: unknown }, observer: { next: (v: unknown) => void; error: (e: TRPCClientError<Router>) => void; complete: () => void }) => void, seen: unknown[] = []): TRPCLink<Router> {
  return () => ({ op }) => observable((observer) => {
    seen.push(op);
    respond(op, { next: (data) => observer.next({ result: { type: 'data', data } }), error: (e) => observer.error(e), complete: () => observer.complete() });
  });
}

const answering = fakeLink((op, o) => {
  o.next({ path: op.path, input: op.input });
  o.complete();
});

afterEach(() => { vi.restoreAllMocks(); });

describe('main\'s tRPC client (createPromiseClient)', () => {
  it('answers a query and a mutation as the stock client does, passing context and signal to the link', async () => {
    const seen: Array<{ type: string; path: string; input: unknown; context: unknown; signal: unknown }> = [];
    const link = fakeLink((op, o) => { o.next({ path: op.path, input: op.input }); o.complete(); }, seen);
    const ours = createPromiseClient<Router>(link);
    const stock = createTRPCClient<Router>({ links: [link] });
    const signal = new AbortController().signal;
    for (const client of [ours, stock]) {
      expect(await client.ping.query({ n: 2 }, { context: { requestId: 'r-1' }, signal })).toEqual({ path: 'ping', input: { n: 2 } });
      expect(await client.bump.mutate()).toEqual({ path: 'bump', input: undefined });
    }
    expect(seen.map((op) => [op.type, op.path, op.context, op.signal === signal])).toEqual([
      ['query', 'ping', { requestId: 'r-1' }, true], ['mutation', 'bump', {}, false],
      ['query', 'ping', { requestId: 'r-1' }, true], ['mutation', 'bump', {}, false],
    ]);
  });

  it('a call that completes aborts nothing (tRPC\'s observableToPromise aborts a controller on every call)', async () => {
    const abort = vi.spyOn(AbortController.prototype, 'abort');
    await createTRPCClient<Router>({ links: [answering] }).ping.query();
    expect(abort).toHaveBeenCalledTimes(1); // what this client saves
    abort.mockClear();
    await createPromiseClient<Router>(answering).ping.query();
    expect(abort).not.toHaveBeenCalled();
  });

  it('fails with the link\'s own error, and with an AbortError when the link ends without an answer, as the stock client', async () => {
    const failure = new TRPCClientError<Router>('nope');
    const failing = fakeLink((_op, o) => o.error(failure));
    const silent = fakeLink((_op, o) => o.complete());
    const throwing: TRPCLink<Router> = () => () => { throw new Error('broken link'); };
    for (const make of [(l: TRPCLink<Router>) => createPromiseClient<Router>(l), (l: TRPCLink<Router>) => createTRPCClient<Router>({ links: [l] })]) {
      expect(await make(failing).ping.query().catch((e: unknown) => e)).toBe(failure);
      const ended = await make(silent).ping.query().catch((e: unknown) => e) as TRPCClientError<Router>;
      expect(ended).toBeInstanceOf(TRPCClientError);
      expect([ended.message, (ended.cause as Error).name]).toEqual(['This operation was aborted', 'AbortError']);
      const broken = await make(throwing).ping.query().catch((e: unknown) => e) as TRPCClientError<Router>;
      expect(broken).toBeInstanceOf(TRPCClientError);
      expect(broken.message).toBe('broken link');
    }
  });

  it('leaves subscriptions to the stock client', async () => {
    const link = fakeLink((_op, o) => { o.next(1); o.next(2); o.complete(); });
    const values: unknown[] = [];
    await new Promise<void>((done) => {
      createPromiseClient<Router>(link).ticks.subscribe(undefined, { onData: (v) => values.push(v), onComplete: done });
    });
    expect(values).toEqual([1, 2]);
  });
});
