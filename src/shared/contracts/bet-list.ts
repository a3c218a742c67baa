/**
 * The bet list's search and sort bounds (agent.getBetHistory). Plain constants, free of zod, like
 * page-size.ts, so the renderer's Bets page can build its input from them without the contracts.
 */
export const MAX_BET_SEARCH_LENGTH = 80;
export const BET_SORT_KEYS = ['placedAt', 'stake', 'odds', 'player', 'result', 'liability', 'potentialWin'] as const;
export const BET_SORT_DIRECTIONS = ['asc', 'desc'] as const;
export interface BetSort {
  by: (typeof BET_SORT_KEYS)[number];
  dir: (typeof BET_SORT_DIRECTIONS)[number];
}
/** The order without a sort: newest first. */
export const NEWEST_FIRST: BetSort = { by: 'placedAt', dir: 'desc' };
