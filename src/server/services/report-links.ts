/**
 * Signed download links: HMAC-SHA256 over `${artifactId}.${userId}.${exp}`. The key lives in
 * the database (one row, made on first use) so every backend instance on it agrees;
 * REPORT_LINK_SECRET overrides it for a deployment that keeps keys elsewhere.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { REPORT_LINK_TTL_SECONDS, type ReportLink } from '../../shared/contracts/reports.js';
import { type Db, queryRows } from '../db/client.js';
import type { ServiceDeps } from './caller.js';

const secrets = new WeakMap<Db, Promise<Buffer>>();

async function readOrCreateSecret(deps: ServiceDeps): Promise<Buffer> {
  // Two instances starting together both insert; the row that won is the one both read back.
  await queryRows(deps.db, sql`
    insert into report_link_secret (id, secret, created_at) values (1, ${randomBytes(32)}, ${deps.realNow().toISOString()}::timestamptz)
    on conflict (id) do nothing`);
  const [row] = await queryRows<{ secret: Uint8Array }>(deps.db, sql`select secret from report_link_secret where id = 1`);
  if (!row) throw new Error('the report link secret vanished after its insert');
  return Buffer.from(row.secret);
}

export async function linkSecret(deps: ServiceDeps): Promise<Buffer> {
  const fromEnv = process.env.REPORT_LINK_SECRET?.trim();
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  let secret = secrets.get(deps.db);
  if (!secret) {
    secret = readOrCreateSecret(deps);
    secrets.set(deps.db, secret);
    // A failed read is tried again on the next link, not remembered.
    secret.catch(() => secrets.delete(deps.db));
  }
  return secret;
}

const signature = (secret: Buffer, artifactId: string, userId: string, exp: number) =>
  createHmac('sha256', secret).update(`${artifactId}.${userId}.${exp}`).digest('hex');

/** A link for `userId` to `artifactId`, good for REPORT_LINK_TTL_SECONDS of wall-clock time. */
export async function issueLink(deps: ServiceDeps, artifactId: string, userId: string): Promise<{ url: string; parts: ReportLink; expiresAt: string }> {
  const exp = Math.floor(deps.realNow().getTime() / 1000) + REPORT_LINK_TTL_SECONDS;
  const sig = signature(await linkSecret(deps), artifactId, userId, exp);
  const query = new URLSearchParams({ u: userId, exp: String(exp), sig });
  return { url: `/reports/${artifactId}?${query.toString()}`, parts: { artifactId, userId, exp, sig }, expiresAt: new Date(exp * 1000).toISOString() };
}

/**
 * Refuses a link not made for this presenter, altered in any part, or past its time. Whether the
 * presenter may still see the artifact is the caller's next check: a good signature is not leave.
 */
export async function checkLink(deps: ServiceDeps, presenterId: string, link: ReportLink): Promise<void> {
  if (link.userId !== presenterId) throw new TRPCError({ code: 'FORBIDDEN', message: 'this link was made for another user' });
  const expected = Buffer.from(signature(await linkSecret(deps), link.artifactId, link.userId, link.exp), 'hex');
  const given = Buffer.from(link.sig, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'the link is not valid: its signature does not match' });
  }
  // Checked after the signature, so an altered expiry reads as altered, not as expired.
  if (link.exp * 1000 <= deps.realNow().getTime()) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'link expired' });
}
