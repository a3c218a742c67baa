/**
 * Soak test of the browser shell (npm run test:stress, run by CI): 100k requests, each of which
 * gets a slot, so a shell that never forgot one would grow about 9 MB of heap per 100k.
 */
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/infra/log.js';
import type { DeskServices } from '../../src/main/desk/router.js';
import { DeskSessions } from '../../src/main/desk/sessions.js';
import { type BrowserShell, startBrowserShell } from '../../src/main/web/server.js';

/**
 * `count` requests without a cookie (each one would be issued a slot), pipelined on `connections`
 * sockets so that 100k of them take seconds, not minutes.
 */
async function hammer(port: number, count: number, connections = 20): Promise<number> {
  const request = Buffer.from(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  const one = (n: number) => new Promise<number>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const window = 64;
    let sent = 0;
    let answered = 0;
    let tail = '';
    const send = () => {
      const k = Math.min(window, n - sent);
      if (k <= 0) return;
      socket.write(Buffer.concat(Array.from({ length: k }, () => request)));
      sent += k;
    };
    socket.on('connect', send);
    socket.on('data', (chunk) => {
      const parts = (tail + chunk.toString('latin1')).split('HTTP/1.1 503 ');
      answered += parts.length - 1;
      tail = parts[parts.length - 1]!.slice(-16);
      if (answered >= n) {
        socket.destroy();
        resolve(answered);
      } else if (sent - answered <= window / 2) {
        send();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed after ${answered} of ${n} answers`)));
  });
  const per = Math.ceil(count / connections);
  return (await Promise.all(Array.from({ length: connections }, () => one(per)))).reduce((a, b) => a + b, 0);
}

describe('the browser shell under 100k requests', () => {
  let shell: BrowserShell;

  beforeAll(async () => {
    // No backend is reached: every request here is for the page (the renderer is not built: 503 + a slot).
    const services = { backend: {}, chat: {}, audit: {} } as unknown as DeskServices;
    // The shell loads its desk (the router and the runtime's modules, megabytes of heap) after it
    // serves the page; loaded here first, so that the heap measured below is the requests' alone.
    await import('../../src/main/web/desk-socket.js');
    shell = await startBrowserShell({ ...services, sessions: new DeskSessions(), log: silentLogger, rendererDir: '/nonexistent-renderer' });
  });
  afterAll(async () => {
    await shell?.close();
  });

  it('does not grow: the slots issued stay bounded and so does the heap', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const settledHeap = async () => {
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
      }
      return process.memoryUsage().heapUsed;
    };
    const port = Number(new URL(shell.url).port);

    // Warm up (code paths, the slot registry at its cap), then measure.
    expect(await hammer(port, 5_000)).toBe(5_000);
    const before = await settledHeap();
    const started = performance.now();
    expect(await hammer(port, 100_000)).toBe(100_000);
    const seconds = (performance.now() - started) / 1000;
    const growth = (await settledHeap()) - before;

    // A shell that kept every slot it issued would hold 100k of them, about 9 MB more heap.
    expect(shell.slotCount()).toBeLessThanOrEqual(1_000);
    expect(growth, `heap grew ${(growth / 1e6).toFixed(2)} MB over 100k requests (${seconds.toFixed(1)} s)`).toBeLessThan(3e6);
  }, 120_000);
});
