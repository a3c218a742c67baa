import { formatDateTime } from '../lib/format';
import { CardFrame, plural, useMe } from './shared';
import type { CardProps } from './types';

const STATUS = { scheduled: 'scheduled', live: 'live now', finished: 'finished' } as const;

/** Several fixtures matched: one button per candidate with its start time and status. */
export function FixturePicker({ card, onPick }: CardProps<'fixture_picker'>) {
  const { query, fixtures } = card.data;
  const me = useMe();
  return (
    <CardFrame type="fixture_picker" title="Which match?"
      subtitle={<>{fixtures.length} {plural(fixtures.length, 'match', 'matches')} for “{query}”</>}>
      {fixtures.length === 0 ? <p className="state empty chat-card-text">No match found.</p> : (
        <ul className="picker" aria-label={`Matches for ${query}`}>
          {fixtures.map((f) => (
            <li key={f.id}>
              <button type="button" className="pick" data-testid={`pick-${f.id}`} disabled={!onPick} onClick={() => onPick?.(f.id)}>
                <span className="pick-name">{f.name}</span>
                <span className="muted pick-meta">
                  {f.sport} · {f.status === 'scheduled' ? 'starts' : 'started'} {formatDateTime(f.startsAt, me.timezone)}
                  {' '}<span className={`badge fixture-${f.status}`}>{STATUS[f.status]}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </CardFrame>
  );
}
