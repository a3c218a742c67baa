import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import { REPORT_TEMPLATE_TITLES, type ReportArtifact, reportArtifact } from '../../shared/contracts/reports.js';
import { formatFileSize, formatPeriod } from '../../shared/format.js';
import { DATES, DESK, NAMES, opts } from './common.js';
import { defineTool } from './define.js';
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
/** A backend sentence set inside ours: its own closing stop and spaces dropped. */
function withoutFinalStop(text: string): string {
  let end = text.length;
  while (end > 0 && '. \t\n'.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

export function reportSentence(d: GeneratedReport): string {
  const what = `${REPORT_TEMPLATE_TITLES[d.template]} report (${FORMAT_WORDS[d.format]}) for ${formatPeriod(d.filters)}`;
  switch (d.status) {
    case 'ready': return `Your ${what} is ready: ${d.rowsTotal.toLocaleString('en-US')} ${d.rowsTotal === 1 ? 'row' : 'rows'}${d.sizeText ? `, ${d.sizeText}` : ''}.`;
    case 'running': return d.rowsTotal > 0
      ? `Your ${what} is being made: ${d.rowsDone.toLocaleString('en-US')} of ${d.rowsTotal.toLocaleString('en-US')} rows.`
      : `Your ${what} is being made.`;
    case 'failed': return `Your ${what} could not be made${d.error ? `: ${withoutFinalStop(d.error)}` : ''}.`;
    case 'cancelled': return `Your ${what} was cancelled.`;
  }
}

export default defineTool({
  name: 'agent.generateReport',
  label: 'report',
  description: 'Builds a downloadable report: per_player_pnl, bets_by_match or settlement_log, as xlsx (Excel) or pdf, '
    + 'optionally filtered by dates (filters.from, filters.to), player or fixture. Answers with the report (ready, or still running with its progress); '
    + `the user saves it from its card. ${DATES} ${NAMES}`,
  input: actions.generateReportInput, output: generatedReport,
  allowedRoles: DESK, isDestructive: false, startsWork: true, card: 'report_artifact',
  entities: { player: 'filters.playerId', fixture: 'filters.fixtureId' },
  invoke: generate,
  render: (out) => {
    const { sizeText: _sizeText, ...artifact } = out;
    return { type: 'report_artifact', data: artifact };
  },
  say: (out) => reportSentence(out),
});
