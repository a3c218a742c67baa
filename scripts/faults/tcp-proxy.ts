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
  /** Destroys every open connection (both sides); with `refuseMs`, refuses new ones that long. */
  cut(refuseMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const open = new Set<net.Socket>();
  let connections = 0;
  const relay = (client: net.Socket) => {
    connections++;
    const upstream = net.connect(target.port, target.host);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      open.add(a);
      a.pipe(b);
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
