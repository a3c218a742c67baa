/**
 * How people ask for each tool, kept with the assistant rather than with the tool: a tool module
 * says what it does and takes; the words that ask for it, the slots those words fill and what a
 * follow-up may change are the planner's (one module per tool in this folder, keyed by the tool's
 * name, checked complete against the tool modules by tests/main/assistant/planner/intents.test.ts).
 */
import { TOOL_NAMES, type ToolName } from '../../../tools/index.js';
import type { ToolPlanning } from '../types.js';
import playerSearchTool from '../../../tools/search-players.js';
import fixtureSearchTool from '../../../tools/search-fixtures.js';
import downlineTool from '../../../tools/get-downline.js';
import takeTool from '../../../tools/get-take.js';
import uplineTool from '../../../tools/get-upline.js';
import creditLimitTool from '../../../tools/get-credit-limit.js';
import exposureTool from '../../../tools/get-live-exposure.js';
import pnlTool from '../../../tools/get-pnl.js';
import commissionTool from '../../../tools/get-commission.js';
import settlementsTool from '../../../tools/get-settlement-history.js';
import betsTool from '../../../tools/get-bet-history.js';
import statementTool from '../../../tools/get-statement.js';
import topMarketsTool from '../../../tools/get-top-markets.js';
import alertMuteTool from '../../../tools/mute-alerts.js';
import limitEditTool from '../../../tools/edit-limit.js';
import settleTool from '../../../tools/settle-player.js';
import hedgeTool from '../../../tools/place-hedge-bet.js';
import reportTool from '../../../tools/generate-report.js';
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
import alertMute from './mute-alerts.js';

/** The tools a request can name, each with its intent; a report is shared only as a follow-up of the report the conversation made. */
const PAIRS: ReadonlyArray<readonly [{ name: ToolName }, ToolPlanning]> = [
  [playerSearchTool, playerSearch],
  [fixtureSearchTool, fixtureSearch],
  [downlineTool, downline],
  [takeTool, take],
  [uplineTool, upline],
  [creditLimitTool, creditLimit],
  [exposureTool, exposure],
  [pnlTool, pnl],
  [commissionTool, commission],
  [settlementsTool, settlements],
  [betsTool, bets],
  [statementTool, statement],
  [topMarketsTool, topMarkets],
  [alertMuteTool, alertMute],
  [limitEditTool, limitEdit],
  [settleTool, settle],
  [hedgeTool, hedge],
  [reportTool, report],
];
export const TOOL_PLANNING: Readonly<Partial<Record<ToolName, ToolPlanning>>> = Object.fromEntries(PAIRS.map(([tool, planning]) => [tool.name, planning]));

/** A tool's intent, or undefined for a tool no request names by itself (or a name no tool has). */
export function planningOf(tool: string): ToolPlanning | undefined {
  return (TOOL_NAMES as readonly string[]).includes(tool) ? TOOL_PLANNING[tool as ToolName] : undefined;
}
