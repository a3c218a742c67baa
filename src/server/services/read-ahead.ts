import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * The batches of `source`, each next one asked for as soon as the last is handed out: PostgreSQL
 * reads a batch while this thread writes the one before (on PGlite, in this thread, it changes
 * nothing). An early stop (a cancel, a failed write) closes the source once the batch in flight is in.
 */
export async function* readAhead<T>(source: AsyncIterator<T>): AsyncGenerator<T> {
  let next = source.next();
  // A failed read is rethrown where it is awaited below; until then it must not count as unhandled.
  next.catch(() => {});
  let done = false;
  try {
    for (;;) {
      const current = await next;
      if (current.done) {
        done = true;
        return;
      }
      next = source.next();
      next.catch(() => {});
      // One turn of the event loop before the batch is handed out: the read is only sent to the
      // database (a pooled connection taken, the query written) once the loop turns, and a batch
      // is written synchronously, so without it the read would wait for the write after all.
      await yieldToEventLoop();
      yield current.value;
    }
  } finally {
    if (!done) await next.then(() => source.return?.(), () => undefined);
  }
}
