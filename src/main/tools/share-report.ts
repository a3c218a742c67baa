import { z } from 'zod';
import * as actions from '../../shared/contracts/agent-actions.js';
import { reportsShareOutput } from '../../shared/contracts/reports.js';
import { type Slots, ask, hasAny } from '../assistant/planner/slots.js';
import { speechAct } from '../assistant/planner/speech-act.js';
import type { Filled } from '../assistant/planner/types.js';
import { DESK, IDS, opts } from './common.js';
import { defineTool } from './define.js';

/** What a share's preview froze: the report and whom it goes to, for the audit log's `before`. */
const shareSnapshot = z.object({ title: z.string(), recipientName: z.string(), alreadyShared: z.boolean() });

/** The backend's answer (with its audit anchor), and the title the preview showed: the card names the report. */
const sharedReport = reportsShareOutput.extend({ title: z.string() });

/**
 * "send it to Arjun", "share the report with me", "forward this to Meera", "mail me a copy": a
 * sending verb with the report as its object, or straight to its recipient.
 */
const SHARE = /\b(?:share|send|forward|fwd|email|mail|ping|whatsapp|wa)\s+(?:(?:me|him|her|them)\s+)?(?:it|this|that|them|these|(?:the|my|this|that)\s+(?:report|file|sheet|spreadsheet|pdf|excel|xlsx|one)|(?:a\s+)?cop(?:y|ies)|report|with|to|over)\b|\b(?:bhej|bhejo|bhejdo|bhejiye|bhejna)\b|\b(?:share|forward)\s+(?:kar|karo|kardo|kar\s+do|kar\s+de)\b/;
const TO_SELF = /\b(?:(?:to|with)\s+(?:me|myself|my\s+self)|(?:send|mail|email|forward)\s+me|mujhe|khud\s+ko)\b/;
const SHARE_VERBS: ReadonlySet<string> = new Set(['share', 'send', 'forward', 'email', 'mail']);

/**
 * The rule planner's share follow-up: sending a report is only ever about one the conversation
 * made (ConversationContext.lastArtifact), so it is planned there rather than as an intent of its
 * own. Null: the message is not a share request.
 */
export function planShare(s: Slots): Filled | null {
  const r = s.r;
  if (r.amounts.length > 0 || !SHARE.test(r.folded)) return null;
  const artifact = s.lastArtifact;
  if (!artifact) {
    return hasAny(r, 'report', 'reports', 'file', 'sheet', 'spreadsheet', 'pdf', 'excel', 'xlsx')
      ? ask('unplannable', 'Which report should I send? Ask me for one first (say, "excel of last month\'s PnL per player"), then tell me who gets it.')
      : null;
  }
  // "did you send it to Arjun?" asks; only an order prepares a share.
  if (speechAct(r.folded, SHARE_VERBS) !== 'command') return ask('unplannable', 'Do you want me to send the report? Say it as an instruction and I will show you who gets what, to confirm first.');
  if (TO_SELF.test(r.folded)) return { args: { artifactId: artifact.id, recipient: 'self' } };
  const player = s.namedPlayer({ anyCue: true });
  if (!player) return ask('needs_player', 'Who should I send the report to?');
  return { args: { artifactId: artifact.id, player } };
}

export default defineTool({
  name: 'agent.shareReport',
  label: 'report sharing',
  description: 'Sends a report made by agent.generateReport as a notification, to the user (recipient "self") or to a '
    + 'player or sub-agent of their downline (recipient: that account\'s id). Sending data to someone is shown as a '
    + `preview the user must confirm; nothing is sent until then. ${IDS}`,
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
