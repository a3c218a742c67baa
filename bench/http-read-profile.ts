/**
 * A small driver for profiling the HTTP read path: an embedded PGlite backend, its HTTP
 * server and main's remote client in one process, a few thousand `agent.getUpline` and
 * `agent.getCreditLimit` reads, and the per-call time against the bare service call.
 *
 *   npx tsx bench/http-read-profile.ts [--n 3000]     # p50 and CPU a call: over HTTP, in process, bare
 *   npx tsx bench/http-read-profile.ts --profile /tmp/reads.cpuprofile
 *
 * --profile: after the timings, V8's CPU profile (sampled every 50 µs) of n reads over HTTP of each
 * case alone, without the seeding and the bare calls, written as a .cpuprofile (Chrome DevTools),
 * and of the same reads in process (the local link) beside it as <name>.local.cpuprofile.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openBackend } from '../src/server/backend.js';
import { startBackendServer } from '../src/server/http.js';
import { silentLogger } from '../src/infra/log.js';
import { connectBackend, embeddedConnection } from '../src/main/backend/connection.js';
import { resolveSession } from '../src/server/services/auth.js';
import { getCreditLimit, getUpline } from '../src/server/services/book.js';
import * as api from '../src/shared/contracts/agent-api.js';

const { values } = parseArgs({ options: { n: { type: 'string', default: '3000' }, profile: { type: 'string' } } });
const n = Number(values.n);
const NOW = new Date('2026-11-20T06:30:00Z');

const backend = await openBackend({ database: { engine: 'pglite' }, seedDemoIfEmpty: true, now: () => new Date(NOW) });
const server = await startBackendServer(backend.deps, silentLogger, { port: 0 });
server.server.keepAliveTimeout = 120_000;
const remote = await connectBackend({ mode: 'remote', url: server.url }, silentLogger);
const token = (await remote.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' })).token;
const client = remote.client(token);
const caller = await resolveSession(backend.deps, token);
const clInput = api.getCreditLimitInput.parse({});
const local = embeddedConnection(backend, silentLogger).client(token);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cases = [
  { name: 'getUpline', http: () => client.agent.getUpline.query({}), local: () => local.agent.getUpline.query({}), bare: () => getUpline(backend.deps, caller) },
  { name: 'getCreditLimit', http: () => client.agent.getCreditLimit.query({}), local: () => local.agent.getCreditLimit.query({}), bare: () => getCreditLimit(backend.deps, caller, clInput) },
];
for (const c of cases) {
  for (let i = 0; i < 200; i++) { await c.http(); await c.local(); await c.bare(); }
  const http: number[] = [];
  const bare: number[] = [];
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await c.http();
    http.push(performance.now() - t);
    t = performance.now();
    await c.bare();
    bare.push(performance.now() - t);
  }
  const wall = performance.now() - started;
  // CPU of the process (client, server and PGlite share it) per call: the HTTP path's own cost is
  // the difference between n reads over HTTP and n bare calls, each run alone.
  const cpuPerCall = async (call: () => Promise<unknown>) => {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) await call();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / n;
  };
  const httpCpu = await cpuPerCall(c.http);
  const localCpu = await cpuPerCall(c.local);
  const bareCpu = await cpuPerCall(c.bare);
  process.stdout.write(`${c.name.padEnd(16)} n=${n} p50 http ${median(http).toFixed(3)} / bare ${median(bare).toFixed(3)} ms (+${(median(http) - median(bare)).toFixed(3)}); `
    + `CPU a call http ${httpCpu.toFixed(3)} / bare ${bareCpu.toFixed(3)} ms (+${(httpCpu - bareCpu).toFixed(3)}), in process +${(localCpu - bareCpu).toFixed(3)}; wall ${wall.toFixed(0)} ms\n`);
}
if (values.profile) {
  // Over HTTP into the file named, and the same reads in process into <name>.local.cpuprofile: the
  // difference between the two is what HTTP adds.
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  for (const [file, way] of [[values.profile, 'http'], [values.profile.replace(/(\.cpuprofile)?$/, '.local.cpuprofile'), 'local']] as const) {
    await session.post('Profiler.start');
    for (const c of cases) for (let i = 0; i < n; i++) await c[way]();
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    process.stdout.write(`profile of ${n} reads of each case (${way}) written to ${file}\n`);
  }
  session.disconnect();
}
await remote.close();
await server.close();
await backend.database.close();
