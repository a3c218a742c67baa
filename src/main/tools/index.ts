/**
 * Every tool the assistant may plan, one module each (seed 000's catalog plus the match search),
 * and what is read off them: the registry's table, the JSON Schema a model is offered, the rule
 * planner's intents. Adding a tool is adding its module here.
 */
import { z } from 'zod';
import type { ToolModule } from './define.js';
import type { ToolDefinition, ToolImplementation } from './types.js';
import playerSearch from './search-players.js';
import fixtureSearch from './search-fixtures.js';
import downline from './get-downline.js';
import take from './get-take.js';
import upline from './get-upline.js';
import creditLimit from './get-credit-limit.js';
import exposure from './get-live-exposure.js';
import pnl from './get-pnl.js';
import commission from './get-commission.js';
import settlements from './get-settlement-history.js';
import bets from './get-bet-history.js';
import statement from './get-statement.js';
import topMarkets from './get-top-markets.js';
import limitEdit from './edit-limit.js';
import settle from './settle-player.js';
import hedge from './place-hedge-bet.js';
import report from './generate-report.js';
import reportShare from './share-report.js';
import muteAlerts from './mute-alerts.js';

export const TOOL_MODULES = [
  playerSearch, fixtureSearch, downline, take, upline, creditLimit, exposure, pnl, commission, settlements, bets, statement, topMarkets,
  // the user's own settings: no preview, nothing in the book moves
  muteAlerts,
  // actions: previewed, confirmed by the user through a nonce, then written by the backend
  limitEdit, settle, hedge, report, reportShare,
] as const;

type Modules = (typeof TOOL_MODULES)[number];
export type Tools = { [M in Modules as M['name']]: M };
export type ToolName = keyof Tools;

export const TOOLS = Object.fromEntries(TOOL_MODULES.map((m) => [m.name, m])) as unknown as Tools;
export const TOOL_NAMES = TOOL_MODULES.map((m) => m.name) as ToolName[];

export const isToolName = (name: string): name is ToolName => Object.hasOwn(TOOLS, name);

/** A tool as people read it ("live exposure"); a name no module has (an old audit line) stays as written. */
export const toolLabel = (name: string): string => (isToolName(name) ? (TOOLS[name] as ToolModule).label : name);

/** A handler for each tool, checked against that tool's own schemas; a missing one is refused as unavailable. */
export type ToolImplementations = {
  [N in ToolName]?: ToolImplementation<Tools[N]['input'], Tools[N]['output']>;
};

/** A module's handlers, or undefined for a tool that is planned but not built. */
export function implementationOf(tool: ToolModule): ToolImplementation | undefined {
  if (!tool.invoke) return undefined;
  return { invoke: tool.invoke, ...(tool.render && { render: tool.render }), ...(tool.prepare && { prepare: tool.prepare }) };
}

/** The built-in handlers by tool name (what tests and the benchmark start from to swap one out). */
export const implementations = Object.fromEntries(
  TOOL_MODULES.flatMap((m) => {
    const impl = implementationOf(m as ToolModule);
    return impl ? [[m.name, impl]] : [];
  }),
) as ToolImplementations;

/** JSON Schema of what the model may pass (input side: defaults are optional). */
export function toolJsonSchema(def: ToolDefinition): Record<string, unknown> {
  return z.toJSONSchema(def.input, { io: 'input' }) as Record<string, unknown>;
}
