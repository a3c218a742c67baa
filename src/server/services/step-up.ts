/**
 * Step-up: the signed-in user types their password again before a large change is confirmed
 * (src/main/confirm/step-up.ts decides which changes are large). The password is checked as the
 * sign-in checks it — argon2 against the stored hash, behind the same throttle, keyed by the
 * account's name and the client's address — so a session cannot be used to guess its own
 * password any faster than the login page could.
 */
import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { accounts } from '../db/schema.js';
import type { LoginRequest } from './auth.js';
import type { Caller, ServiceDeps } from './caller.js';
import { loginThrottle } from './login-throttle.js';
import { verifyPassword } from './passwords.js';

/** Throws FORBIDDEN for a wrong password, TOO_MANY_REQUESTS while the throttle holds the account or address. */
export async function verifyCallerPassword(deps: ServiceDeps, caller: Caller, password: string, request: LoginRequest): Promise<{ ok: true }> {
  let attempt;
  try {
    // Counted before the hash, as a sign-in is: parallel guesses are charged as they arrive.
    attempt = loginThrottle(deps).begin(caller.username, request.clientAddress);
  } catch (error) {
    request.log.warn('password check throttled', { username: caller.username, clientAddress: request.clientAddress });
    throw error;
  }
  const [account] = await deps.db.select({ passwordHash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, caller.id));
  const ok = account?.passwordHash ? await verifyPassword(account.passwordHash, password) : false;
  if (!ok) {
    request.log.warn('password check failed', {
      username: caller.username, clientAddress: request.clientAddress, failures: attempt.usernameFailures, addressFailures: attempt.addressFailures,
    });
    // Not UNAUTHORIZED: the session stands, only this confirmation is refused.
    throw new TRPCError({ code: 'FORBIDDEN', message: 'That password is not right.' });
  }
  attempt.succeeded();
  return { ok: true };
}
