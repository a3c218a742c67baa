import { createHash, randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { SessionScope } from '../../shared/contracts/agent-api.js';
import type { Db } from '../db/client.js';
import { accounts, sessions } from '../db/schema.js';
import type { Logger } from '../../infra/log.js';
import { emitPlayerLogin } from './bets.js';
import type { Caller, ServiceDeps } from './caller.js';
import { type LoginAttempt, loginThrottle } from './login-throttle.js';
import { verifyPassword } from './passwords.js';

export const DEFAULT_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Tokens are 32 random bytes; only their SHA-256 is stored. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const invalidLogin = () => new TRPCError({ code: 'UNAUTHORIZED', message: 'invalid username or password' });

// A fixed hash to verify against when the user is unknown, so both paths cost the same.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$AQEBAQEBAQEBAQEBAQEBAQ$+m21d7tbteefuH7Lm+E+MLLzRJL8zllqwBoWL8clQi0';

/** Who is knocking: the address the connection came from, the request's logger, and what the session is for. */
export interface LoginRequest {
  clientAddress: string;
  log: Logger;
  /** Unset: the desk's own session. */
  scope?: SessionScope;
}

export async function login(deps: ServiceDeps, username: string, password: string, request: LoginRequest, ttlMs = DEFAULT_SESSION_TTL_MS) {
  const name = username.toLowerCase();
  let attempt: LoginAttempt;
  try {
    // Before any lookup or hash: a throttled guess learns nothing, right password or not.
    attempt = loginThrottle(deps).begin(name, request.clientAddress);
  } catch (error) {
    request.log.warn('sign-in throttled', { username: name, clientAddress: request.clientAddress, reason: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const [account] = await deps.db.select().from(accounts).where(eq(accounts.username, name));
  const ok = await verifyPassword(account?.passwordHash ?? DUMMY_HASH, password);
  // Players bet on the exchange; the desk is for agents and the platform.
  if (!account || !ok || !account.passwordHash || account.role === 'player') {
    request.log.warn('sign-in failed', {
      username: name, clientAddress: request.clientAddress, failures: attempt.usernameFailures, addressFailures: attempt.addressFailures,
    });
    throw invalidLogin();
  }
  attempt.succeeded();
  const token = randomBytes(32).toString('base64url');
  // The wall clock: a demo restarted on another data clock must neither revive nor cut short a session.
  const now = deps.realNow();
  const expiresAt = new Date(now.getTime() + ttlMs);
  await deps.db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash: hashToken(token), accountId: account.id, createdAt: now, expiresAt, scope: request.scope ?? 'desk' });
    // The agents above hear of it with the session itself: no event for a sign-in that did not commit.
    await emitPlayerLogin(deps, tx as unknown as Db, account);
  });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    user: { id: account.id, username: account.username, name: account.displayName, role: account.role, timezone: account.timezone },
  };
}

export async function logout(deps: ServiceDeps, token: string): Promise<void> {
  const tokenHash = hashToken(token);
  await deps.db.update(sessions).set({ revokedAt: deps.realNow() })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
  // The trigger's notification reaches this backend too, but after the commit: the signed-out
  // token must not work for the next call in between.
  deps.sessionCache?.invalidate(`session:${tokenHash}`);
}

/** An account as the caller its session acts for. */
export function callerOf(a: typeof accounts.$inferSelect, scope: SessionScope): Caller {
  return {
    id: a.id, username: a.username, name: a.displayName, role: a.role, parentId: a.parentId, path: a.path,
    depth: a.depth, timezone: a.timezone, shareBps: a.shareBps, creditLimit: a.creditLimit, scope,
  };
}

/** The caller behind a bearer token, or UNAUTHORIZED with the reason a client can act on. */
export async function resolveSession(deps: ServiceDeps, token: string | null): Promise<Caller> {
  if (!token) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first: no session token was sent' });
  if (!TOKEN_PATTERN.test(token)) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'malformed session token' });
  const tokenHash = hashToken(token);
  const now = deps.realNow();
  const cache = deps.sessionCache;
  const cached = cache?.get(tokenHash, now.getTime());
  if (cached) return cached;
  const epoch = cache?.epoch() ?? 0;
  const [row] = await deps.db.select({ account: accounts, expiresAt: sessions.expiresAt, scope: sessions.scope })
    .from(sessions).innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  if (!row) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'the session has expired or was signed out: sign in again' });
  const caller = callerOf(row.account, row.scope);
  cache?.put(tokenHash, caller, row.expiresAt.getTime(), now.getTime(), epoch);
  return caller;
}
