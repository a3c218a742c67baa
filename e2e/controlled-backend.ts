/**
 * A backend an e2e spec serves on a fixed port and controls: it can stop listening (connections
 * refused, as when the server is down) or accept and never answer (a hung server or a dead network
 * path, which only the per-call deadline ends), then return on the same address, as BACKEND_URL
 * would. Used by resilience.spec.ts and degraded.spec.ts.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Backend, openBackend } from '../src/server/backend.js';
import { createBackendHandler } from '../src/server/http.js';
import { silentLogger } from '../src/infra/log.js';
import { BOOK_NOW } from './fixtures.js';

export type Mode = 'up' | 'down' | 'silent';

export class ControlledBackend {
  private server: http.Server | null = null;
  private readonly held = new Set<Socket>();
  private mode: Mode = 'down';
  /** Paths of the backend calls that got an answer, in order. */
  readonly answered: string[] = [];

  private constructor(private readonly backend: Backend, private readonly port: number) {}

  static async open(seed: string): Promise<ControlledBackend> {
    const backend = await openBackend({
      database: { engine: 'pglite' }, seedDemoIfEmpty: true, book: { seed, players: 12, bets: 600, days: 30 }, now: () => new Date(BOOK_NOW),
    });
    // A free port, then always that one: the app's BACKEND_URL does not change across the outage.
    const probe = http.createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((done) => probe.close(() => done()));
    const controlled = new ControlledBackend(backend, port);
    await controlled.set('up');
    return controlled;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async set(mode: Mode): Promise<void> {
    if (mode === this.mode) return;
    this.mode = mode;
    if (mode === 'down') {
      await this.stop();
      return;
    }
    for (const socket of this.held) socket.destroy();
    this.held.clear();
    if (this.server) return;
    const handler = createBackendHandler(this.backend.deps, silentLogger);
    const server = http.createServer((req, res) => {
      if (this.mode === 'silent') {
        // Accepted, never answered.
        this.held.add(req.socket);
        return;
      }
      res.on('finish', () => this.answered.push((req.url ?? '').split('?')[0]!));
      handler(req, res);
    });
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(this.port, '127.0.0.1', done);
    });
    this.server = server;
  }

  private async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const socket of this.held) socket.destroy();
    this.held.clear();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }

  async close(): Promise<void> {
    await this.stop();
    await this.backend.database.close();
  }
}
