import { addDays, endOfMonth, isIsoDate, localDate, startOfMonth, startOfWeek } from '../../../shared/dates';
import { formatPeriod } from '../lib/format';
import { businessNow } from '../lib/session';

export type Preset = 'today' | 'week' | 'month' | 'last-month' | 'custom';

const PRESETS: Array<{ id: Preset; label: string }> = [
  { id: 'today', label: 'Today' },
  { id: 'week', label: 'This week' },
  { id: 'month', label: 'This month' },
  { id: 'last-month', label: 'Last month' },
  { id: 'custom', label: 'Custom' },
];

export interface Period { preset: Preset; from: string; to: string; error: string | null }

/** The period a page's query asks for (`period`, and `from`/`to` when custom), in the user's timezone. */
export function periodFromQuery(query: Record<string, string>, timeZone: string, fallback: Preset = 'today', now = businessNow()): Period {
  const today = localDate(now, timeZone);
  const asked = query.period as Preset | undefined;
  const preset: Preset = asked && PRESETS.some((p) => p.id === asked) ? asked : (query.from || query.to) ? 'custom' : fallback;
  switch (preset) {
    case 'today': return { preset, from: today, to: today, error: null };
    case 'week': return { preset, from: startOfWeek(today), to: today, error: null };
    case 'month': return { preset, from: startOfMonth(today), to: today, error: null };
    case 'last-month': {
      const last = addDays(startOfMonth(today), -1);
      return { preset, from: startOfMonth(last), to: endOfMonth(last), error: null };
    }
    case 'custom': {
      const from = query.from ?? '';
      const to = query.to ?? '';
      let error: string | null = null;
      if (!isIsoDate(from) || !isIsoDate(to)) error = 'Pick both a start and an end date.';
      else if (from > to) error = 'The start date is after the end date.';
      return { preset, from, to, error };
    }
  }
}

/** Today / this week / this month / last month / custom from–to. Changes go to the URL query. */
export function PeriodPicker({ period, label = 'Period', onChange }: { period: Period; label?: string; onChange(query: { period: Preset; from?: string; to?: string }): void }) {
  return (
    <div className="filters" role="group" aria-label={label} data-testid="period-picker">
      <span className="muted">{label}</span>
      <div className="segmented">
        {PRESETS.map((p) => (
          <button key={p.id} type="button" aria-pressed={period.preset === p.id} data-testid={`period-${p.id}`}
            onClick={() => onChange(p.id === 'custom' ? { period: 'custom', from: period.from, to: period.to } : { period: p.id })}>
            {p.label}
          </button>
        ))}
      </div>
      {period.preset === 'custom' && (
        <>
          <label>From <input type="date" value={period.from} max={period.to || undefined} data-testid="period-from"
            onChange={(e) => onChange({ period: 'custom', from: e.target.value, to: period.to })} /></label>
          <label>To <input type="date" value={period.to} min={period.from || undefined} data-testid="period-to"
            onChange={(e) => onChange({ period: 'custom', from: period.from, to: e.target.value })} /></label>
        </>
      )}
      {!period.error && <span className="period-range" data-testid="period-range">{formatPeriod(period)}</span>}
    </div>
  );
}
