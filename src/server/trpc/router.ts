import * as actions from '../../shared/contracts/agent-actions.js';
import * as approvals from '../../shared/contracts/approvals.js';
import * as api from '../../shared/contracts/agent-api.js';
import * as events from '../../shared/contracts/events.js';
import * as reports from '../../shared/contracts/reports.js';
import { getAlertSettings, updateAlertSettings } from '../services/alerts.js';
import { claimApproval, createApproval, finishApproval, getApproval, listApprovals, rejectApproval } from '../services/approvals.js';
import { auditAnchors } from '../services/audit.js';
import { login, logout, resolveSession } from '../services/auth.js';
import { verifyCallerPassword } from '../services/step-up.js';
import { getCreditLimit, getDownline, getTake, getUpline } from '../services/book.js';
import { streamEvents } from '../services/events.js';
import { getLiveExposure } from '../services/exposure.js';
import { getBetHistory, getSettlementHistory } from '../services/history.js';
import { editLimit, previewEditLimit } from '../services/limits.js';
import { getCommission, getPnL, getTopMarkets } from '../services/pnl.js';
import {
  cancelReport, deleteReport, generateReport, getReport, listReports, previewShare, readReport, shareReport,
} from '../services/reports.js';
import { searchFixtures, searchPlayers } from '../services/search.js';
import { getStatement } from '../services/statement.js';
import { previewSettlement, settlePlayer } from '../services/settlements.js';
import { hedgePlaceInput, hedgePlaceOutput, hedgePreviewInput, hedgePreviewOutput, placeHedge, previewHedge } from '../services/hedge.js';
import { marketPrices, marketPricesInput, marketPricesOutput, marketSettleInput, marketSettleOutput, settleMarketAsAdmin } from '../services/markets.js';
import { authedProcedure, deskProcedure, deskWriteProcedure, publicProcedure, router } from './init.js';

export const appRouter = router({
  auth: router({
    login: publicProcedure.input(api.loginInput).output(api.loginOutput)
      .mutation(async ({ ctx, input }) => {
        const session = await login(ctx.deps, input.username, input.password, { clientAddress: ctx.clientAddress, log: ctx.log, ...(input.scope && { scope: input.scope }) });
        // A desk calls as soon as it has signed in: its session is looked up once now, so that
        // its first calls find it in the cache instead of each paying the lookup at the busiest moment.
        await resolveSession(ctx.deps, session.token);
        return session;
      }),
    logout: authedProcedure.mutation(async ({ ctx }) => {
      await logout(ctx.deps, ctx.token!);
      return { ok: true as const };
    }),
    /** The caller, and the backend's business time: clients date "today" by it, not by their own clock. */
    me: authedProcedure.output(api.meOutput).query(({ ctx }) => ({
      id: ctx.caller.id, username: ctx.caller.username, name: ctx.caller.name, role: ctx.caller.role, timezone: ctx.caller.timezone,
      now: ctx.deps.now().toISOString(), clock: ctx.deps.clockKind ?? 'real',
    })),
    /** Step-up before a large change is confirmed: the user's password again, throttled as a sign-in. Desk sessions only. */
    verifyPassword: deskWriteProcedure.input(api.verifyPasswordInput).output(api.verifyPasswordOutput)
      .mutation(({ ctx, input }) => verifyCallerPassword(ctx.deps, ctx.caller, input.password, { clientAddress: ctx.clientAddress, log: ctx.log })),
  }),
  agent: router({
    searchPlayers: deskProcedure.input(api.searchPlayersInput).output(api.searchPlayersOutput)
      .query(async ({ ctx, input }) => ({ players: await searchPlayers(ctx.deps, ctx.caller, input.query, input.limit) })),
    getDownline: deskProcedure.input(api.getDownlineInput).output(api.getDownlineOutput)
      .query(({ ctx, input }) => getDownline(ctx.deps, ctx.caller, input)),
    getTake: deskProcedure.input(api.getTakeInput).output(api.getTakeOutput)
      .query(({ ctx, input }) => getTake(ctx.deps, ctx.caller, input)),
    getCreditLimit: deskProcedure.input(api.getCreditLimitInput).output(api.getCreditLimitOutput)
      .query(({ ctx, input }) => getCreditLimit(ctx.deps, ctx.caller, input)),
    getLiveExposure: deskProcedure.input(api.getLiveExposureInput).output(api.getLiveExposureOutput)
      .query(({ ctx, input }) => getLiveExposure(ctx.deps, ctx.caller, input)),
    getPnL: deskProcedure.input(api.getPnLInput).output(api.getPnLOutput)
      .query(({ ctx, input }) => getPnL(ctx.deps, ctx.caller, input)),
    getCommission: deskProcedure.input(api.getCommissionInput).output(api.getCommissionOutput)
      .query(({ ctx, input }) => getCommission(ctx.deps, ctx.caller, input)),
    getSettlementHistory: deskProcedure.input(api.getSettlementHistoryInput).output(api.getSettlementHistoryOutput)
      .query(({ ctx, input }) => getSettlementHistory(ctx.deps, ctx.caller, input)),
    getStatement: deskProcedure.input(api.getStatementInput).output(api.getStatementOutput)
      .query(({ ctx, input }) => getStatement(ctx.deps, ctx.caller, input)),
    getBetHistory: deskProcedure.input(api.getBetHistoryInput).output(api.getBetHistoryOutput)
      .query(({ ctx, input }) => getBetHistory(ctx.deps, ctx.caller, input)),
    getUpline: deskProcedure.input(api.getUplineInput).output(api.getUplineOutput)
      .query(({ ctx }) => getUpline(ctx.deps, ctx.caller)),
    getTopMarkets: deskProcedure.input(api.getTopMarketsInput).output(api.getTopMarketsOutput)
      .query(({ ctx, input }) => getTopMarkets(ctx.deps, ctx.caller, input)),
  }),
  match: router({
    searchFixtures: deskProcedure.input(api.searchFixturesInput).output(api.searchFixturesOutput)
      .query(async ({ ctx, input }) => ({ fixtures: await searchFixtures(ctx.deps, input.query, input.limit) })),
  }),
  /** Limits: a dry run, and the write with its idempotency key and the value the preview showed. */
  limits: router({
    preview: deskProcedure.input(actions.limitsPreviewInput).output(actions.limitsPreviewOutput)
      .query(({ ctx, input }) => previewEditLimit(ctx.deps, ctx.caller, input)),
    edit: deskWriteProcedure.input(actions.limitsEditInput).output(actions.limitsEditOutput)
      .mutation(({ ctx, input }) => editLimit(ctx.deps, ctx.caller, input, { requestId: ctx.requestId })),
  }),
  /** Settlements of a pair (account → its upline): a dry run, and the write. */
  settlements: router({
    preview: deskProcedure.input(actions.settlementsPreviewInput).output(actions.settlementsPreviewOutput)
      .query(({ ctx, input }) => previewSettlement(ctx.deps, ctx.caller, input)),
    settle: deskWriteProcedure.input(actions.settlementsSettleInput).output(actions.settlementsSettleOutput)
      .mutation(({ ctx, input }) => settlePlayer(ctx.deps, ctx.caller, input, { requestId: ctx.requestId })),
  }),
  /**
   * Reports: a background job per artifact, made as the caller (so it holds only what the caller
   * may read), downloaded through signed links, shared through preview and confirm like money.
   */
  reports: router({
    generate: deskProcedure.input(reports.reportsGenerateInput).output(reports.reportArtifact)
      .mutation(({ ctx, input }) => generateReport(ctx.deps, ctx.caller, input)),
    get: deskProcedure.input(reports.reportsGetInput).output(reports.reportArtifact)
      .query(({ ctx, input }) => getReport(ctx.deps, ctx.caller, input.artifactId)),
    list: deskProcedure.input(reports.reportsListInput).output(reports.reportsListOutput)
      .query(({ ctx, input }) => listReports(ctx.deps, ctx.caller, input.limit)),
    cancel: deskWriteProcedure.input(reports.reportsCancelInput).output(reports.reportArtifact)
      .mutation(({ ctx, input }) => cancelReport(ctx.deps, ctx.caller, input.artifactId)),
    delete: deskWriteProcedure.input(reports.reportsDeleteInput).output(reports.reportsDeleteOutput)
      .mutation(({ ctx, input }) => deleteReport(ctx.deps, ctx.caller, input.artifactId)),
    read: deskProcedure.input(reports.reportsReadInput).output(reports.reportsReadOutput)
      .query(({ ctx, input }) => readReport(ctx.deps, ctx.caller, input)),
    sharePreview: deskProcedure.input(reports.reportsShareInput).output(reports.reportsSharePreviewOutput)
      .query(({ ctx, input }) => previewShare(ctx.deps, ctx.caller, input)),
    share: deskWriteProcedure.input(reports.reportsShareWriteInput).output(reports.reportsShareOutput)
      .mutation(({ ctx, input }) => shareReport(ctx.deps, ctx.caller, input, { requestId: ctx.requestId })),
  }),
  /**
   * Hedge bets from the caller's self account (made on first use, in the upline's book): the bet
   * slip with the exposure before and after, and the write at the previewed price.
   */
  hedge: router({
    preview: deskProcedure.input(hedgePreviewInput).output(hedgePreviewOutput)
      .query(({ ctx, input }) => previewHedge(ctx.deps, ctx.caller, input)),
    place: deskWriteProcedure.input(hedgePlaceInput).output(hedgePlaceOutput)
      .mutation(({ ctx, input }) => placeHedge(ctx.deps, ctx.caller, input, { requestId: ctx.requestId })),
  }),
  /** Markets: the prices now; settling one is the platform's (the result feed), audited like any change. */
  markets: router({
    prices: deskProcedure.input(marketPricesInput).output(marketPricesOutput)
      .query(({ ctx, input }) => marketPrices(ctx.deps, input.marketId)),
    settle: deskWriteProcedure.input(marketSettleInput).output(marketSettleOutput)
      .mutation(({ ctx, input }) => settleMarketAsAdmin(ctx.deps, ctx.caller, input, { requestId: ctx.requestId })),
  }),
  /**
   * The caller's live events (SSE over HTTP): the backlog after `lastEventId`, then each as it
   * commits, tracked by outbox id so a reconnecting client resumes where it stopped.
   */
  events: router({
    stream: deskProcedure.input(events.eventsStreamInput)
      .subscription(({ ctx, input, signal }) => streamEvents(ctx.deps, ctx.caller, input.lastEventId ?? null, { signal, log: ctx.log })),
  }),
  /** The large-bet threshold and the mutes (applied by the desk; the stream sends every event). */
  alerts: router({
    get: deskProcedure.output(events.alertSettings)
      .query(({ ctx }) => getAlertSettings(ctx.deps, ctx.caller)),
    update: deskProcedure.input(events.alertsUpdateInput).output(events.alertSettings)
      .mutation(({ ctx, input }) => updateAlertSettings(ctx.deps, ctx.caller, input)),
  }),
  /**
   * Changes asked for over MCP, waiting for their owner: created with their preview,
   * answered once (claim, then finish; or reject), whichever process answers.
   */
  approvals: router({
    create: deskProcedure.input(approvals.approvalsCreateInput).output(approvals.approvalsCreateOutput)
      .mutation(({ ctx, input }) => createApproval(ctx.deps, ctx.caller, input)),
    list: deskProcedure.input(approvals.approvalsListInput).output(approvals.approvalsListOutput)
      .query(({ ctx, input }) => listApprovals(ctx.deps, ctx.caller, input)),
    get: deskProcedure.input(approvals.approvalsGetInput).output(approvals.approvalView)
      .query(({ ctx, input }) => getApproval(ctx.deps, ctx.caller, input.id)),
    claim: deskWriteProcedure.input(approvals.approvalsDecideInput).output(approvals.approvalView)
      .mutation(({ ctx, input }) => claimApproval(ctx.deps, ctx.caller, input)),
    reject: deskWriteProcedure.input(approvals.approvalsDecideInput).output(approvals.approvalView)
      .mutation(({ ctx, input }) => rejectApproval(ctx.deps, ctx.caller, input)),
    finish: deskWriteProcedure.input(approvals.approvalsFinishInput).output(approvals.approvalView)
      .mutation(({ ctx, input }) => finishApproval(ctx.deps, ctx.caller, input)),
  }),
  /**
   * The caller's audit chain as the backend wrote it with each change: what a desk checks its
   * own log against. Read only: no client input moves it.
   */
  audit: router({
    anchors: authedProcedure.input(actions.auditAnchorsInput).output(actions.auditAnchorsOutput)
      .query(({ ctx, input }) => auditAnchors(ctx.deps, ctx.caller, input)),
  }),
});

export type AppRouter = typeof appRouter;
