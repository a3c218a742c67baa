import type { Role } from '../../../shared/contracts/agent-api.js';
import type { Decision } from '../../../shared/contracts/assistant.js';
import type { PageContext } from '../../../shared/contracts/chat.js';
import type { IsoDate } from '../../../shared/dates.js';
import type { Reading } from './grammar.js';
import type { Slots } from './slots.js';

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
  /** The report the conversation last made (its artifact id and title), for "send it to Arjun", "share it with me". */
  lastArtifact?: KnownEntity | null;
  /** The user's previous message, as typed: "haan ok kar do" agrees to the change it asked about. */
  lastText?: string | null;
}

export const EMPTY_CONTEXT: ConversationContext = { lastCalls: null, lastIntent: null, lastPlayer: null, lastFixture: null, lastArtifact: null };

export interface PlannerInput {
  requestId: string;
  text: string;
  page: PageContext;
  /** Today in the user's timezone: every date phrase is relative to it. */
  today: IsoDate;
  role: Role;
  context: ConversationContext;
  /** A later clause of the same message ("… and sneha ka 30k"): it leans on the clause before it, whatever its length. */
  continuesClause?: boolean;
  /** The player an earlier clause of the same message named: "R Verma: per click win 5k, min stake 100" is his min stake too. */
  clausePlayer?: string;
  /**
   * The user's reply to the desk's question about the last request ("50k" after "What amount?",
   * "daily win" after "Which limit…?", "Rahul Verma, 15k" after "Which Rahul?"): that request is
   * planned again with the slots the reply fills, the reply's values before its own.
   */
  answer?: Reading;
}

/** Any planner (rules, or a model later) returns the decision contract; the runtime validates it. */
export interface Planner {
  readonly name: string;
  plan(input: PlannerInput): Decision | Promise<Decision>;
}

type ClarifyReason = NonNullable<Decision['clarify']>['reason'];

/** A filler's answer: the tool's arguments in planner form, or the one detail it must ask for. */
export type Filled = {
  args: Record<string, unknown>;
  /** The same request's other calls of this tool: "pnl report in excel and pdf" is two reports. */
  more?: ReadonlyArray<Record<string, unknown>>;
} | { clarify: { reason: ClarifyReason; question: string } };

/**
 * How the rule planner recognises a request for one tool (docs/intent-map.md lists them all):
 * an intent group with its triggers and precedence, how it fills the tool's arguments, and what
 * a follow-up ("and for Rahul?", "now?", "last week") may change in a plan that used it.
 */
export interface ToolPlanning {
  /** The intent's id ("pnl"), as logged and as docs/intent-map.md names it. */
  id: string;
  /** Lower runs first; an exclusive intent that matches is the whole plan. */
  precedence: number;
  exclusive: boolean;
  /** The words its triggers read: never taken for part of a player's or a fixture's name. */
  vocabulary: readonly string[];
  triggers(r: Reading): boolean;
  fill(s: Slots): Filled;
  /** Answers with current state: a freshness follow-up ("now", "latest") runs it again. */
  refreshes?: boolean;
  /**
   * What a follow-up may put in: another player, another fixture, a bet status, another ranking
   * metric ("and by pnl?"), a row count ("top 3 of those"; the most rows the tool gives).
   */
  follows?: {
    player?: boolean; fixture?: boolean; status?: boolean; metric?: boolean; count?: number;
    /** Arguments of the tool's own a follow-up may change ("badi stake pehle": the bets' order), or null. */
    refine?: (r: Reading) => Record<string, unknown> | null;
  };
  /**
   * The page of the desk that shows this read's figures ("/agent/exposure", or "/agent/players" for
   * a player's own page): "how bad is it here?" asked there is this read, for that page's match or player.
   */
  shownOn?: string;
  /** How a follow-up's date range enters its arguments: from/to, a ranking period, report filters. */
  range?: 'dates' | 'period' | 'filters';
  /** A write's amount argument: "change it to 30k" after a proposal puts the new amount there. */
  amount?: { arg: string; with?: Record<string, unknown> };
  /**
   * A write that "it" may ask for right after a read of one player: "raise it to 60k" after that
   * player's credit limit is this change, with these arguments and the new amount.
   */
  afterRead?: { intent: string; args: (asked: Reading) => Record<string, unknown> };
  /** Planned only when no other intent matches: "find Rahul" searches, "find Rahul's PnL" does not. */
  fallback?: boolean;
  /**
   * A write tool's read twin: the intent that answers the same words asked as a question ("has
   * Rahul paid?" is settlement history, not a settlement). Without one, a question gets a clarify.
   */
  asQuestion?: string;
  /** When the words decide between twins ("did X pay?" and "is X all clear?" ask different things): the twin for this reading. */
  asQuestionFor?: (r: Reading) => string;
  /**
   * A write that a statement may be asking for: "Sneha paid 15k cash" tells of a payment so that it
   * gets booked. Only an order proposes a write: the desk shows what is booked (the settlements) and
   * "yes, record it" then orders it.
   */
  toldAsOrder?: (r: Reading) => boolean;
  /**
   * False: no class of the intent classifier (classifier.ts). For an intent whose requests always
   * say its own word, which the trigger reads: a class would only be consulted when that word is
   * missing, and would retrain the model every other intent's untriggered wordings are read by.
   */
  classified?: boolean;
  /** Requests that must plan to this tool (checked by tests/main/assistant/planner/rule-planner.test.ts). */
  examples: readonly string[];
}
