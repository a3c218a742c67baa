/**
 * Live events benchmark: the time from an event's commit (emitEvents in its own
 * transaction) to its arrival at a subscriber of `events.stream` over the real transport (the
 * standalone HTTP server, SSE, the desk's remote client). p50/p95 at a steady 10 and 200 events a
 * second, on PGlite and, when TEST_DATABASE_URL or DATABASE_URL names a server, PostgreSQL.
 *
 *   tsx bench/events.ts                  # ~10 s per rate and engine
 *   tsx bench/events.ts --seconds 3      # shorter
 *
 * PostgreSQL: the book goes into a private schema bench_events_<pid>, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { connectBackend } from '../src/main/backend/connection.js';
import { openBackend } from '../src/server/backend.js';
import { type DatabaseConfig, type Db, queryRows } from '../src/server/db/client.js';
import { startBackendServer } from '../src/server/http.js';
import { emitEvents } from '../src/server/services/event-outbox.js';
import { silentLogger } from '../src/infra/log.js';

const { values: flags } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const SECONDS = Number(flags.seconds);
const RATES = [10, 200];
const pgUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

interface Result { p50: number; p95: number; n: number; lost: number }

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function measure(config: DatabaseConfig): Promise<Map<number, Result>> {
  const backend = await openBackend({ database: config, seedDemoIfEmpty: true, book: { seed: 'bench-events', players: 20, bets: 500, days: 10 } });
  const server = await startBackendServer(backend.deps, silentLogger, { port: 0 });
  const connection = await connectBackend({ mode: 'remote', url: server.url }, silentLogger);
  const results = new Map<number, Result>();
  try {
    const [priya] = await queryRows<{ id: string }>(backend.deps.db, sql`select id from accounts where username = 'priya'`);
    const { token } = await connection.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' });
    const committedAt = new Map<string, number>();
    const arrivedAt = new Map<string, number>();
    const subscription = connection.client(token).events.stream.subscribe({}, {
      onData: ({ data }) => {
        if (data.kind === 'player_login') arrivedAt.set(data.payload.playerName, performance.now());
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const rate of RATES) {
      committedAt.clear();
      arrivedAt.clear();
      const total = Math.round(rate * SECONDS);
      const started = performance.now();
      const writes: Promise<void>[] = [];
      for (let i = 0; i < total; i++) {
        // On schedule, not after the previous write: a slow commit must not lower the offered rate.
        const due = started + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const name = `${rate}:${i}`;
        writes.push(backend.deps.db.transaction(async (tx) => {
          await emitEvents(tx as unknown as Db, [{ kind: 'player_login', recipientId: priya!.id, payload: { playerId: randomUUID(), playerName: name } }], backend.deps.now());
        }).then(() => { committedAt.set(name, performance.now()); }));
      }
      await Promise.all(writes);
      const deadline = performance.now() + 10_000;
      while (arrivedAt.size < total && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const latencies = [...committedAt].flatMap(([name, at]) => {
        const arrived = arrivedAt.get(name);
        // The subscriber can hear of a commit a moment before the writer's own promise settles.
        return arrived === undefined ? [] : [Math.max(0, arrived - at)];
      }).sort((a, b) => a - b);
      results.set(rate, { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), n: latencies.length, lost: total - latencies.length });
    }
    subscription.unsubscribe();
  } finally {
    await server.close();
    await backend.database.close();
  }
  return results;
}

async function main(): Promise<void> {
  process.stdout.write(`events.stream: commit -> subscriber over SSE, ${SECONDS} s per rate; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  const engines: Array<[string, Map<number, Result>]> = [['pglite', await measure({ engine: 'pglite' })]];
  if (pgUrl) {
    const schema = `bench_events_${process.pid}`;
    const drop = async () => {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    };
    try {
      engines.push(['postgres', await measure({ engine: 'postgres', url: pgUrl, schema })]);
    } finally {
      await drop();
    }
  } else {
    process.stdout.write('  (PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL)\n');
  }
  const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : ms.toFixed(1));
  process.stdout.write(`  ${'rate'.padEnd(10)}${engines.map(([name]) => `${name} p50 / p95 ms`.padStart(28)).join('')}\n`);
  for (const rate of RATES) {
    const cells = engines.map(([, results]) => {
      const r = results.get(rate)!;
      return `${fmt(r.p50).padStart(7)} / ${fmt(r.p95).padStart(7)}  n=${r.n}${r.lost ? ` LOST ${r.lost}` : ''}`.padStart(28);
    });
    process.stdout.write(`  ${`${rate} ev/s`.padEnd(10)}${cells.join('')}\n`);
  }
  const lost = engines.some(([, results]) => [...results.values()].some((r) => r.lost > 0));
  if (lost) process.exitCode = 1;
}

await main();
