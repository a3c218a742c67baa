import { PLAYER_WORD, ask, hasAny } from '../slots.js';
import betsRead from '../../../tools/get-bet-history.js';
import pnlRead from '../../../tools/get-pnl.js';
import settlementsRead from '../../../tools/get-settlement-history.js';
import type { ToolPlanning } from '../types.js';
import { holds, ruleAt, said, tokensIn } from './concepts.js';
import reportTool from '../../../tools/generate-report.js';


/** Words that ask for a format and nothing else: "as pdf instead", "excel please" (no mark after them either). */
const FORMAT_ONLY = { test: (folded: string) => ruleAt(folded, 'rep:format_only')?.to === tokensIn(folded).length };

/** "same format", "usi format mein", "in that format too": the last report's format. */
const SAME_FORMAT = { test: (folded: string) => holds(folded, 'rep:same_format') };

/** "that", "it", "those": the message is about what the last answer showed. */
const REFERS_BACK = { test: (folded: string) => said(folded, 'rep:refers_back') };

/** The report each read becomes when it is asked for as a file. */
const REPORT_OF_READ: ReadonlyArray<readonly [tool: string, template: 'per_player_pnl' | 'bets_by_match' | 'settlement_log']> = [
  [pnlRead.name, 'per_player_pnl'], [betsRead.name, 'bets_by_match'], [settlementsRead.name, 'settlement_log'],
];

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'report', precedence: 10, exclusive: true, range: 'filters', follows: { player: true, fixture: true },
  vocabulary: ['report', 'reports', 'excel', 'xlsx', 'spreadsheet', 'sheet', 'pdf', 'csv', 'export', 'download', 'statement'],
  // "settlement log bhi same format mein": a report in the format of the last one. "Statement" alone
  // is the statement on screen (agent.getStatement); with a file word ("statement pdf") it is a report.
  triggers: (r) => hasAny(r, 'report', 'reports', 'excel', 'xlsx', 'spreadsheet', 'sheet', 'pdf', 'csv', 'export', 'download') || SAME_FORMAT.test(r.folded),
  fill(s) {
    const r = s.r;
    const earlier = s.lastCall(reportTool.name);
    const pdf = hasAny(r, 'pdf');
    const sheet = hasAny(r, 'excel', 'xlsx', 'spreadsheet', 'sheet');
    const format = pdf && !sheet ? 'pdf' : sheet ? 'xlsx' : SAME_FORMAT.test(r.folded) && earlier?.format === 'pdf' ? 'pdf' : 'xlsx';
    // "in excel and pdf both": one report in each format.
    const both = (args: Record<string, unknown>) => ({ args, ...(pdf && sheet && { more: [{ ...args, format: 'pdf' }] }) });
    const template = hasAny(r, 'settlement', 'settlements', 'payment', 'payments', 'settle') ? 'settlement_log'
      : hasAny(r, 'bet', 'bets', 'wager', 'wagers') ? 'bets_by_match'
        // There is no commission template: the PnL per player report has each player's commission in a column of its own.
        : hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'result', 'results', 'commission', 'comm') || PLAYER_WORD.test(r.folded) ? 'per_player_pnl' : null;
    // "as pdf instead", "pdf bhi chahiye" right after a report: the same report in the other format.
    const last = s.lastCall(reportTool.name);
    if (!template && last && (FORMAT_ONLY.test(r.folded) || hasAny(r, 'instead', 'same', 'bhi', 'too', 'also', 'version', 'copy') || r.tokens.length <= 4)) {
      return both({ ...last, format, ...(r.range && { filters: { ...(last.filters as object | undefined), from: r.range.from, to: r.range.to } }) });
    }
    // "make that an excel" right after last month's PnL: that read, as its report.
    if (!template && !last && (FORMAT_ONLY.test(r.folded) || REFERS_BACK.test(r.folded))) {
      const reads = REPORT_OF_READ.flatMap(([tool, of]) => {
        const args = s.lastCall(tool);
        return args ? [{ of, args }] : [];
      });
      if (reads.length === 1) {
        const { of, args: read } = reads[0]!;
        const period = r.range ? { from: r.range.from, to: r.range.to }
          : typeof read.from === 'string' && typeof read.to === 'string' ? { from: read.from, to: read.to } : {};
        const subject = read.fixture !== undefined ? { fixture: read.fixture } : read.player !== undefined ? { player: read.player } : {};
        return both({ template: of, format, filters: period, ...subject });
      }
    }
    if (!template) return ask('needs_template', 'Which report: PnL per player, bets by match, or the settlement log?');
    // "… bhi same format mein" after last week's report: another report of the same period.
    const earlierFilters = SAME_FORMAT.test(r.folded) && earlier?.filters && typeof earlier.filters === 'object' ? earlier.filters as Record<string, unknown> : {};
    const earlierPeriod = typeof earlierFilters.from === 'string' && typeof earlierFilters.to === 'string' ? { from: earlierFilters.from, to: earlierFilters.to } : {};
    const filters: Record<string, unknown> = { ...(s.range(false) ?? earlierPeriod) };
    const args: Record<string, unknown> = { template, format, filters };
    // "excel of bets on eng nz": a match named after "on" is the filter, as with teams around "vs".
    const fixture = s.namedFixture() ?? s.namedFixtures()[0];
    if (fixture) args.fixture = fixture;
    else {
      const player = s.player();
      if (player) args.player = player;
    }
    return both(args);
  },
  examples: ['generate a per player pnl report for last month in excel', 'pdf of bets by match for India vs Australia'],
} satisfies ToolPlanning;
