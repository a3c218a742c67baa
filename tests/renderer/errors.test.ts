import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SESSION_ENDED, UNREACHABLE, UserFacingError, isNotFoundCode, isPlainSentence, isUnreachable, plainOr, userMessage } from '../../src/renderer/src/lib/errors.js';

/** A desk error as the renderer receives it: tRPC's client error with the server's code in `data`. */
function deskError(code: string, message: string): TRPCClientError<never> {
  return TRPCClientError.from({ error: { code: -32600, message, data: { code, httpStatus: 400, path: 'panel.player' } } }) as TRPCClientError<never>;
}

/** What tRPC makes of a zod failure: the issue list, as JSON, for a message. */
const zodDump = (() => {
  const result = z.strictObject({ playerId: z.uuid() }).safeParse({ playerId: 'not-a-uuid' });
  return JSON.stringify(result.error!.issues, null, 2);
})();

describe('errors in words', () => {
  it('never shows a zod issue dump: a validation failure reads as a sentence', () => {
    expect(zodDump).toContain('"code"');
    const said = userMessage(deskError('BAD_REQUEST', zodDump));
    expect(said).toBe('That request was not valid. Check what you entered and try again.');
    expect(said).not.toMatch(/[{}[\]"]/);
  });

  it('never shows internals: stacks, SQL, transport messages, internal errors', () => {
    const stack = 'TypeError: Cannot read properties of undefined (reading \'id\')\n    at PlayerPage (index.js:12:3)';
    expect(userMessage(deskError('INTERNAL_SERVER_ERROR', 'relation "accounts" does not exist'))).toBe('Something went wrong on our side. Try again in a moment.');
    expect(userMessage(deskError('CONFLICT', 'duplicate key value violates unique constraint "idempotency_keys_pkey"'))).toBe('Something changed meanwhile. Reload and try again.');
    expect(userMessage(deskError('FORBIDDEN', stack))).toBe('You do not have access to that.');
    expect(userMessage(new TypeError('Cannot read properties of undefined'))).toBe('Something went wrong. Try again.');
    expect(userMessage(new Error(stack), 'The assistant could not answer. Try again.')).toBe('The assistant could not answer. Try again.');
  });

  it('keeps a refusal written for people', () => {
    expect(userMessage(deskError('UNAUTHORIZED', 'invalid username or password'))).toBe('invalid username or password');
    expect(userMessage(deskError('TOO_MANY_REQUESTS', 'too many failed sign-ins for this account: try again in 42 s'))).toBe('too many failed sign-ins for this account: try again in 42 s');
    expect(userMessage(deskError('UNAUTHORIZED', ''))).toBe(SESSION_ENDED);
    expect(userMessage(new UserFacingError('The assistant stopped before finishing its answer. Try again.'))).toBe('The assistant stopped before finishing its answer. Try again.');
  });

  it('tells an unreachable backend from a refusal', () => {
    const down = deskError('SERVICE_UNAVAILABLE', 'the backend is unreachable');
    expect(isUnreachable(down)).toBe(true);
    expect(userMessage(down)).toBe(UNREACHABLE);
    // A desk call that got no answer at all (the socket closed) has no code.
    const lost = TRPCClientError.from(new Error('WebSocket closed'));
    expect(isUnreachable(lost)).toBe(true);
    expect(userMessage(lost)).toBe(UNREACHABLE);
    expect(isUnreachable(deskError('NOT_FOUND', 'player not found'))).toBe(false);
    expect(isUnreachable(new Error('boom'))).toBe(false);
  });

  it('reads a malformed id and an unknown one the same', () => {
    expect(isNotFoundCode('NOT_FOUND')).toBe(true);
    expect(isNotFoundCode('BAD_REQUEST')).toBe(true);
    expect(isNotFoundCode('INTERNAL_SERVER_ERROR')).toBe(false);
  });

  it('shows a message that arrived as data only when it is plain words', () => {
    expect(isPlainSentence('the take changed since the preview: it is now 1,200.00')).toBe(true);
    expect(plainOr(zodDump, 'The lookup failed.')).toBe('The lookup failed.');
    expect(plainOr('playerId: must be an id returned by the API')).toBe('playerId: must be an id returned by the API');
    expect(plainOr('INTERNAL_SERVER_ERROR', 'The lookup failed.')).toBe('The lookup failed.');
  });
});
