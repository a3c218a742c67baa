/**
 * Approvals: a change asked for outside the desk — a destructive tool called over MCP —
 * never runs on the asking. Its preview is stored by the backend as a pending approval, the agent
 * is told (`approval_pending`), and the change runs only when the agent confirms it in the desk's
 * Approvals page: a confirmation is an act in the desk, never an answer an MCP client can send
 * (its session may only ask: `requests` scope). The backend keeps the approval's state, so an
 * approval is answered once, by its owner, before it expires, however many processes try.
 */
import { z } from 'zod';
import { cardSchema } from './assistant.js';
import { id } from './agent-api.js';

/** As long as a proposal in the chat may wait: past five minutes the previewed state is too old to trust. */
export const APPROVAL_TTL_MS = 5 * 60_000;

/** Where the request came from: only MCP today. */
export const approvalChannel = z.enum(['mcp']);
/**
 * Where the owner answered it: the desk. `mcp_elicitation` is read only from approvals answered
 * before a client's own form stopped being a way to answer (it cannot prove a human saw it).
 */
export const approvalDecidedVia = z.enum(['desk', 'mcp_elicitation']);

/**
 * `claimed`: confirmed and being carried out; `executed` / `no_op` / `refused` / `failed` say how it
 * ended; `rejected`: the owner declined; `expired`: nobody answered in time.
 */
export const APPROVAL_STATUSES = ['pending', 'claimed', 'executed', 'no_op', 'refused', 'failed', 'rejected', 'expired'] as const;
export const approvalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof approvalStatus>;
export const approvalEnding = z.enum(['executed', 'no_op', 'refused', 'failed']);

const toolName = z.string().min(1).max(64);
const jsonObject = z.record(z.string(), z.json());

export const approvalsCreateInput = z.strictObject({
  tool: toolName,
  /** The frozen call, ids in place: exactly what a confirmation runs. */
  args: jsonObject,
  /** The state the preview showed (a PreviewSnapshot): the write must still find it. */
  snapshot: z.json(),
  /** The preview card the owner confirms against. */
  card: cardSchema,
  /** One line for the notification and the list ("Set Rahul Sharma's credit limit to 50,000"). */
  summary: z.string().min(1).max(300),
  channel: approvalChannel,
  /** The MCP client as it named itself ("claude-desktop 1.2"), shown to the owner. */
  client: z.string().max(120).nullable(),
});

export const approvalView = z.strictObject({
  id,
  tool: toolName,
  args: jsonObject,
  snapshot: z.json(),
  card: cardSchema,
  summary: z.string(),
  channel: approvalChannel,
  client: z.string().nullable(),
  status: approvalStatus,
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  decidedVia: approvalDecidedVia.nullable(),
  /** What the change's answer or its refusal said, once it ended. */
  result: z.json().nullable(),
});
export type ApprovalView = z.infer<typeof approvalView>;

export const approvalsCreateOutput = z.strictObject({ id, expiresAt: z.iso.datetime() });
export const approvalsListInput = z.strictObject({ status: z.enum(['pending', 'all']).default('pending'), limit: z.number().int().min(1).max(100).default(50) });
export const approvalsListOutput = z.strictObject({ approvals: z.array(approvalView) });
export const approvalsGetInput = z.strictObject({ id });
/** Confirm (claim) or decline one: only a desk session may (the backend's `deskWriteProcedure`). */
export const approvalsDecideInput = z.strictObject({ id });
export const approvalsFinishInput = z.strictObject({ id, ending: approvalEnding, result: z.json() });
