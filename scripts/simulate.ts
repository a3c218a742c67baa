/**
 * `npm run simulate -- --minutes N [--rate R] [--seed S] [--settle-per-minute P]` (docs/live.md):
 * life on the exchange, driven into the demo book through the services themselves (not HTTP):
 * players signing in, bets of every size (mostly small, now and then one above the agents'
 * large-bet thresholds), and now and then an in-play market settled — each with its events, so a
 * desk watching the book sees them arrive. `--seconds` instead of `--minutes` for a short run.
 *
 * The book: PGlite in PGLITE_DIR (default ./.data/pglite, as `npm run server`; the demo book is
 * written there on first use), or DATABASE_URL. PGlite has one writer, so a desk cannot open the
 * folder this writes: `--desk` is the one command to watch the alerts arrive. It opens the browser
 * shell's own book instead (./.data/desk, DESK_DATA_DIR and PGLITE_DIR read as the shell reads
 * them), serves it on a loopback port, and starts the browser shell (its build, out/main/web.js)
 * against that backend, so the desk at http://127.0.0.1:5180 shows the book being written — and
 * keeps serving it after the run until Ctrl+C.
 *
 * Deterministic: the same --seed on the same book makes the same choices at the same business
 * times. Business time is the book's clock at the start plus the schedule's offset (action k of R a
 * minute happens k/R minutes in), not the wall clock, so prices and "today" do not depend on how
 * fast the machine is; the wall clock only paces the run.
 *
 * stdout: one line per simulated minute with its counts, then a total line. Exit 2: a bad command line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { createLogger } from '../src/infra/log.js';
import { browserShellDataDirs } from '../src/main/data-dirs.js';
import { openBackend } from '../src/server/backend.js';
import { startBackendServer } from '../src/server/http.js';
import { type Db, databaseConfigFromEnv, queryRows } from '../src/server/db/client.js';
import { potentialWin } from '../src/server/domain/bets.js';
import { SeededRandom } from '../src/server/seed/random.js';
import { BetRefusedError, emitPlayerLogin, placeBetNow } from '../src/server/services/bets.js';
import type { ServiceDeps } from '../src/server/services/caller.js';
import { UsageError, parseFlags } from './lib/command-line.js';
import { outcomePrice, settleMarketNow, tradingStatus } from '../src/server/services/markets.js';

const USAGE = 'usage: npm run simulate -- (--minutes N | --seconds N) [--rate BETS_PER_MINUTE] [--seed S] [--settle-per-minute P] [--desk]';
const POINT = 100;
const MINUTE = 60_000;

export const simulateOptions = z.object({
  /** How long to run, in (wall-clock and business) milliseconds. */
  durationMs: z.number().positive().max(7 * 24 * 60 * MINUTE),
  /** Actions a minute (bets and sign-ins). */
  rate: z.number().positive().max(60_000),
  seed: z.string().min(1),
  /** Markets settled a minute, on average. */
  settlePerMinute: z.number().min(0).max(60),
  /** Pace by the wall clock (false: as fast as the database goes). */
  realTime: z.boolean(),
});
export type SimulateOptions = z.infer<typeof simulateOptions>;

export interface Counts {
  bets: number; large: number; refused: number; logins: number; settled: number; events: number;
  refusedBy: Record<string, number>;
}
const zero = (): Counts => ({ bets: 0, large: 0, refused: 0, logins: 0, settled: 0, events: 0, refusedBy: {} });

function line(label: string, c: Counts): string {
  const reasons = Object.entries(c.refusedBy).sort(([a], [b]) => (a < b ? -1 : 1)).map(([r, n]) => `${r} ${n}`).join(', ');
  return `${label}: ${c.bets} bets placed (${c.large} large), ${c.refused} refused${reasons ? ` (${reasons})` : ''}, `
    + `${c.logins} logins, ${c.settled} markets settled, ${c.events} events`;
}

interface Player { id: string; name: string; path: string; perClickWin: number; minStake: number }
interface Market { id: string; fixtureStatus: 'scheduled' | 'live' | 'finished'; startsAt: Date; status: 'open' | 'suspended' | 'settled' | 'void'; outcomeIds: string[] }

async function loadWorld(db: Db): Promise<{ players: Player[]; markets: Market[] }> {
  const players = (await queryRows<{ id: string; name: string; path: string; per_click_win: string | number; min_stake: string | number }>(db, sql`
    select a.id, a.display_name as name, a.path, pl.per_click_win, pl.min_stake
    from accounts a join player_limits pl on pl.account_id = a.id
    where a.role = 'player' and a.self_of is null order by a.username`))
    .map((r) => ({ id: r.id, name: r.name, path: r.path, perClickWin: Number(r.per_click_win), minStake: Number(r.min_stake) }));
  const rows = await queryRows<{ id: string; fixture_status: Market['fixtureStatus']; starts_at: Date | string; status: Market['status']; outcome_ids: string[] | string }>(db, sql`
    select m.id, f.status as fixture_status, f.starts_at, m.status,
      array(select o.id::text from outcomes o where o.market_id = m.id order by o.ordinal) as outcome_ids
    from markets m join fixtures f on f.id = m.fixture_id where m.status = 'open' order by f.starts_at, m.id`);
  const markets = rows.map((r) => ({
    id: r.id, fixtureStatus: r.fixture_status, startsAt: new Date(r.starts_at), status: r.status,
    // node-postgres parses uuid[] of text into an array; PGlite too, but be lenient with the literal form.
    outcomeIds: Array.isArray(r.outcome_ids) ? r.outcome_ids : r.outcome_ids.replace(/^{|}$/g, '').split(','),
  }));
  return { players, markets };
}

/**
 * Runs the simulation on `deps`' database. Business time starts at deps.now() and advances by the
 * schedule. `print` gets a line per simulated minute and the total.
 */
export async function simulate(deps: ServiceDeps, options: SimulateOptions, print: (line: string) => void): Promise<Counts> {
  const o = simulateOptions.parse(options);
  const rng = new SeededRandom(`simulate:${o.seed}`);
  const start = deps.now().getTime();
  let offset = 0;
  const sim: ServiceDeps = { ...deps, now: () => new Date(start + offset) };
  const { players, markets } = await loadWorld(deps.db);
  if (players.length === 0) throw new Error('the book has no players to simulate');
  const total = zero();
  let minute = zero();
  let minuteNo = 1;
  const wallStart = Date.now();
  const step = MINUTE / o.rate;
  const settleChance = o.settlePerMinute / o.rate;

  const bettable = () => markets.filter((m) => tradingStatus({ marketStatus: m.status, fixtureStatus: m.fixtureStatus, startsAt: m.startsAt }, sim.now()) === 'open');
  const add = (key: Exclude<keyof Counts, 'refusedBy'>, n = 1) => { total[key] += n; minute[key] += n; };

  for (let k = 0; ; k++) {
    offset = Math.round(k * step);
    if (offset >= o.durationMs) break;
    while (offset >= minuteNo * MINUTE) {
      print(line(`minute ${minuteNo}`, minute));
      minute = zero();
      minuteNo++;
    }
    if (o.realTime) {
      const wait = wallStart + offset - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }

    if (rng.chance(settleChance)) {
      // Only in-play markets get a result: a match not yet begun has none.
      const live = bettable().filter((m) => m.fixtureStatus === 'live');
      if (live.length > 0) {
        const market = rng.pick(live);
        const settled = await settleMarketNow(sim, { marketId: market.id, winnerOutcomeId: rng.pick(market.outcomeIds) });
        market.status = 'settled';
        add('settled');
        add('events', settled.recipients.length);
      }
    }

    const player = rng.pick(players);
    if (rng.chance(0.12)) {
      const told = await deps.db.transaction(async (tx) => emitPlayerLogin(sim, tx as unknown as Db, { id: player.id, displayName: player.name, path: player.path }));
      add('logins');
      add('events', told);
      continue;
    }
    const open = bettable();
    if (open.length === 0) continue;
    const market = rng.pick(open);
    const outcomeId = rng.pick(market.outcomeIds);
    const side = rng.chance(0.75) ? 'back' as const : 'lay' as const;
    // The seed's sizes: mostly a few hundred points, one in thirty-odd 10,000–25,000 (a large bet).
    const large = rng.chance(0.03);
    let stake = (large ? rng.int(100, 250) * 100 : rng.pick([100, 200, 250, 500, 500, 1000, 1000, 2000, 3000, 5000])) * POINT;
    const odds = outcomePrice(outcomeId, market.outcomeIds.length, sim.now());
    // Players keep within their per-click win, as the seed's do: the exchange's slip shows it.
    while (stake > player.minStake && potentialWin({ side, stake, odds }) > player.perClickWin) stake = Math.max(player.minStake, Math.floor(stake / 2 / POINT) * POINT);
    try {
      const bet = await placeBetNow(sim, { accountId: player.id, marketId: market.id, outcomeId, side, stake, odds }, { hedge: false });
      add('bets');
      if (bet.largeBetRecipients.length > 0) add('large');
      add('events', bet.largeBetRecipients.length);
    } catch (error) {
      if (!(error instanceof BetRefusedError)) throw error;
      add('refused');
      total.refusedBy[error.reason] = (total.refusedBy[error.reason] ?? 0) + 1;
      minute.refusedBy[error.reason] = (minute.refusedBy[error.reason] ?? 0) + 1;
    }
  }
  if (minute.bets + minute.refused + minute.logins + minute.settled > 0 || minuteNo === 1) print(line(`minute ${minuteNo}`, minute));
  print(line(`total (${((Date.now() - wallStart) / 1000).toFixed(1)} s)`, total));
  return total;
}

/** The command line: the run's options, and `desk` when the browser shell is to show the book (see above). */
export type CommandLine = Omit<SimulateOptions, 'realTime'> & { desk?: true };

export function parseCommandLine(argv: string[]): CommandLine {
  const { values, num } = parseFlags(argv, {
    minutes: { type: 'string' }, seconds: { type: 'string' }, rate: { type: 'string' }, seed: { type: 'string' }, 'settle-per-minute': { type: 'string' },
    desk: { type: 'boolean' },
  }, 0);
  if ((values.minutes === undefined) === (values.seconds === undefined)) throw new UsageError('give one of --minutes or --seconds');
  const durationMs = values.minutes !== undefined ? num('minutes') * MINUTE : num('seconds') * 1000;
  const parsed = simulateOptions.omit({ realTime: true }).safeParse({
    durationMs, rate: num('rate', 60), seed: typeof values.seed === 'string' ? values.seed : 'simulate', settlePerMinute: num('settle-per-minute', 0.3),
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return { ...parsed.data, ...(values.desk === true && { desk: true as const }) };
}

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const SHELL_BUNDLE = resolve(ROOT, 'out/main/web.js');

/**
 * `--desk`: the browser shell's book, served to a browser shell started here, while the run writes
 * into it. Resolves when the user stops it (Ctrl+C) or the shell ends.
 */
async function simulateOnDesk(options: Omit<SimulateOptions, 'realTime'>): Promise<number> {
  if (!existsSync(SHELL_BUNDLE)) {
    process.stdout.write('simulate: building the app first (npm run build)…\n');
    const built = spawnSync(process.execPath, [resolve(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) return built.status ?? 1;
  }
  const dirs = browserShellDataDirs(process.env);
  const log = createLogger({ level: 'warn', base: { service: 'agent-desk-simulate' } });
  process.stdout.write(`simulate: opening the browser shell's book in ${dirs.pgliteDir}…\n`);
  const backend = await openBackend({
    database: databaseConfigFromEnv(process.env, dirs.pgliteDir), seedDemoIfEmpty: true, log, ...(process.env.CLOCK ? { clock: process.env.CLOCK } : {}),
  });
  const server = await startBackendServer(backend.deps, log, { port: 0 });
  // The shell reaches the book through this backend: it must not open the folder itself (PGlite takes one writer).
  const shell = spawn(process.execPath, [SHELL_BUNDLE], {
    cwd: process.cwd(), stdio: 'inherit', env: { ...process.env, BACKEND_URL: server.url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  const stopped = new Promise<number>((done) => {
    shell.once('exit', (code) => done(code ?? 0));
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { shell.kill(signal); });
  });
  try {
    const finished = simulate(backend.deps, { ...options, realTime: true }, (l) => process.stdout.write(`${l}\n`));
    const first = await Promise.race([finished.then(() => null), stopped]);
    if (first !== null) {
      // Stopped mid-run: the run ends on the closed book below, which is no failure to report.
      finished.catch(() => undefined);
      return first;
    }
    process.stdout.write('simulate: the run is over; the desk keeps showing the book until Ctrl+C.\n');
    return await stopped;
  } finally {
    shell.kill('SIGTERM');
    await server.close();
    await backend.database.close();
  }
}

async function main(): Promise<number> {
  let options: CommandLine;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  const { desk, ...run } = options;
  if (desk) return simulateOnDesk(run);
  const backend = await openBackend({
    database: databaseConfigFromEnv(process.env, resolve('.data/pglite')), seedDemoIfEmpty: true, ...(process.env.CLOCK ? { clock: process.env.CLOCK } : {}),
  });
  try {
    await simulate(backend.deps, { ...run, realTime: true }, (l) => process.stdout.write(`${l}\n`));
    return 0;
  } finally {
    await backend.database.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  main().then((code) => { process.exitCode = code; }, (error: unknown) => {
    process.stderr.write(`simulate failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
