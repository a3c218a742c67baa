import http from 'node:http';
import https from 'node:https';

/**
 * What the remote connection's httpLink gets instead of the global fetch: one request over
 * node:http on a keep-alive agent, answered with the least @trpc/client reads of a response.
 *
 * Why: a profile of tRPC reads over loopback put about 0.1 ms a call (more with a core busy) into
 * the global fetch (undici's Request, Response, web streams and abort-signal plumbing), against a
 * bare `http.request` round trip of 0.14–0.19 ms. httpLink types its `fetch` option as
 * `FetchEsque`, and of the answer it reads only `ok` and `json()` (`ResponseEsque` in
 * @trpc/client; the whole answer is also kept as `error.meta.response`), so a smaller answer is
 * what the library asks for, not a trick. `status`, `statusText` and `headers` are there for
 * whoever reads `meta.response`.
 *
 * Deadline: every call ends after `timeoutMs` with a TimeoutError (as `deadlineSignal` does for
 * fetch), covering the body too; the caller's signal aborts it as fetch would (rejecting with the
 * signal's reason). The timer is cleared when the answer has been read.
 *
 * Anything this does not carry (a body other than a string or bytes: FormData, a Blob) goes to the
 * global fetch, under the same deadline.
 */
export interface NodeFetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  json(): Promise<unknown>;
  text(): Promise<string>;
}

/** What httpLink passes (`RequestInitEsque`), typed loosely enough to take a whole RequestInit. */
export interface NodeFetchInit {
  method?: string | undefined;
  headers?: Headers | string[][] | Record<string, string | readonly string[]> | undefined;
  body?: unknown;
  signal?: AbortSignal | null | undefined;
}

export interface NodeFetch {
  (input: string | URL | Request, init?: NodeFetchInit): Promise<NodeFetchResponse>;
  /** Closes the pooled sockets (a connection being closed). */
  close(): void;
}

export function createNodeFetch(timeoutMs: number, fallback: (input: string | URL | Request, init: RequestInit & { signal: AbortSignal }) => Promise<Response>): NodeFetch {
  // An idle socket is dropped after 4 s, before the backend's own 5 s (`keepAliveTimeout` in
  // server/http.ts) would close it under a request; the GET retry below covers the rest.
  const agentOptions = { keepAlive: true, scheduling: 'lifo' as const, timeout: 4_000 };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  const nodeFetch = (input: string | URL | Request, init: NodeFetchInit = {}): Promise<NodeFetchResponse> => {
    const url = input instanceof URL ? input : new URL(typeof input === 'string' ? input : input.url);
    const body = init.body ?? undefined;
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || typeof input === 'object' && !(input instanceof URL)
      || (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))) {
      return viaFallback(url, init);
    }
    return send(url, init, body, false);
  };

  function viaFallback(url: URL, init: NodeFetchInit): Promise<NodeFetchResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timeoutError(timeoutMs)), timeoutMs);
    timer.unref();
    const onAbort = () => controller.abort(init.signal?.reason);
    if (init.signal?.aborted) onAbort();
    init.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => { clearTimeout(timer); init.signal?.removeEventListener('abort', onAbort); };
    return fallback(url, { ...(init as RequestInit), signal: controller.signal }).then(async (response) => {
      try {
        const text = await response.text();
        return answer(response.status, response.statusText, response.headers, text);
      } finally {
        done();
      }
    }, (error: unknown) => {
      done();
      throw error;
    });
  }

  function send(url: URL, init: NodeFetchInit, body: string | Uint8Array | undefined, retried: boolean): Promise<NodeFetchResponse> {
    return new Promise<NodeFetchResponse>((resolve, reject) => {
      const signal = init.signal ?? null;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const method = (init.method ?? 'GET').toUpperCase();
      const headers: Record<string, string> = {};
      const given = init.headers;
      if (given instanceof Headers) given.forEach((value, key) => { headers[key] = value; });
      else if (Array.isArray(given)) {
        for (const [key, value] of given) if (key !== undefined && value !== undefined) headers[key.toLowerCase()] = value;
      } else if (given) {
        for (const [key, value] of Object.entries(given as object) as Array<[string, string | readonly string[]]>) headers[key.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
      }
      if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

      let settled = false;
      const request = (url.protocol === 'https:' ? https : http).request(url, { method, headers, agent: agents[url.protocol as 'http:' | 'https:'] });
      const finish = (error: unknown, value?: NodeFetchResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) resolve(value!);
        else reject(error);
      };
      const stop = (reason: unknown) => {
        finish(reason);
        request.destroy();
      };
      const onAbort = () => stop(signal!.reason);
      const timer = setTimeout(() => stop(timeoutError(timeoutMs)), timeoutMs);
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });

      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          finish(undefined, answer(status, response.statusMessage ?? '', response.headers, Buffer.concat(chunks).toString('utf8')));
        });
        response.on('error', (error) => finish(networkError(error)));
        response.on('aborted', () => finish(networkError(new Error('the answer was cut off'))));
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        // A kept-alive socket the server closed just as this request went out: a GET (a query,
        // safe to repeat) is sent once more on a fresh socket, as Node's docs advise. A POST (a
        // mutation) may have arrived, so it fails instead.
        if (!retried && method === 'GET' && request.reusedSocket && error.code === 'ECONNRESET') {
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          send(url, init, body, true).then(resolve, reject);
          return;
        }
        finish(networkError(error));
      });
      request.end(body);
    });
  }

  return Object.assign(nodeFetch, {
    close: () => {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}

/** The answer as httpLink reads it: `json()` throws on a body that is not JSON (a proxy's page), as fetch's does. */
function answer(status: number, statusText: string, rawHeaders: http.IncomingHttpHeaders | Headers, text: string): NodeFetchResponse {
  let headers: Headers | null = rawHeaders instanceof Headers ? rawHeaders : null;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText,
    get headers() {
      if (!headers) {
        headers = new Headers();
        for (const [key, value] of Object.entries(rawHeaders as http.IncomingHttpHeaders)) {
          if (Array.isArray(value)) for (const item of value) headers.append(key, item);
          else if (value !== undefined) headers.append(key, value);
        }
      }
      return headers;
    },
    json: async () => JSON.parse(text) as unknown,
    text: async () => text,
  };
}

function timeoutError(ms: number): DOMException {
  return new DOMException(`no answer within ${ms} ms`, 'TimeoutError');
}

/** As fetch words a failed connection ("fetch failed", the cause attached), so logs read alike. */
function networkError(cause: Error): TypeError {
  return new TypeError('fetch failed', { cause });
}
