import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import { reportsShareOutput } from '../../shared/contracts/reports.js';
import { DESK, NAMES, opts } from './common.js';
import { defineTool } from './define.js';

/**
 * The artifact a share names when the report is asked for in the same message ("make last month's
 * PnL in Excel and send it to me"): the report is made first, and its id takes this one's place
 * before the share's preview is prepared. Never an id the backend sees.
 */
export const REPORT_MADE_THIS_TURN = 'report-made-this-turn';

/** What a share's preview froze: the report and whom it goes to, for the audit log's `before`. */
const shareSnapshot = z.object({ title: z.string(), recipientName: z.string(), alreadyShared: z.boolean() });

/** The backend's answer (with its audit anchor), and the title the preview showed: the card names the report. */
const sharedReport = reportsShareOutput.extend({ title: z.string() });

export default defineTool({
  name: 'agent.shareReport',
  label: 'report sharing',
  description: 'Sends a report made by agent_generateReport (its artifactId) as a notification, to the user (recipient "self") or to a '
    + 'player or sub-agent of their downline (player). Sending data to someone is shown as a '
    + `preview the user must confirm; nothing is sent until then. ${NAMES}`,
  input: actions.shareReportInput, output: sharedReport,
  allowedRoles: DESK, isDestructive: true, card: 'report_share', entities: { player: 'recipient' }, backendAction: 'reports.share',
  async prepare(args, ctx) {
    const p = await ctx.api.reports.sharePreview.query(args, opts(ctx));
    return {
      card: {
        type: 'report_share',
        data: {
          artifactId: p.artifactId, title: p.title, recipientId: p.recipientId, recipientName: p.recipientName, alreadyShared: p.alreadyShared,
          ...(p.refusal !== null && { refusal: p.refusal, state: 'refused' as const }),
        },
      },
      snapshot: { title: p.title, recipientName: p.recipientName, alreadyShared: p.alreadyShared },
      refusal: p.refusal,
    };
  },
  async invoke(args, ctx) {
    const shown = shareSnapshot.parse(ctx.expected);
    const out = await ctx.api.reports.share.mutate({ ...args, idempotencyKey: ctx.idempotencyKey! }, opts(ctx));
    return { ...out, title: shown.title };
  },
  render: (out) => ({
    type: 'report_share',
    data: {
      artifactId: out.artifactId, title: out.title, recipientId: out.recipientId, recipientName: out.recipientName,
      alreadyShared: true, sharedAt: out.sharedAt, state: out.noOp ? 'unchanged' : 'confirmed',
    },
  }),
});
