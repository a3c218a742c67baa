/**
 * Reports (DOMAIN.md, Reports): the backend's report procedures, the artifact they
 * describe, and the signed link that downloads one. `agent.generateReport`'s tool arguments are
 * `generateReportInput` in agent-actions.ts; the backend takes exactly those.
 */
import { z } from 'zod';
import { id, isoDate } from './agent-api.js';
import { auditAnchor, generateReportInput, idempotencyKey, reportFormat, reportTemplate } from './agent-actions.js';

/** How long an artifact is kept, and how long a download link stays good. */
export const REPORT_TTL_DAYS = 30;
export const REPORT_LINK_TTL_SECONDS = 10 * 60;

export const reportStatus = z.enum(['running', 'ready', 'failed', 'cancelled']);
export type ReportStatus = z.infer<typeof reportStatus>;

/**
 * A download link: `/reports/<artifactId>?u=<userId>&exp=<unix seconds>&sig=<hex HMAC-SHA256>`,
 * good for REPORT_LINK_TTL_SECONDS, only for the user it names (who must present their own
 * session too), refused when expired or altered. The same parts go to `reports.read`.
 */
export const reportLink = z.strictObject({
  artifactId: id,
  userId: id,
  exp: z.number().int().positive(),
  sig: z.string().regex(/^[0-9a-f]{64}$/, 'not a link signature'),
});
export type ReportLink = z.infer<typeof reportLink>;

export const reportArtifact = z.strictObject({
  artifactId: id,
  template: reportTemplate,
  format: reportFormat,
  /** The filters it was made with, dates filled in (what "regenerate" sends again). */
  filters: z.strictObject({ from: isoDate, to: isoDate, playerId: id.optional(), fixtureId: id.optional() }),
  /** The title's words: "PnL per player, 1 Oct 2026 – 31 Oct 2026, Rahul Sharma". */
  title: z.string().max(300),
  fileName: z.string().max(200),
  status: reportStatus,
  rowsDone: z.number().int().nonnegative(),
  rowsTotal: z.number().int().nonnegative(),
  sizeBytes: z.number().int().nonnegative().nullable(),
  error: z.string().max(300).nullable(),
  createdAt: z.iso.datetime(),
  /** Deleted by the pruning job after this (created + REPORT_TTL_DAYS). */
  expiresAt: z.iso.datetime(),
  owner: z.strictObject({ id, name: z.string() }),
  /** Set when another user shared it with the caller. */
  sharedBy: z.strictObject({ id, name: z.string(), at: z.iso.datetime() }).nullable(),
  /** A fresh signed link when the artifact is ready, for the caller. */
  link: z.strictObject({ url: z.string().max(500), parts: reportLink, expiresAt: z.iso.datetime() }).nullable(),
});
export type ReportArtifact = z.infer<typeof reportArtifact>;

// ── procedures (`reports.*` on the backend router) ──────────────────────────────────────────
/** `reports.generate`: starts the job and answers at once with the artifact, `running`. */
export const reportsGenerateInput = generateReportInput;
export const reportsGetInput = z.strictObject({ artifactId: id });
/** `reports.list`: the caller's own and shared-with-them artifacts of the last 30 days, newest first. */
export const reportsListInput = z.strictObject({ limit: z.number().int().min(1).max(200).default(100) }).default({ limit: 100 });
export const reportsListOutput = z.object({ reports: z.array(reportArtifact) });
/** `reports.cancel` (a running one) and `reports.delete` (the owner's own): both answer the artifact's last state. */
export const reportsCancelInput = reportsGetInput;
export const reportsDeleteInput = reportsGetInput;
export const reportsDeleteOutput = z.object({ ok: z.literal(true) });

/** `reports.read`: a chunk of the file, for a desk on the embedded backend (no HTTP); the link is checked as for a download. */
export const REPORT_CHUNK_BYTES = 512 * 1024;
export const reportsReadInput = z.strictObject({ link: reportLink, offset: z.number().int().nonnegative().default(0) });
export const reportsReadOutput = z.object({
  fileName: z.string(), contentType: z.string(), totalBytes: z.number().int().nonnegative(), offset: z.number().int().nonnegative(),
  /** Base64 of at most REPORT_CHUNK_BYTES bytes from `offset`. */
  data: z.string(),
});

/**
 * `reports.sharePreview` and `reports.share`: sending a report to someone sends them data, so it
 * goes through the same preview-and-confirm gate as money. The recipient is a player or
 * sub-agent in the caller's downline, or the caller ('self').
 */
export const reportsShareInput = z.strictObject({
  artifactId: id,
  recipient: z.union([z.literal('self'), id]),
  channel: z.literal('notification').default('notification'),
});
export const reportsSharePreviewOutput = z.object({
  artifactId: id, title: z.string(), recipientId: id, recipientName: z.string(), alreadyShared: z.boolean(), refusal: z.string().nullable(),
});
export const reportsShareWriteInput = reportsShareInput.extend({ idempotencyKey });
export const reportsShareOutput = z.object({
  ok: z.literal(true), artifactId: id, recipientId: id, recipientName: z.string(), sharedAt: z.iso.datetime(),
  /** The backend's audit row and chain link of this share; null when it was shared before (nothing written). */
  auditId: z.number().int().nullable(),
  anchor: auditAnchor.nullable(),
  noOp: z.boolean(),
  /** True when this answer is the stored one of an earlier call with the same key. */
  replayed: z.boolean(),
});

export const REPORT_TEMPLATE_TITLES: Record<z.infer<typeof reportTemplate>, string> = {
  per_player_pnl: 'PnL per player',
  bets_by_match: 'Bets by match',
  settlement_log: 'Settlement log',
};
