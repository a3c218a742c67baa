import * as api from '../../shared/contracts/agent-api.js';
import { login, logout } from '../services/auth.js';
import { getCreditLimit, getDownline, getTake, getUpline } from '../services/book.js';
import { getLiveExposure } from '../services/exposure.js';
import { getBetHistory, getSettlementHistory } from '../services/history.js';
import { getCommission, getPnL, getTopMarkets } from '../services/pnl.js';
import { searchFixtures, searchPlayers } from '../services/search.js';
import { authedProcedure, deskProcedure, publicProcedure, router } from './init.js';

export const appRouter = router({
  auth: router({
    login: publicProcedure.input(api.loginInput).output(api.loginOutput)
      .mutation(({ ctx, input }) => login(ctx.deps, input.username, input.password)),
    logout: authedProcedure.mutation(async ({ ctx }) => {
      await logout(ctx.deps, ctx.token!);
      return { ok: true as const };
    }),
    /** The caller, and the backend's business time: clients date "today" by it, not by their own clock. */
    me: authedProcedure.output(api.meOutput).query(({ ctx }) => ({
      id: ctx.caller.id, username: ctx.caller.username, name: ctx.caller.name, role: ctx.caller.role, timezone: ctx.caller.timezone,
      now: ctx.deps.now().toISOString(),
    })),
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
});

export type AppRouter = typeof appRouter;
