import type { ReactNode } from 'react';

export function Tile({ label, value, note, testId, tone }: {
  label: string; value: ReactNode; note?: ReactNode | undefined; testId: string; tone?: string | undefined;
}) {
  return (
    <div className="tile" data-testid={testId}>
      <span className="tile-label">{label}</span>
      <span className={`tile-value ${tone ?? ''}`}>{value}</span>
      {note && <span className="tile-note">{note}</span>}
    </div>
  );
}
