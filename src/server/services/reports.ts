/**
 * Reports (DOMAIN.md, Reports): a job per artifact, run in this process as its requester, writing the
 * read tools' rows to a file; the artifact row carries its progress, the file when done, and
 * dies after REPORT_TTL_DAYS. Listing, reading, downloading and sharing are all scoped to the
 * owner and the people it was shared with, and downloads go through signed links.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { generateReportInput } from '../../shared/contracts/agent-actions.js';
import {
  REPORT_CHUNK_BYTES, REPORT_TEMPLATE_TITLES, REPORT_TTL_DAYS, type ReportArtifact, type ReportLink, type ReportStatus,
} from '../../shared/contracts/reports.js';
import { formatDateTime, formatPeriod } from '../../shared/format.js';
import { type Db, queryRows } from '../db/client.js';
import { appendAudited } from './audit.js';
import { type Caller, type ServiceDeps, accountInScope, resolvePeriod } from './caller.js';
import { withIdempotency } from './idempotency.js';
import { readAhead } from './read-ahead.js';
import { checkLink, issueLink } from './report-links.js';
import { type ReportFilters, openRowSource } from './report-rows.js';
import { type ThreadedReportWriter, openWriterThread } from './report-writer-thread.js';
import { CONTENT_TYPES, type ReportHeading } from './report-writers.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Progress is written about this often (in rows), and checked for a cancel from any instance. */
export const PROGRESS_EVERY_ROWS = 1_000;
/** A report this long is a query, not a document: the requester is asked to narrow it. */
export const REPORT_MAX_ROWS = 250_000;
/** Jobs one owner may have running at once. */
export const REPORT_MAX_RUNNING = 3;
/** A running row whose job has not reported for this long was left by a backend that stopped. */
export const REPORT_STALE_MS = 15 * 60 * 1000;
export const PRUNE_EVERY_MS = 60 * 60 * 1000;

type Template = ReportArtifact['template'];
type Format = ReportArtifact['format'];

const FILE_STEMS: Record<Template, string> = {
  per_player_pnl: 'pnl-per-player', bets_by_match: 'bets-by-match', settlement_log: 'settlement-log',
};

/** Test seam: awaited before each batch a job writes, so a test can hold a job mid-way. */
export const reportJobHooks: { beforeBatch?: ((artifactId: string) => Promise<void> | void) | undefined } = {};

// ── jobs in this process ─────────────────────────────────────────────────────────────────────
interface Job { abort: AbortController; done: Promise<void> }
interface Jobs { running: Map<string, Job>; timer: NodeJS.Timeout | null }
const registries = new WeakMap<Db, Jobs>();

function jobsOf(deps: ServiceDeps): Jobs {
  let jobs = registries.get(deps.db);
  if (!jobs) {
    jobs = { running: new Map(), timer: null };
    registries.set(deps.db, jobs);
  }
  return jobs;
}

class Cancelled extends Error {}

/** Resolves once no job of this backend is running (tests, and a clean shutdown). */
export async function reportJobsSettled(deps: ServiceDeps): Promise<void> {
  const jobs = jobsOf(deps);
  while (jobs.running.size > 0) await Promise.all([...jobs.running.values()].map((job) => job.done));
}

// ── rows ─────────────────────────────────────────────────────────────────────────────────────
interface ArtifactRow {
  id: string; owner_id: string; owner_name: string; template: Template; format: Format; filters: ReportFilters;
  title: string; file_name: string; status: ReportStatus; rows_done: number; rows_total: number; size_bytes: number | null;
  error: string | null; created_at: Date | string; expires_at: Date | string;
  shared_by: string | null; shared_by_name: string | null; shared_at: Date | string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * The artifacts `userId` may see: their own, and those shared with them by an owner they are
 * still below (a recipient moved out of the owner's tree loses them). Never an expired one.
 */
function visibleArtifacts(deps: ServiceDeps, userId: string) {
  return sql`
    select r.id, r.owner_id, o.display_name as owner_name, r.template, r.format, r.filters, r.title, r.file_name, r.status,
      r.rows_done, r.rows_total, r.size_bytes, r.error, r.created_at, r.expires_at,
      s.shared_by, sb.display_name as shared_by_name, s.shared_at
    from report_artifacts r
      join accounts o on o.id = r.owner_id
      left join report_shares s on s.artifact_id = r.id and s.recipient_id = ${userId} and r.owner_id <> ${userId}
      left join accounts sb on sb.id = s.shared_by
      left join accounts me on me.id = ${userId}
    where r.expires_at > ${deps.realNow().toISOString()}::timestamptz
      and (r.owner_id = ${userId} or (s.artifact_id is not null
        and ((o.role = 'platform_admin' and me.role <> 'platform_admin') or me.path like o.path || '.%')))`;
}

async function visibleArtifact(deps: ServiceDeps, userId: string, artifactId: string): Promise<ArtifactRow> {
  const [row] = await queryRows<ArtifactRow>(deps.db, sql`select * from (${visibleArtifacts(deps, userId)}) v where v.id = ${artifactId}`);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'report not found' });
  return row;
}

async function ownArtifact(deps: ServiceDeps, caller: Caller, artifactId: string, doing: string): Promise<ArtifactRow> {
  const row = await visibleArtifact(deps, caller.id, artifactId);
  if (row.owner_id !== caller.id) throw new TRPCError({ code: 'FORBIDDEN', message: `only the report's owner can ${doing} it` });
  return row;
}

async function toArtifact(deps: ServiceDeps, viewerId: string, r: ArtifactRow): Promise<ReportArtifact> {
  const f = r.filters;
  return {
    artifactId: r.id, template: r.template, format: r.format,
    filters: { from: f.from, to: f.to, ...(f.playerId && { playerId: f.playerId }), ...(f.fixtureId && { fixtureId: f.fixtureId }) },
    title: r.title, fileName: r.file_name, status: r.status, rowsDone: Number(r.rows_done), rowsTotal: Number(r.rows_total),
    sizeBytes: r.size_bytes === null ? null : Number(r.size_bytes), error: r.error,
    // Kept until is said on the business clock the report was made by; `expires_at` itself is wall-clock time, which pruning goes by.
    createdAt: iso(r.created_at), expiresAt: new Date(Date.parse(iso(r.created_at)) + REPORT_TTL_DAYS * DAY_MS).toISOString(),
    owner: { id: r.owner_id, name: r.owner_name },
    sharedBy: r.shared_by && r.shared_at ? { id: r.shared_by, name: r.shared_by_name ?? '', at: iso(r.shared_at) } : null,
    link: r.status === 'ready' ? await issueLink(deps, r.id, viewerId) : null,
  };
}

// ── generate ─────────────────────────────────────────────────────────────────────────────────
export async function generateReport(deps: ServiceDeps, caller: Caller, input: z.output<typeof generateReportInput>): Promise<ReportArtifact> {
  const period = resolvePeriod(deps, caller, input.filters.from, input.filters.to);
  // The read tools' own refusal: an id outside the downline is "not found", whoever it is.
  const player = input.filters.playerId ? await accountInScope(deps, caller, input.filters.playerId) : null;
  let fixtureName: string | null = null;
  if (input.filters.fixtureId) {
    const [fixture] = await queryRows<{ name: string }>(deps.db, sql`select name from fixtures where id = ${input.filters.fixtureId}`);
    if (!fixture) throw new TRPCError({ code: 'NOT_FOUND', message: 'fixture not found' });
    fixtureName = fixture.name;
  }
  const filters: ReportFilters = {
    from: period.from, to: period.to,
    ...(input.filters.playerId && { playerId: input.filters.playerId }), ...(input.filters.fixtureId && { fixtureId: input.filters.fixtureId }),
  };
  const source = await openRowSource(deps, caller, input.template, filters);
  if (source.rowsTotal > REPORT_MAX_ROWS) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `that report would have ${source.rowsTotal.toLocaleString('en-US')} rows (at most ${REPORT_MAX_ROWS.toLocaleString('en-US')}): narrow the dates or pick a player or match` });
  }
  const realNow = deps.realNow();
  const [busy] = await queryRows<{ n: string | number }>(deps.db, sql`
    select count(*) as n from report_artifacts where owner_id = ${caller.id} and status = 'running'
      and updated_at > ${new Date(realNow.getTime() - REPORT_STALE_MS).toISOString()}::timestamptz`);
  if (Number(busy?.n ?? 0) >= REPORT_MAX_RUNNING) {
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `${REPORT_MAX_RUNNING} of your reports are still being made: wait for one, or cancel one` });
  }

  const title = `${REPORT_TEMPLATE_TITLES[input.template]}, ${formatPeriod(period)}, ${caller.name}`;
  const fileName = `${FILE_STEMS[input.template]}_${period.from}_${period.to}.${input.format}`;
  const id = randomUUID();
  const expiresAt = new Date(realNow.getTime() + REPORT_TTL_DAYS * DAY_MS);
  // One stamp for the list's "Made …" and the file's "Generated …": the business clock's, as every time the desk shows.
  const made = deps.now();
  await queryRows(deps.db, sql`
    insert into report_artifacts (id, owner_id, template, format, filters, content, created_at, expires_at, status, title, file_name,
      rows_done, rows_total, updated_at)
    values (${id}, ${caller.id}, ${input.template}, ${input.format}, ${JSON.stringify(filters)}::jsonb, null, ${made.toISOString()}::timestamptz,
      ${expiresAt.toISOString()}::timestamptz, 'running', ${title}, ${fileName}, 0, ${source.rowsTotal}, ${realNow.toISOString()}::timestamptz)`);

  const words = [player && `Player: ${player.name}`, fixtureName && `Match: ${fixtureName}`,
    `Generated ${formatDateTime(made.toISOString(), caller.timezone)} (${caller.timezone})`].filter(Boolean);
  const heading = { title, sheetName: REPORT_TEMPLATE_TITLES[input.template].slice(0, 31), subtitle: words.join(' · '), legend: source.legend, timezone: caller.timezone };
  // Read before the job starts: the answer is the job as it began (running, nothing written yet),
  // not whatever a small report had reached by the time the read came back.
  const started = await toArtifact(deps, caller.id, await visibleArtifact(deps, caller.id, id));
  const jobs = jobsOf(deps);
  const abort = new AbortController();
  const done = runJob(deps, id, input.format, heading, source, abort.signal).finally(() => jobs.running.delete(id));
  jobs.running.set(id, { abort, done });
  return started;
}

/** Writes the file a batch at a time, reporting progress; ends ready, failed or cancelled, never half-written. */
async function runJob(
  deps: ServiceDeps, id: string, format: Format, heading: ReportHeading,
  source: Awaited<ReturnType<typeof openRowSource>>, signal: AbortSignal,
): Promise<void> {
  let dir: string | null = null;
  // The writer's thread starts (its modules load, on the other core) while the first batch is read.
  let opening: Promise<ThreadedReportWriter> | null = null;
  let finished = false;
  try {
    // Let generate answer before the first page is read.
    await yieldToEventLoop();
    dir = await mkdtemp(join(tmpdir(), 'agent-desk-report-'));
    const path = join(dir, `report.${format}`);
    opening = openWriterThread(format, path, heading, source.columns);
    // A thread that fails to start is reported where the first batch waits for it.
    opening.catch(() => undefined);
    let rowsDone = 0;
    let reported = 0;
    const progress = async () => {
      reported = rowsDone;
      // Also how a cancel made on another instance reaches this one: the row is no longer running.
      const still = await queryRows(deps.db, sql`
        update report_artifacts set rows_done = ${rowsDone}, updated_at = ${deps.realNow().toISOString()}::timestamptz
        where id = ${id} and status = 'running' returning id`);
      if (still.length === 0) throw new Cancelled();
    };
    for await (const lines of readAhead(source.batches())) {
      if (signal.aborted) throw new Cancelled();
      await reportJobHooks.beforeBatch?.(id);
      if (signal.aborted) throw new Cancelled();
      await (await opening).write(lines);
      rowsDone += lines.filter((l) => l.type === 'row').length;
      if (rowsDone - reported >= PROGRESS_EVERY_ROWS) await progress();
      // Other calls on this backend get their turn between batches.
      await yieldToEventLoop();
    }
    const sizeBytes = await (await opening).finish();
    finished = true;
    if (signal.aborted) throw new Cancelled();
    const content = await readFile(path);
    // rowsTotal follows what was written: a live book may have moved since the count. The file
    // goes over as hex text, which the database decodes: PGlite's own bytea parameter is written
    // out byte by byte in JavaScript, seconds for a 6 MB file.
    await queryRows(deps.db, sql`
      update report_artifacts set status = 'ready', content = decode(${content.toString('hex')}, 'hex'), size_bytes = ${sizeBytes}, rows_done = ${rowsDone},
        rows_total = ${rowsDone}, updated_at = ${deps.realNow().toISOString()}::timestamptz
      where id = ${id} and status = 'running'`);
  } catch (error) {
    if (error instanceof Cancelled) return;
    const message = error instanceof TRPCError ? error.message : writeFailure(error);
    await queryRows(deps.db, sql`
      update report_artifacts set status = 'failed', error = ${message.slice(0, 300)}, content = null,
        updated_at = ${deps.realNow().toISOString()}::timestamptz
      where id = ${id} and status = 'running'`).catch(() => undefined);
  } finally {
    // Stopped (cancelled, or a read or write failed) before the file was finished: its thread too.
    if (opening && !finished) await (await opening.catch(() => null))?.abandon();
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Why a job's file could not be written, in the words its owner is shown. */
function writeFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the report could not be written: the disk for report files is full; try again once space is freed';
  return 'the report could not be written (internal error)';
}

// ── read side ────────────────────────────────────────────────────────────────────────────────
export async function getReport(deps: ServiceDeps, caller: Caller, artifactId: string): Promise<ReportArtifact> {
  return toArtifact(deps, caller.id, await visibleArtifact(deps, caller.id, artifactId));
}

export async function listReports(deps: ServiceDeps, caller: Caller, limit: number): Promise<{ reports: ReportArtifact[] }> {
  const rows = await queryRows<ArtifactRow>(deps.db, sql`
    select * from (${visibleArtifacts(deps, caller.id)}) v order by coalesce(v.shared_at, v.created_at) desc, v.id limit ${limit}`);
  const reports: ReportArtifact[] = [];
  for (const row of rows) reports.push(await toArtifact(deps, caller.id, row));
  return { reports };
}

export async function cancelReport(deps: ServiceDeps, caller: Caller, artifactId: string): Promise<ReportArtifact> {
  await ownArtifact(deps, caller, artifactId, 'cancel');
  await queryRows(deps.db, sql`
    update report_artifacts set status = 'cancelled', content = null, updated_at = ${deps.realNow().toISOString()}::timestamptz
    where id = ${artifactId} and status = 'running'`);
  // Not awaited: the row says cancelled already, and the job's own writes only ever touch a running row.
  jobsOf(deps).running.get(artifactId)?.abort.abort();
  return getReport(deps, caller, artifactId);
}

export async function deleteReport(deps: ServiceDeps, caller: Caller, artifactId: string): Promise<{ ok: true }> {
  await ownArtifact(deps, caller, artifactId, 'delete');
  jobsOf(deps).running.get(artifactId)?.abort.abort();
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`delete from report_shares where artifact_id = ${artifactId}`);
    await tx.execute(sql`delete from report_artifacts where id = ${artifactId} and owner_id = ${caller.id}`);
  });
  return { ok: true };
}

/** Where a link's bytes are: after the link, the presenter and the artifact are all checked. */
async function linkedContent(deps: ServiceDeps, presenter: Pick<Caller, 'id'>, link: ReportLink) {
  await checkLink(deps, presenter.id, link);
  const row = await visibleArtifact(deps, presenter.id, link.artifactId);
  if (row.status !== 'ready' || row.size_bytes === null) throw new TRPCError({ code: 'NOT_FOUND', message: 'report not found' });
  return { fileName: row.file_name, contentType: CONTENT_TYPES[row.format], totalBytes: Number(row.size_bytes) };
}

async function contentSlice(deps: ServiceDeps, artifactId: string, offset: number, length: number): Promise<Buffer> {
  // As hex text, decoded here natively: PGlite parses a bytea answer in JavaScript, byte by byte.
  const [row] = await queryRows<{ chunk: string | null }>(deps.db, sql`
    select encode(substring(content from ${offset + 1}::integer for ${length}::integer), 'hex') as chunk from report_artifacts where id = ${artifactId}`);
  // Deleted or pruned between chunks: the download stops rather than ending short and looking whole.
  if (typeof row?.chunk !== 'string') throw new TRPCError({ code: 'NOT_FOUND', message: 'report not found' });
  return Buffer.from(row.chunk, 'hex');
}

/** `reports.read`: one chunk, base64, for a desk with no HTTP to the backend. */
export async function readReport(deps: ServiceDeps, caller: Caller, input: { link: ReportLink; offset: number }) {
  const file = await linkedContent(deps, caller, input.link);
  if (input.offset > file.totalBytes) throw new TRPCError({ code: 'BAD_REQUEST', message: `offset ${input.offset} is past the end (${file.totalBytes} bytes)` });
  const length = Math.min(REPORT_CHUNK_BYTES, file.totalBytes - input.offset);
  const data = length > 0 ? await contentSlice(deps, input.link.artifactId, input.offset, length) : Buffer.alloc(0);
  return { ...file, offset: input.offset, data: data.toString('base64') };
}

/** The HTTP download: the checks of `reports.read`, then the bytes in chunks. */
export async function openDownload(deps: ServiceDeps, presenter: Pick<Caller, 'id'>, link: ReportLink) {
  const file = await linkedContent(deps, presenter, link);
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let offset = 0; offset < file.totalBytes; offset += REPORT_CHUNK_BYTES) {
      yield await contentSlice(deps, link.artifactId, offset, Math.min(REPORT_CHUNK_BYTES, file.totalBytes - offset));
    }
  }
  return { ...file, chunks };
}

// ── sharing ──────────────────────────────────────────────────────────────────────────────────
interface ShareInput { artifactId: string; recipient: string; channel: 'notification' }

interface ShareCheck {
  artifact: ArtifactRow; recipientId: string; recipientName: string; refusal: string | null;
  /** How the write refuses: an unknown recipient as not found, like every read of an id out of reach. */
  refusalCode: 'NOT_FOUND' | 'FORBIDDEN' | 'PRECONDITION_FAILED';
}

async function checkShare(deps: ServiceDeps, caller: Caller, input: ShareInput): Promise<ShareCheck> {
  const artifact = await visibleArtifact(deps, caller.id, input.artifactId);
  const recipientId = input.recipient === 'self' ? caller.id : input.recipient;
  let recipientName = caller.name;
  let refusal: string | null = null;
  let refusalCode: ShareCheck['refusalCode'] = 'FORBIDDEN';
  if (recipientId !== caller.id) {
    try {
      recipientName = (await accountInScope(deps, caller, recipientId, 'recipient')).name;
    } catch (error) {
      if (!(error instanceof TRPCError) || error.code !== 'NOT_FOUND') throw error;
      // No name: the id may be someone the caller must not learn anything about.
      recipientName = '';
      refusal = 'a report can be shared only with yourself or someone in your downline';
      refusalCode = 'NOT_FOUND';
    }
  }
  if (artifact.owner_id !== caller.id) {
    refusal = 'only the report\'s owner can share it';
    refusalCode = 'FORBIDDEN';
  } else if (artifact.status !== 'ready') {
    refusal = `the report is ${artifact.status}, not ready: only a finished report can be shared`;
    refusalCode = 'PRECONDITION_FAILED';
  }
  return { artifact, recipientId, recipientName, refusal, refusalCode };
}

async function shareOf(db: Db, artifactId: string, recipientId: string) {
  const [row] = await queryRows<{ shared_at: Date | string }>(db, sql`
    select shared_at from report_shares where artifact_id = ${artifactId} and recipient_id = ${recipientId}`);
  return row ?? null;
}

export async function previewShare(deps: ServiceDeps, caller: Caller, input: ShareInput) {
  const check = await checkShare(deps, caller, input);
  return {
    artifactId: check.artifact.id, title: check.artifact.title, recipientId: check.recipientId, recipientName: check.recipientName,
    alreadyShared: check.refusal === null && (await shareOf(deps.db, check.artifact.id, check.recipientId)) !== null,
    refusal: check.refusal,
  };
}

/** Sends the report: one share row and its audit link, once per idempotency key. */
export async function shareReport(deps: ServiceDeps, caller: Caller, input: ShareInput & { idempotencyKey: string }, meta: { requestId: string }) {
  const { idempotencyKey, ...params } = input;
  return withIdempotency(deps, caller, 'reports.share', idempotencyKey, params, async (tx) => {
    const check = await checkShare({ ...deps, db: tx }, caller, params);
    if (check.refusal) throw new TRPCError({ code: check.refusalCode, message: check.refusal });
    const sharedAt = deps.now();
    const inserted = await queryRows(tx, sql`
      insert into report_shares (artifact_id, recipient_id, shared_by, shared_at)
      values (${check.artifact.id}, ${check.recipientId}, ${caller.id}, ${sharedAt.toISOString()}::timestamptz)
      on conflict (artifact_id, recipient_id) do nothing returning artifact_id`);
    const base = { ok: true as const, artifactId: check.artifact.id, recipientId: check.recipientId, recipientName: check.recipientName };
    if (inserted.length === 0) {
      // Shared before: nothing new is written, so nothing new is audited.
      const existing = await shareOf(tx, check.artifact.id, check.recipientId);
      return { ...base, sharedAt: iso(existing?.shared_at ?? sharedAt), auditId: null, anchor: null, noOp: true };
    }
    const audit = await appendAudited(tx, deps, caller.id, {
      action: 'reports.share', targetId: check.artifact.id, before: null,
      after: { recipientId: check.recipientId, title: check.artifact.title, fileName: check.artifact.file_name, channel: params.channel },
      requestId: meta.requestId, idempotencyKey,
    });
    return { ...base, sharedAt: sharedAt.toISOString(), auditId: audit.id, anchor: audit.anchor, noOp: false };
  });
}

// ── pruning ──────────────────────────────────────────────────────────────────────────────────
/**
 * Deletes expired artifacts (their shares go with them) and fails running ones no job has
 * touched for REPORT_STALE_MS: a backend that stopped mid-report leaves no one to finish it.
 */
export async function pruneReports(deps: ServiceDeps): Promise<{ deleted: number; interrupted: number }> {
  const now = deps.realNow();
  const deleted = await queryRows(deps.db, sql`
    delete from report_artifacts where expires_at <= ${now.toISOString()}::timestamptz returning id`);
  const interrupted = await queryRows(deps.db, sql`
    update report_artifacts set status = 'failed', error = 'interrupted: the backend stopped while writing it', content = null
    where status = 'running' and updated_at < ${new Date(now.getTime() - REPORT_STALE_MS).toISOString()}::timestamptz
    returning id`);
  return { deleted: deleted.length, interrupted: interrupted.length };
}

/** Prunes now and then hourly (the timer never keeps the process up); `stop` also ends running jobs. */
export async function startReportMaintenance(deps: ServiceDeps, onError: (error: unknown) => void = () => {}): Promise<{ stop(): Promise<void> }> {
  const jobs = jobsOf(deps);
  const prune = () => pruneReports(deps).catch(onError);
  await prune();
  if (jobs.timer) clearInterval(jobs.timer);
  jobs.timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  jobs.timer.unref();
  return {
    async stop() {
      if (jobs.timer) clearInterval(jobs.timer);
      jobs.timer = null;
      const ids = [...jobs.running.keys()];
      const running = [...jobs.running.values()];
      for (const job of running) job.abort.abort();
      await Promise.all(running.map((job) => job.done));
      // Said now rather than left for the stale sweep: no one is writing these any more.
      if (ids.length > 0) {
        await queryRows(deps.db, sql`
          update report_artifacts set status = 'failed', error = 'interrupted: the backend stopped while writing it', content = null
          where status = 'running' and id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`).catch(onError);
      }
    },
  };
}
