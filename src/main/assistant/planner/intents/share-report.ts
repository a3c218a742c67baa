/** How people ask to send a report the conversation made: planned as a follow-up, never as an intent of its own. */
import { REPORT_MADE_THIS_TURN } from '../../../tools/share-report.js';
import { type Slots, ask, hasAny } from '../slots.js';
import { speechAct } from '../speech-act.js';
import type { Filled } from '../types.js';
import { holds, said } from './concepts.js';

/**
 * "send it to Arjun", "share the report with me", "forward this to Meera", "mail me a copy": a
 * sending verb with the report as its object, or straight to its recipient.
 */
const asksToShare = (folded: string) => holds(folded, 'share:asked');
/** "to me", "send me", "mujhe": the user is the recipient. */
const toSelf = (folded: string) => said(folded, 'share:to_self');
const SHARE_VERBS: ReadonlySet<string> = new Set(['share', 'send', 'forward', 'email', 'mail']);

/**
 * The rule planner's share follow-up: sending a report is only ever about one the conversation
 * made (ConversationContext.lastArtifact), so it is planned there rather than as an intent of its
 * own. Null: the message is not a share request.
 */
export function planShare(s: Slots, madeWith = false): Filled | null {
  const r = s.r;
  if (r.amounts.length > 0 || !asksToShare(r.folded)) return null;
  const artifact = s.lastArtifact ?? (madeWith ? { id: REPORT_MADE_THIS_TURN } : null);
  if (!artifact) {
    return hasAny(r, 'report', 'reports', 'file', 'sheet', 'spreadsheet', 'pdf', 'excel', 'xlsx')
      ? ask('unplannable', 'Which report should I send? Ask me for one first (say, "excel of last month\'s PnL per player"), then tell me who gets it.')
      : null;
  }
  // "did you send it to Arjun?" asks; only an order prepares a share.
  if (speechAct(r.folded, SHARE_VERBS) !== 'command') return ask('unplannable', 'Do you want me to send the report? Say it as an instruction and I will show you who gets what, to confirm first.');
  if (toSelf(r.folded)) return { args: { artifactId: artifact.id, recipient: 'self' } };
  const player = s.namedPlayer({ anyCue: true });
  if (!player) return ask('needs_player', 'Who should I send the report to?');
  return { args: { artifactId: artifact.id, player } };
}
