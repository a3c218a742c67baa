/**
 * The run shared by the faults that land under the desk's load (the backend killed, PostgreSQL
 * restarted): a lab, agents signed in, workers settling, editing limits and reading; the fault
 * injected once the load is under way; then the checks of checks.ts and the recovery of every
 * client.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Check, auditChecks, auditHeads, describe, errorChecks, moneyChecks, settlementIds } from './checks.js';
import { DeskAgent, ErrorTally } from './desk.js';
import { type Lab, openLab, waitFor } from './lab.js';
import { type TcpProxy, startTcpProxy } from './tcp-proxy.js';
import { type Step, type Worker, limitEditor, playersOf, reader, recovery, runWorkers, settler, stepCounts } from './workload.js';

export interface FaultReport {
  name: string;
  /** Why it could not run here (the test skips with these words). */
  skipped?: string;
  checks: Check[];
  /** What happened, for the console and docs/faults.md. */
  lines: string[];
}

export interface LoadSize {
  agents: string[];
  /** Settling workers per agent (one player each). */
  settlers: number;
  settlements: number;
  /** Paisa per settlement. */
  amount: number;
  /** Limit editors per agent, and edits each. */
  editors: number;
  edits: number;
  /** Reading workers per agent, and reads each. */
  readers: number;
  reads: number;
  /** Confirmed changes before the fault is injected. */
  faultAfter: number;
  /** The desk's tool breaker cool-down (30 s on a desk): a test shortens it to keep the run short. */
  breakerCoolDownMs?: number;
}

export interface Injected { endedAt: number; lines: string[] }

/**
 * `relay`: the desks reach the backend through a TCP relay (tcp-proxy.ts) the fault may use, as
 * to swallow a reply; otherwise directly.
 */
export async function deskUnderFault(
  name: string, size: LoadSize, inject: (lab: Lab, relay: TcpProxy | null) => Promise<Injected>, print: (line: string) => void = () => {},
  options: { relay?: boolean } = {},
): Promise<FaultReport> {
  const opened = await openLab();
  if ('unavailable' in opened) return { name, skipped: opened.unavailable, checks: [], lines: [] };
  const lab = opened;
  const agents: DeskAgent[] = [];
  let relay: TcpProxy | null = null;
  try {
    await lab.startBackend();
    if (options.relay) relay = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(lab.url).port) });
    const url = relay?.url ?? lab.url;
    const errors = new ErrorTally();
    const dir = await mkdtemp(join(tmpdir(), `fault-${name}-`));
    for (const username of size.agents) {
      agents.push(await DeskAgent.signIn({
        url, username, dir, errors, ...(size.breakerCoolDownMs !== undefined && { registry: { breaker: { coolDownMs: size.breakerCoolDownMs } } }),
      }));
    }
    const heads = await auditHeads(agents);
    const before = await settlementIds(lab);
    const workers: Worker[] = [];
    let faultOverAt: number | null = null;
    for (const agent of agents) {
      const players = await playersOf(lab, agent, size.settlers + size.editors, size.settlements * size.amount * 2);
      if (players.length < size.settlers + size.editors) throw new Error(`${agent.user.username} has ${players.length} players with a take to settle; the run needs ${size.settlers + size.editors}`);
      players.slice(0, size.settlers).forEach((p) => workers.push(settler(agent, p, size.settlements, size.amount)));
      players.slice(size.settlers).forEach((p) => workers.push(limitEditor(agent, p, size.edits)));
      // Reading goes on until a moment after the fault, so the fault always meets requests.
      for (let i = 0; i < size.readers; i++) workers.push(reader(agent, size.reads, () => faultOverAt === null || performance.now() < faultOverAt + 1_000));
    }
    print(`${name}: ${workers.length} clients (${agents.map((a) => a.user.username).join(', ')}) on ${lab.url}, PostgreSQL on port ${lab.pg.port}`);

    const steps: Step[] = [];
    const started = performance.now();
    const load = runWorkers(workers, { pauseMs: 1_000, deadlineMs: 240_000, steps, stop: () => lab.crashed() !== null });
    const changes = () => steps.filter((s) => s.ok && s.kind !== 'read').length;
    await waitFor(`${size.faultAfter} changes before the fault`, () => changes() >= size.faultAfter, 120_000, 20);
    const atFault = { steps: steps.length, changes: changes(), at: performance.now() };
    const injected = await inject(lab, relay);
    faultOverAt = injected.endedAt;
    await load;
    const crash = lab.crashed();
    if (crash) throw new Error(crash);
    const ms = performance.now() - started;

    const ends = steps.flatMap((s) => (s.change ? [s.change] : []));
    const recovered = recovery(workers, steps, injected.endedAt);
    const checks: Check[] = [
      ...await moneyChecks(lab, ends, before),
      ...await auditChecks(agents, heads),
      { name: 'every client recovered', ok: recovered.ok, detail: recovered.detail },
      errorChecks(errors),
    ];
    const failed = steps.filter((s) => !s.ok);
    const lines = [
      `${name}: ${steps.length} requests in ${(ms / 1000).toFixed(1)} s (${stepCounts(steps)}); the fault came after ${atFault.changes} changes (${atFault.steps} requests)`,
      ...injected.lines,
      `${failed.length} requests failed or were refused (${failed.filter((s) => s.at < atFault.at).length} before the fault); `
        + `${failed.filter((s) => s.at >= injected.endedAt).length} after it ended`,
      ...describe(checks, errors),
    ];
    for (const line of lines) print(line);
    return { name, checks, lines };
  } finally {
    await Promise.all(agents.map((a) => a.close()));
    await relay?.close();
    await lab.close();
  }
}
