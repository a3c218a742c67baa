/**
 * Fault (a): kill -9 the backend during a settlement burst, and start it again on the same port.
 * The kill lands at the worst moment, made so on purpose: the desks reach the backend through a
 * relay that swallows the reply to one settlement — committed, its answer on its way — and the
 * backend dies right then. That desk cannot know the settlement was made; it resends the
 * confirmed call under the proposal's idempotency key until the backend is back, which answers
 * it as a replay, so the settlement is neither lost to the desk nor made twice. The other
 * settlements in flight die with the process (rolled back) and are told so.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type FaultReport, type LoadSize, deskUnderFault } from './desk-under-fault.js';

export const BACKEND_KILL_SIZE: LoadSize & { downMs: number } = {
  agents: ['priya', 'tiger.book'], settlers: 3, settlements: 25, amount: 100, editors: 1, edits: 10, readers: 1, reads: 40, faultAfter: 40, downMs: 2_000,
};

export function backendKill(size = BACKEND_KILL_SIZE, print?: (line: string) => void): Promise<FaultReport> {
  return deskUnderFault('backend-kill', size, async (lab, relay) => {
    await relay!.withholdNextReply(/^POST \/trpc\/settlements\.settle/);
    const killedAt = performance.now();
    await lab.killBackend();
    await sleep(size.downMs);
    const restartMs = await lab.startBackend();
    const endedAt = performance.now();
    return { endedAt, lines: [`backend killed (SIGKILL) as a committed settlement's reply was on its way (the relay swallowed it), down ${Math.round(endedAt - killedAt - restartMs)} ms, restarted to /health in ${Math.round(restartMs)} ms`] };
  }, print, { relay: true });
}
