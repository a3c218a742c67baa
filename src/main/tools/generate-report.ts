import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import { REPORT_TEMPLATE_TITLES, type ReportArtifact, reportArtifact } from '../../shared/contracts/reports.js';
import { formatFileSize, formatPeriod } from '../../shared/format.js';
import { PLAYER_WORD, ask, hasAny } from '../assistant/planner/slots.js';
import { DATES, DESK, IDS, opts } from './common.js';
import { defineTool } from './define.js';
import betsRead from './get-bet-history.js';
import pnlRead from './get-pnl.js';
import settlementsRead from './get-settlement-history.js';
import type { ToolContext } from './types.js';

/**
 * What the tool answers: the artifact without its signed link (the link expires in minutes and is
 * asked for afresh at save time, so it never sits in a conversation or a model's context), and its
 * size in words, so the sentence's "18 KB" is a figure of the result the number guard can find.
 */
export const generatedReport = reportArtifact.omit({ link: true }).extend({ sizeText: z.string().nullable() });
export type GeneratedReport = z.infer<typeof generatedReport>;

/** How long a request waits for its report: a small one comes back ready, a big one keeps running. */
export const REPORT_WAIT_MS = 3_000;
const POLL_MS = 200;

/** "812 bytes", "18 KB", "1.4 MB": the size as the chat and the card say it. */
export function sizeInWords(bytes: number | null): string | null {
  return bytes === null ? null : formatFileSize(bytes);
}

/** The artifact as the chat keeps it: no link. */
export function withoutLink(a: ReportArtifact): Omit<ReportArtifact, 'link'> {
  const { link: _link, ...rest } = a;
  return rest;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Starts the job, then watches it for a moment: a report that finishes by then is answered as ready. */
async function generate(args: z.output<typeof actions.generateReportInput>, ctx: ToolContext): Promise<GeneratedReport> {
  let artifact = await ctx.api.reports.generate.mutate(args, opts(ctx));
  const deadline = Date.now() + REPORT_WAIT_MS;
  while (artifact.status === 'running' && Date.now() < deadline && !ctx.signal?.aborted) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), ctx.signal);
    if (ctx.signal?.aborted) break;
    artifact = await ctx.api.reports.get.query({ artifactId: artifact.artifactId }, opts(ctx));
  }
  return { ...withoutLink(artifact), sizeText: sizeInWords(artifact.sizeBytes) };
}

const FORMAT_WORDS = { xlsx: 'Excel', pdf: 'PDF' } as const;

/** The sentence for a report, whatever its state (the card shows the rest). */
export function reportSentence(d: GeneratedReport): string {
  const what = `${REPORT_TEMPLATE_TITLES[d.template]} report (${FORMAT_WORDS[d.format]}) for ${formatPeriod(d.filters)}`;
  switch (d.status) {
    case 'ready': return `Your ${what} is ready: ${d.rowsTotal.toLocaleString('en-US')} ${d.rowsTotal === 1 ? 'row' : 'rows'}${d.sizeText ? `, ${d.sizeText}` : ''}.`;
    case 'running': return d.rowsTotal > 0
      ? `Your ${what} is being made: ${d.rowsDone.toLocaleString('en-US')} of ${d.rowsTotal.toLocaleString('en-US')} rows.`
      : `Your ${what} is being made.`;
    case 'failed': return `Your ${what} could not be made${d.error ? `: ${d.error.replace(/[.\s]+$/, '')}` : ''}.`;
    case 'cancelled': return `Your ${what} was cancelled.`;
  }
}

/** Words that ask for a format and nothing else: "as pdf instead", "excel please". */
const FORMAT_ONLY = /^(?:(?:can\s+i\s+have\s+|give\s+(?:it\s+)?(?:to\s+)?me\s+|make\s+it\s+|i\s+want\s+|send\s+)?(?:it\s+|that\s+|this\s+|the\s+same\s+|same\s+)?(?:as\s+|in\s+)?(?:an?\s+)?(?:pdf|excel|xlsx|spreadsheet|sheet)(?:\s+(?:file|format|version|one))?(?:\s+(?:instead|please|pls|then|too|also))*)$/;

/** "that", "it", "those": the message is about what the last answer showed. */
/** "same format", "usi format mein", "in that format too": the last report's format. */
const SAME_FORMAT = /\b(?:same|usi|wahi|that|isi)\s+(?:format|type|file\s+type)\b/;
const REFERS_BACK = /\b(?:that|this|it|these|those|same|isko|isse|usko|iski|iska|iske|uski|uska|uske|ye|yeh|yahi|wahi)\b/;

/** The report each read becomes when it is asked for as a file. */
const REPORT_OF_READ: ReadonlyArray<readonly [tool: string, template: 'per_player_pnl' | 'bets_by_match' | 'settlement_log']> = [
  [pnlRead.name, 'per_player_pnl'], [betsRead.name, 'bets_by_match'], [settlementsRead.name, 'settlement_log'],
];

export default defineTool({
  name: 'agent.generateReport',
  label: 'report',
  description: 'Builds a downloadable report: per_player_pnl, bets_by_match or settlement_log, as xlsx (Excel) or pdf, '
    + 'optionally filtered by dates, player or fixture. Answers with the report (ready, or still running with its progress); '
    + `the user saves it from its card. ${DATES} ${IDS}`,
  input: actions.generateReportInput, output: generatedReport,
  allowedRoles: DESK, isDestructive: false, startsWork: true, card: 'report_artifact',
  entities: { player: 'filters.playerId', fixture: 'filters.fixtureId' },
  invoke: generate,
  render: (out) => {
    const { sizeText: _sizeText, ...artifact } = out;
    return { type: 'report_artifact', data: artifact };
  },
  say: (out) => reportSentence(out),
  planning: {
    id: 'report', precedence: 10, exclusive: true, range: 'filters', follows: { player: true, fixture: true },
    vocabulary: ['report', 'reports', 'excel', 'xlsx', 'spreadsheet', 'sheet', 'pdf', 'csv', 'export', 'download', 'statement'],
    // "settlement log bhi same format mein": a report in the format of the last one.
    triggers: (r) => hasAny(r, 'report', 'reports', 'excel', 'xlsx', 'spreadsheet', 'sheet', 'pdf', 'csv', 'export', 'download', 'statement') || SAME_FORMAT.test(r.folded),
    fill(s) {
      const r = s.r;
      const earlier = s.lastCall('agent.generateReport');
      const format = hasAny(r, 'pdf') ? 'pdf' : hasAny(r, 'excel', 'xlsx', 'spreadsheet', 'sheet') ? 'xlsx'
        : SAME_FORMAT.test(r.folded) && earlier?.format === 'pdf' ? 'pdf' : 'xlsx';
      const template = hasAny(r, 'settlement', 'settlements', 'payment', 'payments', 'settle') ? 'settlement_log'
        : hasAny(r, 'bet', 'bets', 'wager', 'wagers') ? 'bets_by_match'
          // There is no commission template: the PnL per player report has each player's commission in a column of its own.
          : hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'result', 'results', 'commission', 'comm') || PLAYER_WORD.test(r.folded) ? 'per_player_pnl' : null;
      // "as pdf instead" right after a report: the same report in the other format.
      const last = s.lastCall('agent.generateReport');
      if (!template && last && (FORMAT_ONLY.test(r.folded) || hasAny(r, 'instead', 'same'))) {
        return { args: { ...last, format, ...(r.range && { filters: { ...(last.filters as object | undefined), from: r.range.from, to: r.range.to } }) } };
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
          return { args: { template: of, format, filters: period, ...subject } };
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
      return { args };
    },
    examples: ['generate a per player pnl report for last month in excel', 'pdf of bets by match for India vs Australia'],
  },
});
