/** What every tool module shares: who may call it, the phrasing a model is told, the abort signal. */
import type { Role } from '../../shared/contracts/agent-api.js';
import { callOptions } from '../backend/connection.js';
import type { ToolContext } from './types.js';

export const DESK: readonly Role[] = ['agent', 'platform_admin'];
export const AGENT_ONLY: readonly Role[] = ['agent'];

// Shared phrasing, so every tool tells the model the same units and conventions.
export const MONEY = 'All money is integer paisa (1/100 of a point); never convert it yourself.';
export const DATES = "Dates are YYYY-MM-DD calendar days in the user's own timezone, both ends inclusive; give no date for today.";
/**
 * How a tool takes the people and the match it is about. A model is offered each tool in planner form
 * (assistant/claude/tool-catalog.ts, `plannerSchema`; the MCP server's too): an id field of a player,
 * sub-agent or match is a name field, which the policy gate resolves.
 */
export const NAMES = 'Name the player (player), sub-agent (agent) or match (fixture) as the user wrote it, or pass an id from an earlier tool result: '
  + 'the app finds the name in the user\'s own downline and asks the user to pick when it is unclear. Never invent an id.';
/** Markets and outcomes are ids still: the tools that take them say where they come from, naming their own fields. */
export const marketIds = (...fields: ReadonlyArray<'marketId' | 'outcomeId'>): string =>
  `${fields.join(' and ')} ${fields.length > 1 ? 'are ids' : 'is an id'} from a match_searchFixtures result (its markets and their outcomes); never invent one.`;
/** For the reads the backend filters and orders: exact answers come from main, never from a model's arithmetic over a page. */
export const ROWS = 'For "the most", "how many", "over 10k", "top 5": pass where (thresholds; money in paisa), the order and limit, and answer from '
  + 'matched (every row that matched, over all pages) and the totals; never count, add up or rank a page yourself.';

/**
 * A backend call's options: the registry's abort signal, so a timed-out or cancelled call stops its
 * request, and the turn's request id, which the backend logs the call under.
 */
export const opts = (ctx: Pick<ToolContext, 'requestId' | 'signal'>) => callOptions(ctx.requestId, ctx.signal);
