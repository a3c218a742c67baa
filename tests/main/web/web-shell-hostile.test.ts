import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../../src/infra/log.js';
import type { ChatService } from '../../../src/main/assistant/chat-service.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type BackendConnection, embeddedConnection } from '../../../src/main/backend/connection.js';
import type { DeskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { type BrowserShell, requestPath, startBrowserShell } from '../../../src/main/web/server.js';
import { CLAIM_TTL_MS, SlotRegistry } from '../../../src/main/web/session-slots.js';
import { SLOT_CLAIM_HEADER, SLOT_CLAIM_PATH } from '../../../src/shared/contracts/slot-claim.js';
import { openTestBookBackend } from '../../helpers/backend.js';
import { keylessModels } from '../../helpers/model-settings.js';

/** The assistant is not under test here. */
const chat = {} as ChatService;

interface Exchange {
  /** The first final status line's code (a 100 Continue is skipped); null when the shell answered nothing. */
  status: number | null;
  /** How the connection ended: the shell closed it, reset it, or (a failure) left it hanging. */
  end: 'closed' | 'reset' | 'hung';
}

/**
 * Writes `bytes` on a fresh connection and reads the shell's answer: the first final status, or
 * the connection closing. A connection still silent after a while is half-closed (the end of what
 * it will get), and one that then neither answers nor closes has hung the shell.
 */
function exchange(port: number, bytes: Buffer, timeoutMs = 10_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let end: Exchange['end'] = 'closed';
    let settled = false;
    const status = () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const codes = [...text.matchAll(/(?:^|\r\n\r\n)HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
      return codes.find((code) => code !== 100) ?? null;
    };
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(quiet);
      clearTimeout(timer);
      resolve({ status: status(), end });
      socket.destroy();
    };
    // Loopback answers in milliseconds; a request the shell is still waiting on (an unfinished
    // request line, say) is ended after half a second, and must then be answered or closed.
    const quiet = setTimeout(() => socket.end(), 500);
    const timer = setTimeout(() => { end = 'hung'; settle(); }, timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (status() !== null) settle();
    });
    socket.on('error', () => { end = 'reset'; });
    socket.on('close', settle);
  });
}

/** The pieces of a request, each of which the generator below may spoil. */
interface RawRequest {
  method: string;
  target: string;
  version: string;
  headers: Array<[string, string]>;
  body: string;
  eol: string;
}

function encode(r: RawRequest): Buffer {
  const head = [`${r.method} ${r.target} ${r.version}`, ...r.headers.map(([name, value]) => `${name}: ${value}`)].join(r.eol);
  return Buffer.from(`${head}${r.eol}${r.eol}${r.body}`, 'utf8');
}

/** Random requests a run: 100 in `npm test`, more in `npm run test:stress` (CI) through HOSTILE_RUNS. */
const HOSTILE_RUNS = Number(process.env.HOSTILE_RUNS) || 100;

describe('the browser shell under hostile requests', () => {
  let backend: BackendConnection;
  let shell: BrowserShell;
  let port: number;
  let validCookie: string;
  const opened: Array<{ close(): void }> = [];

  beforeAll(async () => {
    // The embedded backend, on a copy of the test book.
    backend = embeddedConnection(await openTestBookBackend(), silentLogger);
    // A built renderer of two files, so that well-formed requests get 200.
    const rendererDir = mkdtempSync(join(tmpdir(), 'desk-renderer-'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Agent Desk</title>');
    mkdirSync(join(rendererDir, 'assets'));
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1);');
    const audit = new AuditLog(join(mkdtempSync(join(tmpdir(), 'desk-hostile-')), 'audit.jsonl'));
    shell = await startBrowserShell({ backend, sessions: new DeskSessions(), log: silentLogger, chat, audit, models: keylessModels(), rendererDir });
    port = Number(new URL(shell.url).port);
    validCookie = (await fetch(shell.url)).headers.get('set-cookie')!.split(';')[0]!;
  });
  afterAll(async () => {
    for (const c of opened) c.close();
    await shell?.close();
    await backend?.close();
  });

  function upgrade(target: string, headers: Array<[string, string]>): RawRequest {
    return {
      method: 'GET', target, version: 'HTTP/1.1', eol: '\r\n', body: '',
      headers: [['Host', `127.0.0.1:${port}`], ['Connection', 'Upgrade'], ['Upgrade', 'websocket'], ['Sec-WebSocket-Version', '13'],
        ['Sec-WebSocket-Key', randomBytes(16).toString('base64')], ...headers],
    };
  }

  /** The desk as a browser holding `cookie` reaches it (a planted cookie's holder is one). */
  function deskWith(cookie: string) {
    const ws = createWSClient({
      url: `${shell.url.replace('http', 'ws')}/desk`,
      WebSocket: class extends WebSocket {
        constructor(url: string) { super(url, { headers: { cookie, origin: shell.url } }); }
      } as unknown as typeof globalThis.WebSocket,
      retryDelayMs: () => 60_000,
    });
    opened.push(ws);
    return createTRPCClient<DeskRouter>({ links: [wsLink({ client: ws })] });
  }

  const claimCookie = (claim: string, headers: Record<string, string>) =>
    fetch(`${shell.url}${SLOT_CLAIM_PATH}`, { method: 'POST', headers: { [SLOT_CLAIM_HEADER]: claim, ...headers } });
  const signedInWith = async (cookie: string) => ((await (await fetch(`${shell.url}/startup`, { headers: { cookie } })).json()) as { signedIn: boolean }).signedIn;

  it('gives a sign-in a new slot: the cookie from before it is worth nothing after it', async () => {
    const own = shell.url;
    const before = (await fetch(own)).headers.get('set-cookie')!.split(';')[0]!;
    // Whoever planted `before` in the user's browser (a page on another port of this host can) holds it too, and is connected first.
    const planted = deskWith(before);
    expect(await planted.session.me.query()).toBeNull();
    const page = deskWith(before);
    expect(await page.session.login.mutate({ username: 'priya', password: 'demo-priya' })).toMatchObject({ username: 'priya' });

    // The old slot reaches no signed-in call: not on a connection opened with it, not on a new one, not over HTTP.
    expect(await planted.session.me.query()).toBeNull();
    await expect(planted.panel.dashboard.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    await expect(planted.session.cookieClaim.mutate()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    expect((await exchange(port, encode(upgrade('/desk', [['Origin', own], ['Cookie', before]])))).status).toBe(403);
    expect(await signedInWith(before)).toBe(false);

    // The page that signed in goes on, and trades a one-time claim for the new slot's cookie.
    expect((await page.session.me.query())?.username).toBe('priya');
    const claim = (await page.session.cookieClaim.mutate())!;
    expect(claim).toMatch(/^[\w-]{43}$/);
    // Only from the shell's own page (a refusal leaves the claim to it), and only once.
    expect((await claimCookie(claim, { origin: 'http://evil.example', cookie: before })).status).toBe(403);
    expect((await claimCookie(claim, {})).status).toBe(403);
    expect((await claimCookie('x'.repeat(43), { origin: own })).status).toBe(403);
    const traded = await claimCookie(claim, { origin: own, cookie: before });
    expect(traded.status).toBe(204);
    expect(traded.headers.get('cache-control')).toBe('no-store');
    const setCookie = traded.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^desk_slot=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    const after = setCookie.split(';')[0]!;
    expect(after).not.toBe(before);
    expect((await claimCookie(claim, { origin: own })).status).toBe(403);

    // The new cookie is the session: after a reload, on a new connection.
    expect(await signedInWith(after)).toBe(true);
    expect((await deskWith(after).session.me.query())?.username).toBe('priya');
    expect(await signedInWith(before)).toBe(false);
    // The page keeps it (no new slot with the page), and an old-cookie page load gets a fresh, signed-out slot.
    expect((await fetch(own, { headers: { cookie: after } })).headers.get('set-cookie')).toBeNull();
    const fresh = (await fetch(own, { headers: { cookie: before } })).headers.get('set-cookie')!.split(';')[0]!;
    expect([before, after]).not.toContain(fresh);
    expect(await signedInWith(fresh)).toBe(false);
  }, 60_000);

  it('lets a claim be traded once, within its time, for a slot still known', () => {
    let now = 0;
    const slots = new SlotRegistry({ hasSession: () => true, now: () => now });
    const slot = slots.issue();
    const stale = slots.claim(slot)!;
    const replaced = slots.claim(slot)!;
    expect(slots.redeem(stale)).toBeNull();
    expect(slots.redeem(replaced)).toBe(slot);
    expect(slots.redeem(replaced)).toBeNull();
    const late = slots.claim(slot)!;
    now += CLAIM_TTL_MS + 1;
    expect(slots.redeem(late)).toBeNull();
    const forgotten = slots.claim(slot)!;
    slots.forget(slot);
    expect(slots.redeem(forgotten)).toBeNull();
    expect(slots.claim(slot)).toBeNull();
  });

  it('decodes request paths without throwing', () => {
    expect(requestPath('/%E0%A4%A')).toBeNull();
    expect(requestPath('http://a:b:c/')).toBeNull();
    expect(requestPath('/a%00b')).toBeNull();
    expect(requestPath(undefined)).toBeNull();
    expect(requestPath('/desk?x=%E0')).toBe('/desk');
    expect(requestPath('/caf%C3%A9#x')).toBe('/café');
  });

  it('answers requests whose URL throws when parsed, and malformed ones, with a 4xx', async () => {
    const own = shell.url;
    // A request line whose URL does not parse makes `new URL` throw; a throw there, before the origin check, would end the process.
    expect((await exchange(port, encode(upgrade('http://a:b:c/', [])))).status).toBe(403);
    expect((await exchange(port, encode(upgrade('http://a:b:c/', [['Origin', own], ['Cookie', validCookie]]))))).toMatchObject({ status: 403 });
    expect((await exchange(port, encode(upgrade('/%E0%A4%A', [['Origin', own], ['Cookie', validCookie]]))))).toMatchObject({ status: 403 });
    expect((await exchange(port, encode(upgrade('/desk', [['Origin', own], ['Cookie', validCookie], ['Sec-WebSocket-Version', 'x']]))))).toMatchObject({ status: 400 });
    // A well-formed upgrade still opens (and garbage frames after it only close that connection).
    expect((await exchange(port, Buffer.concat([encode(upgrade('/desk', [['Origin', own], ['Cookie', validCookie]])), randomBytes(64)]))).status).toBe(101);

    const get = (target: string, headers: Array<[string, string]> = [], method = 'GET', body = '') =>
      exchange(port, encode({ method, target, version: 'HTTP/1.1', eol: '\r\n', body, headers: [['Host', '127.0.0.1'], ...headers] }));
    expect((await get('/%E0%A4%A')).status).toBe(400);
    expect((await get('http://a:b:c/')).status).toBe(400);
    expect((await get('/', [['X-Big', 'x'.repeat(40_000)]])).status ?? 431).toBe(431);
    expect((await get('/', [['Bad Name', 'x']])).status).toBe(400);
    expect((await get('/', [], 'POST', 'x'.repeat(1_000_000))).status ?? 405).toBe(405);
    expect((await get('/', [['Content-Length', '5'], ['Transfer-Encoding', 'chunked']], 'POST')).status).toBe(400);
    expect((await exchange(port, Buffer.from('\u0000\u0001garbage\r\n\r\n'))).status).toBe(400);
    expect((await get('/../../../etc/passwd')).status).toBe(200);

    // A peer that resets the connection in the middle of an upgrade.
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(encode(upgrade('/desk', [['Origin', own], ['Cookie', validCookie]])).subarray(0, 60));
        socket.resetAndDestroy();
        resolve();
      });
    });
    expect((await fetch(shell.url)).status).toBe(200);
  });

  it('survives random and hostile HTTP and upgrade requests, then serves a normal login', async () => {
    const own = shell.url;
    const hostileTarget = fc.oneof(
      fc.constantFrom('/', '/desk', '/desk?x=1', '/desk#', '/%E0%A4%A', '/%', '/%00', '/..%2f..%2fetc%2fpasswd', '/../../etc/passwd', '*',
        'http://a:b:c/', 'http://[::1', '//evil/desk', '/assets/app.js', '/a b', '', '/\u00e9', '/\uD800', '/desk/../desk'),
      fc.string({ maxLength: 40 }).map((s) => `/${s}`),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.webUrl(),
      fc.integer({ min: 1, max: 20_000 }).map((n) => `/${'a'.repeat(n)}`),
      fc.array(fc.constantFrom('%', '%E0', '%A4', '%2F', '%C3%A9', '..', '/', 'desk', '?', '#', '%00', '\\', '%25'), { maxLength: 12 }).map((p) => `/${p.join('')}`),
    );
    const method = fc.oneof(
      { weight: 4, arbitrary: fc.constant('GET') },
      { weight: 2, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'CONNECT', 'TRACE', 'PRI', 'get', '') },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    );
    const version = fc.oneof({ weight: 6, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'http/1.1', '', 'HTTP/1.1 x') });
    const anyValue = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.integer({ min: 1, max: 40_000 }).map((n) => 'v'.repeat(n)),
      fc.constantFrom('\r\nX-Injected: 1', '\u0000', '-1', '99999999999999999999', 'chunked', 'Upgrade', 'websocket', '100-continue'),
    );
    const extraHeader = fc.tuple(
      fc.oneof(fc.constantFrom('Host', 'Origin', 'Cookie', 'Upgrade', 'Connection', 'Sec-WebSocket-Key', 'Sec-WebSocket-Version', 'Content-Length', 'Transfer-Encoding', 'Expect'), fc.string({ maxLength: 20 })),
      anyValue,
    );
    const origin = fc.oneof(fc.constantFrom(undefined, 'http://evil.example', 'null', own.replace('127.0.0.1', 'localhost'), `${own}/`, ''), anyValue);
    const cookie = fc.oneof(fc.constantFrom(undefined, 'desk_slot=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', `${validCookie}; desk_slot=x`, 'desk_slot'), anyValue);
    const body = fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.string({ maxLength: 200 }) }, { weight: 1, arbitrary: fc.constantFrom('0\r\n\r\n', 'zz\r\nxx\r\n', 'x'.repeat(100_000)) });

    // A request the shell would accept, with some of its parts (each one time in six) spoiled.
    const spoiled = <T,>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: hostile });
    const request = fc.constantFrom('page', 'upgrade').chain((kind) => fc.record({
      method: spoiled(fc.constant('GET'), method),
      target: spoiled(kind === 'upgrade' ? fc.constantFrom('/desk', '/desk?v=1') : fc.constantFrom('/', '/agent/dashboard', '/assets/app.js'), hostileTarget),
      version: spoiled(fc.constant('HTTP/1.1'), version),
      origin: spoiled(fc.constant<string | undefined>(own), origin),
      cookie: spoiled(fc.constant<string | undefined>(validCookie), cookie),
      body: spoiled(fc.constant(''), body),
      wsKey: spoiled(fc.constant(randomBytes(16).toString('base64')), anyValue),
      wsVersion: spoiled(fc.constant('13'), anyValue),
      extra: spoiled(fc.constant<Array<[string, string]>>([]), fc.array(extraHeader, { minLength: 1, maxLength: 4 })),
      eol: spoiled(fc.constant('\r\n'), fc.constantFrom('\n', '\r', '\n\r')),
      frames: fc.uint8Array({ maxLength: 200 }),
    }).map((r) => {
      const headers: Array<[string, string]> = [['Host', `127.0.0.1:${port}`]];
      if (r.origin !== undefined) headers.push(['Origin', r.origin]);
      if (r.cookie !== undefined) headers.push(['Cookie', r.cookie]);
      if (kind === 'upgrade') headers.push(['Connection', 'Upgrade'], ['Upgrade', 'websocket'], ['Sec-WebSocket-Version', r.wsVersion], ['Sec-WebSocket-Key', r.wsKey]);
      if (r.body) headers.push(['Content-Length', String(Buffer.byteLength(r.body))]);
      headers.push(...r.extra);
      const raw: RawRequest = { method: r.method, target: r.target, version: r.version, headers, body: r.body, eol: r.eol };
      // After a handshake, random bytes as WebSocket frames.
      return { raw, bytes: Buffer.concat([encode(raw), kind === 'upgrade' ? Buffer.from(r.frames) : Buffer.alloc(0)]) };
    }));
    const input = fc.oneof(
      { weight: 6, arbitrary: request },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 2_000 }).map((b) => ({ raw: null, bytes: Buffer.concat([Buffer.from(b), Buffer.from('\r\n\r\n')]) })) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((s) => ({ raw: null, bytes: Buffer.from(`${s}\r\n\r\n`, 'utf8') })) },
    );

    const seen = new Map<string, number>();
    await fc.assert(fc.asyncProperty(input, async ({ raw, bytes }) => {
      const result = await exchange(port, bytes);
      const key = result.status === null ? result.end : String(result.status);
      seen.set(key, (seen.get(key) ?? 0) + 1);
      expect(result.end).not.toBe('hung');
      // Never a server error; a 2xx only for a page or file, a 101 only for the desk from its own page.
      if (result.status !== null) {
        expect(result.status).toBeLessThan(500);
        if (result.status === 101) {
          expect(raw).not.toBeNull();
          const values = (name: string) => raw!.headers.filter(([n]) => n.trim().toLowerCase() === name).map(([, v]) => v.trim());
          expect(values('origin')).toEqual([own]);
          expect(values('cookie').join('; ')).toContain(validCookie);
          expect(requestPath(raw!.target)).toBe('/desk');
        }
      }
    }), { numRuns: HOSTILE_RUNS });

    // Every kind of answer came up, and the shell is still up: a page, then a normal login.
    expect(seen.get('101')).toBeGreaterThan(0);
    expect(seen.get('200')).toBeGreaterThan(0);
    expect([...seen.keys()].filter((k) => /^4\d\d$/.test(k)).length).toBeGreaterThan(1);
    const page = await fetch(shell.url);
    expect(page.status).toBe(200);
    const ws = createWSClient({
      url: `${shell.url.replace('http', 'ws')}/desk`,
      WebSocket: class extends WebSocket {
        constructor(url: string) { super(url, { headers: { cookie: page.headers.get('set-cookie')!.split(';')[0]!, origin: own } }); }
      } as unknown as typeof globalThis.WebSocket,
      retryDelayMs: () => 60_000,
    });
    opened.push(ws);
    const desk = createTRPCClient<DeskRouter>({ links: [wsLink({ client: ws })] });
    expect(await desk.session.login.mutate({ username: 'priya', password: 'demo-priya' })).toMatchObject({ username: 'priya' });
    expect((await desk.session.me.query())?.username).toBe('priya');
  }, 180_000);
});
