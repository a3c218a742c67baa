import type http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { type TRPCError, callTRPCProcedure, getTRPCErrorFromUnknown, getTRPCErrorShape, transformTRPCResponse } from '@trpc/server';
import { createURL, incomingMessageToRequest, internal_exceptionHandler } from '@trpc/server/adapters/node-http';
import { getHTTPStatusCode, resolveResponse } from '@trpc/server/http';
import type { Context } from './init.js';
import type { AppRouter } from './router.js';

export interface JsonHandlerOptions {
  router: AppRouter;
  /** Where the router is mounted, with slashes: `/trpc/`. */
  basePath: string;
  maxBodySize: number;
  maxBatchSize: number;
  createContext: (req: http.IncomingMessage, res: http.ServerResponse) => Context | Promise<Context>;
  /** Headers an answer carries for its errors (tRPC's `responseMeta`, which is built from them). */
  errorHeaders?: (errors: TRPCError[]) => Record<string, string>;
}

/**
 * tRPC over HTTP, as tRPC's standalone adapter serves it, at less cost a call.
 *
 * Why: a CPU profile of reads over HTTP (`bench/server-reads.ts`) put most of what a call paid on
 * top of its query into the adapter's conversions: the IncomingMessage made into a Fetch
 * `Request`, the answer built as a Fetch `Response`, written through a web `WritableStream` by
 * `pipeTo`, with abort signals combined at each step. In process (the local link, the same
 * procedure and middlewares) a read costs about 0.1 ms over the bare service; over HTTP it cost
 * 0.5–0.7 ms more than that on loopback, twice that with a core busy.
 *
 * Two paths, both made of tRPC's own exported functions:
 * - **A single query by GET** (what every read of the desk is): the procedure is run by
 *   `callTRPCProcedure` (the procedure's middlewares, input parser and output as through any
 *   adapter), a failure is shaped by `getTRPCErrorShape` (so the router's errorFormatter applies),
 *   the status is `getHTTPStatusCode` of that answer, and the body `transformTRPCResponse` of it:
 *   the steps `resolveResponse` takes for one call, without its Request and Response.
 * - **Everything else** (a batch, a mutation, a subscription, a path or method that is not a
 *   query, an input that is not JSON, HEAD) goes to `resolveResponse`, given the Request that
 *   tRPC's own `incomingMessageToRequest` makes. Its answer is written whole when it is JSON, or
 *   piped as a Node stream when it is an event stream, instead of through `pipeTo`.
 *
 * `tests/server/node-handler.test.ts` sends the same requests to this and to tRPC's standalone
 * adapter and requires the same status, headers and body.
 */
export function createJsonHandler(opts: JsonHandlerOptions): http.RequestListener {
  const base = `/${opts.basePath.replace(/^\/|\/$/g, '')}/`;
  const config = opts.router._def._config;
  // The router's procedures by full path ("agent.getUpline"), as tRPC keeps them for its own lookups.
  const procedures = opts.router._def.procedures as unknown as Record<string, { _def: { type: string } } | undefined>;
  const general = generalPath(opts);

  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query < 0 ? url : url.slice(0, query);
    const path = pathname.startsWith(base) ? pathname.slice(base.length) : '';
    // Only what the fast path answers exactly as resolveResponse would; anything else goes there.
    // `trpc-accept` asks for a streamed batch, `text/event-stream` for a subscription.
    if (req.method !== 'GET' || !path || path.includes('%') || path.endsWith('/') || procedures[path]?._def.type !== 'query'
      || req.headers['trpc-accept'] !== undefined || req.headers.accept?.includes('text/event-stream')) {
      general(req, res);
      return;
    }
    const params = query < 0 ? null : new URLSearchParams(url.slice(query + 1));
    if (params?.has('batch')) {
      general(req, res);
      return;
    }
    let input: unknown;
    const raw = params?.get('input');
    if (raw) {
      try {
        input = config.transformer.input.deserialize(JSON.parse(raw));
      } catch {
        general(req, res); // resolveResponse words a PARSE_ERROR
        return;
      }
    }
    void fastQuery(opts, req, res, path, input);
  };
}

async function fastQuery(opts: JsonHandlerOptions, req: http.IncomingMessage, res: http.ServerResponse, path: string, input: unknown): Promise<void> {
  const config = opts.router._def._config;
  let ctx: Context | undefined;
  let body: unknown;
  let error: TRPCError | null = null;
  try {
    ctx = await opts.createContext(req, res);
    // No abort signal: a query's procedures take none (only `events.stream`, a subscription, does).
    body = { result: { data: await callTRPCProcedure({ router: opts.router, path, getRawInput: async () => input, ctx, type: 'query', signal: undefined, batchIndex: 0 }) } };
  } catch (cause) {
    error = getTRPCErrorFromUnknown(cause);
    body = { error: getTRPCErrorShape({ config, ctx, error, input, path, type: 'query' }) };
  }
  try {
    const json = body as Parameters<typeof getHTTPStatusCode>[0];
    res.statusCode = getHTTPStatusCode(json, error ? [error] : []);
    // The headers resolveResponse sets on every answer.
    res.setHeader('vary', 'trpc-accept, accept');
    res.setHeader('content-type', 'application/json');
    if (error && opts.errorHeaders) for (const [key, value] of Object.entries(opts.errorHeaders([error]))) res.setHeader(key, value);
    res.end(JSON.stringify(transformTRPCResponse(config, json)));
  } catch (cause) {
    internal_exceptionHandler({ req, res, path, router: opts.router, createContext: () => opts.createContext(req, res) })(cause);
  }
}

/** resolveResponse, given tRPC's own Request for the message; the answer written without pipeTo. */
function generalPath(opts: JsonHandlerOptions): http.RequestListener {
  const trim = (s: string) => s.replace(/^\/|\/$/g, '');
  const base = trim(opts.basePath);
  return (req, res) => {
    // As the standalone adapter: what throws outside resolveResponse's own handling (a URL that
    // does not parse, a socket that breaks mid-answer) is answered by tRPC's own handler.
    const onError = internal_exceptionHandler({ req, res, path: '', router: opts.router, createContext: () => opts.createContext(req, res) });
    const run = async () => {
      const path = trim(trim(createURL(req).pathname).slice(base.length));
      const request = incomingMessageToRequest(req, res, { maxBodySize: opts.maxBodySize });
      const response = await resolveResponse<AppRouter>({
        router: opts.router,
        req: request,
        path,
        error: null,
        maxBatchSize: opts.maxBatchSize,
        createContext: () => Promise.resolve(opts.createContext(req, res)),
        ...(opts.errorHeaders && { responseMeta: ({ errors }) => ({ headers: errors.length > 0 ? opts.errorHeaders!(errors) : {} }) }),
      });
      if (res.statusCode === 200) res.statusCode = response.status;
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie') res.setHeader(key, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) res.setHeader('set-cookie', cookies);
      if (!response.body) {
        res.end();
      } else if (response.headers.get('content-type') === 'application/json') {
        // One JSON string, built by resolveResponse with JSON.stringify: written in one piece.
        res.end(await response.text());
      } else {
        // A stream (server-sent events): written as it comes, and cancelled when the client goes.
        await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res).catch((error: unknown) => {
          if (!res.destroyed && !res.writableEnded) throw error;
        });
      }
    };
    run().catch(onError);
  };
}
