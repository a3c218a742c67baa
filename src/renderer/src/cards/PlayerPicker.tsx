import { CardFrame, plural } from './shared';
import type { CardProps } from './types';

/** Several players matched a name: one button per candidate; choosing one continues the turn. */
export function PlayerPicker({ card, onPick }: CardProps<'player_picker'>) {
  const { query, players } = card.data;
  return (
    <CardFrame type="player_picker" title="Which player?"
      subtitle={<>{players.length} {plural(players.length, 'match', 'matches')} for “{query}”</>}>
      {players.length === 0 ? <p className="state empty chat-card-text">No player matches.</p> : (
        <ul className="picker" aria-label={`Players matching ${query}`}>
          {players.map((p) => (
            <li key={p.id}>
              <button type="button" className="pick" data-testid={`pick-${p.id}`} disabled={!onPick} onClick={() => onPick?.(p.id)}>
                <span className="pick-name">{p.name}</span>
                <span className="muted pick-meta">@{p.username} · {p.role === 'agent' ? 'sub-agent' : p.role} under {p.agentName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </CardFrame>
  );
}
