import { type TRPCLink, TRPCClientError } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { DeskRouter } from '../../../main/desk/router.js';
import type { DeskBridge, DeskResponse } from '../../../shared/contracts/desk-bridge.js';
import { deskResponseSchema } from '../../../shared/contracts/desk-transport.js';

/**
 * The desk client's link over a {@link DeskBridge}: each call is one request message, its answers
 * come back by id, in the same messages the browser shell's WebSocket carries (so wsLink and this
 * link read them alike: `error.data.code`, subscriptions' started/data/stopped).
 */
export function deskLink(bridge: DeskBridge): TRPCLink<DeskRouter> {
  const calls = new Map<number, (response: DeskResponse) => void>();
  let lastId = 0;
  bridge.onMessage((raw) => {
    // What main sends is checked like anything else that crosses into the page.
    const parsed = deskResponseSchema.safeParse(raw);
    if (!parsed.success || typeof parsed.data.id !== 'number') return;
    calls.get(parsed.data.id)?.(parsed.data);
  });
  return () => ({ op }) => observable((observer) => {
    const id = ++lastId;
    const forget = () => calls.delete(id);
    calls.set(id, (response) => {
      if ('error' in response) {
        forget();
        observer.error(TRPCClientError.from(response));
        return;
      }
      const { result } = response;
      if (result.type === 'stopped') {
        forget();
        observer.next({ result });
        observer.complete();
        return;
      }
      observer.next({ result });
      if (op.type !== 'subscription') {
        forget();
        observer.complete();
      }
    });
    // The caller gave up (a subscription's unsubscribe, a cancelled query): done, as wsLink is.
    const onAbort = () => observer.complete();
    if (op.signal?.aborted) onAbort();
    else op.signal?.addEventListener('abort', onAbort, { once: true });
    bridge.send({ id, method: op.type, params: { path: op.path, input: op.input } });
    // On unsubscribe, and after the call has ended (when it is forgotten already). A live call
    // ends for its caller at once, with complete, as wsLink ends it.
    return () => {
      op.signal?.removeEventListener('abort', onAbort);
      if (!forget()) return;
      if (op.type === 'subscription') bridge.send({ id, method: 'subscription.stop' });
      observer.complete();
    };
  });
}
