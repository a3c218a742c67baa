import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/.bin/tsx');

function run(args: string[], env: Record<string, string>): { child: ChildProcess; lines: string[]; exited: Promise<number | null> } {
  const child = spawn(tsx, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

async function waitForLine(lines: string[], match: (json: Record<string, unknown>) => boolean, ms = 60_000): Promise<Record<string, unknown>> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (const line of lines) {
      try {
        const json = JSON.parse(line) as Record<string, unknown>;
        if (match(json)) return json;
      } catch { /* not a JSON line */ }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no matching log line in:\n${lines.join('\n')}`);
}

describe('the standalone server (npm run seed, npm run server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-server-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds a book of the size asked, refuses to seed it twice, serves it, logs JSON with request ids, and shuts down on SIGTERM', async () => {
    // A nested folder that does not exist yet, as ./.data/pglite on a fresh clone.
    const env = { PGLITE_DIR: join(dir, 'data', 'pglite'), DATABASE_URL: '', LOG_LEVEL: 'info' };
    const seed = run(['src/server/seed/cli.ts', '--players', '5', '--bets', '200', '--seed', 'standalone'], env);
    expect(await seed.exited).toBe(0);
    expect(JSON.parse(seed.lines.find((l) => l.startsWith('{"written"'))!)).toMatchObject({ written: { players: 5, bets: 200, seed: 'standalone' } });
    const again = run(['src/server/seed/cli.ts', '--players', '6'], env);
    expect(await again.exited).toBe(1);
    expect(again.lines.join('\n')).toMatch(/already holds a book/);

    const server = run(['src/server/main.ts'], { ...env, PORT: '0' });
    try {
      const listening = await waitForLine(server.lines, (j) => j.msg === 'listening');
      expect(listening).toMatchObject({ engine: 'pglite', book: { players: 5, bets: 200 } });
      const url = listening.url as string;
      const health = await fetch(`${url}/health`);
      expect(await health.json()).toEqual({ ok: true });
      const login = await fetch(`${url}/trpc/auth.login`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'req-standalone-1' },
        body: JSON.stringify({ username: 'priya', password: 'wrong' }),
      });
      expect(login.status).toBe(401);
      expect(login.headers.get('x-request-id')).toBe('req-standalone-1');
      await waitForLine(server.lines, (j) => j.requestId === 'req-standalone-1' && j.path === 'auth.login' && j.code === 'UNAUTHORIZED');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    await waitForLine(server.lines, (j) => j.msg === 'stopped', 1_000);
  }, 120_000);
});
