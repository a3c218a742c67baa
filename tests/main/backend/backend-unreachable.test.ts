import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../../src/main/assistant/create.js';
import { BACKEND_UNREACHABLE_TEXT } from '../../../src/main/assistant/assistant.js';
import { type BackendConnection, connectBackend } from '../../../src/main/backend/connection.js';
import { deskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import type { TurnEvent } from '../../../src/shared/contracts/chat.js';
import { silentLogger } from '../../../src/infra/log.js';

const user = { id: '00000000-0000-4000-8000-000000000001', username: 'priya', name: 'Priya Nair', role: 'agent' as const, timezone: 'Asia/Kolkata' };

/** A port nothing listens on (taken, then let go). */
async function deadPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}

/** The desk router as main serves it, against `backend`, with a session already held for the slot. */
function desk(backend: BackendConnection) {
  const sessions = new DeskSessions();
  sessions.set('slot', { token: 'a'.repeat(43), user, expiresAt: '2026-11-21T00:00:00.000Z' });
  const runtime = createAgentRuntime({ dataDir: mkdtempSync(join(tmpdir(), 'desk-unreachable-')), log: silentLogger });
  return { caller: deskRouter.createCaller({ sessions, backend, log: silentLogger, ...runtime, slot: 'slot' }), runtime, sessions };
}

async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error);
  }
}

describe('a remote backend that does not answer', () => {
  let silent: http.Server;
  const held = new Set<Socket>();

  beforeAll(async () => {
    // Accepts every request and never answers it: only the deadline ends the call.
    silent = http.createServer((req) => { held.add(req.socket); });
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  });
  afterAll(async () => {
    for (const s of held) s.destroy();
    silent.closeAllConnections();
    await new Promise<void>((done) => silent.close(() => done()));
  });

  it('refused: desk calls fail at once as SERVICE_UNAVAILABLE, and the session is kept', async () => {
    const backend = await connectBackend({ mode: 'remote', url: `http://127.0.0.1:${await deadPort()}` }, silentLogger);
    const { caller, sessions } = desk(backend);
    const started = Date.now();
    expect(await codeOf(caller.panel.dashboard())).toBe('SERVICE_UNAVAILABLE');
    expect(await codeOf(caller.session.clock())).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(sessions.get('slot')).not.toBeNull();
  });

  it('silent: the per-call deadline ends each call as SERVICE_UNAVAILABLE', async () => {
    const { port } = silent.address() as AddressInfo;
    const backend = await connectBackend({ mode: 'remote', url: `http://127.0.0.1:${port}`, timeoutMs: 500 }, silentLogger);
    const { caller } = desk(backend);
    const started = Date.now();
    expect(await codeOf(caller.panel.take({}))).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('silent, with garbage collected during the wait: the deadline still ends the call', async () => {
    const { port } = silent.address() as AddressInfo;
    const backend = await connectBackend({ mode: 'remote', url: `http://127.0.0.1:${port}`, timeoutMs: 500 }, silentLogger);
    const call = codeOf(backend.client('a'.repeat(43)).agent.getTake.query({}));
    // Short-lived garbage, as the intent model's training makes: young collections run meanwhile,
    // and a deadline signal held only weakly would be collected with it.
    for (let round = 0; round < 20; round++) {
      const churn: number[][] = [];
      for (let i = 0; i < 20_000; i++) churn.push(new Array<number>(16).fill(i));
      expect(churn).toHaveLength(20_000);
      await new Promise((done) => setTimeout(done, 20));
    }
    expect(await Promise.race([call, new Promise((done) => setTimeout(() => done('hung'), 5_000))])).not.toBe('hung');
  });

  it('a chat turn ends promptly with the unreachable answer instead of hanging', async () => {
    const backend = await connectBackend({ mode: 'remote', url: `http://127.0.0.1:${await deadPort()}` }, silentLogger);
    const { runtime } = desk(backend);
    const events: TurnEvent[] = [];
    for await (const e of runtime.chat.turn({ kind: 'message', text: 'what is my live exposure?', page: { path: '/agent/dashboard', query: {} } }, { user, api: backend.client('a'.repeat(43)) })) {
      events.push(e);
    }
    const done = events.at(-1);
    expect(done?.type).toBe('done');
    if (done?.type !== 'done') return;
    expect(done.message.text).toBe(BACKEND_UNREACHABLE_TEXT);
    expect(done.message.cards).toEqual([{ type: 'error_card', data: { code: 'UNAVAILABLE', message: BACKEND_UNREACHABLE_TEXT, retryable: true } }]);
  });
});
