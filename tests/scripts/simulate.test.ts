// `npm run simulate` (scripts/simulate.ts): a few seconds of exchange life write bets and their
// events through the services; the same seed on the same book makes the same choices; the command
// line runs as a child process on a PGlite folder, as a user runs it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/server/db/client.js';
import { parseCommandLine, simulate } from '../../scripts/simulate.js';
import { ENGINES, type TestBackend, copyTestBook, startTestBackend } from '../helpers/backend.js';

const root = new URL('../..', import.meta.url).pathname;

describe.each(ENGINES)('simulate on %s', (engine) => {
  let b: TestBackend;
  beforeAll(async () => { b = await startTestBackend(engine); });
  afterAll(async () => b?.close());

  const count = async (q: ReturnType<typeof sql>) => Number((await queryRows<{ n: string | number }>(b.deps.db, q))[0]!.n);

  it('writes bets, logins, a settled market and their events, and prints the counts', async () => {
    const bets = await count(sql`select count(*) as n from bets`);
    const events = await count(sql`select count(*) as n from events`);
    const lines: string[] = [];
    // Two simulated minutes at 120 actions a minute, as fast as the database goes; a settlement a minute.
    const totals = await simulate(b.deps, { durationMs: 120_000, rate: 120, seed: 'test', settlePerMinute: 2, realTime: false }, (l) => lines.push(l));
    expect(totals.bets).toBeGreaterThan(100);
    expect(totals.logins).toBeGreaterThan(5);
    expect(totals.settled).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from bets`)).toBe(bets + totals.bets);
    expect(await count(sql`select count(*) as n from events`)).toBe(events + totals.events);
    expect(await count(sql`select count(*) as n from events where kind = 'player_login'`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from events where kind = 'market_settled'`)).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^minute 1: \d+ bets placed \(\d+ large\), \d+ refused.*, \d+ logins, \d+ markets settled, \d+ events$/);
    expect(lines.at(-1)).toMatch(/^total \(.* s\): /);
    // The ledger still balances after the settlements.
    expect(await count(sql`select coalesce(sum(amount), 0) as n from ledger`)).toBe(0);
  });

  it('makes the same choices for the same seed on the same book', async () => {
    const again = await startTestBackend(engine);
    try {
      const run = (backend: TestBackend) => simulate(backend.deps, { durationMs: 20_000, rate: 120, seed: 'same', settlePerMinute: 0, realTime: false }, () => {});
      const fresh = await startTestBackend(engine);
      try {
        const [x, y] = [await run(again), await run(fresh)];
        expect(x).toEqual(y);
        const stakes = async (backend: TestBackend) => (await queryRows<{ s: string }>(backend.deps.db, sql`
          select string_agg(player_id || ':' || outcome_id || ':' || side || ':' || stake || '@' || odds, ',' order by placed_at, player_id, stake) as s
          from bets where status = 'open' and placed_at >= ${backend.deps.now().toISOString()}::timestamptz`))[0]!.s;
        expect(await stakes(again)).toBe(await stakes(fresh));
      } finally {
        await fresh.close();
      }
    } finally {
      await again.close();
    }
  });
});

describe('npm run simulate (the command line)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-simulate-'));
  const pgliteDir = join(dir, 'pglite');
  beforeAll(async () => {
    copyTestBook(pgliteDir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[]) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/simulate.ts', ...args], {
      cwd: root, env: { ...process.env, PGLITE_DIR: pgliteDir, DATABASE_URL: '', CLOCK: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  };

  it('runs for a few seconds on the PGlite folder and writes bets', async () => {
    const result = await run(['--seconds', '3', '--rate', '600', '--seed', 'cli']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^minute 1: \d+ bets placed/m);
    const total = /^total \(.* s\): (\d+) bets placed/m.exec(result.stdout);
    expect(Number(total?.[1])).toBeGreaterThan(5);
    const db = await openDatabase({ engine: 'pglite', dataDir: pgliteDir });
    try {
      const [row] = await queryRows<{ n: string | number }>(db.db, sql`select count(*) as n from bets where placed_at >= '2026-11-20T06:30:00Z'`);
      expect(Number(row!.n)).toBe(Number(total![1]));
    } finally {
      await db.close();
    }
  });

  it('refuses a bad command line with exit 2', async () => {
    expect(() => parseCommandLine(['--minutes', '1', '--seconds', '2'])).toThrow(/one of --minutes or --seconds/);
    expect(() => parseCommandLine(['--minutes', 'abc'])).toThrow(/--minutes must be a number/);
    expect(parseCommandLine(['--minutes', '0.5', '--rate', '30', '--seed', 'x'])).toEqual({ durationMs: 30_000, rate: 30, seed: 'x', settlePerMinute: 0.3 });
    const result = await run(['--rate', '10']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: npm run simulate');
  });
});
