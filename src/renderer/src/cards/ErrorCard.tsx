import { plainOr } from '../lib/errors';
import { CardFrame } from './shared';
import type { CardProps } from './types';

/** The kind of failure in words; the code itself (machinery) stays in a data attribute. */
const KINDS: Record<string, string> = {
  UNAVAILABLE: 'backend unreachable', TIMEOUT: 'no answer in time', RATE_LIMITED: 'too many questions', FORBIDDEN: 'not allowed',
  NOT_FOUND: 'not found', INVALID_ARGS: 'not understood', CONFIRMATION_REQUIRED: 'needs your confirmation', INTERNAL: 'our fault',
};

/**
 * A tool (or the turn) failed: its code and message, and whether trying again may help. The
 * message arrives as data, from main or relayed from the backend: shown only when it is plain words.
 */
export function ErrorCard({ card }: CardProps<'error_card'>) {
  const d = card.data;
  return (
    <CardFrame type="error_card" title="Something went wrong" subtitle={KINDS[d.code]} tone="bad">
      <p className="chat-card-text" data-testid="error-message" data-code={d.code}>{plainOr(d.message, 'The lookup failed.')}</p>
      {d.retryable && <p className="muted chat-card-text" data-testid="error-retry">This is probably temporary: try again in a moment.</p>}
    </CardFrame>
  );
}
