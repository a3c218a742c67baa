/**
 * Child processes a run drives and kills: the standalone backend, `npm run simulate`. Shared by
 * the e2e spec that kills a backend under a live desk (e2e/live-events.spec.ts) and the fault runs
 * (scripts/faults/), so both start, probe and kill a process the same way.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A port free now, on loopback: a backend restarted on it keeps its clients' address. */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

/** A child running a TypeScript entry, its output kept for a report and for a failure's message. */
export interface Child { process: ChildProcess; output: string[]; exited: Promise<number | null> }

export function runTs(entry: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { process: child, output, exited };
}

/** The backend's `GET /health` answered 200 within a second. */
export async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

/** kill -9: no goodbye to its connections, no transaction finished on the way out. */
export function killHard(child: Child | null): Promise<unknown> {
  if (!child || child.process.exitCode !== null || child.process.signalCode !== null) return Promise.resolve();
  child.process.kill('SIGKILL');
  return child.exited;
}

/** The address a browser shell child (`npm start`, out/main/web.js) prints once it serves its page. */
export function browserShellUrl(child: ChildProcess, name: string): Promise<string> {
  return new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /Agent Desk \(browser shell\): (\S+)/.exec(out);
      if (found) done(found[1]!);
    });
    child.once('exit', (code) => fail(new Error(`${name} exited with ${code}`)));
  });
}
