import { TRPCError, initTRPC } from '@trpc/server';
import { ZodError, z } from 'zod';
import { DayOutOfRangeError } from '../../shared/dates.js';
import type { Logger } from '../../infra/log.js';
import { isDatabaseUnavailable } from '../db/client.js';
import { resolveSession } from '../services/auth.js';
import type { Caller, ServiceDeps } from '../services/caller.js';
import { LoginThrottledError } from '../services/login-throttle.js';
import { serverMetrics } from '../metrics.js';

export interface Context {
  deps: ServiceDeps;
  /** The bearer token as sent, or null. */
  token: string | null;
  requestId: string;
  log: Logger;
  /**
   * Where the call came from, for sign-in throttling: the TCP peer over HTTP (never a
   * forwarded-for header, which any client can write), 'embedded' for main's in-process link.
   */
  clientAddress: string;
}

/** SSE keep-alive: a comment every SSE_PING_MS; a client that hears nothing for SSE_SILENCE_MS reconnects (resuming by id). */
export const SSE_PING_MS = 10_000;
export const SSE_SILENCE_MS = 25_000;

const t = initTRPC.context<Context>().create({
  // Without pings an idle stream looks the same as a dead one (a peer gone without a FIN, a proxy
  // that cut it): the client could wait for ever for events that are being sent elsewhere.
  sse: { ping: { enabled: true, intervalMs: SSE_PING_MS }, client: { reconnectAfterInactivityMs: SSE_SILENCE_MS } },
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    if (error.code === 'BAD_REQUEST' && cause instanceof ZodError) {
      // A readable message instead of the raw issue list; the issues stay for programs.
      return { ...shape, message: z.prettifyError(cause), data: { ...shape.data, stack: undefined, issues: cause.issues.map(({ path, message, code }) => ({ path, message, code })) } };
    }
    if (error.code === 'PAYLOAD_TOO_LARGE' && error.message === 'PAYLOAD_TOO_LARGE') {
      // tRPC's own refusal of a streamed body past maxBodySize carries only the code as its message.
      return { ...shape, message: 'the request body is over the size limit', data: { ...shape.data, stack: undefined } };
    }
    if (error.code === 'INTERNAL_SERVER_ERROR') {
      // Never leak SQL or stack traces; the log line with the request id has them.
      return { ...shape, message: 'internal error', data: { ...shape.data, stack: undefined } };
    }
    if (error.cause instanceof LoginThrottledError) {
      return { ...shape, data: { ...shape.data, stack: undefined, retryAfterSeconds: error.cause.retryAfterSeconds } };
    }
    return { ...shape, data: { ...shape.data, stack: undefined } };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure.use(async ({ path, type, next }) => {
  // Outermost, so it sees the code the client is sent (after the mappings below) and every procedure is measured once.
  const stop = serverMetrics.requestDuration.startTimer({ procedure: path, type });
  const result = await next();
  stop({ outcome: result.ok ? 'ok' : 'error' });
  if (!result.ok) serverMetrics.requestErrors.inc({ procedure: path, code: result.error.code });
  return result;
}).use(async ({ ctx, path, type, next }) => {
  const started = performance.now();
  const result = await next();
  const fields = { requestId: ctx.requestId, path, type, ms: Math.round((performance.now() - started) * 10) / 10 };
  if (result.ok) ctx.log.info('procedure', fields);
  else if (result.error.code === 'INTERNAL_SERVER_ERROR') ctx.log.error('procedure failed', { ...fields, err: result.error.cause ?? result.error });
  else ctx.log.info('procedure refused', { ...fields, code: result.error.code });
  return result;
}).use(async ({ next }) => {
  const result = await next();
  // The database restarting is not the backend failing: the caller is told it may try again.
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(result.error.cause)) {
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'the database is unavailable: try again in a moment', cause: result.error.cause });
  }
  // The contracts keep days inside the book's calendar; should one reach date arithmetic anyway, it is still the client's mistake.
  if (!result.ok && result.error.cause instanceof DayOutOfRangeError) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: result.error.cause.message, cause: result.error.cause });
  }
  return result;
});

/** Resolves the caller from the session token on every call; nothing is trusted from the client. */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const caller: Caller = await resolveSession(ctx.deps, ctx.token);
  return next({ ctx: { ...ctx, caller } });
});

/** The agent-panel procedures: agents and the platform admin. */
export const deskProcedure = authedProcedure.use(async ({ ctx, next }) => {
  if (ctx.caller.role !== 'agent' && ctx.caller.role !== 'platform_admin') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'the agent desk is for agents' });
  }
  return next();
});

/**
 * What only the desk itself may do: write (limits, settlements, hedges, shares, a market's
 * result), answer an approval, remove a report. A session opened for another door (the MCP
 * server's `requests` scope) reads and asks; it is refused here whatever its process sends.
 */
export const deskWriteProcedure = deskProcedure.use(async ({ ctx, next }) => {
  if (ctx.caller.scope !== 'desk') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'this session can only ask for changes: the user confirms them in Agent Desk' });
  }
  return next();
});
