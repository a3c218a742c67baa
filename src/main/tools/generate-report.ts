import * as actions from '../../shared/contracts/agent-actions.js';
import { PLAYER_WORD, ask, hasAny } from '../assistant/planner/slots.js';
import { DATES, DESK, IDS } from './common.js';
import { defineTool } from './define.js';

// No handlers yet: planned, gated and refused by the registry as not available in this version.
export default defineTool({
  name: 'agent.generateReport',
  label: 'report',
  description: 'Builds a downloadable report: per_player_pnl, bets_by_match or settlement_log, as xlsx (Excel) or pdf, '
    + `optionally filtered by dates, player or fixture. ${DATES} ${IDS}`,
  input: actions.generateReportInput, output: actions.generateReportOutput,
  allowedRoles: DESK, isDestructive: false, card: 'report_artifact',
  entities: { player: 'filters.playerId', fixture: 'filters.fixtureId' },
  planning: {
    id: 'report', precedence: 10, exclusive: true, range: 'filters',
    vocabulary: ['report', 'reports', 'excel', 'xlsx', 'spreadsheet', 'sheet', 'pdf', 'csv', 'export', 'download', 'statement'],
    triggers: (r) => hasAny(r, 'report', 'reports', 'excel', 'xlsx', 'spreadsheet', 'sheet', 'pdf', 'csv', 'export', 'download', 'statement'),
    fill(s) {
      const r = s.r;
      const template = hasAny(r, 'settlement', 'settlements', 'payment', 'payments', 'settle') ? 'settlement_log'
        : hasAny(r, 'bet', 'bets', 'wager', 'wagers') ? 'bets_by_match'
          : hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'result', 'results') || PLAYER_WORD.test(r.folded) ? 'per_player_pnl' : null;
      if (!template) return ask('needs_template', 'Which report: PnL per player, bets by match, or the settlement log?');
      const format = hasAny(r, 'pdf') ? 'pdf' : 'xlsx';
      const filters: Record<string, unknown> = { ...s.range(false) };
      const args: Record<string, unknown> = { template, format, filters };
      const fixture = s.namedFixture();
      if (fixture) args.fixture = fixture;
      else {
        const player = s.player();
        if (player) args.player = player;
      }
      return { args };
    },
    examples: ['generate a per player pnl report for last month in excel', 'pdf of bets by match for India vs Australia'],
  },
});
