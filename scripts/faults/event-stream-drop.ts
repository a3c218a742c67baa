/**
 * Fault (c): the desk's event stream loses its connection while events are being produced. The
 * desk reaches the backend through a TCP relay (tcp-proxy.ts) that the run cuts a few times —
 * every connection dropped, new ones refused for a moment — while `npm run simulate`'s
 * simulation writes bets, sign-ins and settled markets into the book, and the desk goes on
 * reading and settling through the same relay. Afterwards every one of the agent's events must
 * have arrived exactly once, in id order, on the wire (before the desk's own dedup) and in the bell.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../src/infra/log.js';
import { DeskAlerts } from '../../src/main/desk/alerts.js';
import { DeskSessions } from '../../src/main/desk/sessions.js';
import { openBackend } from '../../src/server/backend.js';
import { tapEventStream } from '../lib/event-tap.js';
import { simulate } from '../simulate.js';
import { type Check, auditChecks, auditHeads, describe, errorChecks, moneyChecks, settlementIds } from './checks.js';
import type { FaultReport } from './desk-under-fault.js';
import { DeskAgent, ErrorTally } from './desk.js';
import { openLab, waitFor } from './lab.js';
import { type Step, type Worker, playersOf, reader, recovery, runWorkers, settler, stepCounts } from './workload.js';
import { startTcpProxy } from './tcp-proxy.js';

export const EVENT_STREAM_DROP_SIZE = {
  agent: 'priya',
  /** The simulation: seconds, actions a minute, markets settled a minute (as e2e/live-events.spec.ts). */
  seconds: 15, rate: 900, settlePerMinute: 8,
  /** Her large-bet threshold for the run (500 points), so a short run gives her a few dozen events. */
  threshold: 50_000,
  /** Cuts of the relay, evenly spread over the simulation, each refusing new connections this long. */
  cuts: 3, refuseMs: 1_000,
  /** The desk's own work through the relay meanwhile, a step every paceMs per worker. */
  settlements: 10, amount: 100, reads: 40, paceMs: 300,
};

export async function eventStreamDrop(size = EVENT_STREAM_DROP_SIZE, print: (line: string) => void = () => {}): Promise<FaultReport> {
  const name = 'event-stream-drop';
  const opened = await openLab();
  if ('unavailable' in opened) return { name, skipped: opened.unavailable, checks: [], lines: [] };
  const lab = opened;
  const port = Number(new URL(lab.url).port);
  let agent: DeskAgent | null = null;
  const feedStop = new AbortController();
  const proxy = await startTcpProxy({ host: '127.0.0.1', port });
  try {
    await lab.startBackend();
    const errors = new ErrorTally();
    agent = await DeskAgent.signIn({ url: proxy.url, username: size.agent, dir: await mkdtemp(join(tmpdir(), 'fault-events-')), errors });
    const me = agent;
    const heads = await auditHeads([me]);
    const before = await settlementIds(lab);
    await me.api.alerts.update.mutate({ largeBetThreshold: size.threshold });

    // What the backend sent on the wire, under the feed's own dedup (a duplicate would show here).
    const tap = tapEventStream();
    const { onWire, resumedFrom, errors: streamErrors } = tap;
    const sessions = new DeskSessions();
    const slot = 'fault-run';
    sessions.set(slot, { token: me.token, user: me.user, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const alerts = new DeskAlerts({ sessions, backend: me.connection, log: silentLogger, backoffMs: () => 250, backendFor: tap.backendFor });
    const feed = alerts.feed(slot, me.user, feedStop.signal);
    const draining = (async () => {
      for await (const item of feed) void item;
    })();
    const theirEvents = async () => (await lab.query<{ id: string }>('select id::text as id from events where recipient_id = $1 order by events.id', [me.user.id])).map((r) => r.id);
    if ((await theirEvents()).length !== 0) throw new Error('the book already holds events for the agent: the run needs a fresh one');

    // The producer: the simulation, on its own connection to the same database (as `npm run simulate`).
    const producer = await openBackend({ database: { engine: 'postgres', url: lab.databaseUrl } });
    const steps: Step[] = [];
    let counts: Awaited<ReturnType<typeof simulate>>;
    const cutsDone: Array<{ at: number; dropped: number }> = [];
    let lastCutEnded = 0;
    try {
      const players = await playersOf(lab, me, 1, size.settlements * size.amount * 2);
      const workers: Worker[] = [...players.map((p) => settler(me, p, size.settlements, size.amount)), reader(me, size.reads)];
      const simulating = simulate(producer.deps, { durationMs: size.seconds * 1000, rate: size.rate, seed: 'fault-events', settlePerMinute: size.settlePerMinute, realTime: true }, () => {});
      const working = runWorkers(workers, { pauseMs: 500, paceMs: size.paceMs, deadlineMs: 120_000, steps });
      const cutting = (async () => {
        const every = (size.seconds * 1000) / (size.cuts + 1);
        for (let i = 1; i <= size.cuts; i++) {
          await sleep(every - (i === 1 ? 0 : size.refuseMs));
          const dropped = await proxy.cut(size.refuseMs);
          cutsDone.push({ at: performance.now(), dropped });
          lastCutEnded = performance.now();
        }
      })();
      [counts] = await Promise.all([simulating, working, cutting]);
      const rec = recovery(workers, steps, lastCutEnded);
      const expected = await theirEvents();
      const settled = await waitFor('every event on the wire', () => onWire.length >= expected.length, 60_000, 100).then(() => true, () => false);
      await sleep(1_000); // a duplicate sent late would come now
      const distinct = new Set(onWire).size;
      const inOrder = onWire.every((id, i) => i === 0 || BigInt(id) > BigInt(onWire[i - 1]!));
      const bell = alerts.list(slot, me.user).alerts.map((a) => a.id);
      const checks: Check[] = [
        {
          name: 'every event arrived exactly once, in order',
          ok: settled && onWire.length === expected.length && distinct === expected.length && inOrder && onWire.join() === expected.join(),
          detail: `${expected.length} events written for ${me.user.username} (simulate: ${counts.bets} bets, ${counts.large} large, ${counts.logins} sign-ins, ${counts.settled} markets settled); `
            + `${onWire.length} on the wire, ${distinct} distinct, ${inOrder ? 'in' : 'out of'} id order`,
        },
        {
          name: 'the bell holds each once',
          ok: expected.length <= 100 ? bell.join() === expected.join() : bell.join() === expected.slice(-100).join(),
          detail: `${bell.length} in the bell (it keeps the last 100)`,
        },
        {
          name: 'the stream came back after every cut',
          ok: cutsDone.length === size.cuts && resumedFrom.length >= 1 && rec.ok,
          detail: `${size.cuts} cuts (${cutsDone.map((c) => `${c.dropped} connections`).join(', ')}), each refusing new connections for ${size.refuseMs} ms; `
            + `streams opened from: ${resumedFrom.map((id) => id ?? 'start').join(', ')}; stream errors heard by the feed (never shown to the user: it resumes): ${streamErrors.length}; `
            + `desk work through the same relay: ${stepCounts(steps)}; ${rec.detail}`,
        },
        ...await moneyChecks(lab, steps.flatMap((s) => (s.change ? [s.change] : [])), before),
        ...await auditChecks([me], heads),
        errorChecks(errors),
      ];
      const lines = [
        `${name}: the desk reaches the backend through a relay on ${proxy.url} (${proxy.connections} connections relayed in all)`,
        ...describe(checks, errors),
        ...[...new Set(streamErrors)].map((m) => `  stream error (handled by the feed's resume): ${JSON.stringify(m)} ×${streamErrors.filter((e) => e === m).length}`),
      ];
      for (const line of lines) print(line);
      return { name, checks, lines };
    } finally {
      await producer.database.close();
      feedStop.abort();
      alerts.close();
      await draining.catch(() => undefined);
    }
  } finally {
    feedStop.abort();
    await agent?.close();
    await proxy.close();
    await lab.close();
  }
}
