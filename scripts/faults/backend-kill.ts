/**
 * Fault (a): kill -9 the backend during a settlement burst, and start it again on the same port.
 * Settlements in flight lose their replies; the desk resends each confirmed one under its
 * proposal's idempotency key, so a settlement that did commit is answered as a replay and none
 * is made twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type FaultReport, type LoadSize, deskUnderFault } from './desk-under-fault.js';

export const BACKEND_KILL_SIZE: LoadSize & { downMs: number } = {
  agents: ['priya', 'tiger.book'], settlers: 3, settlements: 25, amount: 100, editors: 1, edits: 10, readers: 1, reads: 40, faultAfter: 40, downMs: 2_000,
};

export function backendKill(size = BACKEND_KILL_SIZE, print?: (line: string) => void): Promise<FaultReport> {
  return deskUnderFault('backend-kill', size, async (lab) => {
    const killedAt = performance.now();
    await lab.killBackend();
    await sleep(size.downMs);
    const restartMs = await lab.startBackend();
    const endedAt = performance.now();
    return { endedAt, lines: [`backend killed (SIGKILL), down ${Math.round(endedAt - killedAt - restartMs)} ms, restarted to /health in ${Math.round(restartMs)} ms`] };
  }, print);
}
