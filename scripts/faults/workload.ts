/**
 * The load a fault lands in: desk agents' workers, each doing one kind of thing in a loop —
 * settling a small amount with one of its players (one worker per player, so a player's
 * settlements run one after another as a desk's would), editing one player's credit limit back
 * and forth, or reading through the tool layer. A worker that fails pauses as a person would and
 * tries again from a fresh preview; it ends when it has done its count (or the run's deadline passes).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeEnd, DeskAgent } from './desk.js';
import type { Lab } from './lab.js';

export interface Step { worker: string; kind: 'settle' | 'limit' | 'read'; ok: boolean; at: number; change?: ChangeEnd }

export interface Worker { name: string; kind: Step['kind']; step(): Promise<Step | null> }

export interface Player { id: string; username: string; take: number }

/** An agent's direct players whose take (either way) covers `atLeast` paisa, largest first. */
export async function playersOf(lab: Lab, agent: DeskAgent, count: number, atLeast: number): Promise<Player[]> {
  const rows = await lab.query<{ id: string; username: string; take: string }>(`
    select a.id, a.username, b.take::text as take from accounts a join balances b on b.child_id = a.id
    where a.parent_id = $1 and a.role = 'player' and abs(b.take) >= $2 order by abs(b.take) desc, a.username limit $3`, [agent.user.id, atLeast, count]);
  return rows.map((r) => ({ id: r.id, username: r.username, take: Number(r.take) }));
}

/** Settles `amount` paisa at a time with the player (in whichever direction it owes), `count` times. */
export function settler(agent: DeskAgent, player: Player, count: number, amount: number): Worker {
  let done = 0;
  const name = `${agent.user.username}→${player.username} settle`;
  return {
    name, kind: 'settle',
    async step() {
      if (done >= count) return null;
      const change = await agent.change('agent.settlePlayer', { playerId: player.id, mode: 'amount', amount });
      if (change.end === 'confirmed') done++;
      return { worker: name, kind: 'settle', ok: change.end === 'confirmed', at: performance.now(), change };
    },
  };
}

/** Moves the player's credit limit between two values, `count` times. */
export function limitEditor(agent: DeskAgent, player: Player, count: number): Worker {
  let done = 0;
  const name = `${agent.user.username}→${player.username} limit`;
  const values = [5_000_000, 5_100_000];
  return {
    name, kind: 'limit',
    async step() {
      if (done >= count) return null;
      const change = await agent.change('agent.editLimit', { playerId: player.id, limitType: 'creditLimit', newValue: values[done % 2]! });
      // A value already set (an edit whose reply was lost did land) has nothing to confirm: the next one moves it.
      if (change.end === 'confirmed' || (change.end === 'refused' && change.code === 'NO_PROPOSAL')) done++;
      return { worker: name, kind: 'limit', ok: change.end !== 'failed', at: performance.now(), change };
    },
  };
}

/**
 * Reads the agent's takes and downline by turns, `count` times — and on for as long as
 * `keepGoing` says, so that reads are in flight all through a fault whenever it comes.
 */
export function reader(agent: DeskAgent, count: number, keepGoing: () => boolean = () => false): Worker {
  let done = 0;
  const name = `${agent.user.username} reads`;
  return {
    name, kind: 'read',
    async step() {
      if (done >= count && !keepGoing()) return null;
      const envelope = done % 2 === 0 ? await agent.read('agent.getTake', {}) : await agent.read('agent.getDownline', { depth: 1 });
      if (envelope.ok) done++;
      return { worker: name, kind: 'read', ok: envelope.ok, at: performance.now() };
    },
  };
}

/** Runs the workers side by side; answers every step taken. */
export async function runWorkers(
  workers: readonly Worker[], options: { pauseMs: number; deadlineMs: number; steps?: Step[]; stop?: () => boolean; paceMs?: number },
): Promise<Step[]> {
  const steps = options.steps ?? [];
  const stopAt = performance.now() + options.deadlineMs;
  await Promise.all(workers.map(async (worker) => {
    while (performance.now() < stopAt && !options.stop?.()) {
      const step = await worker.step();
      if (!step) return;
      steps.push(step);
      if (!step.ok) await sleep(options.pauseMs);
      else if (options.paceMs) await sleep(options.paceMs);
    }
  }));
  return steps;
}

/**
 * Every client recovered: each worker finished its count with a success last, and each that
 * failed got a success after its last failure. The figure is the slowest of those comebacks,
 * counted from the fault's end (a client whose last failure came before that counts from its failure).
 */
export function recovery(workers: readonly Worker[], steps: readonly Step[], faultEndedAt: number): { ok: boolean; detail: string; slowestMs: number } {
  const unfinished: string[] = [];
  const delays: number[] = [];
  for (const worker of workers) {
    const mine = steps.filter((s) => s.worker === worker.name);
    const last = mine.at(-1);
    if (!last || !last.ok) {
      unfinished.push(worker.name);
      continue;
    }
    const lastFailure = mine.findLast((s) => !s.ok);
    if (!lastFailure) continue;
    const comeback = mine.find((s) => s.ok && s.at > lastFailure.at)!;
    delays.push(comeback.at - Math.min(faultEndedAt, lastFailure.at));
  }
  const slowestMs = delays.length > 0 ? Math.max(0, ...delays) : 0;
  return {
    ok: unfinished.length === 0,
    slowestMs,
    detail: `${workers.length - unfinished.length} of ${workers.length} clients finished their work; ${delays.length} had failed during the fault, `
      + `the slowest succeeding again ${Math.round(slowestMs)} ms after it ended` + (unfinished.length > 0 ? `; not recovered: ${unfinished.join(', ')}` : ''),
  };
}

/** "settle 120 (3 failed), limit 40, read 200" */
export function stepCounts(steps: readonly Step[]): string {
  const kinds = new Map<string, { n: number; failed: number }>();
  for (const s of steps) {
    const k = kinds.get(s.kind) ?? { n: 0, failed: 0 };
    k.n++;
    if (!s.ok) k.failed++;
    kinds.set(s.kind, k);
  }
  return [...kinds].map(([kind, k]) => `${kind} ${k.n} (${k.failed} failed)`).join(', ');
}
