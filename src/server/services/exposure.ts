import { type SQL, sql } from 'drizzle-orm';
import { paisaFromSql } from '../../shared/money.js';
import { queryRows } from '../db/client.js';
import { RESULT_IF_OUTCOME_WINS } from './bet-terms-sql.js';
import { type Caller, type ServiceDeps, fixtureExists, inDownline, marketExists } from './caller.js';

/**
 * For each agent of the caller's tree (the caller included), the exact fraction of its players'
 * results that ends up in the caller's own book: each agent between keeps its share and passes
 * (1 − share) up, and the caller keeps its share of what arrives (the platform keeps all of it).
 * Returned as exact decimal strings so PostgreSQL's numeric does the arithmetic without floats.
 */
async function shareFactors(deps: ServiceDeps, caller: Caller): Promise<{ agentIds: string[]; factors: string[] }> {
  const agents = await queryRows<{ id: string; parent_id: string; share_bps: number; depth: number }>(deps.db, sql`
    select a.id, a.parent_id, a.share_bps, a.depth from accounts a
    where a.role = 'agent' and ${inDownline(caller, 'a')} order by a.depth`);
  const callerKeepsBps = caller.role === 'platform_admin' ? 10_000n : BigInt(caller.shareBps);
  // reach = numerator / 10000^k: the fraction of the agent's gross that reaches the caller's gross.
  const reach = new Map<string, { num: bigint; k: number }>([[caller.id, { num: 1n, k: 0 }]]);
  for (const a of agents) {
    const parent = reach.get(a.parent_id);
    if (!parent) continue;
    reach.set(a.id, { num: parent.num * BigInt(10_000 - a.share_bps), k: parent.k + 1 });
  }
  const agentIds: string[] = [];
  const factors: string[] = [];
  for (const [agentId, { num, k }] of reach) {
    agentIds.push(agentId);
    factors.push(decimalString(num * callerKeepsBps, 4 * (k + 1)));
  }
  return { agentIds, factors };
}

function decimalString(numerator: bigint, decimals: number): string {
  const digits = numerator.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`;
}

export interface MarketExposure {
  fixtureId: string; fixtureName: string; marketId: string; marketName: string; openBets: number;
  outcomes: Array<{ outcomeId: string; name: string; position: number; positionAtShare: number }>;
  exposure: number; exposureAtShare: number;
}

/**
 * The book's position on every outcome of every open market with open downline bets (DOMAIN.md,
 * Exposure): −Σ of each player's result if that outcome wins, gross and at the caller's share.
 */
export async function marketExposures(deps: ServiceDeps, caller: Caller, filter: SQL = sql`true`, options: { top?: number } = {}): Promise<MarketExposure[]> {
  const { agentIds, factors } = await shareFactors(deps, caller);
  const rows = await queryRows<{
    market_id: string; market_name: string; fixture_id: string; fixture_name: string; outcome_id: string; outcome_name: string;
    position: string; position_at_share: string; open_bets: string | number;
  }>(deps.db, sql`
    with factor as (
      select * from unnest(${sql.param(agentIds)}::uuid[], ${sql.param(factors)}::numeric[]) as f(agent_id, factor)
    ), per_outcome as (
      -- Each agent's own players' open bets, summed per outcome as they are placed (open_positions).
      select op.market_id, op.outcome_id, op.player_result, op.bets, f.factor, false as hedge
      from factor f
      join open_positions op on op.agent_id = f.agent_id
      join markets m on m.id = op.market_id
      where m.status = 'open' and ${filter}
      union all
      -- The caller's hedges (its self account sits in the upline's book): the caller wins what they
      -- win, all of it, so they offset its position whole, gross and at share alike.
      select b.market_id, o.id, ${RESULT_IF_OUTCOME_WINS},
        case when b.outcome_id = o.id then 1 else 0 end, 1, true
      from accounts s
      join bets b on b.player_id = s.id and b.status = 'open'
      join markets m on m.id = b.market_id
      join outcomes o on o.market_id = b.market_id
      where s.self_of = ${caller.id} and m.status = 'open' and ${filter}
    ), open_counts as (
      select market_id, sum(bets) as open_bets from per_outcome group by market_id
    ), positions as (
      -- Only the downline's part is rounded: a hedge is whole paisa already, so adding one moves
      -- the position by exactly its result.
      select market_id, outcome_id,
        coalesce(-sum(player_result) filter (where not hedge), 0) + coalesce(sum(player_result) filter (where hedge), 0) as position,
        coalesce(round(-sum(player_result * factor) filter (where not hedge)), 0) + coalesce(sum(player_result) filter (where hedge), 0) as position_at_share
      from per_outcome group by market_id, outcome_id
    ), shown as (
      -- With a top N, only the markets of most exposure (the worst outcome, as below) are named.
      select market_id from positions group by market_id
      ${options.top === undefined ? sql`` : sql`order by greatest(0, max(-position)) desc, market_id limit ${options.top}`}
    )
    select m.id as market_id, m.name as market_name, fx.id as fixture_id, fx.name as fixture_name,
      o.id as outcome_id, o.name as outcome_name, p.position, p.position_at_share, c.open_bets
    from positions p join outcomes o on o.id = p.outcome_id join markets m on m.id = p.market_id join fixtures fx on fx.id = m.fixture_id
      join open_counts c on c.market_id = p.market_id
    where p.market_id in (select market_id from shown)
    order by fx.starts_at, fx.id, m.ordinal, o.ordinal`);
  const byMarket = new Map<string, MarketExposure>();
  for (const r of rows) {
    let market = byMarket.get(r.market_id);
    if (!market) {
      market = {
        fixtureId: r.fixture_id, fixtureName: r.fixture_name, marketId: r.market_id, marketName: r.market_name,
        openBets: Number(r.open_bets), outcomes: [], exposure: 0, exposureAtShare: 0,
      };
      byMarket.set(r.market_id, market);
    }
    const position = paisaFromSql(r.position);
    const positionAtShare = paisaFromSql(r.position_at_share);
    market.outcomes.push({ outcomeId: r.outcome_id, name: r.outcome_name, position, positionAtShare });
    // Exposure is the worst outcome, shown as a positive liability (0 when every outcome gains).
    market.exposure = Math.max(market.exposure, -position);
    market.exposureAtShare = Math.max(market.exposureAtShare, -positionAtShare);
  }
  return [...byMarket.values()];
}

export async function getLiveExposure(deps: ServiceDeps, caller: Caller, input: { fixtureId?: string | undefined; marketId?: string | undefined }) {
  if (input.fixtureId) await fixtureExists(deps, input.fixtureId);
  if (input.marketId) await marketExists(deps, input.marketId);
  const filters: SQL[] = [];
  if (input.fixtureId) filters.push(sql`m.fixture_id = ${input.fixtureId}`);
  if (input.marketId) filters.push(sql`m.id = ${input.marketId}`);
  const scopes = await marketExposures(deps, caller, filters.length ? sql.join(filters, sql` and `) : sql`true`);
  const fixtures = new Map<string, { fixtureId: string; fixtureName: string; exposure: number; exposureAtShare: number }>();
  for (const s of scopes) {
    const f = fixtures.get(s.fixtureId) ?? { fixtureId: s.fixtureId, fixtureName: s.fixtureName, exposure: 0, exposureAtShare: 0 };
    f.exposure += s.exposure;
    f.exposureAtShare += s.exposureAtShare;
    fixtures.set(s.fixtureId, f);
  }
  const total = { exposure: 0, exposureAtShare: 0 };
  for (const f of fixtures.values()) {
    total.exposure += f.exposure;
    total.exposureAtShare += f.exposureAtShare;
  }
  return { scopes, fixtures: [...fixtures.values()], total };
}
