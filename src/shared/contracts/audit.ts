/**
 * Main's audit log as the Audit page reads it: every confirmed, refused or cancelled proposal,
 * hash-chained, and what its verification found, against the backend's own audit chain too.
 */
import { z } from 'zod';
import { declineReason } from './chat.js';

/**
 * `no_op`: confirmed, but the backend found nothing to change (the value was already set) and wrote nothing.
 * `edited`: the user changed the value on the card; a new preview under a new nonce replaced this one, and
 * nothing was written (the new one is audited when it is answered).
 */
export const auditOutcome = z.enum(['executed', 'no_op', 'refused', 'cancelled', 'expired', 'failed', 'edited']);
export type AuditOutcome = z.infer<typeof auditOutcome>;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 hex digest');

/** One line of main's audit file. The file is a trust boundary: anything may have been written into it. */
export const auditEntrySchema = z.strictObject({
  seq: z.number().int().positive().max(2_147_483_647),
  ts: z.iso.datetime(),
  requestId: z.string().min(1).max(64),
  /** The acting user's id. */
  user: z.string().min(1).max(64),
  tool: z.string().min(1).max(64),
  /** The frozen call's arguments (JSON; null allowed). */
  args: z.json(),
  /** The state the preview showed. */
  before: z.json(),
  /** The backend's answer, or its error. */
  after: z.json(),
  /** The proposal's nonce, spent by the time it is written. */
  nonce: z.string().min(1).max(128),
  outcome: auditOutcome,
  /** Where the change was asked for, when not in the desk itself: `mcp` (an MCP client's call, approved by the user). */
  channel: z.enum(['mcp']).optional(),
  /**
   * Why the user declined (a cancelled entry), in their own words. Absent when none was given,
   * so entries written before reasons existed keep their exact form and still verify.
   */
  reason: declineReason.optional(),
  /** The confirmation was made with the user's password again (a large change). Absent otherwise, as above. */
  stepUp: z.literal(true).optional(),
  prev: sha256,
  hash: sha256,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const seqList = z.array(z.number().int().positive().max(2_147_483_647)).max(1000);

/** One thing verification found wrong: the rows it concerns, in words and by number, and why. */
export const auditFinding = z.object({
  /** The rows in words: "entry 7", "line 4", "entries 6 and 7", "between entries 3 and 9". */
  where: z.string().max(300),
  reason: z.string().max(1000),
  /** Main's entries concerned, by seq. */
  entries: seqList,
  /** Lines of the file concerned (1-based), for lines that are not entries. */
  lines: seqList,
  /** The backend's audit records concerned, by their seq in the user's chain. */
  anchors: seqList,
});
export type AuditFinding = z.infer<typeof auditFinding>;

export const auditListOutput = z.object({
  /** The signed-in user's readable entries, newest first (a damaged file still lists the rest). */
  entries: z.array(auditEntrySchema),
  /** Each entry's tool in words ("limit change"), by tool name, from the tool's own module. */
  toolLabels: z.record(z.string().max(64), z.string().max(80)),
  verification: z.object({
    /** True only when the file's chain holds and agrees with the backend's records. */
    ok: z.boolean(),
    /** Whether the backend's records were read: when not, only the file's own chain was checked. */
    backendChecked: z.boolean(),
    /** Lines in the whole file (every user's: the chain is one). */
    count: z.number().int().nonnegative(),
    /** The file's last entry. */
    head: z.object({ seq: z.number().int(), hash: sha256 }).nullable(),
    /** The backend's chain of this user's changes: how many records, and its last. */
    backend: z.object({ records: z.number().int().nonnegative(), head: z.object({ seq: z.number().int(), hash: sha256 }).nullable() }).nullable(),
    findings: z.array(auditFinding).max(101),
  }),
});
export type AuditListOutput = z.infer<typeof auditListOutput>;
