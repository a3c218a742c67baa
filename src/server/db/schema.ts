import { sql } from 'drizzle-orm';
import { APPROVAL_STATUSES } from '../../shared/contracts/approvals.js';
import { SESSION_SCOPES } from '../../shared/contracts/agent-api.js';
import { EVENT_KINDS } from '../../shared/contracts/events.js';
import {
  bigint, boolean, check, customType, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';

/** Money columns: integer paisa in a bigint, read back as a JS number (safe up to 9e15 paisa). */
const paisa = (name: string) => bigint(name, { mode: 'number' });
const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** Facts about the book itself: for a generated demo book, its seed, size and clock. */
export const bookMeta = pgTable('book_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

/**
 * Every word of every account's search name, kept by a trigger on accounts (migration
 * 0014_name_words) whatever writes them: the vocabulary a name typed by ear is matched against,
 * which grows with the names in use, not with the number of accounts. A word no account holds any
 * more may stay; it finds no account.
 */
export const nameWords = pgTable('name_words', {
  word: text('word').primaryKey(),
});

export const ROLES = ['platform_admin', 'agent', 'player'] as const;
export type Role = (typeof ROLES)[number];

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey(),
  username: text('username').notNull(),
  displayName: text('display_name').notNull(),
  /** normalizeForSearch(displayName + username): what the fuzzy search reads. */
  searchName: text('search_name').notNull(),
  role: text('role', { enum: ROLES }).notNull(),
  parentId: uuid('parent_id'),
  /** Ids from the root to this account, dot-separated: the downline is a prefix match. */
  path: text('path').notNull(),
  depth: integer('depth').notNull(),
  shareBps: integer('share_bps').notNull().default(0),
  commissionBps: integer('commission_bps').notNull().default(0),
  creditLimit: paisa('credit_limit').notNull().default(0),
  timezone: text('timezone').notNull(),
  notes: text('notes'),
  passwordHash: text('password_hash'),
  largeBetThreshold: paisa('large_bet_threshold').notNull().default(1_000_000),
  /**
   * Set on an agent's self account (a player placed beside the agent, under the agent's upline):
   * the agent whose hedge bets it carries. Created on the agent's first hedge.
   */
  selfOf: uuid('self_of'),
  createdAt: instant('created_at').notNull(),
}, (t) => [
  uniqueIndex('accounts_username_key').on(t.username),
  uniqueIndex('accounts_self_of_key').on(t.selfOf),
  index('accounts_parent_idx').on(t.parentId),
  index('accounts_path_idx').on(sql`${t.path} text_pattern_ops`),
  // A downline's agents (downlineAgents) are few of its accounts: the index of all paths is passed over for them.
  index('accounts_agent_path_idx').on(sql`${t.path} text_pattern_ops`).where(sql`${t.role} = 'agent'`),
  index('accounts_search_trgm_idx').using('gin', sql`${t.searchName} gin_trgm_ops`),
  // The accounts that hold one of some words (searchPlayers' typo and by-ear candidates).
  index('accounts_search_words_idx').using('gin', sql`string_to_array(${t.searchName}, ' ')`),
  check('accounts_share_bps_range', sql`${t.shareBps} between 0 and 10000`),
  check('accounts_commission_bps_range', sql`${t.commissionBps} between 0 and 10000`),
  check('accounts_credit_limit_nonneg', sql`${t.creditLimit} >= 0`),
  check('accounts_parent_unless_admin', sql`(${t.role} = 'platform_admin') = (${t.parentId} is null)`),
]);

export const playerLimits = pgTable('player_limits', {
  accountId: uuid('account_id').primaryKey().references(() => accounts.id),
  perClickWin: paisa('per_click_win').notNull(),
  aggregateDailyWin: paisa('aggregate_daily_win').notNull(),
  minStake: paisa('min_stake').notNull(),
}, (t) => [
  check('player_limits_nonneg', sql`${t.perClickWin} >= 0 and ${t.aggregateDailyWin} >= 0`),
  check('player_limits_min_stake', sql`${t.minStake} >= 100 and ${t.minStake} <= ${t.perClickWin}`),
]);

export const sessions = pgTable('sessions', {
  /** SHA-256 of the opaque token: a leaked table does not leak usable tokens. */
  tokenHash: text('token_hash').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  createdAt: instant('created_at').notNull(),
  expiresAt: instant('expires_at').notNull(),
  revokedAt: instant('revoked_at'),
  /** What the session may do (agent-api.ts, sessionScope): a session opened for another door only asks. */
  scope: text('scope', { enum: SESSION_SCOPES }).notNull().default('desk'),
}, (t) => [index('sessions_account_idx').on(t.accountId)]);

export const teams = pgTable('teams', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  shortCodes: text('short_codes').array().notNull(),
});

export const FIXTURE_STATUSES = ['scheduled', 'live', 'finished'] as const;
export const fixtures = pgTable('fixtures', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  sport: text('sport').notNull(),
  startsAt: instant('starts_at').notNull(),
  status: text('status', { enum: FIXTURE_STATUSES }).notNull(),
  homeTeamId: uuid('home_team_id').notNull().references(() => teams.id),
  awayTeamId: uuid('away_team_id').notNull().references(() => teams.id),
  /** normalizeForSearch of the name, both teams' names and every short code. */
  searchText: text('search_text').notNull(),
}, (t) => [
  index('fixtures_starts_idx').on(t.startsAt),
  index('fixtures_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
]);

export const MARKET_STATUSES = ['open', 'suspended', 'settled', 'void'] as const;
export const markets = pgTable('markets', {
  id: uuid('id').primaryKey(),
  fixtureId: uuid('fixture_id').notNull().references(() => fixtures.id),
  name: text('name').notNull(),
  status: text('status', { enum: MARKET_STATUSES }).notNull(),
  winnerOutcomeId: uuid('winner_outcome_id'),
  settledAt: instant('settled_at'),
  ordinal: integer('ordinal').notNull(),
}, (t) => [index('markets_fixture_idx').on(t.fixtureId), index('markets_status_idx').on(t.status)]);

export const outcomes = pgTable('outcomes', {
  id: uuid('id').primaryKey(),
  marketId: uuid('market_id').notNull().references(() => markets.id),
  name: text('name').notNull(),
  ordinal: integer('ordinal').notNull(),
}, (t) => [index('outcomes_market_idx').on(t.marketId)]);

export const BET_SIDES = ['back', 'lay'] as const;
export const BET_STATUSES = ['open', 'settled', 'void'] as const;
export const bets = pgTable('bets', {
  id: uuid('id').primaryKey(),
  playerId: uuid('player_id').notNull().references(() => accounts.id),
  marketId: uuid('market_id').notNull().references(() => markets.id),
  outcomeId: uuid('outcome_id').notNull().references(() => outcomes.id),
  side: text('side', { enum: BET_SIDES }).notNull(),
  stake: paisa('stake').notNull(),
  /** Decimal odds in hundredths: 1.85 → 185. */
  odds: integer('odds').notNull(),
  status: text('status', { enum: BET_STATUSES }).notNull(),
  placedAt: instant('placed_at').notNull(),
  settledAt: instant('settled_at'),
  /** The player's result in paisa once settled (positive: the player won). */
  result: paisa('result'),
}, (t) => [
  index('bets_player_placed_idx').on(t.playerId, t.placedAt),
  index('bets_market_idx').on(t.marketId),
  // A player's open bets (its open liability when a bet is judged, an agent's hedges in its exposure): a small covering partial index.
  index('bets_open_player_idx').on(t.playerId, t.marketId, t.outcomeId, t.side, t.stake, t.odds).where(sql`${t.status} = 'open'`),
  // The bet list's summary (count, stake, open liability, settled result) over a whole downline.
  index('bets_player_summary_idx').on(t.playerId, t.status, t.side, t.stake, t.odds, t.result),
  index('bets_placed_idx').on(t.placedAt),
  check('bets_stake_positive', sql`${t.stake} > 0`),
  check('bets_odds_above_evens', sql`${t.odds} > 100`),
]);

export const LEDGER_KINDS = ['bet_result', 'commission', 'share', 'settlement', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
/**
 * Double-entry ledger. Every movement between a child account and its parent is two postings
 * with the same entry id: `amount` on the parent's row is what the child now owes the parent
 * more, and the child's row carries its negation. So every entry sums to zero, and the take of
 * a pair is Σ amount over the parent's postings against that child.
 */
export const ledger = pgTable('ledger', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  entryId: uuid('entry_id').notNull(),
  kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  counterpartyId: uuid('counterparty_id').notNull().references(() => accounts.id),
  amount: paisa('amount').notNull(),
  occurredAt: instant('occurred_at').notNull(),
  marketId: uuid('market_id'),
  betId: uuid('bet_id'),
  settlementId: uuid('settlement_id'),
}, (t) => [
  index('ledger_pair_idx').on(t.accountId, t.counterpartyId),
  // Covers the period reads (PnL, commission, own share) as index-only scans. Kind before time:
  // with time second, PGlite's planner scanned a whole month of every account instead of one each.
  index('ledger_account_kind_time_idx').on(t.accountId, t.kind, t.occurredAt, t.amount, t.marketId),
  index('ledger_entry_idx').on(t.entryId),
]);

/**
 * The running take of every child → parent pair: Σ of the parent's ledger postings against the
 * child, kept in the same transaction as each posting (services/ledger.ts) so reads of take, CL
 * and available do not re-sum the ledger. Tests hold it equal to the ledger sum.
 */
export const balances = pgTable('balances', {
  childId: uuid('child_id').primaryKey().references(() => accounts.id),
  parentId: uuid('parent_id').notNull().references(() => accounts.id),
  take: paisa('take').notNull(),
}, (t) => [index('balances_parent_idx').on(t.parentId)]);

/**
 * The ledger summed per account, kind and UTC day, kept in the same transaction as each posting
 * (services/ledger.ts) and rebuilt by the seed: a period read takes its whole days from here and
 * only the part-days at its ends from the ledger, so a month costs days, not postings.
 */
export const ledgerDaily = pgTable('ledger_daily', {
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  amount: paisa('amount').notNull(),
  postings: integer('postings').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.kind, t.day] })]);

/**
 * A player's postings with its agent (bet results and commission, whose counterparty is always the
 * player's parent) per UTC day, kept under the agent: one agent's players over a period are one
 * range of this table, so a downline's per-player figures read a range per agent instead of
 * probing each player's rows. Amounts are the player's side.
 */
export const playerDailyByAgent = pgTable('player_daily_by_agent', {
  agentId: uuid('agent_id').notNull().references(() => accounts.id),
  kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  playerId: uuid('player_id').notNull(),
  amount: paisa('amount').notNull(),
  postings: integer('postings').notNull(),
}, (t) => [primaryKey({ columns: [t.agentId, t.kind, t.day, t.playerId] })]);

/** The same per UTC month (`month` is its first day): a period mostly made of a month reads it as one row a player. */
export const playerMonthlyByAgent = pgTable('player_monthly_by_agent', {
  agentId: uuid('agent_id').notNull().references(() => accounts.id),
  kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
  month: date('month', { mode: 'string' }).notNull(),
  playerId: uuid('player_id').notNull(),
  amount: paisa('amount').notNull(),
  postings: integer('postings').notNull(),
}, (t) => [primaryKey({ columns: [t.agentId, t.kind, t.month, t.playerId] })]);

/**
 * The same sums split by market, for the postings of agents and the platform that carry one: an
 * agent's own result per market (top markets by PnL) without reading each of its players'
 * postings. Players' postings are left out: nothing reads a player's result by market from here,
 * and they were nearly a row each.
 */
export const ledgerMarketDaily = pgTable('ledger_market_daily', {
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  marketId: uuid('market_id').notNull(),
  kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  amount: paisa('amount').notNull(),
  postings: integer('postings').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.day, t.marketId, t.kind] })]);

/**
 * The stake placed per agent (every agent above the bettor, and the platform), market and UTC day,
 * kept in the transaction that places each bet (services/bets.ts) and rebuilt by the seed: top
 * markets by volume read a period's whole days from here, one row per market a day, instead of
 * every bet the downline placed.
 */
export const marketVolumeDaily = pgTable('market_volume_daily', {
  agentId: uuid('agent_id').notNull().references(() => accounts.id),
  marketId: uuid('market_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  stake: paisa('stake').notNull(),
  bets: integer('bets').notNull(),
}, (t) => [primaryKey({ columns: [t.agentId, t.day, t.marketId] })]);

/** The same per UTC month (`month` is its first day). */
export const marketVolumeMonthly = pgTable('market_volume_monthly', {
  agentId: uuid('agent_id').notNull().references(() => accounts.id),
  marketId: uuid('market_id').notNull(),
  month: date('month', { mode: 'string' }).notNull(),
  stake: paisa('stake').notNull(),
  bets: integer('bets').notNull(),
}, (t) => [primaryKey({ columns: [t.agentId, t.month, t.marketId] })]);

/**
 * The open bets of each agent's own players (those whose parent it is: its players, and the self
 * accounts of its sub-agents) per market and outcome, kept in the transaction that places each bet
 * and cleared by the market's settlement (services/bet-rollups.ts), rebuilt by the seed. Exposure
 * sums these rows per agent of the downline, at each agent's factor, instead of every open bet.
 */
export const openPositions = pgTable('open_positions', {
  agentId: uuid('agent_id').notNull().references(() => accounts.id),
  marketId: uuid('market_id').notNull(),
  outcomeId: uuid('outcome_id').notNull(),
  /** What the players' open bets on the market make if this outcome wins (positive: the players win). */
  playerResult: paisa('player_result').notNull(),
  /** The open bets among them backing or laying this outcome. */
  bets: integer('bets').notNull(),
}, (t) => [
  primaryKey({ columns: [t.agentId, t.marketId, t.outcomeId] }),
  // A settlement clears its market's rows.
  index('open_positions_market_idx').on(t.marketId),
]);

/**
 * Each agent's own players' bets (as open_positions counts them) per status: count, stake,
 * liability and result, moved from open to settled by the settlement that settles them. The bet
 * list's summary of a whole downline is the sum of its agents' rows instead of every bet.
 */
export const betTotals = pgTable('bet_totals', {
  agentId: uuid('agent_id').notNull().references(() => accounts.id),
  status: text('status', { enum: BET_STATUSES }).notNull(),
  bets: integer('bets').notNull(),
  stake: paisa('stake').notNull(),
  liability: paisa('liability').notNull(),
  result: paisa('result').notNull(),
}, (t) => [primaryKey({ columns: [t.agentId, t.status] })]);

export const settlements = pgTable('settlements', {
  id: uuid('id').primaryKey(),
  /** The lower account of the pair (a player or sub-agent) and its upline. */
  childId: uuid('child_id').notNull().references(() => accounts.id),
  parentId: uuid('parent_id').notNull().references(() => accounts.id),
  /** Positive: the child paid the parent; negative: the parent paid the child. */
  amount: paisa('amount').notNull(),
  takeBefore: paisa('take_before').notNull(),
  takeAfter: paisa('take_after').notNull(),
  mode: text('mode', { enum: ['auto', 'amount'] }).notNull(),
  periodId: text('period_id'),
  createdBy: uuid('created_by').notNull().references(() => accounts.id),
  idempotencyKey: text('idempotency_key'),
  createdAt: instant('created_at').notNull(),
}, (t) => [
  index('settlements_child_idx').on(t.childId, t.createdAt),
  index('settlements_parent_idx').on(t.parentId, t.createdAt),
  // The history's first page, newest first: read down this index, not sorted from every match.
  index('settlements_created_idx').on(t.createdAt, t.id),
  check('settlements_amount_nonzero', sql`${t.amount} <> 0`),
]);

/** Stripe-style keys: the first response is stored and replayed; other parameters are refused. */
export const idempotencyKeys = pgTable('idempotency_keys', {
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  procedure: text('procedure').notNull(),
  key: text('key').notNull(),
  paramsHash: text('params_hash').notNull(),
  response: jsonb('response'),
  createdAt: instant('created_at').notNull(),
  expiresAt: instant('expires_at').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.procedure, t.key] })]);

/**
 * The backend's record of every audited change, written in the transaction of the change itself.
 * Each actor's rows form a hash chain (seq 1..n, prev_hash, hash over the row as written:
 * services/audit.ts), which is what a desk's local audit log is checked against. Rows from
 * before the chain existed have no seq and are not part of it.
 */
export const auditLog = pgTable('audit_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  actorId: uuid('actor_id').notNull().references(() => accounts.id),
  action: text('action').notNull(),
  targetId: uuid('target_id'),
  before: jsonb('before'),
  after: jsonb('after'),
  requestId: text('request_id'),
  idempotencyKey: text('idempotency_key'),
  createdAt: instant('created_at').notNull(),
  seq: integer('seq'),
  prevHash: text('prev_hash'),
  hash: text('hash'),
}, (t) => [
  index('audit_actor_idx').on(t.actorId, t.createdAt),
  // One row per place in an actor's chain: a fork cannot be written, whatever the locking.
  uniqueIndex('audit_actor_seq_idx').on(t.actorId, t.seq),
  check('audit_chain_whole', sql`(${t.seq} is null) = (${t.hash} is null) and (${t.seq} is null) = (${t.prevHash} is null)`),
]);

/**
 * The head of each actor's chain in audit_log: the row an append locks, so two changes by one
 * actor chain one after the other. Only the backend writes it, from the change it records.
 */
export const auditHeads = pgTable('audit_heads', {
  accountId: uuid('account_id').primaryKey().references(() => accounts.id),
  seq: integer('seq').notNull(),
  hash: text('hash').notNull(),
  recordedAt: instant('recorded_at').notNull(),
});

export { EVENT_KINDS };
export const events = pgTable('events', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  kind: text('kind', { enum: EVENT_KINDS }).notNull(),
  recipientId: uuid('recipient_id').notNull().references(() => accounts.id),
  payload: jsonb('payload').notNull(),
  createdAt: instant('created_at').notNull(),
  readAt: instant('read_at'),
}, (t) => [index('events_recipient_idx').on(t.recipientId, t.id)]);

export const eventMutes = pgTable('event_mutes', {
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  kind: text('kind', { enum: EVENT_KINDS }).notNull(),
  muted: boolean('muted').notNull(),
  /** Muted until this instant ("till 6pm"); null with `muted`: until unmuted. */
  until: instant('until'),
}, (t) => [primaryKey({ columns: [t.accountId, t.kind] })]);

export const REPORT_STATUSES = ['running', 'ready', 'failed', 'cancelled'] as const;
export const reportArtifacts = pgTable('report_artifacts', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull().references(() => accounts.id),
  template: text('template', { enum: ['per_player_pnl', 'bets_by_match', 'settlement_log'] }).notNull(),
  format: text('format', { enum: ['xlsx', 'pdf'] }).notNull(),
  filters: jsonb('filters').notNull(),
  /** Null until the job has written the whole file; a cancelled or failed job leaves none. */
  content: bytea('content'),
  createdAt: instant('created_at').notNull(),
  expiresAt: instant('expires_at').notNull(),
  // Defaults only for rows written before jobs existed: those were always finished files.
  status: text('status', { enum: REPORT_STATUSES }).notNull().default('ready'),
  title: text('title').notNull().default(''),
  fileName: text('file_name').notNull().default(''),
  rowsDone: integer('rows_done').notNull().default(0),
  rowsTotal: integer('rows_total').notNull().default(0),
  sizeBytes: integer('size_bytes'),
  error: text('error'),
  /** Wall-clock time of the job's last progress: a running row left behind by a stopped backend goes stale. */
  updatedAt: instant('updated_at').notNull().default(sql`now()`),
}, (t) => [
  index('report_artifacts_owner_idx').on(t.ownerId, t.createdAt),
  index('report_artifacts_expires_idx').on(t.expiresAt),
  check('report_artifacts_ready_has_content', sql`(${t.status} = 'ready') = (${t.content} is not null)`),
]);

/** A report sent to someone: the recipient may list, read and download it while they stay in reach. */
export const reportShares = pgTable('report_shares', {
  artifactId: uuid('artifact_id').notNull().references(() => reportArtifacts.id, { onDelete: 'cascade' }),
  recipientId: uuid('recipient_id').notNull().references(() => accounts.id),
  sharedBy: uuid('shared_by').notNull().references(() => accounts.id),
  sharedAt: instant('shared_at').notNull(),
}, (t) => [
  primaryKey({ columns: [t.artifactId, t.recipientId] }),
  index('report_shares_recipient_idx').on(t.recipientId),
]);

/**
 * The key download links are signed with: one row, made on first use, so every backend instance
 * on this database signs and verifies alike.
 */
export const reportLinkSecret = pgTable('report_link_secret', {
  id: integer('id').primaryKey(),
  secret: bytea('secret').notNull(),
  createdAt: instant('created_at').notNull(),
}, (t) => [check('report_link_secret_one_row', sql`${t.id} = 1`)]);

/**
 * A change asked for over MCP, waiting for its owner: the frozen call, the snapshot its
 * preview showed and the card the owner confirms against. The status moves once from `pending`
 * (a conditional update), so two confirmations of the same approval cannot both run it.
 */
export const approvals = pgTable('approvals', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull().references(() => accounts.id),
  tool: text('tool').notNull(),
  args: jsonb('args').notNull(),
  snapshot: jsonb('snapshot'),
  card: jsonb('card').notNull(),
  summary: text('summary').notNull(),
  channel: text('channel', { enum: ['mcp'] }).notNull(),
  client: text('client'),
  status: text('status', { enum: APPROVAL_STATUSES }).notNull(),
  createdAt: instant('created_at').notNull(),
  expiresAt: instant('expires_at').notNull(),
  decidedAt: instant('decided_at'),
  decidedVia: text('decided_via', { enum: ['desk', 'mcp_elicitation'] }),
  result: jsonb('result'),
}, (t) => [index('approvals_owner_idx').on(t.ownerId, t.createdAt)]);
