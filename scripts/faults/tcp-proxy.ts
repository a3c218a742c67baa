/**
 * A TCP relay between the desk and the backend that a fault run can cut: every connection
 * through it dropped at once (as a network path or a load balancer drops them), and, for a
 * while, new ones refused. The backend itself never notices anything but closed sockets.
 */
import net from 'node:net';
import { freePort } from '../lib/processes.js';

export interface TcpProxy {
  url: string;
  /** Connections relayed so far. */
  readonly connections: number;
  /**
   * The next request whose first bytes match `request` gets no answer: the backend's reply (sent
   * only once its work committed) is swallowed, and this resolves as it arrives — the moment to
   * kill the backend for a write that is done but whose client cannot know it.
   */
  withholdNextReply(request: RegExp): Promise<void>;
  /** Destroys every open connection (both sides); with `refuseMs`, refuses new ones that long. */
  cut(refuseMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const open = new Set<net.Socket>();
  let connections = 0;
  let armed: { request: RegExp; withheld: () => void } | null = null;
  const relay = (client: net.Socket) => {
    connections++;
    const upstream = net.connect(target.port, target.host);
    let swallowing: (() => void) | null = null;
    client.on('data', (chunk: Buffer) => {
      if (armed && armed.request.test(chunk.toString('latin1', 0, 200))) {
        swallowing = armed.withheld;
        armed = null;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (swallowing) {
        swallowing();
        return;
      }
      client.write(chunk);
    });
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      open.add(a);
      // Either side going away takes the other with it: a cut is a cut both ways.
      a.on('error', () => b.destroy());
      a.on('close', () => { open.delete(a); b.destroy(); });
    }
  };
  let server: net.Server | null = null;
  const listen = async () => {
    const s = net.createServer(relay);
    await new Promise<void>((done, fail) => {
      s.once('error', fail);
      s.listen(port, '127.0.0.1', done);
    });
    server = s;
  };
  const stopListening = async () => {
    const s = server;
    server = null;
    if (s) await new Promise<void>((done) => s.close(() => done()));
  };
  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    withholdNextReply(request) {
      return new Promise<void>((resolve) => { armed = { request, withheld: resolve }; });
    },
    async cut(refuseMs = 0) {
      const dropped = [...open].length / 2;
      if (refuseMs > 0) {
        const closing = stopListening();
        for (const socket of open) socket.destroy();
        await closing;
        await new Promise((resolve) => setTimeout(resolve, refuseMs));
        await listen();
      } else for (const socket of open) socket.destroy();
      return dropped;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await stopListening();
    },
  };
}
