import type { Role } from '../../../shared/contracts/agent-api.js';
import type { Decision } from '../../../shared/contracts/assistant.js';
import type { PageContext } from '../../../shared/contracts/chat.js';
import type { IsoDate } from '../../../shared/dates.js';

/**
 * A planned call in planner form. Entities are named, not numbered: `player`, `fixture`,
 * `market` and `outcome` hold either a name as the user typed it, or an id the app itself
 * supplied (the page, or an entity an earlier turn resolved). The policy gate turns names into
 * ids through the search tools and moves each id to where the tool takes it.
 */
export interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
}

export interface KnownEntity {
  id: string;
  name: string;
}

/** What a planner may know of the conversation so far: never user ids, never raw tool output. */
export interface ConversationContext {
  /** The last plan that ran, in planner form, so a follow-up can reuse it with one slot changed. */
  lastCalls: PlannedCall[] | null;
  lastIntent: string | null;
  /** Entities the conversation last resolved, for "him", "her", "that match". */
  lastPlayer: KnownEntity | null;
  lastFixture: KnownEntity | null;
}

export const EMPTY_CONTEXT: ConversationContext = { lastCalls: null, lastIntent: null, lastPlayer: null, lastFixture: null };

export interface PlannerInput {
  requestId: string;
  text: string;
  page: PageContext;
  /** Today in the user's timezone: every date phrase is relative to it. */
  today: IsoDate;
  role: Role;
  context: ConversationContext;
}

/** Any planner (rules, or a model later) returns the decision contract; the runtime validates it. */
export interface Planner {
  readonly name: string;
  plan(input: PlannerInput): Decision | Promise<Decision>;
}
