/**
 * Main's audit log as the Audit page reads it: every confirmed, refused or cancelled proposal,
 * hash-chained, and whether the chain verifies (against the head the backend keeps, too).
 */
import { z } from 'zod';

export const auditOutcome = z.enum(['executed', 'refused', 'cancelled', 'expired', 'failed']);
export type AuditOutcome = z.infer<typeof auditOutcome>;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 hex digest');

/** One line of main's audit file. The file is a trust boundary: anything may have been written into it. */
export const auditEntrySchema = z.strictObject({
  seq: z.number().int().positive(),
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
  prev: sha256,
  hash: sha256,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListOutput = z.object({
  /** The signed-in user's entries, newest first. */
  entries: z.array(auditEntrySchema),
  verification: z.object({
    ok: z.boolean(),
    /** Entries in the whole file (every user's): the chain is one. */
    count: z.number().int(),
    firstBadSeq: z.number().int().nullable(),
    reason: z.string().nullable(),
    head: z.object({ seq: z.number().int(), hash: sha256 }).nullable(),
    /** The head this user last recorded with the backend, and whether the file still holds it. */
    backendHead: z.object({ seq: z.number().int(), hash: sha256, recordedAt: z.iso.datetime() }).nullable(),
  }),
});
export type AuditListOutput = z.infer<typeof auditListOutput>;
