/**
 * Every tool the assistant may plan (seed 000's catalog plus the existing match search), as data:
 * what it answers, its schemas, who may call it and how its result shows. Handlers live apart in
 * implementations.ts, so a planned-but-unbuilt tool can still be offered, gated and refused.
 */
import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import * as api from '../../shared/contracts/agent-api.js';
import type { Role } from '../../shared/contracts/agent-api.js';
import type { ToolDefinition, ToolImplementation } from './types.js';

const DESK: readonly Role[] = ['agent', 'platform_admin'];
const AGENT_ONLY: readonly Role[] = ['agent'];

// Shared phrasing, so every tool tells the model the same units and conventions.
const MONEY = 'All money is integer paisa (1/100 of a point); never convert it yourself.';
const DATES = "Dates are YYYY-MM-DD calendar days in the user's own timezone, both ends inclusive; give no date for today.";
const IDS = 'Ids must come from an earlier tool result (agent.searchPlayers, match.searchFixtures); never invent one.';

/** Keeps a definition's schema types, so its implementation is checked against them. */
const define = <I extends z.ZodType, O extends z.ZodType>(def: ToolDefinition<I, O>): ToolDefinition<I, O> => def;

export const TOOLS = {
  'agent.searchPlayers': define({
    name: 'agent.searchPlayers',
    description: 'Finds players and sub-agents in the user\'s own downline by name (partial, misspelt or unaccented is fine). '
      + 'Use it first whenever the user names a person, to get their id for the other tools. Each match says whether it was '
      + "exact, a prefix or fuzzy; when several match, ask the user to pick rather than guessing.",
    input: api.searchPlayersInput, output: api.searchPlayersOutput,
    allowedRoles: DESK, isDestructive: false, card: 'player_picker', live: false, entities: {},
  }),
  'match.searchFixtures': define({
    name: 'match.searchFixtures',
    description: 'Finds fixtures (matches) by team names or short codes ("India vs Australia", "IND v AUS", "MI vs CSK"), '
      + 'with their markets and outcomes and those ids. Use it to turn a match, market or outcome the user names into ids '
      + 'for the exposure, P&L, bet and hedge tools; when several match, ask the user to pick.',
    input: api.searchFixturesInput, output: api.searchFixturesOutput,
    allowedRoles: DESK, isDestructive: false, card: 'fixture_picker', live: false, entities: {},
  }),
  'agent.getDownline': define({
    name: 'agent.getDownline',
    description: 'The user\'s downline as a tree: sub-agents and players with their share, commission rate, credit limit '
      + `(CL), take and available credit, to the given depth (default 2). Use it for "my players", "my sub-agents", "downline". ${MONEY}`,
    input: api.getDownlineInput, output: api.getDownlineOutput,
    allowedRoles: DESK, isDestructive: false, card: 'downline_tree', live: true, entities: {},
  }),
  'agent.getTake': define({
    name: 'agent.getTake',
    description: 'Take: what each direct downline account currently owes the user or is owed (direction owes_you / you_owe / '
      + 'square), with credit limit and available credit (CL − take), and totals. Use it for "who owes me", "balance", '
      + `"how much does X owe"; pass playerId for one account. ${MONEY} ${IDS}`,
    input: api.getTakeInput, output: api.getTakeOutput,
    allowedRoles: DESK, isDestructive: false, card: 'take_table', live: true, entities: { player: 'playerId' },
  }),
  'agent.getUpline': define({
    name: 'agent.getUpline',
    description: 'The user\'s own position with their upline agent: their credit limit, what they owe the upline, the net '
      + `of their downline's take against it, and available credit. Use it for "my balance", "my CL", "what do I owe". ${MONEY}`,
    input: api.getUplineInput, output: api.getUplineOutput,
    allowedRoles: AGENT_ONLY, isDestructive: false, card: 'balance_card', live: true, entities: {},
  }),
  'agent.getCreditLimit': define({
    name: 'agent.getCreditLimit',
    description: 'Credit limits of the downline: credit limit, per-click win limit, aggregate daily win limit and minimum '
      + `stake (null: not set), with take and available credit. Use it for "CL", "limits"; pass playerId for one account. ${MONEY} ${IDS}`,
    input: api.getCreditLimitInput, output: api.getCreditLimitOutput,
    allowedRoles: DESK, isDestructive: false, card: 'take_table', live: true, entities: { player: 'playerId' },
  }),
  'agent.getLiveExposure': define({
    name: 'agent.getLiveExposure',
    description: 'Live exposure (liability, risk, book) on open bets: per market the position on each outcome, gross and at '
      + 'the user\'s share, the worst case per market and per fixture, and the total. Narrow it with fixtureId or marketId. '
      + `${MONEY} ${IDS}`,
    input: api.getLiveExposureInput, output: api.getLiveExposureOutput,
    allowedRoles: DESK, isDestructive: false, card: 'exposure_card', live: true, entities: { fixture: 'fixtureId', market: 'marketId' },
  }),
  'agent.getPnL': define({
    name: 'agent.getPnL',
    description: 'Profit and loss on settled bets over a period, per player: the player\'s result (positive: the player won), '
      + 'commission, and the book\'s result, with totals and the user\'s own share. Filter by playerId, fixtureId or marketId. '
      + `${DATES} ${MONEY} ${IDS}`,
    input: api.getPnLInput, output: api.getPnLOutput,
    allowedRoles: DESK, isDestructive: false, card: 'pnl_table', live: false,
    entities: { player: 'playerId', fixture: 'fixtureId', market: 'marketId' },
  }),
  'agent.getCommission': define({
    name: 'agent.getCommission',
    description: 'Commission earned from players over a period: each player\'s rate (basis points), the markets it was charged '
      + `on and the amount, with the total. Pass playerId for one player. ${DATES} ${MONEY} ${IDS}`,
    input: api.getCommissionInput, output: api.getCommissionOutput,
    allowedRoles: DESK, isDestructive: false, card: 'commission_table', live: false, entities: { player: 'playerId' },
  }),
  'agent.getSettlementHistory': define({
    name: 'agent.getSettlementHistory',
    description: 'Past settlements (cash squared up) between the user\'s accounts: who paid whom (positive amount: the child '
      + `paid the parent), take before and after, mode and when. Pass counterpartyId for one account. ${DATES} ${MONEY} ${IDS}`,
    input: api.getSettlementHistoryInput, output: api.getSettlementHistoryOutput,
    allowedRoles: DESK, isDestructive: false, card: 'settlement_table', live: false, entities: { player: 'counterpartyId' },
  }),
  'agent.getBetHistory': define({
    name: 'agent.getBetHistory',
    description: 'Bets placed by the downline, newest first: player, fixture, market, outcome, back/lay, stake, odds '
      + '(decimal odds ×100: 250 is 2.50), status (open, settled, void), result, liability, with a summary. Filter by playerId, fixtureId, '
      + `status and dates. ${DATES} ${MONEY} ${IDS}`,
    input: api.getBetHistoryInput, output: api.getBetHistoryOutput,
    allowedRoles: DESK, isDestructive: false, card: 'bet_table', live: true, entities: { player: 'playerId', fixture: 'fixtureId' },
  }),
  'agent.getTopMarkets': define({
    name: 'agent.getTopMarkets',
    description: 'Markets ranked by a metric, highest first: pnl (the user\'s own kept result) or volume (stake placed) over '
      + 'today, this week or this month, or exposure (open liability now; the period does not narrow it). Use it for '
      + `"biggest markets", "where did I make most", "where am I most exposed". ${MONEY}`,
    input: api.getTopMarketsInput, output: api.getTopMarketsOutput,
    allowedRoles: DESK, isDestructive: false, card: 'pnl_table', live: false, entities: {},
  }),

  // ── actions: previewed, confirmed by the user through a nonce, then written by the backend ──
  'agent.editLimit': define({
    name: 'agent.editLimit',
    description: 'Changes one limit of a player in the user\'s direct downline: creditLimit, perClickWin, aggregateDailyWin '
      + `or minStake, to newValue. Shows a before/after card the user must confirm; nothing changes until then. ${MONEY} ${IDS}`,
    input: actions.editLimitInput, output: actions.limitsEditOutput,
    allowedRoles: DESK, isDestructive: true, card: 'diff_card', live: false, entities: { player: 'playerId' },
  }),
  'agent.settlePlayer': define({
    name: 'agent.settlePlayer',
    description: 'Settles (squares up) a player\'s take: mode auto settles all of it, mode amount settles the given amount. '
      + `Shows a settlement summary the user must confirm; no money moves until then. ${MONEY} ${IDS}`,
    input: actions.settlePlayerInput, output: actions.settlementsSettleOutput,
    allowedRoles: DESK, isDestructive: true, card: 'settlement_summary', live: false, entities: { player: 'playerId' },
  }),
  'agent.placeHedgeBet': define({
    name: 'agent.placeHedgeBet',
    description: 'Places a hedge (lay-off) bet on an outcome, back or lay, for a stake. Shows a bet slip the user must '
      + `confirm; nothing is placed until then. ${MONEY} ${IDS}`,
    input: actions.placeHedgeBetInput, output: actions.placeHedgeBetOutput,
    allowedRoles: DESK, isDestructive: true, card: 'bet_slip', live: false,
    entities: { fixture: 'fixtureId', market: 'marketId', outcome: 'outcomeId' },
  }),
  'agent.generateReport': define({
    name: 'agent.generateReport',
    description: 'Builds a downloadable report: per_player_pnl, bets_by_match or settlement_log, as xlsx (Excel) or pdf, '
      + `optionally filtered by dates, player or fixture. ${DATES} ${IDS}`,
    input: actions.generateReportInput, output: actions.generateReportOutput,
    allowedRoles: DESK, isDestructive: false, card: 'report_artifact', live: false,
    entities: { player: 'filters.playerId', fixture: 'filters.fixtureId' },
  }),
  'agent.shareReport': define({
    name: 'agent.shareReport',
    description: 'Sends a report made by agent.generateReport as a notification, to the user (recipient "self") or to a '
      + `player of their downline (recipient: the player's id). ${IDS}`,
    input: actions.shareReportInput, output: actions.shareReportOutput,
    allowedRoles: DESK, isDestructive: false, card: null, live: false, entities: {},
  }),
};

export type Tools = typeof TOOLS;
export type ToolName = keyof Tools;

/** A handler for each tool, checked against that tool's own schemas; a missing one is refused as unavailable. */
export type ToolImplementations = {
  [N in ToolName]?: ToolImplementation<Tools[N]['input'], Tools[N]['output']>;
};

export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

export const isToolName = (name: string): name is ToolName => Object.hasOwn(TOOLS, name);

/** JSON Schema of what the model may pass (input side: defaults are optional). */
export function toolJsonSchema(def: ToolDefinition): Record<string, unknown> {
  return z.toJSONSchema(def.input, { io: 'input' }) as Record<string, unknown>;
}
