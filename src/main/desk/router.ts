import { randomUUID } from 'node:crypto';
import { TRPCClientError } from '@trpc/client';
import { TRPCError, initTRPC } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { z } from 'zod';
import * as api from '../../shared/contracts/agent-api.js';
import type { Logger } from '../../infra/log.js';
import type { BackendClient, BackendConnection } from '../backend/connection.js';
import { isBackendUnreachable } from '../backend/unreachable.js';
import { deadlineSignal } from '../backend/deadline.js';
import {
  chatCancelRequest, chatConfirmRequest, chatConversationInput, chatConversationsInput, chatConversationsOutput, chatEditRequest, chatHistoryInput, chatHistoryOutput, chatMessageSchema, chatTurnInput,
  declineReason,
} from '../../shared/contracts/chat.js';
import { checkKeyOutput, modelSettingsPatch, modelSettingsView, setApiKeyInput, stopTurnInput } from '../../shared/contracts/model-settings.js';
import { auditListOutput } from '../../shared/contracts/audit.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';
import type { ChatService } from '../assistant/chat-service.js';
import type { Approvals } from '../confirm/approvals.js';
import { ProposalEditRefused } from '../confirm/proposals.js';
import { type StepUpRefusal, StepUpRefused } from '../confirm/step-up.js';
import { approvalView } from '../../shared/contracts/approvals.js';
import type { ModelSettingsService } from '../assistant/claude/settings-service.js';
import { SecretStoreError } from '../secrets/secret-store.js';
import type { AuditLog } from '../audit/audit-log.js';
import { executedAnchors, readAnchors, verifyAuditLog } from '../audit/verify.js';
import { toolLabel } from '../tools/index.js';
import { withoutLink } from '../tools/generate-report.js';
import {
  type ReportArtifact, type ReportLink, REPORT_CHUNK_BYTES, reportArtifact, reportsGetInput, reportsListInput,
} from '../../shared/contracts/reports.js';
import { DASHBOARD_TOP_MARKETS, exportTableInput } from '../../shared/contracts/table-export.js';
import { type FileSaver, safeFileName, saveResult } from './file-saver.js';
import { exportTable } from './table-export.js';
import type { DeskSessions } from './sessions.js';
import { AlertInputError, type DeskAlerts, deskAlertsUpdateInput, markReadInput } from './alerts.js';

/** Main's services behind the desk router, made once at the composition root. */
export interface DeskServices {
  sessions: DeskSessions;
  backend: BackendConnection;
  log: Logger;
  chat: ChatService;
  audit: AuditLog;
  models: ModelSettingsService;
  /** Where saved reports go (the shell's native dialog or its download addresses); none: saving is refused. */
  files?: FileSaver | undefined;
  /** The users' live event feeds; none: the bell is refused. */
  alerts?: DeskAlerts | undefined;
  /** Changes asked for over MCP, waiting for the user; none: the Approvals page is refused. */
  approvals?: Approvals | undefined;
  /** The MCP server's audit log beside main's (changes an older MCP server confirmed in a client's form), read and verified with it. */
  mcpAudit?: AuditLog | undefined;
}

/**
 * What every desk call knows: the slot its transport vouched for (window or browser cookie) after
 * checking the sender, and main's services. Nothing in it comes from the renderer's payload.
 */
export interface DeskContext extends DeskServices {
  slot: string;
  /** The browser shell's: its slots are cookies. Electron's slots are windows and have none. */
  cookieSlot?: CookieSlot | undefined;
}

/**
 * A slot kept in a browser cookie. A page elsewhere on this host can plant a cookie for it, and
 * whoever planted the slot a user signs in on would hold that session; so a sign-in moves the
 * session to a new slot, and the page trades a claim for the new cookie (`shared/contracts/slot-claim.ts`).
 */
export interface CookieSlot {
  /** Moves the calling connection, alone, to a new slot; the old one is forgotten with any session it held. Returns the new slot. */
  renew(): string;
  /** A one-time claim for the cookie of the connection's slot; null when the slot is no longer known. */
  claim(): string | null;
}

const t = initTRPC.context<DeskContext>().create({
  // As the backend's: an internal failure's own text (a model key, SQL) stays in main's log, on every transport.
  errorFormatter: ({ shape, error }) => ({
    ...shape, ...(error.code === 'INTERNAL_SERVER_ERROR' && { message: 'internal error' }), data: { ...shape.data, stack: undefined },
  }),
});

/** What the renderer is told when the backend does not answer: it retries with backoff until it does. */
export const BACKEND_UNREACHABLE = 'the backend is unreachable';

/**
 * Backend refusals keep their code and message; a backend that does not answer is
 * SERVICE_UNAVAILABLE (the renderer's "backend unreachable — retrying"); main's own refusals
 * pass as they are; anything else is an internal error.
 */
async function relay<T>(ctx: DeskContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isBackendUnreachable(error)) {
      ctx.log.warn('backend unreachable', { err: error });
      throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: BACKEND_UNREACHABLE });
    }
    if (error instanceof TRPCClientError) {
      const code = (error.data as { code?: TRPC_ERROR_CODE_KEY } | undefined)?.code ?? 'INTERNAL_SERVER_ERROR';
      // The backend no longer knows this session (expired or signed out elsewhere): forget it too.
      if (code === 'UNAUTHORIZED') ctx.sessions.clear(ctx.slot);
      throw new TRPCError({ code, message: error.message });
    }
    // Main's own refusal, with the words it chose for the user.
    if (error instanceof TRPCError) throw error;
    ctx.log.error('desk call failed', { err: error });
    throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'the backend could not be reached' });
  }
}

/** The fields a patch sets: an absent field stays as it is. */
function definedOnly<T extends object>(patch: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** A secret store's refusal ("no keychain here", "basic_text") is the user's to read; it never holds the key. */
async function refusable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof SecretStoreError) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: error.message });
    throw error;
  }
}

const STEP_UP_CODES: Record<StepUpRefusal, TRPC_ERROR_CODE_KEY> = {
  password_needed: 'BAD_REQUEST',
  wrong_password: 'FORBIDDEN',
  throttled: 'TOO_MANY_REQUESTS',
  unavailable: 'SERVICE_UNAVAILABLE',
};

/**
 * A proposal answer main turned down while the proposal stays open (a large change's password
 * missing or not accepted, an edit the guardrails refused): an error whose message the card shows
 * beside its field, not a message in the conversation.
 */
async function stillOpen<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof StepUpRefused) throw new TRPCError({ code: STEP_UP_CODES[error.reason], message: error.message });
    if (error instanceof ProposalEditRefused) throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: error.message });
    throw error;
  }
}

const signedIn = t.procedure.use(({ ctx, next }) => {
  const session = ctx.sessions.get(ctx.slot);
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
  return next({ ctx: { ...ctx, session, api: ctx.backend.client(session.token) } });
});



/** The largest report main will carry to a file (the backend's own limits are far below it). */
export const MAX_REPORT_BYTES = 64 * 1024 * 1024;

const CONTENT_TYPES = { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', pdf: 'application/pdf' } as const;

/** A report as the page sees it: never its signed link, which main alone follows. */
const reportView = reportArtifact.omit({ link: true });

/**
 * A ready report's bytes, through a fresh signed link: over HTTP from a backend server when the
 * link is an address there (the session's token with it), else in chunks through `reports.read`,
 * which the embedded backend answers in-process.
 */
async function readReport(ctx: DeskContext & { api: BackendClient; session: { token: string } }, artifact: ReportArtifact): Promise<{ bytes: Uint8Array; contentType: string }> {
  const link = artifact.link;
  if (!link) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'the report has no download link yet' });
  if (ctx.backend.mode === 'remote' && ctx.backend.url) return fetchReport(new URL(link.url, ctx.backend.url).toString(), ctx.session.token, artifact);
  return readChunks(ctx, link.parts, artifact);
}

async function fetchReport(url: string, token: string, artifact: ReportArtifact): Promise<{ bytes: Uint8Array; contentType: string }> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, redirect: 'error', signal: deadlineSignal(60_000) });
  } catch (error) {
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: BACKEND_UNREACHABLE, cause: error });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new TRPCError({ code: res.status === 404 ? 'NOT_FOUND' : res.status === 403 || res.status === 401 ? 'FORBIDDEN' : 'BAD_GATEWAY', message: `the backend refused the download (${res.status})` });
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_REPORT_BYTES) {
    await res.body?.cancel();
    throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'the report is too large to save here' });
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.byteLength > MAX_REPORT_BYTES) throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'the report is too large to save here' });
  return { bytes, contentType: res.headers.get('content-type') ?? CONTENT_TYPES[artifact.format] };
}

async function readChunks(ctx: DeskContext & { api: BackendClient }, link: ReportLink, artifact: ReportArtifact): Promise<{ bytes: Uint8Array; contentType: string }> {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  let total = Number.POSITIVE_INFINITY;
  let contentType: string = CONTENT_TYPES[artifact.format];
  while (offset < total) {
    const chunk = await relay(ctx, () => ctx.api.reports.read.query({ link, offset }));
    if (chunk.totalBytes > MAX_REPORT_BYTES) throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'the report is too large to save here' });
    total = chunk.totalBytes;
    contentType = chunk.contentType;
    const data = Buffer.from(chunk.data, 'base64');
    // A chunk must move forward and stay within the file, or the loop would never end.
    if (chunk.offset !== offset || (data.byteLength === 0 && offset < total) || data.byteLength > REPORT_CHUNK_BYTES || offset + data.byteLength > total) {
      throw new TRPCError({ code: 'BAD_GATEWAY', message: 'the backend sent a damaged part of the report' });
    }
    chunks.push(data);
    offset += data.byteLength;
  }
  return { bytes: Buffer.concat(chunks), contentType };
}

function saverOf(ctx: DeskContext): FileSaver {
  if (!ctx.files) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'this desk cannot save files' });
  return ctx.files;
}

function alertsOf(ctx: DeskContext): DeskAlerts {
  if (!ctx.alerts) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'this desk has no alerts' });
  return ctx.alerts;
}

function approvalsOf(ctx: DeskContext): Approvals {
  if (!ctx.approvals) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'this desk takes no approvals' });
  return ctx.approvals;
}

const approvalConfirmInput = z.strictObject({ id: api.id, password: api.loginInput.shape.password.optional() });
const approvalDeclineInput = z.strictObject({ id: api.id, reason: declineReason.optional() });
/** The backend's pending approvals, each with whether its Confirm asks for the password again. */
const deskApprovalsOutput = z.strictObject({ approvals: z.array(approvalView.extend({ needsPassword: z.boolean() })) });

const savedFileInput = z.strictObject({ savedId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

export const deskRouter = t.router({
  session: t.router({
    me: t.procedure.query(({ ctx }) => ctx.sessions.get(ctx.slot)?.user ?? null),
    // Always the desk's own scope: the page names a user and a password, never what the session may do.
    login: t.procedure.input(api.loginInput.omit({ scope: true })).mutation(async ({ ctx, input }) => {
      const result = await relay(ctx, () => ctx.backend.client(null).auth.login.mutate({ ...input, scope: 'desk' }));
      const slot = ctx.cookieSlot?.renew() ?? ctx.slot;
      ctx.sessions.set(slot, { token: result.token, user: result.user, expiresAt: result.expiresAt });
      return result.user;
    }),
    /** What the page trades for the signed-in slot's cookie (see CookieSlot); null where slots are not cookies. */
    cookieClaim: signedIn.mutation(({ ctx }) => ctx.cookieSlot?.claim() ?? null),
    /** The backend's business time (a demo book runs on its own clock). */
    clock: signedIn.query(async ({ ctx }) => {
      const { now, clock } = await relay(ctx, () => ctx.api.auth.me.query());
      ctx.backend.clock.read(now, clock);
      return { now: ctx.backend.clock.now().toISOString(), kind: ctx.backend.clock.kind };
    }),
    logout: t.procedure.mutation(async ({ ctx }) => {
      const session = ctx.sessions.get(ctx.slot);
      ctx.sessions.clear(ctx.slot);
      if (session) await relay(ctx, () => ctx.backend.client(session.token).auth.logout.mutate()).catch(() => undefined);
      return { ok: true as const };
    }),
  }),
  panel: t.router({
    /** The dashboard in one call: the book's take, own CL and available, today's result, exposure, top markets. */
    dashboard: signedIn.query(async ({ ctx }) => {
      const a: BackendClient = ctx.api;
      const isAgent = ctx.session.user.role === 'agent';
      const [take, upline, pnlToday, exposure, topMarkets] = await Promise.all([
        relay(ctx, () => a.agent.getTake.query({ limit: 1 })),
        isAgent ? relay(ctx, () => a.agent.getUpline.query({})) : Promise.resolve(null),
        relay(ctx, () => a.agent.getPnL.query({ limit: 1 })),
        relay(ctx, () => a.agent.getLiveExposure.query({})),
        relay(ctx, () => a.agent.getTopMarkets.query(DASHBOARD_TOP_MARKETS)),
      ]);
      return {
        user: ctx.session.user,
        downlineTake: take.totals,
        upline,
        today: { period: pnlToday.period, ...pnlToday.total },
        exposure: exposure.total,
        topMarkets: topMarkets.rows,
      };
    }),
    downline: signedIn.input(api.getDownlineInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getDownline.query(input))),
    take: signedIn.input(api.getTakeInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getTake.query(input))),
    creditLimits: signedIn.input(api.getCreditLimitInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getCreditLimit.query(input))),
    /** Everything the player page shows, in one call. */
    player: signedIn.input(z.strictObject({ playerId: api.id, from: api.isoDate.optional(), to: api.isoDate.optional() }))
      .query(async ({ ctx, input }) => {
        const a = ctx.api;
        const [limits, take, pnl, bets, settlements] = await Promise.all([
          relay(ctx, () => a.agent.getCreditLimit.query({ playerId: input.playerId })),
          relay(ctx, () => a.agent.getTake.query({ playerId: input.playerId })),
          relay(ctx, () => a.agent.getPnL.query({ playerId: input.playerId, ...(input.from && { from: input.from }), ...(input.to && { to: input.to }) })),
          relay(ctx, () => a.agent.getBetHistory.query({ playerId: input.playerId, limit: 100 })),
          relay(ctx, () => a.agent.getSettlementHistory.query({ counterpartyId: input.playerId, limit: 50 })),
        ]);
        return { limits: limits.rows[0] ?? null, take: take.rows[0] ?? null, pnl, bets, settlements: settlements.rows };
      }),
    bets: signedIn.input(api.getBetHistoryInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getBetHistory.query(input))),
    exposure: signedIn.input(api.getLiveExposureInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getLiveExposure.query(input))),
    pnl: signedIn.input(api.getPnLInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getPnL.query(input))),
    commission: signedIn.input(api.getCommissionInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getCommission.query(input))),
    settlements: signedIn.input(api.getSettlementHistoryInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getSettlementHistory.query(input))),
    statement: signedIn.input(api.getStatementInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getStatement.query(input))),
    topMarkets: signedIn.input(api.getTopMarketsInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.getTopMarkets.query(input))),
    searchPlayers: signedIn.input(api.searchPlayersInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.agent.searchPlayers.query(input))),
    searchFixtures: signedIn.input(api.searchFixturesInput).query(({ ctx, input }) => relay(ctx, () => ctx.api.match.searchFixtures.query(input))),
  }),
  chat: t.router({
    /** One assistant turn, streamed: start, plan, tool progress, cards, text, done. */
    turn: signedIn.input(chatTurnInput).subscription(async function* ({ ctx, input, signal }) {
      yield* ctx.chat.turn(input, { user: ctx.session.user, api: ctx.api }, signal);
    }),
    /** One page of the conversation by cursor: the panel never asks for, nor gets, the whole of it. */
    history: signedIn.input(chatHistoryInput).output(chatHistoryOutput).query(({ ctx, input }) => ctx.chat.history(ctx.session.user, input)),
    clear: signedIn.mutation(async ({ ctx }) => {
      await ctx.chat.clear(ctx.session.user);
      return { ok: true as const };
    }),
    /** The user's own conversations, latest first, or those a search finds (titles and messages). */
    conversations: signedIn.input(chatConversationsInput).output(chatConversationsOutput)
      .query(({ ctx, input }) => ctx.chat.listConversations(ctx.session.user, input.query)),
    /** Another of the user's conversations becomes the one the panel shows and turns add to. */
    open: signedIn.input(chatConversationInput).mutation(async ({ ctx, input }) => {
      if (!(await ctx.chat.open(ctx.session.user, input.id))) throw new TRPCError({ code: 'NOT_FOUND', message: 'No such conversation.' });
      return { ok: true as const };
    }),
    /** A new, empty conversation. */
    start: signedIn.mutation(async ({ ctx }) => {
      await ctx.chat.start(ctx.session.user);
      return { ok: true as const };
    }),
    /** Deletes one of the user's conversations. */
    remove: signedIn.input(chatConversationInput).mutation(async ({ ctx, input }) => {
      if (!(await ctx.chat.remove(ctx.session.user, input.id))) throw new TRPCError({ code: 'NOT_FOUND', message: 'No such conversation.' });
      return { ok: true as const };
    }),
    /** The human confirmation of a proposal card (with the password again for a large change): the only way a change is ever written. */
    confirm: signedIn.input(chatConfirmRequest).output(chatMessageSchema)
      .mutation(({ ctx, input }) => stillOpen(() => ctx.chat.confirm(input, { user: ctx.session.user, api: ctx.api }))),
    /** Declines a proposal, with the user's reason if they gave one. */
    cancel: signedIn.input(chatCancelRequest).output(chatMessageSchema)
      .mutation(({ ctx, input }) => ctx.chat.cancel(input, { user: ctx.session.user, api: ctx.api })),
    /** A new value typed on a proposal's card: a new preview and nonce; the old proposal can no longer be confirmed. */
    edit: signedIn.input(chatEditRequest).output(chatMessageSchema)
      .mutation(({ ctx, input }) => stillOpen(() => ctx.chat.edit(input, { user: ctx.session.user, api: ctx.api }))),
    /** Stop: the turn ends with what it had, saved as stopped. */
    stop: signedIn.input(stopTurnInput).mutation(({ ctx, input }) => ({ stopped: ctx.chat.stop(input.requestId, ctx.session.user) })),
  }),
  /** The Claude planner's key, models, budgets and usage (Settings page). The key goes in, never out. */
  settings: t.router({
    model: signedIn.output(modelSettingsView).query(({ ctx }) => ctx.models.view(ctx.session.user.timezone)),
    setApiKey: signedIn.input(setApiKeyInput).output(modelSettingsView)
      .mutation(({ ctx, input }) => refusable(() => ctx.models.setApiKey(input.key, ctx.session.user.timezone))),
    deleteApiKey: signedIn.output(modelSettingsView).mutation(({ ctx }) => refusable(() => ctx.models.deleteApiKey(ctx.session.user.timezone))),
    checkKey: signedIn.output(checkKeyOutput).mutation(({ ctx }) => ctx.models.checkKey()),
    update: signedIn.input(modelSettingsPatch).output(modelSettingsView).mutation(({ ctx, input }) => ctx.models.update(definedOnly(input), ctx.session.user.timezone)),
  }),
  /** Reports: the user's own and shared-with-them artifacts of the last 30 days, and saving one to a file. */
  reports: t.router({
    list: signedIn.input(reportsListInput).query(async ({ ctx, input }) => {
      const out = await relay(ctx, () => ctx.api.reports.list.query(input));
      return { reports: out.reports.map(withoutLink) };
    }),
    get: signedIn.input(reportsGetInput).output(reportView)
      .query(async ({ ctx, input }) => withoutLink(await relay(ctx, () => ctx.api.reports.get.query(input)))),
    cancel: signedIn.input(reportsGetInput).output(reportView)
      .mutation(async ({ ctx, input }) => withoutLink(await relay(ctx, () => ctx.api.reports.cancel.mutate(input)))),
    delete: signedIn.input(reportsGetInput).mutation(({ ctx, input }) => relay(ctx, () => ctx.api.reports.delete.mutate(input))),
    /** The same report made again (same template, format and filters): a new artifact, the old one left as it is. */
    regenerate: signedIn.input(reportsGetInput).output(reportView).mutation(async ({ ctx, input }) => {
      const old = await relay(ctx, () => ctx.api.reports.get.query(input));
      const { from, to, playerId, fixtureId } = old.filters;
      const made = await relay(ctx, () => ctx.api.reports.generate.mutate({
        template: old.template, format: old.format, filters: { from, to, ...(playerId && { playerId }), ...(fixtureId && { fixtureId }) },
      }));
      return withoutLink(made);
    }),
    /**
     * Saves a ready report: a fresh link (links last minutes), the bytes read by main, then the
     * shell's saver (the native dialog, or a one-time download address for this slot).
     */
    save: signedIn.input(reportsGetInput).output(saveResult).mutation(async ({ ctx, input }) => {
      const files = saverOf(ctx);
      const artifact = await relay(ctx, () => ctx.api.reports.get.query(input));
      if (artifact.status !== 'ready') throw new TRPCError({ code: 'PRECONDITION_FAILED', message: `the report is ${artifact.status}, not ready to save` });
      const { bytes, contentType } = await readReport(ctx, artifact);
      const type = /^[\w.+-]+\/[\w.+-]+$/.test(contentType) ? contentType : CONTENT_TYPES[artifact.format];
      return files.save({ slot: ctx.slot, fileName: safeFileName(artifact.fileName, artifact.format), contentType: type, bytes });
    }),
    /**
     * A page's table as a file (Excel, CSV, or a pdf where a report lays that table out): the
     * page's read with the page's filters and order, every page of it, as this user; then the
     * same saver as a report. A refused read or a bad input saves nothing.
     */
    exportTable: signedIn.input(exportTableInput).output(saveResult).mutation(async ({ ctx, input }) => {
      const files = saverOf(ctx);
      const file = await relay(ctx, () => exportTable({ api: ctx.api, me: ctx.session.user, audit: ctx.audit }, input));
      return files.save({ slot: ctx.slot, fileName: safeFileName(file.fileName, input.format), contentType: file.contentType, bytes: file.bytes });
    }),
    /** Electron: the saved file in its folder, or opened; only files this window saved, by their id. */
    reveal: signedIn.input(savedFileInput).mutation(async ({ ctx, input }) => ({ ok: (await saverOf(ctx).reveal?.(ctx.slot, input.savedId)) ?? false })),
    open: signedIn.input(savedFileInput).mutation(async ({ ctx, input }) => ({ ok: (await saverOf(ctx).open?.(ctx.slot, input.savedId)) ?? false })),
    /** Which saver this desk has: the page offers "Open" only with the native one. */
    saver: signedIn.query(({ ctx }) => ({ kind: ctx.files?.kind ?? null })),
  }),
  /** Live alerts: the bell's feed and the user's alert settings, kept on the backend. */
  alerts: t.router({
    /** The bell's backlog, then each new event (muted or not, and whether the page should show it), reads and clicks. */
    feed: signedIn.subscription(async function* ({ ctx, signal }) {
      yield* alertsOf(ctx).feed(ctx.slot, ctx.session.user, signal);
    }),
    list: signedIn.query(({ ctx }) => alertsOf(ctx).list(ctx.slot, ctx.session.user)),
    settings: signedIn.query(({ ctx }) => relay(ctx, () => alertsOf(ctx).settings(ctx.slot, ctx.session.user, ctx.api))),
    update: signedIn.input(deskAlertsUpdateInput).mutation(({ ctx, input }) => {
      const alerts = alertsOf(ctx);
      let change: ReturnType<DeskAlerts['backendUpdate']>;
      try {
        change = alerts.backendUpdate(ctx.session.user, input);
      } catch (error) {
        if (error instanceof AlertInputError) throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
        throw error;
      }
      return relay(ctx, () => alerts.update(ctx.slot, ctx.session.user, ctx.api, change));
    }),
    markRead: signedIn.input(markReadInput).mutation(({ ctx, input }) => alertsOf(ctx).markRead(ctx.slot, ctx.session.user, input.upTo)),
  }),
  /**
   * Changes an MCP client asked for: the user's pending approvals, with the preview each
   * was asked with, and their answer. Confirming runs exactly the previewed call, once.
   */
  approvals: t.router({
    list: signedIn.output(deskApprovalsOutput).query(async ({ ctx }) => {
      const { approvals } = await relay(ctx, () => ctx.api.approvals.list.query({ status: 'pending' }));
      // Kept against real time (the MCP client waits on the expiry); shown on the desk's one clock.
      const shown = (iso: string) => ctx.backend.clock.fromWall(iso);
      return {
        approvals: approvals.map((a) => ({ ...a, createdAt: shown(a.createdAt), expiresAt: shown(a.expiresAt), needsPassword: approvalsOf(ctx).needsPassword(a.card) })),
      };
    }),
    confirm: signedIn.input(approvalConfirmInput)
      .mutation(({ ctx, input }) => stillOpen(() => approvalsOf(ctx).confirm(input.id, { user: ctx.session.user, api: ctx.api }, randomUUID(), input.password))),
    reject: signedIn.input(approvalDeclineInput).mutation(({ ctx, input }) => approvalsOf(ctx).reject(input.id, { user: ctx.session.user, api: ctx.api }, randomUUID(), input.reason)),
  }),
  audit: t.router({
    /**
     * The user's entries of main's audit log and what verifying it found: the file's own chain,
     * and the user's executed entries against the backend's records of those changes. Never
     * fails on what it reads (a damaged file, odd numbers, a backend that does not answer): each
     * is a finding or an unchecked verdict the page shows.
     */
    list: signedIn.output(auditListOutput).query(async ({ ctx }) => {
      const user = ctx.session.user.id;
      const readBackend = async (): Promise<Awaited<ReturnType<typeof readAnchors>> | null> => {
        try {
          return await readAnchors((afterSeq) => ctx.api.audit.anchors.query({ afterSeq, limit: PAGE_SIZE_MAX.auditRecords }));
        } catch (error) {
          // A lapsed session still ends the session; anything else leaves the file checked alone.
          if (error instanceof TRPCClientError && (error.data as { code?: unknown } | undefined)?.code === 'UNAUTHORIZED') {
            await relay(ctx, () => Promise.reject(error));
          }
          ctx.log.warn('audit records not read from the backend', { err: error });
          return null;
        }
      };
      let backend = await readBackend();
      let snapshot: { text: string; head: { seq: number; hash: string } | null };
      try {
        snapshot = await ctx.audit.snapshot();
      } catch (error) {
        return {
          entries: [],
          toolLabels: {},
          verification: {
            ok: false, backendChecked: false, count: 0, head: null, backend: null,
            findings: [{ where: 'the whole log', reason: `the file could not be read (${String(error).slice(0, 200)})`, entries: [], lines: [], anchors: [] }],
          },
        };
      }
      // An older MCP server's own log accounts for the changes it confirmed in a client's form; each
      // log is verified on its own, and neither's records count as missing from the other.
      const mcpText = ctx.mcpAudit ? await ctx.mcpAudit.text().catch(() => '') : '';
      const verify = () => {
        const desk = verifyAuditLog(snapshot.text, {
          user, anchors: backend?.anchors ?? null, backendHead: backend?.head ?? null, localHead: snapshot.head, claimedElsewhere: executedAnchors(mcpText, user),
        });
        if (mcpText === '') return desk;
        const mcp = verifyAuditLog(mcpText, { user, anchors: backend?.anchors ?? null, backendHead: backend?.head ?? null, claimedElsewhere: executedAnchors(snapshot.text, user) });
        const own = mcp.findings.filter((f) => f.entries.length > 0 || f.lines.length > 0);
        return {
          ...desk,
          ok: desk.ok && own.length === 0,
          findings: [...desk.findings, ...own.map((f) => ({ ...f, where: `the MCP server's log, ${f.where}`, entries: [], lines: [] }))].slice(0, 101),
        };
      };
      let verdict = verify();
      // A change confirmed while the records were read is in the file but not in what was read
      // (the backend commits before main appends): read the records once more before calling
      // an entry forged.
      const lastRead = backend?.anchors.at(-1)?.seq ?? 0;
      if (backend && verdict.findings.some((f) => f.entries.length > 0 && f.anchors.some((a) => a > lastRead))) {
        backend = await readBackend();
        verdict = verify();
      }
      const entries = verdict.entries.filter((e) => e.user === user).reverse();
      return {
        entries,
        toolLabels: Object.fromEntries(entries.map((e) => [e.tool, toolLabel(e.tool)])),
        verification: {
          ok: verdict.ok, backendChecked: verdict.backendChecked, count: verdict.count, head: verdict.head,
          backend: verdict.backend, findings: verdict.findings,
        },
      };
    }),
  }),
});

export type DeskRouter = typeof deskRouter;
