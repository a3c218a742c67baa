import { CardFrame } from './shared';
import type { CardProps } from './types';

/** A tool (or the turn) failed: its code and message, and whether trying again may help. */
export function ErrorCard({ card }: CardProps<'error_card'>) {
  const d = card.data;
  return (
    <CardFrame type="error_card" title="Something went wrong" subtitle={<code className="error-code">{d.code}</code>} tone="bad">
      <p className="chat-card-text" data-testid="error-message">{d.message}</p>
      {d.retryable && <p className="muted chat-card-text" data-testid="error-retry">This is probably temporary: try again in a moment.</p>}
    </CardFrame>
  );
}
