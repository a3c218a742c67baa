import type { Card } from '../../../shared/contracts/assistant.js';

/** Each limit a diff card can change, as the desk names it (the card's title, the Audit page's sentence). */
export const LIMIT_FIELDS: Record<Extract<Card, { type: 'diff_card' }>['data']['field'], string> = {
  creditLimit: 'Credit limit',
  perClickWin: 'Per-click win limit',
  aggregateDailyWin: 'Aggregate daily win limit',
  minStake: 'Minimum stake',
};
