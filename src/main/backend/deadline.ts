/**
 * A signal that aborts after `ms` (with a TimeoutError, as AbortSignal.timeout's does), or when
 * `alsoOn` aborts. Not AbortSignal.timeout: nothing but the fetch it goes to would hold that signal
 * (nor the one AbortSignal.any makes of it), and fetch holds its signal weakly, so a garbage
 * collection during the call could take it and the call would never end (seen here: a collection
 * while the intent model trained). The timer holds the signal until it fires, unref'd so that it
 * keeps no process alive; it is not cleared when the headers come, so it covers the body too.
 */
export function deadlineSignal(ms: number, alsoOn?: AbortSignal | null): AbortSignal {
  const deadline = new AbortController();
  const signal = alsoOn ? AbortSignal.any([alsoOn, deadline.signal]) : deadline.signal;
  setTimeout((_held: AbortSignal) => deadline.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms, signal).unref();
  return signal;
}
