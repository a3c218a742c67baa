// The backend's bound on calls at once (server/http.ts, admission): past it a call is answered
// at once with 503 and Retry-After over real HTTP, and main's remote client, through the tool
// registry, waits what it was told and tries again, or says plainly that the backend is busy.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBackend } from '../../src/main/backend/connection.js';
import { createToolRegistry } from '../../src/main/tools/registry.js';
import type { ToolContext } from '../../src/main/tools/types.js';
import { silentLogger } from '../../src/infra/log.js';
import { BUSY_RETRY_AFTER_SECONDS, type BackendServer, startBackendServer } from '../../src/server/http.js';
import { serverMetrics } from '../../src/server/metrics.js';
import { type TestBackend, startTestBackend } from '../helpers/backend.js';

let b: TestBackend;
/** The same backend, served with room for one call running and none waiting, one sign-in and none waiting. */
let tight: BackendServer;

beforeAll(async () => {
  b = await startTestBackend('pglite');
  tight = await startBackendServer(b.deps, silentLogger, {
    port: 0, admission: { calls: { running: 1, waiting: 0, waitMs: 60_000 }, signIns: { running: 1, waiting: 0, waitMs: 60_000 } },
  });
});
afterAll(async () => {
  await tight?.close();
  await b?.close();
});

/**
 * A call that holds its place: a signed-in mutation whose body never finishes arriving, as a slow
 * client's would (its procedure waits for its input). `release` sends the rest of it; the answer
 * (a report that does not exist) is awaited.
 */
function heldCall(url: string, token: string): { release(): Promise<number> } {
  const body = JSON.stringify({ artifactId: '00000000-0000-4000-8000-000000000000' });
  const target = new URL('/trpc/reports.cancel', url);
  const held: Array<() => void> = [];
  const answered = new Promise<number>((resolve, reject) => {
    const req = http.request({
      host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    held.push(() => req.end(body.slice(1)));
    req.write(body.slice(0, 1));
    req.flushHeaders();
  });
  return {
    release: () => {
      held.forEach((send) => send());
      return answered;
    },
  };
}

interface Answer { status: number; retryAfter: string | null; body: { error?: { message: string; data: { code: string; retryAfterSeconds?: number } } } }

async function get(url: string, path: string, token?: string): Promise<Answer> {
  const res = await fetch(new URL(path, url), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() as Answer['body'] };
}

const refused = () => serverMetrics.requestsRefusedBusy.get().then((m) => m.values.reduce((a, v) => a + v.value, 0));

/** Asks until the held call has its place (the server read its headers); a gate that never fills fails here. */
async function untilBusy(url: string, path: string, token?: string): Promise<Answer> {
  for (let i = 0; i < 100; i++) {
    const answer = await get(url, path, token);
    if (answer.status === 503) return answer;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the backend never answered busy');
}

describe('the backend at its bound', () => {
  it('answers 503 with Retry-After in tRPC\'s error shape, and serves again once the place is free', async () => {
    const token = await b.login('priya');
    const hold = heldCall(tight.url, token);
    const busy = await untilBusy(tight.url, '/trpc/auth.me', token);
    expect(busy.retryAfter).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(busy.body.error?.data.code).toBe('SERVICE_UNAVAILABLE');
    expect(busy.body.error?.data.retryAfterSeconds).toBe(BUSY_RETRY_AFTER_SECONDS);
    expect(busy.body.error?.message).toMatch(/busy.*try again in 1 s/);
    // Health and metrics are not calls: a saturated backend still says it is alive.
    expect((await fetch(new URL('/health', tight.url))).status).toBe(200);

    // The held call ends (a refusal, but an answer) and frees its place.
    expect(await hold.release()).toBe(404);
    const after = await get(tight.url, '/trpc/auth.me', token);
    expect(after.status).toBe(200);
  });

  it('refuses a call that waited its time for a place, and runs none that was refused', async () => {
    const queued = await startBackendServer(b.deps, silentLogger, {
      port: 0, admission: { calls: { running: 1, waiting: 8, waitMs: 300 }, signIns: { running: 1, waiting: 0, waitMs: 60_000 } },
    });
    try {
      const token = await b.login('priya');
      const hold = heldCall(queued.url, token);
      // Waits behind the held call until its time is up; a gate without the wait would answer only once the hold ends.
      let answer: Answer;
      do answer = await get(queued.url, '/trpc/auth.me', token); while (answer.status === 200);
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe(String(BUSY_RETRY_AFTER_SECONDS));
      expect(answer.body.error?.message).toMatch(/^the backend is busy \(this call waited 0\.3 s for one of 1 places for calls\): try again in 1 s$/);
      expect(await hold.release()).toBe(404);
      // The refused call left the queue without running, and the place is free again.
      expect((await get(queued.url, '/trpc/auth.me', token)).status).toBe(200);
    } finally {
      await queued.close();
    }
  });

  it('keeps sign-ins apart: a full calls gate does not refuse a sign-in', async () => {
    const hold = heldCall(tight.url, await b.login('priya'));
    await untilBusy(tight.url, '/trpc/auth.me');
    const client = (await connectBackend({ mode: 'remote', url: tight.url }, silentLogger)).client(null);
    const session = await client.auth.login.mutate({ username: 'arjun', password: 'demo-arjun' });
    expect(session.token).toMatch(/\S/);
    await hold.release();
  });

  it('warms the session cache at sign-in, so the first call finds its caller there', async () => {
    const before = b.deps.sessionCache!.size;
    await b.login('meera');
    expect(b.deps.sessionCache!.size).toBe(before + 1);
  });
});

describe('main\'s remote client at a busy backend', () => {
  const contextFor = async (url: string): Promise<ToolContext> => {
    const api = (await connectBackend({ mode: 'remote', url }, silentLogger)).client(await b.login('vikram'));
    return { api, user: await api.auth.me.query(), requestId: 'admission-test' };
  };

  it('retries a read after the Retry-After it was told, and gets its answer', async () => {
    const ctx = await contextFor(tight.url);
    const hold = heldCall(tight.url, await b.login('priya'));
    await untilBusy(tight.url, '/trpc/auth.me');
    const before = await refused();
    const registry = createToolRegistry({ backoffMs: 0 });
    const call = registry.call('agent.getUpline', {}, ctx);
    // Freed once the registry's first attempt has been refused: its retry, a second later, finds room.
    while (await refused() === before) await new Promise((r) => setTimeout(r, 20));
    await hold.release();
    const envelope = await call;
    expect(envelope.ok).toBe(true);
    expect(await refused()).toBe(before + 1);
  });

  it('reports a backend that stays busy in words the user can act on', async () => {
    const ctx = await contextFor(tight.url);
    const hold = heldCall(tight.url, await b.login('priya'));
    await untilBusy(tight.url, '/trpc/auth.me');
    const before = await refused();
    const envelope = await createToolRegistry({ backoffMs: 0, retries: 1 }).call('agent.getUpline', {}, ctx);
    await hold.release();
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error.code).toBe('UNAVAILABLE');
    expect(envelope.error.message).toBe(`the backend is busy: try again in ${BUSY_RETRY_AFTER_SECONDS} s`);
    // Both attempts were refused by the gate: the retry waited and asked again.
    expect(await refused()).toBe(before + 2);
  });
});
