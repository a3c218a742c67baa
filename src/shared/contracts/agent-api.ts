/**
 * The backend's read API: inputs and outputs of every procedure the desk and the assistant call.
 * The server validates with these; the main process builds its tool registry from the same
 * schemas, so the two cannot drift.
 */
import { z } from 'zod';
import { BET_SORT_DIRECTIONS, BET_SORT_KEYS, MAX_BET_SEARCH_LENGTH } from './bet-list.js';
import { PAGE_SIZE_MAX, boundedText, isoDate, moneySchemas, pageSize } from './bounds.js';
import { clockKind } from '../business-clock.js';
import {
  BET_COLUMNS, COMMISSION_COLUMNS, COMMISSION_ORDER_COLUMNS, CREDIT_LIMIT_COLUMNS, CREDIT_LIMIT_ORDER_COLUMNS, PNL_COLUMNS,
  PNL_ORDER_COLUMNS, SETTLEMENT_COLUMNS, SETTLEMENT_ORDER_COLUMNS, TAKE_COLUMNS, TAKE_ORDER_COLUMNS, rowQuery, rowWhere,
} from './row-query.js';

export { isoDate } from './bounds.js';
export { BET_SORT_KEYS, type BetSort, MAX_BET_SEARCH_LENGTH, NEWEST_FIRST } from './bet-list.js';
export * from './row-query.js';

export const MAX_QUERY_LENGTH = 200;

export const id = z.uuid({ message: 'must be an id returned by the API' });
export const paisa = z.number().int().safe().register(moneySchemas, { unit: 'paisa' });
const instant = z.iso.datetime();
/**
 * Opaque cursor: the API hands it out and gets it back unchanged. 256: the longest the API makes
 * (a bet list sorted by player, with a search, about 210) with room to spare.
 */
export const cursor = z.string().max(256).regex(/^[A-Za-z0-9_-]+$/, 'not a cursor this API handed out');
const searchQuery = boundedText(MAX_QUERY_LENGTH).trim().min(1, 'type at least one character');
const dateRange = { from: isoDate.optional(), to: isoDate.optional() };
/**
 * An agent of the caller's downline (the caller's own id reads as if absent): the list keeps that
 * agent's accounts instead of the caller's. An id outside the downline gets the same NOT_FOUND as
 * an unknown one; an account that is not an agent is a BAD_REQUEST.
 */
const underAgentId = { underAgentId: id.optional() };
/** How many rows meet the input's filters, over all pages (a page holds at most `limit` of them). */
const matched = z.number().int().min(0);

export const roleSchema = z.enum(['platform_admin', 'agent', 'player']);
export type Role = z.infer<typeof roleSchema>;

// ── auth ─────────────────────────────────────────────────────────────────────────────────────
/**
 * What a session may do. `desk`: everything the user's role allows, answering approvals and
 * writing included. `requests`: reads, and asking for changes as pending approvals — for a door
 * other than the desk (the MCP server), so that nothing passing through it can confirm a change
 * even if that process were made to try: a confirmation is an act in the desk.
 */
export const SESSION_SCOPES = ['desk', 'requests'] as const;
export const sessionScope = z.enum(SESSION_SCOPES);
export type SessionScope = z.infer<typeof sessionScope>;

export const loginInput = z.strictObject({
  username: boundedText(64).trim().min(1),
  password: boundedText(256).min(1),
  scope: sessionScope.optional(),
});
export const userSchema = z.object({
  id, username: z.string(), name: z.string(), role: roleSchema, timezone: z.string(),
});
export type User = z.infer<typeof userSchema>;
export const loginOutput = z.object({ token: z.string(), expiresAt: instant, user: userSchema });
/** `clock`: which clock `now` is on (a demo book's own, a set one, or the wall clock): the page says so. */
export const meOutput = userSchema.extend({ now: instant, clock: clockKind });
/** The signed-in user's password again, before a large change is confirmed (step-up); counted by the sign-in throttle. */
export const verifyPasswordInput = z.strictObject({ password: loginInput.shape.password });
export const verifyPasswordOutput = z.object({ ok: z.literal(true) });

// ── agent.searchPlayers ──────────────────────────────────────────────────────────────────────
export const searchPlayersInput = z.strictObject({ query: searchQuery, limit: pageSize(PAGE_SIZE_MAX.shortList, 10) });
export const playerRef = z.object({
  id, name: z.string(), username: z.string(), role: roleSchema,
  agentId: id, agentName: z.string(),
  /** How the query matched: the whole name, the starts of its words, or only by likeness. */
  match: z.enum(['exact', 'prefix', 'fuzzy']),
});
export type PlayerRef = z.infer<typeof playerRef>;
export const searchPlayersOutput = z.object({ players: z.array(playerRef) });

// ── agent.getDownline ────────────────────────────────────────────────────────────────────────
export interface DownlineNode {
  id: string; name: string; username: string; role: Role; shareBps: number | null; commissionBps: number | null;
  creditLimit: number; take: number; available: number; childCount: number; children: DownlineNode[];
}
export const downlineNode: z.ZodType<DownlineNode> = z.lazy(() => z.object({
  id, name: z.string(), username: z.string(), role: roleSchema,
  shareBps: z.number().int().nullable(), commissionBps: z.number().int().nullable(),
  creditLimit: paisa, take: paisa, available: paisa, childCount: z.number().int(),
  children: z.array(downlineNode),
}));
/** The most levels below the caller one downline read shows. */
export const MAX_DOWNLINE_DEPTH = 10;
export const getDownlineInput = z.strictObject({ depth: z.number().int().min(1).max(MAX_DOWNLINE_DEPTH).default(2) });
export const getDownlineOutput = z.object({ tree: z.array(downlineNode), truncated: z.boolean() });

// ── agent.getTake / agent.getCreditLimit ─────────────────────────────────────────────────────
const pageInput = { limit: pageSize(PAGE_SIZE_MAX.rows, 200), cursor: cursor.optional() };
export const takeDirection = z.enum(['owes_you', 'you_owe', 'square']);
export type TakeDirection = z.infer<typeof takeDirection>;
export const takeRow = z.object({
  accountId: id, name: z.string(), role: roleSchema, take: paisa, creditLimit: paisa, available: paisa,
  direction: takeDirection,
});
/**
 * Filters of the take and credit-limit lists, all applied in SQL before paging: `where` (see
 * row-query.ts), `direction` (owes_you: take > 0, you_owe: take < 0, square: take = 0), `role`,
 * `underAgentId` (that agent's direct accounts instead of the caller's). `orderBy` absent: by name.
 */
const accountListFilters = {
  direction: takeDirection.optional(), role: z.enum(['agent', 'player']).optional(), ...underAgentId,
};
export const getTakeInput = z.strictObject({
  playerId: id.optional(), ...pageInput, ...rowQuery(TAKE_COLUMNS, TAKE_ORDER_COLUMNS), ...accountListFilters,
});
export const getTakeOutput = z.object({
  rows: z.array(takeRow),
  /** Over every matched row, not only this page; with no filter, the whole direct downline. */
  totals: z.object({ take: paisa, cl: paisa, available: paisa }),
  matched,
  nextCursor: z.string().nullable(),
});

export const creditRow = z.object({
  accountId: id, name: z.string(), role: roleSchema, creditLimit: paisa,
  perClickWin: paisa.nullable(), aggregateDailyWin: paisa.nullable(), minStake: paisa.nullable(),
  take: paisa, available: paisa,
  /** The agent's own notes on the account: free text, shown as text, never followed. */
  notes: z.string().nullable(),
});
export const getCreditLimitInput = z.strictObject({
  playerId: id.optional(), ...pageInput, ...rowQuery(CREDIT_LIMIT_COLUMNS, CREDIT_LIMIT_ORDER_COLUMNS), ...accountListFilters,
});
export const getCreditLimitOutput = z.object({ rows: z.array(creditRow), matched, nextCursor: z.string().nullable() });
export type GetCreditLimitOutput = z.infer<typeof getCreditLimitOutput>;

// ── agent.getLiveExposure ────────────────────────────────────────────────────────────────────
export const exposureOutcome = z.object({ outcomeId: id, name: z.string(), position: paisa, positionAtShare: paisa });
export const exposureScope = z.object({
  fixtureId: id, fixtureName: z.string(), marketId: id, marketName: z.string(), openBets: z.number().int(),
  outcomes: z.array(exposureOutcome), exposure: paisa, exposureAtShare: paisa,
});
export const getLiveExposureInput = z.strictObject({ fixtureId: id.optional(), marketId: id.optional() });
export const getLiveExposureOutput = z.object({
  scopes: z.array(exposureScope),
  fixtures: z.array(z.object({ fixtureId: id, fixtureName: z.string(), exposure: paisa, exposureAtShare: paisa })),
  total: z.object({ exposure: paisa, exposureAtShare: paisa }),
});

// ── agent.getPnL ─────────────────────────────────────────────────────────────────────────────
export const periodSchema = z.object({ from: isoDate, to: isoDate, timezone: z.string() });
export const pnlRow = z.object({
  playerId: id, name: z.string(), agentName: z.string(), bets: z.number().int(),
  /** The player's result on bets (positive: the player won). */
  pnl: paisa,
  commission: paisa,
  /** What the book made from this player: −pnl + commission. */
  bookResult: paisa,
});
export type PnlRow = z.infer<typeof pnlRow>;
/**
 * `underAgentId`: the players anywhere under that agent. `orderBy` absent: the largest book
 * result either way first (|bookResult| descending).
 */
export const getPnLInput = z.strictObject({
  ...dateRange, playerId: id.optional(), fixtureId: id.optional(), marketId: id.optional(), ...pageInput,
  ...rowQuery(PNL_COLUMNS, PNL_ORDER_COLUMNS), ...underAgentId,
});
export const getPnLOutput = z.object({
  period: periodSchema,
  rows: z.array(pnlRow),
  /**
   * Sums over every matched row (all pages): with no `where`, every player with a result in the
   * period, as without filters; with one, only the rows it kept.
   */
  total: z.object({
    bets: z.number().int(), pnl: paisa, commission: paisa, bookResult: paisa,
    /**
     * The caller's own kept result (its share) over the whole downline, or null when a filter
     * (`playerId`, `underAgentId`, `where`) makes the rows a part of it that the share cannot be split by.
     */
    yourShare: paisa.nullable(),
  }),
  matched,
  nextCursor: z.string().nullable(),
});

// ── agent.getCommission ──────────────────────────────────────────────────────────────────────
export const commissionRow = z.object({
  playerId: id, name: z.string(), agentName: z.string(), commissionBps: z.number().int(),
  markets: z.number().int(), commission: paisa,
});
export type CommissionRow = z.infer<typeof commissionRow>;
/** `underAgentId`: the players anywhere under that agent. `orderBy` absent: the most commission first. */
export const getCommissionInput = z.strictObject({
  ...dateRange, playerId: id.optional(), ...pageInput, ...rowQuery(COMMISSION_COLUMNS, COMMISSION_ORDER_COLUMNS), ...underAgentId,
});
export const getCommissionOutput = z.object({
  period: periodSchema, rows: z.array(commissionRow),
  /** Commission of every matched row (all pages): with no `where`, of every player in the period. */
  total: paisa,
  matched,
  nextCursor: z.string().nullable(),
});

// ── agent.getSettlementHistory ───────────────────────────────────────────────────────────────
export const settlementRow = z.object({
  id, childId: id, childName: z.string(), parentId: id, parentName: z.string(),
  /** Positive: the child paid the parent; negative: the parent paid the child. */
  amount: paisa, takeBefore: paisa, takeAfter: paisa, mode: z.enum(['auto', 'amount']),
  periodId: z.string().nullable(), createdAt: instant, createdByName: z.string(),
});
export type SettlementRow = z.infer<typeof settlementRow>;
/** `where` on the signed `amount` (positive: the child paid). `orderBy` absent: newest first; ties by id. */
export const getSettlementHistoryInput = z.strictObject({
  counterpartyId: id.optional(), ...dateRange, limit: pageSize(PAGE_SIZE_MAX.settlements, 50), cursor: cursor.optional(),
  ...rowQuery(SETTLEMENT_COLUMNS, SETTLEMENT_ORDER_COLUMNS),
});
export const getSettlementHistoryOutput = z.object({ rows: z.array(settlementRow), matched, nextCursor: z.string().nullable() });

// ── agent.getStatement ───────────────────────────────────────────────────────────────────────
/**
 * What a statement line records: the ledger's kinds (a bet's result, commission on a winning
 * market, a sub-agent's share passed up, a settlement, an adjustment) and a change of the
 * account's credit limit (from the audit of changes: it moves no money).
 */
export const STATEMENT_KINDS = ['bet_result', 'commission', 'share', 'settlement', 'adjustment', 'credit_limit'] as const;
export const statementKind = z.enum(STATEMENT_KINDS);
export type StatementKind = z.infer<typeof statementKind>;
/** Each kind of line as the statement names it: the page's filter, its table and an export alike. */
export const STATEMENT_KIND_LABELS: Record<StatementKind, string> = {
  bet_result: 'Bet result', commission: 'Commission', share: 'Share passed up', settlement: 'Settlement',
  adjustment: 'Adjustment', credit_limit: 'Credit limit',
};
export const statementLine = z.object({
  /** Unique within the statement (a ledger posting or an audit record). */
  id: z.string(),
  /** When it was recorded (UTC; shown in the user's timezone). */
  at: instant,
  kind: statementKind,
  /** The other account of the pair: the account's upline, whose book the line is in. */
  counterpartyId: id, counterpartyName: z.string(),
  /** Who made it: the user who settled or changed the limit; null for what a market's settlement posted. */
  madeById: id.nullable(), madeByName: z.string().nullable(),
  /** Signed as take: positive, the account owes its upline that much more; null on a credit-limit line. */
  amount: paisa.nullable(),
  /** The take after this line: what the account owes its upline (negative: the upline owes it). */
  balanceAfter: paisa,
  marketId: id.nullable(), marketName: z.string().nullable(), fixtureName: z.string().nullable(),
  betId: id.nullable(), outcomeName: z.string().nullable(), side: z.enum(['back', 'lay']).nullable(),
  settlementId: id.nullable(), periodId: z.string().nullable(),
  /** A credit-limit line's limit before and after the change. */
  creditLimitBefore: paisa.nullable(), creditLimitAfter: paisa.nullable(),
});
export type StatementLine = z.infer<typeof statementLine>;
/**
 * One account of the downline (a player or a sub-agent) against its upline, newest line first.
 * `kinds` keeps only those lines; `from`/`to` are days in the caller's timezone. Balances are of
 * every line whatever the filters, so a filtered page still shows the true running take.
 */
export const getStatementInput = z.strictObject({
  accountId: id, ...dateRange, kinds: z.array(statementKind).min(1).max(STATEMENT_KINDS.length).optional(),
  limit: pageSize(PAGE_SIZE_MAX.statement, 50), cursor: cursor.optional(),
});
export const getStatementOutput = z.object({
  account: z.object({
    id, name: z.string(), role: roleSchema, parentId: id, parentName: z.string(), creditLimit: paisa,
    /** The take now: the balance after the newest line. */
    take: paisa,
  }),
  /** The period asked for, in the caller's days; null without dates. */
  period: periodSchema.nullable(),
  /** The take before the period's first day (0 without a start), and at the end of its last day (the take now without an end). */
  openingBalance: paisa, closingBalance: paisa,
  lines: z.array(statementLine),
  matched,
  /** Σ amount of every matched line (all pages): without `kinds`, closingBalance − openingBalance. */
  net: paisa,
  nextCursor: z.string().nullable(),
});

// ── agent.getBetHistory ──────────────────────────────────────────────────────────────────────
export const betStatus = z.enum(['open', 'settled', 'void']);
export const betRow = z.object({
  id, playerId: id, playerName: z.string(), fixtureId: id, fixtureName: z.string(), marketId: id,
  marketName: z.string(), outcomeId: id, outcomeName: z.string(), side: z.enum(['back', 'lay']),
  stake: paisa, odds: z.number().int(), status: betStatus, placedAt: instant, settledAt: instant.nullable(),
  result: paisa.nullable(), liability: paisa, potentialWin: paisa,
});
/**
 * The bet list's order. Ties go by placement time, then id, in the same direction; bets with no
 * result yet (open ones) come after every settled result whichever way `result` sorts. Absent:
 * newest first.
 */
export const betSort = z.strictObject({ by: z.enum(BET_SORT_KEYS), dir: z.enum(BET_SORT_DIRECTIONS) });
/** What bets may be added up by: their match, their player, the day they were placed (in the caller's timezone). */
export const BET_GROUPS = ['fixture', 'player', 'day'] as const;
export const getBetHistoryInput = z.strictObject({
  playerId: id.optional(), fixtureId: id.optional(), status: z.array(betStatus).min(1).max(3).optional(),
  ...dateRange, limit: pageSize(PAGE_SIZE_MAX.bets, 50), cursor: cursor.optional(),
  /** Part of the player's, fixture's, market's or outcome's name, any case; `%` and `_` are plain characters. */
  search: boundedText(MAX_BET_SEARCH_LENGTH).trim().min(1, 'type at least one character').optional(),
  sort: betSort.optional(),
  /** Conditions on the bet's own figures, as the row shows them (liability and potential win as computed for the row). */
  where: rowWhere(BET_COLUMNS),
  side: z.enum(['back', 'lay']).optional(),
  /** The bets of the players anywhere under that agent. */
  ...underAgentId,
  /** Also add every bet the filters keep (all pages) up by this, into `groups`. */
  groupBy: z.enum(BET_GROUPS).optional(),
});
export const getBetHistoryOutput = z.object({
  bets: z.array(betRow),
  /** With `groupBy`: every kept bet counted and its stake summed per group; `key` is the id, or the day as YYYY-MM-DD. */
  groups: z.array(z.object({ key: z.string(), name: z.string(), count: z.number().int(), stake: paisa })).optional(),
  /** Over every bet the filters keep (all pages), the search and `where` included, as the listing's first page found them. */
  summary: z.object({ count: z.number().int(), stake: paisa, openLiability: paisa, settledResult: paisa }),
  nextCursor: z.string().nullable(),
});

// ── agent.getUpline ──────────────────────────────────────────────────────────────────────────
export const getUplineInput = z.strictObject({});
export const getUplineOutput = z.object({
  uplineName: z.string(), cl: paisa, owed: paisa, takeNet: paisa, available: paisa,
});

// ── agent.getTopMarkets ──────────────────────────────────────────────────────────────────────
export const getTopMarketsInput = z.strictObject({
  period: z.enum(['today', 'week', 'month']), metric: z.enum(['pnl', 'volume', 'exposure']), limit: pageSize(PAGE_SIZE_MAX.shortList, 10),
});
export const topMarketRow = z.object({
  marketId: id, marketName: z.string(), fixtureId: id, fixtureName: z.string(), value: paisa, bets: z.number().int(),
});
export const getTopMarketsOutput = z.object({ period: periodSchema, rows: z.array(topMarketRow) });

// ── match.searchFixtures ─────────────────────────────────────────────────────────────────────
export const searchFixturesInput = z.strictObject({ query: searchQuery, limit: pageSize(PAGE_SIZE_MAX.shortList, 10) });
export const fixtureRef = z.object({
  id, name: z.string(), sport: z.string(), startsAt: instant, status: z.enum(['scheduled', 'live', 'finished']),
  markets: z.array(z.object({
    id, name: z.string(), status: z.enum(['open', 'suspended', 'settled', 'void']),
    /** aliases: the short names of the team an outcome is ("Novak" for Djokovic, "Kiwis" for New Zealand). */
    outcomes: z.array(z.object({ id, name: z.string(), aliases: z.array(z.string()).optional() })),
  })),
});
export type FixtureRef = z.infer<typeof fixtureRef>;
export const searchFixturesOutput = z.object({ fixtures: z.array(fixtureRef) });
