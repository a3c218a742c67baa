import { create } from 'zustand';
import { BusinessClock, type ClockKind } from '../../../shared/business-clock';

/** The backend's business clock as last read: the page's one "now" ("today", expiries, the demo clock's indicator). */
const clock = new BusinessClock();

/** Which clock the backend runs on, as last read: the shell says so when it is not the wall clock. */
export const useClockKind = create<{ kind: ClockKind }>(() => ({ kind: 'real' }));

export function businessNow(): Date {
  return clock.now();
}

/** Takes the backend's `now` (an ISO instant) as just answered, and which clock it is. */
export function setBusinessNow(now: string, kind?: ClockKind): void {
  clock.read(now, kind);
  if (kind && useClockKind.getState().kind !== kind) useClockKind.setState({ kind });
}
