import { useEffect, useState } from 'react';
import { businessNow, useClockKind } from '../lib/clock';
import { formatInstant } from '../lib/format';

/** How often the indicator moves on: it shows minutes. */
const TICK_MS = 20_000;

/**
 * Which clock the desk runs on, when it is not the wall clock: a demo book keeps its own time
 * (days away from today's), and every time the desk shows is on it, so the shell says so.
 */
export function DemoClock({ timeZone }: { timeZone: string }) {
  const kind = useClockKind((s) => s.kind);
  const [now, setNow] = useState(businessNow);
  useEffect(() => {
    if (kind === 'real') return;
    setNow(businessNow());
    const tick = setInterval(() => setNow(businessNow()), TICK_MS);
    return () => clearInterval(tick);
  }, [kind]);
  if (kind === 'real') return null;
  const at = formatInstant(now, timeZone);
  return (
    <p className="demo-clock" data-testid="demo-clock" data-kind={kind}
      title="Every time the desk shows and records is on this clock, not this computer's.">
      {kind === 'book' ? `Demo book — clock at ${at}` : `Clock set — at ${at}`}
    </p>
  );
}
