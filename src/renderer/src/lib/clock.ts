/** Backend business time minus this machine's clock; "today" is the backend's today. */
let clockOffsetMs = 0;

export function businessNow(): Date {
  return new Date(Date.now() + clockOffsetMs);
}

/** Sets the offset from the backend's `now` (an ISO instant) as just answered. */
export function setBusinessNow(now: string): void {
  const at = new Date(now).getTime();
  if (Number.isFinite(at)) clockOffsetMs = at - Date.now();
}
