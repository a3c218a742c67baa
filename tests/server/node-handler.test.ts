import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TRPCClientError, createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBackend } from '../../src/main/backend/connection.js';
import { isBackendUnreachable } from '../../src/main/backend/unreachable.js';
import { backendTRPCOptions } from '../../src/server/http.js';
import type { AppRouter } from '../../src/server/trpc/router.js';
import { silentLogger } from '../../src/infra/log.js';
import { type TestBackend, startTestBackend } from '../helpers/backend.js';

interface Answer { status: number; headers: Record<string, string | undefined>; body: unknown }

/** The headers tRPC's answer is made of (not how Node framed it: chunked or content-length, date, keep-alive). */
const COMPARED = ['content-type', 'vary', 'x-request-id', 'retry-after', 'allow'];

function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(COMPARED.map((k) => [k, res.headers[k] as string | undefined])),
          body: text === '' ? '' : JSON.parse(text) as unknown,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function listen(handler: http.RequestListener): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

describe('tRPC over HTTP: our handler against tRPC\'s standalone adapter', () => {
  let b: TestBackend;
  let token: string;
  let stock: { url: string; server: http.Server };

  beforeAll(async () => {
    b = await startTestBackend('pglite');
    token = await b.login('priya');
    // The standalone adapter as http.ts used it before, with the very same options.
    const options = backendTRPCOptions(b.deps, silentLogger);
    stock = await listen(createHTTPHandler({
      router: options.router,
      basePath: options.basePath,
      maxBodySize: options.maxBodySize,
      maxBatchSize: options.maxBatchSize,
      createContext: ({ req, res }) => options.createContext(req, res),
      responseMeta: ({ errors }) => ({ headers: errors.length > 0 ? options.errorHeaders!(errors) : {} }),
    }));
  });
  afterAll(async () => {
    if (stock) await close(stock.server);
    await b?.close();
  });

  const input = (value: unknown) => `input=${encodeURIComponent(JSON.stringify(value))}`;
  const batchInput = (values: unknown[]) => input(Object.fromEntries(values.map((v, i) => [i, v])));
  const cases: Array<[string, string, string, string?]> = [
    ['a query without input', 'GET', '/trpc/agent.getUpline'],
    ['a query with input', 'GET', `/trpc/agent.searchPlayers?${input({ query: 'Anita' })}`],
    ['BAD_REQUEST: an input past its bound', 'GET', `/trpc/agent.getBetHistory?${input({ limit: 100_000 })}`],
    ['BAD_REQUEST: an input of the wrong type', 'GET', `/trpc/agent.getPnL?${input({ from: 5 })}`],
    ['PARSE_ERROR: an input that is not JSON', 'GET', '/trpc/agent.getUpline?input=%7Bnot-json'],
    ['NOT_FOUND: no such procedure', 'GET', '/trpc/agent.noSuchThing'],
    ['METHOD_NOT_SUPPORTED: a mutation by GET', 'GET', '/trpc/auth.logout'],
    ['METHOD_NOT_SUPPORTED: a query by POST', 'POST', '/trpc/agent.getUpline', '{}'],
    ['a path with a trailing slash', 'GET', '/trpc/agent.getUpline/'],
    ['a percent-encoded path', 'GET', '/trpc/agent%2EgetUpline'],
    ['a batch of two, one refused (207)', 'GET', `/trpc/agent.getUpline,agent.getBetHistory?batch=1&${batchInput([{}, { limit: 100_000 }])}`],
    ['a batch of two, both answered', 'GET', `/trpc/agent.getUpline,agent.searchPlayers?batch=1&${batchInput([{}, { query: 'Anita' }])}`],
    ['a mutation', 'POST', '/trpc/previews.editLimit', '{}'],
    ['HEAD', 'HEAD', '/trpc/agent.getUpline'],
  ];

  it.each(cases)('%s: the same status, headers and body', async (_name, method, path, body) => {
    const headers = { authorization: `Bearer ${token}`, 'x-request-id': 'same-id-1', ...(body !== undefined && { 'content-type': 'application/json' }) };
    const [ours, theirs] = [await send(b.server.url, method, path, headers, body), await send(stock.url, method, path, headers, body)];
    expect(ours).toEqual(theirs);
  });

  it('UNAUTHORIZED without a token, the same both ways', async () => {
    const [ours, theirs] = [await send(b.server.url, 'GET', '/trpc/agent.getUpline'), await send(stock.url, 'GET', '/trpc/agent.getUpline')];
    expect(ours.status).toBe(401);
    expect({ ...ours, headers: { ...ours.headers, 'x-request-id': 'x' } }).toEqual({ ...theirs, headers: { ...theirs.headers, 'x-request-id': 'x' } });
    expect(ours.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a stock httpLink / httpBatchLink client and main\'s remote client get the same answers and the same errors', async () => {
    const auth = { authorization: `Bearer ${token}`, 'x-request-id': 'same-id-2' };
    const stockClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${stock.url}/trpc`, headers: auth })] });
    const stockBatch = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${stock.url}/trpc`, headers: auth, maxItems: 10 })] });
    const remote = await connectBackend({ mode: 'remote', url: b.server.url }, silentLogger);
    const ours = remote.client(token);
    const anonymous = remote.client(null);
    const stockAnonymous = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${stock.url}/trpc` })] });
    const outcome = async (call: Promise<unknown>) => {
      try {
        return { ok: await call };
      } catch (error) {
        if (!(error instanceof TRPCClientError)) throw error;
        return { message: error.message, shape: error.shape as unknown, data: error.data as unknown };
      }
    };
    try {
      expect(await outcome(ours.agent.getUpline.query({}))).toEqual(await outcome(stockClient.agent.getUpline.query({})));
      expect(await outcome(ours.agent.searchPlayers.query({ query: 'Anita' }))).toEqual(await outcome(stockClient.agent.searchPlayers.query({ query: 'Anita' })));
      const badInput = { limit: 100_000 } as unknown as { limit: number };
      const bad = await outcome(ours.agent.getBetHistory.query(badInput));
      expect((bad as { data: { code: string } }).data.code).toBe('BAD_REQUEST');
      expect(bad).toEqual(await outcome(stockClient.agent.getBetHistory.query(badInput)));
      const refused = await outcome(anonymous.agent.getUpline.query({}));
      expect((refused as { data: { code: string } }).data.code).toBe('UNAUTHORIZED');
      expect(refused).toEqual(await outcome(stockAnonymous.agent.getUpline.query({})));
      // A batch through httpBatchLink (our server answers batches through resolveResponse) against single calls through ours.
      const [upline, players, batchBad] = await Promise.all([
        outcome(stockBatch.agent.getUpline.query({})), outcome(stockBatch.agent.searchPlayers.query({ query: 'Anita' })), outcome(stockBatch.agent.getBetHistory.query(badInput)),
      ]);
      expect([upline, players, batchBad]).toEqual([
        await outcome(ours.agent.getUpline.query({})), await outcome(ours.agent.searchPlayers.query({ query: 'Anita' })), bad,
      ]);
      const oursBatch = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${b.server.url}/trpc`, headers: auth, maxItems: 10 })] });
      expect(await Promise.all([outcome(oursBatch.agent.getUpline.query({})), outcome(oursBatch.agent.getBetHistory.query(badInput))])).toEqual([upline, batchBad]);
    } finally {
      await remote.close();
    }
  });
});

describe('main\'s fetch for a remote backend (node:http, kept-alive sockets)', () => {
  const servers: http.Server[] = [];
  afterAll(async () => { for (const s of servers) await close(s); });
  async function serve(handler: http.RequestListener) {
    const s = await listen(handler);
    servers.push(s.server);
    return s.url;
  }

  it('reuses one socket for calls in a row', async () => {
    const sockets = new Set<unknown>();
    const url = await serve((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { data: { n: 1 } } }));
    });
    const remote = await connectBackend({ mode: 'remote', url }, silentLogger);
    for (let i = 0; i < 5; i++) expect(await remote.client('t').auth.me.query()).toEqual({ n: 1 });
    await remote.close();
    expect(sockets.size).toBe(1);
  });

  it('sends a query once more when a kept-alive socket is closed under it, and never a mutation', async () => {
    const perSocket = new Map<unknown, number>();
    const calls: string[] = [];
    const url = await serve((req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      calls.push(req.method ?? '');
      // The second request on a socket finds it closed, as when the server's idle timeout fires just then.
      if (n === 2) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { data: 'ok' } }));
    });
    const remote = await connectBackend({ mode: 'remote', url }, silentLogger);
    const client = remote.client('t');
    expect(await client.auth.me.query()).toBe('ok');
    expect(await client.auth.me.query()).toBe('ok'); // reset on the reused socket, sent again on a new one
    expect(calls).toEqual(['GET', 'GET', 'GET']);
    const error = await client.auth.logout.mutate().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(isBackendUnreachable(error)).toBe(true);
    expect(calls).toEqual(['GET', 'GET', 'GET', 'POST']);
    await remote.close();
  });

  it('a proxy\'s error page (not JSON) is "unreachable", as it was through fetch', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    const remote = await connectBackend({ mode: 'remote', url }, silentLogger);
    const error = await remote.client('t').auth.me.query().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(isBackendUnreachable(error)).toBe(true);
    await remote.close();
  });

  it('the caller\'s signal ends a call at once, as fetch\'s does', async () => {
    const url = await serve(() => { /* never answers */ });
    const remote = await connectBackend({ mode: 'remote', url, timeoutMs: 10_000 }, silentLogger);
    const controller = new AbortController();
    const started = Date.now();
    const call = remote.client('t').auth.me.query(undefined, { signal: controller.signal }).then(() => null, (e: unknown) => e);
    setTimeout(() => controller.abort(), 50);
    const error = await call;
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(Date.now() - started).toBeLessThan(2_000);
    await remote.close();
  });
});
