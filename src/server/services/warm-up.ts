import { desc, eq, sql } from 'drizzle-orm';
import * as api from '../../shared/contracts/agent-api.js';
import { DASHBOARD_TOP_MARKETS } from '../../shared/contracts/table-export.js';
import { accounts, sessions } from '../db/schema.js';
import { callerOf } from './auth.js';
import { getTake, getUpline } from './book.js';
import type { ServiceDeps } from './caller.js';
import { getLiveExposure } from './exposure.js';
import { getPnL, getTopMarkets } from './pnl.js';

/**
 * Reads the dashboard once, as the agent most likely to sign in next, before anyone has.
 *
 * The first reads after a database opens pay for what PostgreSQL keeps per connection (catalog
 * entries, each table's and index's first look by the planner) and for their pages coming in:
 * on the default book the dashboard's five reads took about 360 ms the first time and under
 * 100 ms after. An embedded backend has one connection, and it opens while the login page waits
 * for someone to type, so paying then takes that wait out of Sign in → dashboard. The agent is
 * the one whose session began last (whoever used this desk), else the agent nearest the top of
 * the book; the answers, input and output checked by the API's own schemas as a call's are,
 * are thrown away. Answers the agent's username, or null for a book without agents (nothing to warm).
 */
export async function warmUp(deps: ServiceDeps): Promise<string | null> {
  const [lastSignedIn] = await deps.db.select({ account: accounts }).from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(eq(accounts.role, 'agent')).orderBy(desc(sessions.createdAt)).limit(1);
  const account = lastSignedIn?.account ?? (await deps.db.select().from(accounts)
    .where(eq(accounts.role, 'agent')).orderBy(accounts.depth, sql`${accounts.username} collate "C"`).limit(1))[0];
  if (!account) return null;
  const caller = callerOf(account, 'desk');
  await Promise.all([
    getTake(deps, caller, api.getTakeInput.parse({ limit: 1 })).then((out) => api.getTakeOutput.parse(out)),
    getUpline(deps, caller).then((out) => api.getUplineOutput.parse(out)),
    getPnL(deps, caller, api.getPnLInput.parse({ limit: 1 })).then((out) => api.getPnLOutput.parse(out)),
    getLiveExposure(deps, caller, api.getLiveExposureInput.parse({})).then((out) => api.getLiveExposureOutput.parse(out)),
    getTopMarkets(deps, caller, api.getTopMarketsInput.parse(DASHBOARD_TOP_MARKETS)).then((out) => api.getTopMarketsOutput.parse(out)),
  ]);
  return account.username;
}
