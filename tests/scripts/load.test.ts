// `npm run load` (scripts/load.ts): the driver's core for a few seconds at tiny
// scale, against a test backend served twice over HTTP (the client's round robin between two
// instances on one database). Checks the report's shape and that the writes went through: a
// settlement row per settlement counted, an audit row per limit edit. No timing assertions.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoadReport, demoAgentLogins, formatReport, parseCommandLine, percentile, promSamples, runLoad } from '../../scripts/load.js';
import { queryRows } from '../../src/server/db/client.js';
import { type BackendServer, startBackendServer } from '../../src/server/http.js';
import { silentLogger } from '../../src/infra/log.js';
import { ENGINES, type TestBackend, startTestBackend } from '../helpers/backend.js';

describe.each(ENGINES)('load driver on %s', (engine) => {
  let b: TestBackend;
  let second: BackendServer;
  beforeAll(async () => {
    b = await startTestBackend(engine);
    second = await startBackendServer(b.deps, silentLogger, { port: 0 });
  });
  afterAll(async () => {
    await second?.close();
    await b?.close();
  });

  const count = async (q: ReturnType<typeof sql>) => Number((await queryRows<{ n: string | number }>(b.deps.db, q))[0]!.n);

  it('runs the mix through the tool layer on both backends and reports per tool', async () => {
    const settlementsBefore = await count(sql`select count(*) as n from settlements`);
    const editsBefore = await count(sql`select count(*) as n from audit_log where action = 'limits.edit'`);
    const lines: string[] = [];
    const report: LoadReport = await runLoad({
      urls: [b.server.url, second.url], agents: 6, rate: 240, durationMs: 3_000, logins: demoAgentLogins(), seed: 'test',
      // Far more writes than the real mix, so a few seconds surely hold some of each.
      mix: { settle: 20, edit: 20 }, print: (l) => lines.push(l),
    });

    expect(report.calls).toBeGreaterThan(20);
    expect(report.errors).toBe(0);
    expect(report.firstErrors).toEqual([]);
    expect(report.errorRate).toBe(0);
    expect(report.all.count).toBe(report.calls);
    expect(report.tools.reduce((a, t) => a + t.count, 0)).toBe(report.calls);
    for (const t of report.tools) {
      expect(t.count).toBeGreaterThan(0);
      expect(t.p50).toBeLessThanOrEqual(t.p95);
      expect(t.p95).toBeLessThanOrEqual(t.p99);
    }
    const names = report.tools.map((t) => t.tool);
    expect(names).toEqual(expect.arrayContaining(['agent.settlePlayer (preview)', 'agent.editLimit (preview)', 'agent.editLimit']));
    expect(report.backends).toEqual([b.server.url, second.url]);
    // Both backends and the driver were sampled for memory.
    expect(report.memory.map((m) => m.label)).toEqual([`backend ${b.server.url}`, `backend ${second.url}`, 'driver']);
    for (const m of report.memory) expect(m.rssMb.max).toBeGreaterThan(0);
    expect(report.drift.windowMs).toBe(600);

    // The writes counted are the rows written: nothing lost, nothing doubled.
    expect(report.writes.settlements).toBeGreaterThan(0);
    expect(report.writes.limitEdits).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from settlements`)).toBe(settlementsBefore + report.writes.settlements);
    expect(await count(sql`select count(*) as n from audit_log where action = 'limits.edit'`)).toBe(editsBefore + report.writes.limitEdits);
    // The ledger still balances.
    expect(await count(sql`select coalesce(sum(amount), 0) as n from ledger`)).toBe(0);

    // The agents call as each signs in, so progress lines may come before the sign-ins' own.
    expect(lines).toContainEqual(expect.stringMatching(/^signed in 6 agents in \d+\.\d s$/));
    expect(report.firstMinuteP95).toBeGreaterThan(0);
    const text = formatReport(report);
    expect(text).toMatch(/^load: 6 agents × 240 calls\/min for 0\.05 min on 2 backend\(s\)/);
    expect(text).toMatch(/^all +\d+ +0 /m);
    expect(text).toMatch(/^p95 drift: /m);
    expect(text).toMatch(/^first minute \(sign-ins included\): p95 \d/m);
  });

  it('signs in again, after the wait it was told, when the backend answers busy', async () => {
    // One sign-in at a time and none waiting: of the driver's four at once, three are refused with 503.
    const narrow = await startBackendServer(b.deps, silentLogger, { port: 0, admission: { calls: { running: 64, waiting: 64, waitMs: 60_000 }, signIns: { running: 1, waiting: 0, waitMs: 60_000 } } });
    try {
      const report = await runLoad({ urls: [narrow.url], agents: 4, rate: 60, durationMs: 2_000, logins: demoAgentLogins(), seed: 'busy' });
      expect(report.errors).toBe(0);
      expect(report.calls).toBeGreaterThan(0);
      const metrics = await (await fetch(new URL('/metrics', narrow.url))).text();
      expect(promSamples(metrics, 'agent_desk_requests_refused_busy_total').get('{gate="signIns"}')).toBeGreaterThan(0);
    } finally {
      await narrow.close();
    }
  });
});

describe('load command line', () => {
  it('takes fractions of minutes and defaults the rest', () => {
    expect(parseCommandLine(['--minutes', '0.5'])).toEqual({ agents: 100, rate: 10, durationMs: 30_000, backends: 1, maxErrorRate: 0.001, keep: false, seed: 'load' });
    expect(parseCommandLine(['--agents', '1000', '--rate', '10', '--minutes', '5', '--backends', '2', '--keep']))
      .toMatchObject({ agents: 1000, durationMs: 300_000, backends: 2, keep: true });
  });

  it('refuses a missing duration and nonsense', () => {
    expect(() => parseCommandLine([])).toThrow('--minutes is required');
    expect(() => parseCommandLine(['--minutes', 'ten'])).toThrow('--minutes must be a number');
    expect(() => parseCommandLine(['--minutes', '1', '--agents', '0'])).toThrow(/agents/);
    expect(() => parseCommandLine(['--minutes', '1', '--backends', '9'])).toThrow(/backends/);
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentile([], 95)).toBe(0);
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 95)).toBe(95);
    expect(percentile([10, 20], 99)).toBe(20);
  });
});
