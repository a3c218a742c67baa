import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAgentRuntime } from '../../src/main/assistant/create.js';
import { embeddedConnection } from '../../src/main/backend/connection.js';
import { deskRouter } from '../../src/main/desk/router.js';
import { DeskSessions } from '../../src/main/desk/sessions.js';
import { startBackendServer } from '../../src/server/http.js';
import { createLogger, silentLogger } from '../../src/infra/log.js';
import { LoginThrottle, addressKey } from '../../src/server/services/login-throttle.js';
import type * as Passwords from '../../src/server/services/passwords.js';
import { DEMO_PASSWORDS, ENGINES, type TestBackend, startTestBackend } from '../helpers/backend.js';

// The real verifyPassword, counted: a throttled attempt must never reach it.
const verifyCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/server/services/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof Passwords>();
  return {
    ...real,
    verifyPassword: async (storedHash: string, password: string) => {
      verifyCalls.count += 1;
      return real.verifyPassword(storedHash, password);
    },
  };
});

interface Answer {
  status: number;
  retryAfterHeader: string | null;
  code: string | null;
  message: string | null;
  retryAfterSeconds: number | null;
  token: string | null;
}

/**
 * auth.login over real HTTP from a chosen loopback source address (Linux routes all of
 * 127.0.0.0/8 to lo), so each test throttles an address of its own.
 */
function signIn(url: string, from: string, username: string, password: string): Promise<Answer> {
  const body = JSON.stringify({ username, password });
  const target = new URL('/trpc/auth.login', url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: target.hostname, port: target.port, path: target.pathname, method: 'POST', localAddress: from, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => {
        const json = JSON.parse(text) as {
          result?: { data: { token: string } };
          error?: { message: string; data: { code: string; retryAfterSeconds?: number } };
        };
        const header = res.headers['retry-after'];
        resolve({
          status: res.statusCode ?? 0,
          retryAfterHeader: typeof header === 'string' ? header : null,
          code: json.error?.data.code ?? null,
          message: json.error?.message ?? null,
          retryAfterSeconds: json.error?.data.retryAfterSeconds ?? null,
          token: json.result?.data.token ?? null,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('addressKey', () => {
  it('counts an IPv4-mapped address as its IPv4, and IPv6 by its /64', () => {
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::9')).not.toBe(addressKey('2001:db8:1:2::9'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('embedded')).toBe('embedded');
  });
});

describe('LoginThrottle', () => {
  const throttled = (throttle: LoginThrottle, name: string, from: string) => {
    try {
      throttle.begin(name, from);
      return false;
    } catch (error) {
      if (error instanceof TRPCError && error.code === 'TOO_MANY_REQUESTS') return true;
      throw error;
    }
  };

  it('keeps at most maxKeys names: past it the least recently failed goes, forgotten ones first', () => {
    let now = Date.parse('2026-11-23T09:00:00Z');
    const throttle = new LoginThrottle(() => new Date(now), { maxKeys: 2 });
    for (let i = 0; i < 5; i++) throttle.begin('old', `10.0.0.${i}`);
    expect(throttled(throttle, 'old', '10.0.1.1')).toBe(true);
    now += 61 * 60_000;
    for (let i = 0; i < 5; i++) throttle.begin('recent', `10.0.2.${i}`);
    // 'old' was forgotten (an hour without a failure), so 'other' takes its place and 'recent' stays.
    throttle.begin('other', '10.0.3.1');
    expect(throttled(throttle, 'recent', '10.0.3.2')).toBe(true);
    // Full with live keys: a new one pushes out the least recently failed, 'recent'.
    throttle.begin('newest', '10.0.3.3');
    expect(throttled(throttle, 'recent', '10.0.3.4')).toBe(false);
  });

  it('gives a succeeding address its try back, so an office behind one address is not locked by its own sign-ins', () => {
    const now = Date.parse('2026-11-23T09:00:00Z');
    const throttle = new LoginThrottle(() => new Date(now));
    for (let i = 0; i < 100; i++) throttle.begin(`user-${i}`, '10.9.9.9').succeeded();
    expect(throttled(throttle, 'someone', '10.9.9.9')).toBe(false);
  });
});

describe.each(ENGINES)('sign-in throttling on %s', (engine) => {
  let b: TestBackend;
  /** Moves the wall clock on; business time stays where it is. */
  const wait = (seconds: number) => { b.clock.real = new Date(b.clock.real.getTime() + seconds * 1000); };

  beforeAll(async () => {
    b = await startTestBackend(engine);
  });
  afterAll(async () => b?.close());

  it('refuses the sixth quick try, even with the right password, with TOO_MANY_REQUESTS and a retry-after; after the wait it works', async () => {
    const from = '127.0.1.1';
    for (let i = 1; i <= 5; i++) {
      expect(await signIn(b.server.url, from, 'priya', `guess-${i}`)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
    const refused = await signIn(b.server.url, from, 'priya', DEMO_PASSWORDS.priya!);
    expect(refused).toMatchObject({
      status: 429, code: 'TOO_MANY_REQUESTS', token: null, retryAfterSeconds: 1, retryAfterHeader: '1',
      message: 'too many failed sign-ins for this account: try again in 1 s',
    });
    // The name is throttled however it is spelled, and from any address.
    expect(await signIn(b.server.url, '127.0.1.2', 'PRIYA', DEMO_PASSWORDS.priya!)).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    wait(1);
    const ok = await signIn(b.server.url, from, 'priya', DEMO_PASSWORDS.priya!);
    expect(ok.status).toBe(200);
    expect(ok.token).toMatch(/^[\w-]{43}$/);
  });

  it('answers the typed tRPC client with the wait in the error data', async () => {
    const name = `ghost-${randomUUID()}`;
    const client = b.client();
    for (let i = 0; i < 5; i++) await expect(client.auth.login.mutate({ username: name, password: 'x' })).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    await expect(client.auth.login.mutate({ username: name, password: 'x' })).rejects.toMatchObject({
      message: 'too many failed sign-ins for this account: try again in 1 s',
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, retryAfterSeconds: 1 },
    });
  });

  it('doubles the wait with each further failure, and a success starts the account over', async () => {
    const from = '127.0.2.1';
    for (let i = 0; i < 5; i++) await signIn(b.server.url, from, 'arjun', 'wrong');
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const refused = await signIn(b.server.url, from, 'arjun', 'wrong');
      expect(refused.code).toBe('TOO_MANY_REQUESTS');
      waits.push(refused.retryAfterSeconds!);
      wait(refused.retryAfterSeconds!);
      expect(await signIn(b.server.url, from, 'arjun', 'wrong')).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    expect(waits).toEqual([1, 2, 4]);
    wait(8);
    expect((await signIn(b.server.url, from, 'arjun', DEMO_PASSWORDS.arjun!)).status).toBe(200);
    // Started over: five free failures again, then the one-second wait.
    for (let i = 0; i < 5; i++) expect(await signIn(b.server.url, from, 'arjun', 'wrong')).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await signIn(b.server.url, from, 'arjun', 'wrong')).toMatchObject({ code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 1 });
  });

  it('locks an account out for 15 minutes after ten failures', async () => {
    const from = '127.0.3.1';
    let failures = 0;
    while (failures < 10) {
      const answer = await signIn(b.server.url, from, 'meera', 'wrong');
      if (answer.code === 'TOO_MANY_REQUESTS') wait(answer.retryAfterSeconds!);
      else {
        expect(answer.code).toBe('UNAUTHORIZED');
        failures += 1;
      }
    }
    expect(await signIn(b.server.url, from, 'meera', DEMO_PASSWORDS.meera!)).toMatchObject({
      status: 429, retryAfterSeconds: 900, retryAfterHeader: '900', message: 'too many failed sign-ins for this account: try again in 900 s',
    });
    wait(899);
    expect(await signIn(b.server.url, from, 'meera', DEMO_PASSWORDS.meera!)).toMatchObject({ status: 429, retryAfterSeconds: 1 });
    wait(1);
    expect((await signIn(b.server.url, from, 'meera', DEMO_PASSWORDS.meera!)).status).toBe(200);
  });

  it('throttles one address guessing across many names (20 free, lockout at 50), and not another address', async () => {
    const from = '127.0.4.1';
    for (let i = 0; i < 20; i++) expect(await signIn(b.server.url, from, `spray-${i}-${randomUUID()}`, 'wrong')).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await signIn(b.server.url, from, 'vikram', DEMO_PASSWORDS.vikram!)).toMatchObject({
      status: 429, retryAfterSeconds: 1, message: 'too many failed sign-ins from this address: try again in 1 s',
    });
    // The account itself is not throttled: from elsewhere it signs in.
    expect((await signIn(b.server.url, '127.0.4.2', 'vikram', DEMO_PASSWORDS.vikram!)).status).toBe(200);
    let failures = 20;
    while (failures < 50) {
      const answer = await signIn(b.server.url, from, `spray-${failures}-${randomUUID()}`, 'wrong');
      if (answer.code === 'TOO_MANY_REQUESTS') {
        expect(answer.retryAfterSeconds).toBeLessThanOrEqual(60);
        wait(answer.retryAfterSeconds!);
      } else failures += 1;
    }
    expect(await signIn(b.server.url, from, 'vikram', DEMO_PASSWORDS.vikram!)).toMatchObject({ status: 429, retryAfterSeconds: 900 });
  });

  it('throttles an unknown name exactly as a known one', async () => {
    const unknown = `nobody-${randomUUID()}`;
    const known: Answer[] = [];
    const ghost: Answer[] = [];
    const both = async (password: (name: string) => string) => {
      known.push(await signIn(b.server.url, '127.0.5.1', 'sanjay', password('sanjay')));
      ghost.push(await signIn(b.server.url, '127.0.5.2', unknown, password(unknown)));
    };
    for (let i = 0; i < 7; i++) await both(() => 'wrong');
    await both((name) => DEMO_PASSWORDS[name] ?? 'demo-nobody');
    wait(2);
    await both(() => 'wrong');
    expect(ghost).toEqual(known);
    expect(known.map((a) => a.code)).toEqual([...Array<string>(5).fill('UNAUTHORIZED'), ...Array<string>(3).fill('TOO_MANY_REQUESTS'), 'UNAUTHORIZED']);
  });

  it('counts parallel guesses as they arrive: only the first five reach the password check', async () => {
    const before = verifyCalls.count;
    const answers = await Promise.all(Array.from({ length: 30 }, () => signIn(b.server.url, '127.0.6.1', 'admin', 'wrong')));
    const codes = answers.map((a) => a.code);
    expect(codes.filter((c) => c === 'UNAUTHORIZED')).toHaveLength(5);
    expect(codes.filter((c) => c === 'TOO_MANY_REQUESTS')).toHaveLength(25);
    expect(verifyCalls.count - before).toBe(5);
    // A throttled right password is not checked either.
    expect(await signIn(b.server.url, '127.0.6.1', 'admin', DEMO_PASSWORDS.admin!)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(verifyCalls.count - before).toBe(5);
  });

  it('waits on the wall clock: moving the business clock lifts nothing', async () => {
    const name = `ghost-${randomUUID()}`;
    for (let i = 0; i < 5; i++) await signIn(b.server.url, '127.0.8.1', name, 'wrong');
    const start = b.clock.now;
    try {
      b.clock.now = new Date(start.getTime() + 30 * 24 * 3_600_000);
      expect(await signIn(b.server.url, '127.0.8.1', name, 'wrong')).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    } finally {
      b.clock.now = start;
    }
  });

  it('logs each failure at warn with the name, address and count, never the password', async () => {
    const lines: string[] = [];
    const logged = await startBackendServer(b.deps, createLogger({ level: 'debug', write: (line) => lines.push(line) }), { port: 0 });
    try {
      const name = `ghost-${randomUUID()}`;
      const secret = `Secret-${randomUUID()}`;
      for (let i = 0; i < 6; i++) await signIn(logged.url, '127.0.7.1', name, secret);
      expect(lines.join('\n')).not.toContain(secret);
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const failed = entries.filter((e) => e.msg === 'sign-in failed');
      expect(failed.map((e) => [e.level, e.username, e.clientAddress, e.failures])).toEqual(
        [1, 2, 3, 4, 5].map((n) => ['warn', name, '127.0.7.1', n]));
      expect(entries.filter((e) => e.msg === 'sign-in throttled')).toEqual([
        expect.objectContaining({ level: 'warn', username: name, clientAddress: '127.0.7.1', reason: expect.stringMatching(/try again in 1 s/) }),
      ]);
    } finally {
      await logged.close();
    }
  });

  it('reaches the desk\'s login (the in-process link, counted as one address) as a readable refusal', async () => {
    const runtime = createAgentRuntime({ dataDir: mkdtempSync(join(tmpdir(), 'throttle-desk-')), log: silentLogger });
    const desk = deskRouter.createCaller({
      sessions: new DeskSessions(), backend: embeddedConnection(b, silentLogger), log: silentLogger, chat: runtime.chat, audit: runtime.audit, models: runtime.models, slot: 'window-1',
    });
    const name = `ghost-${randomUUID()}`;
    for (let i = 0; i < 5; i++) await expect(desk.session.login({ username: name, password: 'wrong' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const refused = await desk.session.login({ username: name, password: 'wrong' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: 'too many failed sign-ins for this account: try again in 1 s' });
  });
});
