/** What every tool module shares: who may call it, the phrasing a model is told, the abort signal. */
import type { Role } from '../../shared/contracts/agent-api.js';
import { callOptions } from '../backend/connection.js';
import type { ToolContext } from './types.js';

export const DESK: readonly Role[] = ['agent', 'platform_admin'];
export const AGENT_ONLY: readonly Role[] = ['agent'];

// Shared phrasing, so every tool tells the model the same units and conventions.
export const MONEY = 'All money is integer paisa (1/100 of a point); never convert it yourself.';
export const DATES = "Dates are YYYY-MM-DD calendar days in the user's own timezone, both ends inclusive; give no date for today.";
export const IDS = 'Ids must come from an earlier tool result (agent.searchPlayers, match.searchFixtures); never invent one.';
/** For the reads the backend filters and orders: exact answers come from main, never from a model's arithmetic over a page. */
export const ROWS = 'For "the most", "how many", "over 10k", "top 5": pass where (thresholds; money in paisa), the order and limit, and answer from '
  + 'matched (every row that matched, over all pages) and the totals; never count, add up or rank a page yourself.';

/**
 * A backend call's options: the registry's abort signal, so a timed-out or cancelled call stops its
 * request, and the turn's request id, which the backend logs the call under.
 */
export const opts = (ctx: Pick<ToolContext, 'requestId' | 'signal'>) => callOptions(ctx.requestId, ctx.signal);
