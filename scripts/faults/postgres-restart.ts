/**
 * Fault (b): PostgreSQL restarted under the desk's load — stopped (fast: its sessions are ended;
 * or immediate: a crash, with recovery on start), left down a moment, started again. The
 * backend's pool must find the server again by itself, the desks see the outage as the backend
 * being unavailable (in words), and then carry on.
 */
import { type FaultReport, type LoadSize, deskUnderFault } from './desk-under-fault.js';

export const POSTGRES_RESTART_SIZE: LoadSize & { mode: 'fast' | 'immediate'; downMs: number } = {
  agents: ['priya', 'tiger.book'], settlers: 3, settlements: 25, amount: 100, editors: 1, edits: 10, readers: 2, reads: 60, faultAfter: 40, mode: 'fast', downMs: 2_000,
};

export function postgresRestart(size = POSTGRES_RESTART_SIZE, print?: (line: string) => void): Promise<FaultReport> {
  return deskUnderFault('postgres-restart', size, async (lab) => {
    const started = performance.now();
    await lab.pg.restart(size.mode, size.downMs);
    const endedAt = performance.now();
    return { endedAt, lines: [`PostgreSQL stopped (${size.mode}), down ${size.downMs} ms, serving again ${Math.round(endedAt - started)} ms after the stop began; the backend process was not touched`] };
  }, print);
}
