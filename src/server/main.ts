/**
 * The standalone backend: `npm run server`. PostgreSQL when DATABASE_URL is set, otherwise an
 * embedded PGlite database in PGLITE_DIR (default ./.data/pglite) holding the demo book.
 */
import { resolve } from 'node:path';
import { openBackend } from './backend.js';
import { databaseConfigFromEnv } from './db/client.js';
import { startBackendServer } from './http.js';
import { type LogLevel, createLogger } from '../infra/log.js';

const log = createLogger({ level: (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info', base: { service: 'agent-desk-backend' } });

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 4100;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`PORT must be a port number, got "${value}"`);
  return n;
}

async function main(): Promise<void> {
  const database = databaseConfigFromEnv(process.env, resolve('.data/pglite'));
  const started = performance.now();
  const backend = await openBackend({
    database,
    // The embedded engine is the demo: give it a book. A real PostgreSQL is seeded only on request.
    seedDemoIfEmpty: database.engine === 'pglite' || process.env.SEED_DEMO === '1',
    ...(process.env.CLOCK !== undefined && { clock: process.env.CLOCK }),
    // The event listener's lost-connection warnings belong in the server's log.
    log,
  });
  const server = await startBackendServer(backend.deps, log, { port: port(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
  log.info('listening', {
    url: server.url, engine: backend.database.engine, book: backend.book, clock: backend.deps.now().toISOString(),
    startupMs: Math.round(performance.now() - started),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info('shutting down', { signal });
    const timer = setTimeout(() => { log.error('shutdown timed out'); process.exit(1); }, 10_000);
    timer.unref();
    try {
      await server.close();
      await backend.database.close();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error('shutdown failed', { err: error });
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  log.error('failed to start', { err: error });
  process.exit(1);
});
