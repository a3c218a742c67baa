import { isoWeekId, localDate, weekdayIndex } from '../../shared/dates.js';
import { mulDivFloor } from '../../shared/money.js';
import { normalizeForSearch } from '../../shared/text.js';
import type { FIXTURE_STATUSES, Role } from '../db/schema.js';
import { type BetTerms, type Side, potentialWin } from '../domain/bets.js';
import { type HierarchyNode, type Movement, type Posting, postingsOf, settleMarket } from '../domain/cascade.js';
import type { Cast } from './cast.js';
import { AGENT_FIRMS, FIRST_NAMES, LAST_NAMES, TEAM_POOLS } from './names.js';
import { SeededRandom, deterministicUuid } from './random.js';

export interface BookOptions {
  seed: string;
  /** Filler players on top of the cast. */
  players: number;
  /** Bets in all, the cast's included. */
  bets: number;
  /** Days of history before the clock. */
  days: number;
}

export const DEFAULT_BOOK: BookOptions = { seed: 'agent-desk-demo', players: 300, bets: 50_000, days: 90 };

export interface AccountRow {
  id: string; username: string; displayName: string; searchName: string; role: Role; parentId: string | null;
  path: string; depth: number; shareBps: number; commissionBps: number; creditLimit: number; timezone: string;
  notes: string | null; password: string | null; largeBetThreshold: number; createdAt: Date;
}
export interface PlayerLimitRow { accountId: string; perClickWin: number; aggregateDailyWin: number; minStake: number }
export interface TeamRow { id: string; name: string; shortCodes: string[] }
export interface FixtureRow {
  id: string; name: string; sport: string; startsAt: Date; status: (typeof FIXTURE_STATUSES)[number];
  homeTeamId: string; awayTeamId: string; searchText: string;
}
export interface MarketRow {
  id: string; fixtureId: string; name: string; status: 'open' | 'settled'; winnerOutcomeId: string | null;
  settledAt: Date | null; ordinal: number;
}
export interface OutcomeRow { id: string; marketId: string; name: string; ordinal: number }
export interface BetRow {
  id: string; playerId: string; marketId: string; outcomeId: string; side: Side; stake: number; odds: number;
  status: 'open' | 'settled' | 'void'; placedAt: Date; settledAt: Date | null; result: number | null;
}
export interface SettlementRow {
  id: string; childId: string; parentId: string; amount: number; takeBefore: number; takeAfter: number;
  mode: 'auto' | 'amount'; periodId: string | null; createdBy: string; idempotencyKey: string | null; createdAt: Date;
}

export interface Book {
  options: BookOptions;
  clock: Date;
  accounts: AccountRow[];
  playerLimits: PlayerLimitRow[];
  teams: TeamRow[];
  fixtures: FixtureRow[];
  markets: MarketRow[];
  outcomes: OutcomeRow[];
  bets: BetRow[];
  settlements: SettlementRow[];
  ledger: Posting[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const POINT = 100;
const SPORT_HOURS: Record<string, number> = { cricket: 7, football: 2, tennis: 3 };
const DEFAULT_TIMEZONE = 'Asia/Kolkata';

/** Builds the whole demo book in memory: the cast exactly as written, then seeded filler around it. */
export function generateBook(cast: Cast, options: BookOptions): Book {
  if (!Number.isInteger(options.players) || options.players < 0) throw new RangeError('players must be a whole number ≥ 0');
  if (!Number.isInteger(options.bets) || options.bets < 0) throw new RangeError('bets must be a whole number ≥ 0');
  if (!Number.isInteger(options.days) || options.days < 7) throw new RangeError('days must be a whole number ≥ 7');

  const rng = new SeededRandom(options.seed);
  const id = (key: string) => deterministicUuid(options.seed, key);
  const clock = new Date(cast.now);
  const historyStart = clock.getTime() - options.days * DAY;

  const castWords = new Set<string>();
  for (const a of cast.accounts) normalizeForSearch(a.name).split(' ').forEach((w) => castWords.add(w));
  for (const t of cast.teams) [t.name, ...t.short].forEach((n) => normalizeForSearch(n).split(' ').forEach((w) => castWords.add(w)));
  const sharesCastWord = (name: string) => normalizeForSearch(name).split(' ').some((w) => castWords.has(w));

  // ── Accounts ────────────────────────────────────────────────────────────────────────────────
  const accounts: AccountRow[] = [];
  const byUsername = new Map<string, AccountRow>();
  const playerLimits: PlayerLimitRow[] = [];
  const createdAt = new Date(historyStart - 30 * DAY);

  const addAccount = (input: {
    username: string; name: string; role: Role; parent: AccountRow | null; shareBps?: number; commissionBps?: number;
    creditLimit?: number; timezone?: string; password?: string; notes?: string;
  }): AccountRow => {
    const accountId = id(`account:${input.username}`);
    const row: AccountRow = {
      id: accountId,
      username: input.username,
      displayName: input.name,
      searchName: normalizeForSearch(input.name),
      role: input.role,
      parentId: input.parent?.id ?? null,
      path: input.parent ? `${input.parent.path}.${accountId}` : accountId,
      depth: input.parent ? input.parent.depth + 1 : 0,
      shareBps: input.shareBps ?? 0,
      commissionBps: input.commissionBps ?? 0,
      creditLimit: (input.creditLimit ?? 0) * POINT,
      timezone: input.timezone ?? input.parent?.timezone ?? DEFAULT_TIMEZONE,
      notes: input.notes ?? null,
      // Every desk account can log in to the demo; the cast names some passwords, the rest follow one rule.
      password: input.role === 'player' ? null : (input.password ?? `demo-${input.username}`),
      largeBetThreshold: 10_000 * POINT,
      createdAt,
    };
    if (byUsername.has(row.username)) throw new Error(`duplicate username ${row.username}`);
    accounts.push(row);
    byUsername.set(row.username, row);
    if (row.role === 'player') {
      const cl = row.creditLimit;
      const perClickWin = Math.max(10_000, mulDivFloor(cl, 1, 2 * POINT) * POINT);
      playerLimits.push({ accountId, perClickWin, aggregateDailyWin: perClickWin * 2, minStake: 100 * POINT });
    }
    return row;
  };

  for (const a of cast.accounts) {
    const parent = a.parent === null ? null : byUsername.get(a.parent);
    if (a.parent !== null && !parent) throw new Error(`cast account ${a.username} names unknown parent ${a.parent}`);
    addAccount({
      username: a.username, name: a.name, role: a.role, parent: parent ?? null,
      ...(a.shareBps !== undefined && { shareBps: a.shareBps }),
      ...(a.commissionBps !== undefined && { commissionBps: a.commissionBps }),
      ...(a.creditLimit !== undefined && { creditLimit: a.creditLimit }),
      ...(a.timezone !== undefined && { timezone: a.timezone }),
      ...(a.password !== undefined && { password: a.password }),
      ...(a.notes !== undefined && { notes: a.notes }),
    });
  }
  const castPlayers = accounts.filter((a) => a.role === 'player');
  const admin = accounts.find((a) => a.role === 'platform_admin');
  if (!admin) throw new Error('the cast has no platform_admin');

  const usedNames = new Set(accounts.map((a) => normalizeForSearch(a.displayName)));
  const uniqueName = (make: () => string): string => {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const name = make();
      const key = normalizeForSearch(name);
      if (!usedNames.has(key) && !sharesCastWord(name)) {
        usedNames.add(key);
        return name;
      }
    }
    for (let n = 2; ; n++) {
      const name = `${make()} ${toRoman(n)}`;
      if (!usedNames.has(normalizeForSearch(name)) && !sharesCastWord(name)) {
        usedNames.add(normalizeForSearch(name));
        return name;
      }
    }
  };
  const usernameOf = (name: string) => normalizeForSearch(name).replace(/ /g, '.');

  const firms = AGENT_FIRMS.filter((f) => !sharesCastWord(f));
  const fillerAgentCount = Math.max(3, Math.round(options.players / 40));
  const fillerAgents: AccountRow[] = [];
  for (let i = 0; i < fillerAgentCount; i++) {
    const topLevel = i < Math.ceil(fillerAgentCount / 2);
    const parent = topLevel ? (i === 0 ? byUsername.get('vikram') ?? admin : admin) : rng.pick(fillerAgents);
    const name = uniqueName(() => `${rng.pick(firms)} ${rng.pick(['Exchange', 'Desk', 'Book', 'Partners', 'Traders'])}`);
    fillerAgents.push(addAccount({
      username: usernameOf(name), name, role: 'agent', parent,
      shareBps: rng.int(2, 7) * 1000,
      creditLimit: parent.role === 'platform_admin' ? rng.int(50, 200) * 100_000 : rng.int(5, 40) * 100_000,
      timezone: rng.pick(['Asia/Kolkata', 'Asia/Kolkata', 'Asia/Dubai', 'Europe/London']),
    }));
  }
  // Cast agents get a share of the filler so that their books have a realistic size.
  const castAgentWeights: Array<[string, number]> = [['priya', 0.1], ['arjun', 0.04], ['meera', 0.04], ['sanjay', 0.03]];
  const fillerPlayers: AccountRow[] = [];
  for (let i = 0; i < options.players; i++) {
    let parent: AccountRow | undefined;
    let r = rng.next();
    for (const [username, weight] of castAgentWeights) {
      if (r < weight) { parent = byUsername.get(username); break; }
      r -= weight;
    }
    parent ??= rng.pick(fillerAgents);
    const name = uniqueName(() => `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`);
    fillerPlayers.push(addAccount({
      username: usernameOf(name), name, role: 'player', parent,
      commissionBps: rng.pick([100, 150, 200, 200, 250, 300]),
      creditLimit: rng.int(5, 100) * 1000,
    }));
  }

  // ── Teams, fixtures, markets, outcomes ─────────────────────────────────────────────────────
  const teams: TeamRow[] = [];
  const teamByName = new Map<string, TeamRow>();
  const addTeam = (name: string, shortCodes: string[]) => {
    const team = { id: id(`team:${name}`), name, shortCodes };
    teams.push(team);
    teamByName.set(name, team);
    return team;
  };
  for (const t of cast.teams) addTeam(t.name, t.short);
  const fillerTeams: Record<string, TeamRow[]> = {};
  for (const [sport, pool] of Object.entries(TEAM_POOLS)) {
    fillerTeams[sport] = pool.filter((t) => !sharesCastWord(t.name) && !t.short.some(sharesCastWord)).map((t) => addTeam(t.name, t.short));
  }

  const fixtures: FixtureRow[] = [];
  const markets: MarketRow[] = [];
  const outcomes: OutcomeRow[] = [];
  const outcomesByMarket = new Map<string, OutcomeRow[]>();
  const marketOpens = new Map<string, { from: number; to: number }>();
  const fixtureKeyCount = new Map<string, number>();

  const addFixture = (input: {
    home: TeamRow; away: TeamRow; sport: string; startsAt: Date; status?: FixtureRow['status'];
    markets: Array<{ name: string; outcomes: string[]; winner?: string; status?: 'open' | 'settled' }>;
  }) => {
    const name = `${input.home.name} vs ${input.away.name}`;
    const n = (fixtureKeyCount.get(name) ?? 0) + 1;
    fixtureKeyCount.set(name, n);
    const fixtureId = id(`fixture:${name}:${n}`);
    const end = input.startsAt.getTime() + (SPORT_HOURS[input.sport] ?? 3) * HOUR;
    const status = input.status ?? (end <= clock.getTime() ? 'finished' : input.startsAt.getTime() <= clock.getTime() ? 'live' : 'scheduled');
    fixtures.push({
      id: fixtureId, name, sport: input.sport, startsAt: input.startsAt, status,
      homeTeamId: input.home.id, awayTeamId: input.away.id,
      searchText: normalizeForSearch([name, ...input.home.shortCodes, ...input.away.shortCodes].join(' ')),
    });
    input.markets.forEach((m, ordinal) => {
      const marketId = id(`market:${fixtureId}:${m.name}`);
      const marketOutcomes = m.outcomes.map((o, i) => ({ id: id(`outcome:${marketId}:${o}`), marketId, name: o, ordinal: i }));
      const settled = (m.status ?? (status === 'finished' ? 'settled' : 'open')) === 'settled';
      const winner = settled ? (m.winner !== undefined ? marketOutcomes.find((o) => o.name === m.winner) : rng.pick(marketOutcomes)) : undefined;
      if (settled && !winner) throw new Error(`market ${m.name} of ${name} has no winner`);
      const settledAt = settled ? new Date(Math.min(end, clock.getTime() - 1000)) : null;
      markets.push({ id: marketId, fixtureId, name: m.name, status: settled ? 'settled' : 'open', winnerOutcomeId: winner?.id ?? null, settledAt, ordinal });
      outcomes.push(...marketOutcomes);
      outcomesByMarket.set(marketId, marketOutcomes);
      const closes = settled ? settledAt!.getTime() - HOUR : clock.getTime() - 60_000;
      const opens = Math.max(historyStart, input.startsAt.getTime() - 2 * DAY);
      if (closes > opens) marketOpens.set(marketId, { from: opens, to: closes });
    });
    return fixtureId;
  };

  const castFixtureIds = new Map<string, string>();
  for (const f of cast.fixtures) {
    const [homeName, awayName] = f.name.split(' vs ') as [string, string];
    const home = teamByName.get(homeName);
    const away = teamByName.get(awayName);
    if (!home || !away) throw new Error(`cast fixture ${f.name} names a team that is not in the cast`);
    castFixtureIds.set(f.name, addFixture({
      home, away, sport: f.sport, startsAt: new Date(f.startsAt), status: f.status,
      markets: f.markets.map((m) => ({ name: m.name, outcomes: m.outcomes, status: m.status, ...(m.winner !== undefined && { winner: m.winner }) })),
    }));
  }

  const marketsFor = (sport: string, home: TeamRow, away: TeamRow) => {
    if (sport === 'football') {
      return [
        { name: 'Match Odds', outcomes: [home.name, away.name, 'The Draw'] },
        { name: 'Over/Under 2.5 Goals', outcomes: ['Over 2.5', 'Under 2.5'] },
      ];
    }
    if (sport === 'cricket') {
      const line = rng.pick([280.5, 300.5, 320.5, 160.5, 170.5]);
      return [
        { name: 'Match Odds', outcomes: [home.name, away.name] },
        { name: `Total Runs Over/Under ${line}`, outcomes: ['Over', 'Under'] },
      ];
    }
    return [{ name: 'Match Odds', outcomes: [home.name, away.name] }];
  };
  const fillerFixture = (startsAt: Date, sport = rng.pick(['cricket', 'football', 'tennis'])) => {
    const pool = fillerTeams[sport]!;
    const home = rng.pick(pool);
    let away = rng.pick(pool);
    while (away.id === home.id) away = rng.pick(pool);
    addFixture({ home, away, sport, startsAt, markets: marketsFor(sport, home, away) });
  };
  // Two markets that settled this morning, so "today" has results on the book's own clock.
  fillerFixture(new Date(clock.getTime() - 8 * HOUR), 'football');
  fillerFixture(new Date(clock.getTime() - 5 * HOUR), 'tennis');
  const fillerFixtureCount = Math.max(20, Math.round(options.bets / 200));
  const windowEnd = clock.getTime() + 3 * DAY;
  for (let i = 0; i < fillerFixtureCount; i++) {
    // Start on the quarter hour, as real fixtures do.
    const at = historyStart + Math.floor((rng.next() * (windowEnd - historyStart)) / (15 * 60_000)) * 15 * 60_000;
    fillerFixture(new Date(at));
  }

  // ── Bets ──────────────────────────────────────────────────────────────────────────────────
  const limitsOf = new Map(playerLimits.map((l) => [l.accountId, l]));
  const marketById = new Map(markets.map((m) => [m.id, m]));
  const bets: BetRow[] = [];
  const placeBet = (player: AccountRow, marketId: string, placedAt: number, outcome?: OutcomeRow) => {
    const marketOutcomes = outcomesByMarket.get(marketId)!;
    const chosen = outcome ?? rng.pick(marketOutcomes);
    const side: Side = rng.chance(0.75) ? 'back' : 'lay';
    const odds = marketOutcomes.length > 2 ? rng.int(30, 120) * 5 : rng.int(22, 80) * 5;
    const limits = limitsOf.get(player.id)!;
    const large = rng.chance(0.005);
    let stake = (large ? rng.int(100, 250) * 100 : rng.pick([100, 200, 250, 500, 500, 1000, 1000, 2000, 3000, 5000])) * POINT;
    // Respect the player's per-click win, as the exchange would have.
    while (stake > limits.minStake && potentialWin({ side, stake, odds }) > limits.perClickWin) stake = Math.max(limits.minStake, mulDivFloor(stake, 1, 2 * POINT) * POINT);
    const market = marketById.get(marketId)!;
    bets.push({
      id: id(`bet:${bets.length}`), playerId: player.id, marketId, outcomeId: chosen.id, side, stake, odds,
      status: market.status === 'settled' ? 'settled' : 'open', placedAt: new Date(placedAt),
      settledAt: market.settledAt, result: null,
    });
  };
  const placeAt = (marketId: string) => {
    const w = marketOpens.get(marketId)!;
    return w.from + Math.floor(rng.next() * (w.to - w.from) / 1000) * 1000;
  };

  // The cast facts: settled history and an open bet on India vs Australia for the players of priya and arjun.
  const indAus = markets.find((m) => m.fixtureId === castFixtureIds.get('India vs Australia') && m.name === 'Match Odds')!;
  const castSettled = markets.filter((m) => m.status === 'settled' && [...castFixtureIds.values()].includes(m.fixtureId) && marketOpens.has(m.id));
  const underPriyaOrArjun = castPlayers.filter((p) => ['priya', 'arjun'].includes(accounts.find((a) => a.id === p.parentId)!.username));
  for (const player of underPriyaOrArjun) {
    for (let k = 0; k < 2; k++) { const m = rng.pick(castSettled); placeBet(player, m.id, placeAt(m.id)); }
    placeBet(player, indAus.id, placeAt(indAus.id));
  }
  const players = [...castPlayers, ...fillerPlayers];
  const bettable = markets.filter((m) => marketOpens.has(m.id));
  while (bets.length < options.bets) {
    const m = rng.pick(bettable);
    placeBet(rng.pick(players), m.id, placeAt(m.id));
  }
  bets.sort((a, b) => a.placedAt.getTime() - b.placedAt.getTime() || (a.id < b.id ? -1 : 1));
  for (const bet of bets) if (bet.status === 'settled' && rng.chance(0.005)) { bet.status = 'void'; bet.result = 0; }

  // ── Settle markets and weekly settlements, in time order, into the ledger ──────────────────
  const nodeById = new Map<string, HierarchyNode>(accounts.map((a) => [a.id, a]));
  const node = (accountId: string) => nodeById.get(accountId)!;
  const accountById = new Map(accounts.map((a) => [a.id, a]));
  const takes = new Map<string, number>(); // `${child}|${parent}` → what the child owes the parent
  const ledger: Posting[] = [];
  const settlements: SettlementRow[] = [];
  let entries = 0;
  const record = (movement: Movement, at: Date) => {
    ledger.push(...postingsOf(movement, id(`entry:${entries++}`), at));
    const key = `${movement.childId}|${movement.parentId}`;
    takes.set(key, (takes.get(key) ?? 0) + movement.amount);
  };

  const betsByMarket = new Map<string, BetRow[]>();
  for (const bet of bets) if (bet.status === 'settled') {
    const list = betsByMarket.get(bet.marketId) ?? [];
    list.push(bet);
    betsByMarket.set(bet.marketId, list);
  }
  type Event = { at: number; order: number; run: () => void };
  const timeline: Event[] = [];
  for (const m of markets) if (m.status === 'settled') {
    timeline.push({ at: m.settledAt!.getTime(), order: 0, run: () => {
      const marketBets = betsByMarket.get(m.id) ?? [];
      const settled = settleMarket(m.id, m.winnerOutcomeId!, marketBets as Array<BetTerms & { id: string; playerId: string }>, node);
      for (const bet of marketBets) bet.result = settled.results.get(bet.id)!;
      for (const movement of settled.movements) record(movement, m.settledAt!);
    } });
  }
  // Weekly settlement runs: Monday 10:00 in India (04:30 UTC), as desks square up after the weekend.
  for (let day = historyStart; day < clock.getTime(); day += DAY) {
    const date = new Date(day);
    const runAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 4, 30);
    if (weekdayIndex(localDate(new Date(runAt), 'UTC')) !== 0 || runAt <= historyStart || runAt >= clock.getTime()) continue;
    timeline.push({ at: runAt, order: 1, run: () => weeklySettlements(new Date(runAt)) });
  }
  const weeklySettlements = (at: Date) => {
    const lastWeek = isoWeekId(localDate(new Date(at.getTime() - 3 * DAY), DEFAULT_TIMEZONE));
    for (const [key, take] of [...takes.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (take === 0) continue;
      const [childId, parentId] = key.split('|') as [string, string];
      const child = accountById.get(childId)!;
      const roll = rng.next();
      const full = child.role === 'player' ? roll < 0.55 : roll < 0.5;
      const partial = !full && child.role === 'player' && roll < 0.7;
      if (!full && !partial) continue;
      // Half the take in whole points, toward zero, so a partial payment never overshoots the take.
      let amount = full ? take : Math.sign(take) * mulDivFloor(Math.abs(take), 1, 2 * POINT) * POINT;
      if (amount === 0) continue;
      if (Math.abs(amount) > Math.abs(take)) amount = take;
      const settlementId = id(`settlement:${settlements.length}`);
      settlements.push({
        id: settlementId, childId, parentId, amount, takeBefore: take, takeAfter: take - amount,
        mode: full ? 'auto' : 'amount', periodId: full ? lastWeek : null, createdBy: parentId, idempotencyKey: null, createdAt: at,
      });
      record({ kind: 'settlement', childId, parentId, amount: -amount, settlementId }, at);
    }
  };
  timeline.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const event of timeline) event.run();

  return { options, clock, accounts, playerLimits, teams, fixtures, markets, outcomes, bets, settlements, ledger };
}

function toRoman(n: number): string {
  const table: Array<[number, string]> = [[10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let out = '';
  for (const [value, letters] of table) while (n >= value) { out += letters; n -= value; }
  return out;
}
