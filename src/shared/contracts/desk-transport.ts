import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { z } from 'zod';
import type { DeskRequest, DeskResponse } from './desk-bridge.js';

/**
 * The zod side of the desk contract (`desk-bridge.ts`): main checks every request with it before
 * it reads one, the renderer every answer.
 */

/** The most one desk message may hold, as JSON: the browser shell's WebSocket frame limit too. */
export const MAX_DESK_MESSAGE_BYTES = 256 * 1024;

export const deskCallId = z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().min(1).max(64)]);

export const deskRequestSchema = z.union([
  z.strictObject({
    id: deskCallId,
    method: z.enum(['query', 'mutation', 'subscription']),
    // JSON drops an undefined input's key (wsLink's frames do), so the key may be absent.
    params: z.strictObject({ path: z.string().min(1).max(200), input: z.unknown().optional() }).transform(({ path, input }) => ({ path, input })),
  }),
  z.strictObject({ id: deskCallId, method: z.literal('subscription.stop') }),
]) satisfies z.ZodType<DeskRequest>;

const errorCode = z.enum(Object.keys(TRPC_ERROR_CODES_BY_KEY) as [TRPC_ERROR_CODE_KEY, ...TRPC_ERROR_CODE_KEY[]]);

export const deskResponseSchema = z.union([
  z.object({
    id: deskCallId,
    result: z.discriminatedUnion('type', [
      z.object({ type: z.literal('started') }),
      z.object({ type: z.literal('data'), data: z.unknown().optional() }),
      z.object({ type: z.literal('stopped') }),
    ]),
  }),
  z.object({
    id: deskCallId.nullable(),
    error: z.object({
      code: z.number().int(),
      message: z.string(),
      data: z.object({ code: errorCode, httpStatus: z.number().int(), path: z.string().optional() }),
    }),
  }),
]) satisfies z.ZodType<DeskResponse>;
