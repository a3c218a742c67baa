/**
 * The offline planner (seed 001's shape): intent groups with triggers, a precedence order where
 * they overlap, slot filling from the grammar, page context, follow-ups that reuse the last plan
 * with one slot changed, and the freshness breaker. Deterministic and free of I/O; names stay
 * names here — the policy gate resolves them. docs/intent-map.md is this file in words.
 */
import type { Decision } from '../../../shared/contracts/assistant.js';
import { isoWeekId } from '../../../shared/dates.js';
import { type Reading, hasAny, read } from './grammar.js';
import type { PlannedCall, Planner, PlannerInput } from './types.js';

type ClarifyReason = NonNullable<Decision['clarify']>['reason'];

export interface IntentSpec {
  id: string;
  tool: string;
  /** Lower runs first; an exclusive intent that matches is the whole plan. */
  precedence: number;
  exclusive: boolean;
  triggers: (r: Reading) => boolean;
}

const PLAYER_WORD = /\bplayers?\b|\bclients?\b|\bpunters?\b/;
const SELF = ['my', 'me', 'i', 'our', 'we', 'us', 'mine'];
const BULK = /\b(?:every|all|each|everyone|everybody|whole)\b(?!\s+(?:time|day))/;

/** Seed 000's tools, one intent group each, in precedence order. */
export const INTENTS: IntentSpec[] = [
  { id: 'report', tool: 'agent.generateReport', precedence: 10, exclusive: true,
    triggers: (r) => hasAny(r, 'report', 'reports', 'excel', 'xlsx', 'spreadsheet', 'sheet', 'pdf', 'csv', 'export', 'download', 'statement') },
  { id: 'hedge', tool: 'agent.placeHedgeBet', precedence: 20, exclusive: true,
    triggers: (r) => hasAny(r, 'hedge', 'hedging') || /\b(?:back|lay)\s+(?:₹\s*)?\d/.test(r.folded) || /\bplace\s+(?:a\s+)?(?:back\s+|lay\s+)?bet\b/.test(r.folded) },
  { id: 'edit_limit', tool: 'agent.editLimit', precedence: 30, exclusive: true,
    triggers: (r) => hasAny(r, 'creditlimit', 'limit', 'limits', 'minstake', 'perclickwin', 'dailywin', 'credit')
      && (hasAny(r, 'set', 'change', 'update', 'increase', 'decrease', 'raise', 'lower', 'reduce', 'bump', 'edit', 'modify', 'adjust', 'put', 'cut', 'double', 'halve', 'lift', 'drop', 'make', 'give', 'allow', 'grant')
        || /\bto\s+(?:₹\s*)?\d/.test(r.folded)) },
  { id: 'settle', tool: 'agent.settlePlayer', precedence: 40, exclusive: true,
    triggers: (r) => hasAny(r, 'settle', 'settling', 'collect', 'payout') || /\b(?:clear|pay)\b(?!.*\b(?:history|log)\b)/.test(r.folded) && !hasAny(r, 'chat', 'conversation', 'screen') },
  { id: 'top_markets', tool: 'agent.getTopMarkets', precedence: 50, exclusive: true,
    triggers: (r) => /\b(?:top|biggest|largest|busiest|best|worst|highest|hottest|popular|most\s+active|heaviest)\b.*\b(?:markets?|matches|fixtures|events|games)\b/.test(r.folded)
      || /\b(?:which|what)\s+(?:markets?|matches|fixtures|events|games)\b.*\b(?:most|highest|biggest|largest|top)\b/.test(r.folded) },
  { id: 'settlements', tool: 'agent.getSettlementHistory', precedence: 60, exclusive: false,
    triggers: (r) => hasAny(r, 'settlement', 'settlements', 'payment', 'payments', 'paid', 'receipt', 'receipts', 'transaction', 'transactions')
      || /\bsettled\s+with\b/.test(r.folded) },
  { id: 'upline', tool: 'agent.getUpline', precedence: 70, exclusive: false,
    triggers: (r) => hasAny(r, 'upline', 'parent', 'master', 'superagent')
      || (/\b(?:i|we)\s+(?:owe|have\s+to\s+pay)\b/.test(r.folded) && r.names.length === 0)
      || (/\bmy\s+(?:balance|available|headroom)\b/.test(r.folded) && r.names.length === 0) },
  { id: 'credit_limit', tool: 'agent.getCreditLimit', precedence: 80, exclusive: false,
    triggers: (r) => hasAny(r, 'creditlimit', 'limit', 'limits', 'minstake', 'perclickwin', 'dailywin', 'credit', 'headroom') },
  { id: 'take', tool: 'agent.getTake', precedence: 90, exclusive: false,
    triggers: (r) => hasAny(r, 'take', 'owe', 'owes', 'owed', 'owing', 'outstanding', 'due', 'dues', 'receivable', 'payable', 'balance', 'balances') },
  { id: 'exposure', tool: 'agent.getLiveExposure', precedence: 100, exclusive: false,
    triggers: (r) => hasAny(r, 'exposure', 'exposed', 'liability', 'liabilities', 'risk', 'book', 'position', 'positions') },
  { id: 'commission', tool: 'agent.getCommission', precedence: 110, exclusive: false,
    triggers: (r) => hasAny(r, 'commission', 'commissions', 'comm', 'comms', 'rebate') },
  { id: 'pnl', tool: 'agent.getPnL', precedence: 120, exclusive: false,
    triggers: (r) => hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'lose', 'lost', 'losing', 'won', 'winnings', 'earnings', 'result', 'results', 'performance')
      || /\b(?:how\s+much\s+)?(?:did|have)\s+(?:i|we)\s+(?:make|made|win|won|lose|lost|earn)\b/.test(r.folded)
      || /\bup\s+or\s+down\b/.test(r.folded) || /\bhow\s+(?:is|are|was|were|s)\b.*\bdoing\b/.test(r.folded) },
  { id: 'bets', tool: 'agent.getBetHistory', precedence: 130, exclusive: false,
    triggers: (r) => hasAny(r, 'bet', 'bets', 'betting', 'wager', 'wagers', 'ticket', 'tickets', 'punts') },
  { id: 'downline', tool: 'agent.getDownline', precedence: 140, exclusive: false,
    triggers: (r) => hasAny(r, 'downline', 'subagents', 'hierarchy', 'tree', 'structure', 'network')
      || /\b(?:my|all|list|show)\s+(?:the\s+)?(?:players|agents|accounts|clients)\b$/.test(r.folded) },
];

const GREETING = /^(?:hi+|hello|hey|yo|namaste|hola|good\s+(?:morning|afternoon|evening)|thanks?(?:\s+you)?|thx|ok(?:ay)?|cool|great|nice|bye|goodbye|see\s+you)\b[\s!.?]*(?:there|again|so\s+much|a\s+lot)?[\s!.?]*$/;
const FRESHNESS = ['now', 'today', 'latest', 'current', 'updated', 'live', 'refresh', 'again'];
const FOLLOW_UP_OPENER = /^(?:and|what\s+about|how\s+about|same\s+for|and\s+for|also|now|ok\s+and|then|for|what\s+of|and\s+what\s+about)\b/;
/** Words of money and the book that, with nothing plannable, deserve a question rather than small talk. */
const FINANCE_HINT = ['money', 'cash', 'amount', 'account', 'accounts', 'players', 'player', 'agent', 'agents', 'points', 'odds', 'market', 'markets', 'match', 'win', 'won', 'lost', 'numbers', 'figures', 'stake', 'stakes'];

export class RulePlanner implements Planner {
  readonly name = 'rules';

  plan(input: PlannerInput): Decision {
    const r = read(input.text, input.today);
    const base = { request_id: input.requestId };

    if (GREETING.test(r.folded)) return { ...base, intent: 'greeting', action: 'direct', calls: [], confidence: 1 };
    if (hasAny(r, 'capabilities') || /^(?:help|\?|commands|menu)\b/.test(r.folded)) {
      return { ...base, intent: 'capabilities', action: 'direct', calls: [], confidence: 1 };
    }

    const matched = INTENTS.filter((i) => i.triggers(r)).sort((a, b) => a.precedence - b.precedence);
    const exclusive = matched.find((i) => i.exclusive);
    let intents = exclusive ? [exclusive] : matched;
    // An upline question is about the caller's own take, not the downline's.
    if (intents.some((i) => i.id === 'upline')) intents = intents.filter((i) => i.id !== 'take');
    // "settlement history" with a settle-sounding verb stays a read.
    if (intents.length === 0) return this.followUpOrNot(input, r);

    const slots = new Slots(input, r);
    const calls: PlannedCall[] = [];
    for (const intent of intents.slice(0, 4)) {
      const filled = fillers[intent.id]!(slots);
      if ('clarify' in filled) return { ...base, intent: intent.id, action: 'clarify', calls: [], confidence: 0.9, clarify: filled.clarify };
      calls.push({ tool: intent.tool, args: filled.args });
    }
    return { ...base, intent: intents.map((i) => i.id).join('+'), action: 'tools', calls, confidence: exclusive ? 0.9 : 0.85 };
  }

  /** No intent of its own: a follow-up that changes one slot of the last plan, or not finance at all. */
  private followUpOrNot(input: PlannerInput, r: Reading): Decision {
    const base = { request_id: input.requestId };
    const last = input.context.lastCalls;
    const fresh = FRESHNESS.some((w) => r.words.has(w)) || /\bnow\b/.test(r.folded);
    const changes = r.range !== null || r.names.length > 0 || r.fixture !== null || fresh || statusOf(r) !== null
      || r.pronounPlayer || r.pronounFixture;
    const looksLikeFollowUp = FOLLOW_UP_OPENER.test(r.folded) || r.tokens.length <= 6;
    if (last && last.length > 0 && changes && looksLikeFollowUp) {
      const slots = new Slots(input, r);
      let calls = last.map((c) => ({ tool: c.tool, args: { ...c.args } }));
      if (fresh && !r.range) {
        // The freshness breaker: only live figures are fetched again; period figures move to today.
        const live = calls.filter((c) => LIVE_TOOLS.has(c.tool));
        calls = live.length > 0 ? live : calls.map((c) => withRange(c, { from: input.today, to: input.today }));
      }
      if (r.range) calls = calls.map((c) => withRange(c, r.range!));
      const player = slots.namedPlayer();
      const fixture = slots.namedFixture();
      if (player) calls = calls.map((c) => (PLAYER_TOOLS.has(c.tool) ? { tool: c.tool, args: { ...c.args, player } } : c));
      if (fixture) calls = calls.map((c) => (FIXTURE_TOOLS.has(c.tool) ? { tool: c.tool, args: { ...withoutMarket(c.args), fixture } } : c));
      const status = statusOf(r);
      if (status) calls = calls.map((c) => (c.tool === 'agent.getBetHistory' ? { tool: c.tool, args: { ...c.args, status } } : c));
      return { ...base, intent: `follow_up:${input.context.lastIntent ?? 'last'}`, action: 'tools', calls, confidence: 0.7 };
    }
    if (FINANCE_HINT.some((w) => r.words.has(w)) || r.amounts.length > 0 || r.range !== null) {
      return {
        ...base, intent: 'unplannable', action: 'clarify', calls: [], confidence: 0.4,
        clarify: { reason: 'unplannable', question: 'I can look up PnL, exposure, take, credit limits, commission, bets, settlements and your downline. What would you like to see?' },
      };
    }
    return { ...base, intent: 'off_topic', action: 'direct', calls: [], confidence: 0.6 };
  }
}

const LIVE_TOOLS = new Set(['agent.getLiveExposure', 'agent.getTake', 'agent.getUpline', 'agent.getCreditLimit', 'agent.getBetHistory', 'agent.getDownline']);
const PLAYER_TOOLS = new Set(['agent.getPnL', 'agent.getTake', 'agent.getCreditLimit', 'agent.getCommission', 'agent.getSettlementHistory', 'agent.getBetHistory', 'agent.editLimit', 'agent.settlePlayer']);
const FIXTURE_TOOLS = new Set(['agent.getPnL', 'agent.getLiveExposure', 'agent.getBetHistory', 'agent.placeHedgeBet']);
const DATED_TOOLS = new Set(['agent.getPnL', 'agent.getCommission', 'agent.getSettlementHistory', 'agent.getBetHistory']);

function withRange(call: PlannedCall, range: { from: string; to: string }): PlannedCall {
  if (DATED_TOOLS.has(call.tool)) return { tool: call.tool, args: { ...call.args, from: range.from, to: range.to } };
  if (call.tool === 'agent.getTopMarkets') return { tool: call.tool, args: { ...call.args, period: periodOf(range.from, range.to, range.to) } };
  if (call.tool === 'agent.generateReport') {
    const filters = (call.args.filters ?? {}) as Record<string, unknown>;
    return { tool: call.tool, args: { ...call.args, filters: { ...filters, from: range.from, to: range.to } } };
  }
  return call;
}

function withoutMarket(args: Record<string, unknown>): Record<string, unknown> {
  const { market: _market, outcome: _outcome, ...rest } = args;
  return rest;
}

/** top markets only know today, this week and this month: the range's length decides. */
function periodOf(from: string, to: string, today: string): 'today' | 'week' | 'month' {
  if (from === to && to === today) return 'today';
  return from.slice(0, 7) === to.slice(0, 7) && Number(to.slice(8)) - Number(from.slice(8)) > 7 ? 'month' : 'week';
}

function statusOf(r: Reading): Array<'open' | 'settled' | 'void'> | null {
  const status: Array<'open' | 'settled' | 'void'> = [];
  if (hasAny(r, 'open', 'unsettled', 'pending', 'running', 'active') || /\blive\s+bets\b/.test(r.folded)) status.push('open');
  if (hasAny(r, 'settled', 'closed', 'completed', 'finished', 'graded')) status.push('settled');
  if (hasAny(r, 'void', 'voided', 'cancelled', 'canceled')) status.push('void');
  return status.length > 0 ? status : null;
}

type Filled = { args: Record<string, unknown> } | { clarify: { reason: ClarifyReason; question: string } };
const ask = (reason: ClarifyReason, question: string): Filled => ({ clarify: { reason, question } });

/** The slots of one message, each read once, shared by every intent it plans. */
class Slots {
  constructor(private readonly input: PlannerInput, readonly r: Reading) {}

  private pagePlayer(): string | null {
    const { path, query } = this.input.page;
    const m = /^\/agent\/players\/([0-9a-f-]{36})$/.exec(path);
    return m?.[1] ?? (path === '/agent/downline' ? query.agentId : undefined) ?? (path === '/agent/bets' ? query.playerId : undefined) ?? null;
  }

  private pageFixture(): string | null {
    const { path, query } = this.input.page;
    return path === '/agent/exposure' || path === '/agent/bets' ? query.fixtureId ?? null : null;
  }

  /** A player named in the message (the name as typed). */
  namedPlayer(): string | null {
    if (this.r.pronounPlayer) return this.contextPlayer();
    const name = this.r.names.find((n) => !this.fixtureCue(n.before));
    return name?.text ?? null;
  }

  namedFixture(): string | null {
    if (this.r.fixture) return this.r.fixture;
    if (this.r.pronounFixture) return this.contextFixture();
    return null;
  }

  private fixtureCue(before: string | null): boolean {
    return before === 'on' || before === 'in';
  }

  private contextPlayer(): string | null {
    return this.pagePlayer() ?? this.input.context.lastPlayer?.id ?? null;
  }

  private contextFixture(): string | null {
    return this.pageFixture() ?? this.input.context.lastFixture?.id ?? null;
  }

  /**
   * The player slot: named, else "him/this player" from the page or the last turn, else none when
   * the user speaks of their own book, else the player whose page this is.
   */
  player(): string | null {
    const named = this.namedPlayer();
    if (named) return named;
    if (SELF.some((w) => this.r.words.has(w)) || BULK.test(this.r.folded) || hasAny(this.r, 'total', 'overall')) return null;
    return this.pagePlayer();
  }

  /**
   * The fixture slot: teams named, else "on X" when the tool takes a fixture and no player, else
   * the page's fixture.
   */
  fixture(options: { takesPlayer: boolean }): string | null {
    const named = this.namedFixture();
    if (named) return named;
    const onName = this.r.names.find((n) => this.fixtureCue(n.before) || !options.takesPlayer);
    if (onName) return onName.text;
    return this.pageFixture();
  }

  range(defaultToday: boolean): { from: string; to: string } | null {
    if (this.r.range) return { from: this.r.range.from, to: this.r.range.to };
    return defaultToday ? { from: this.input.today, to: this.input.today } : null;
  }

  get today(): string {
    return this.input.today;
  }
}

const put = (args: Record<string, unknown>, key: string, value: unknown) => {
  if (value !== null && value !== undefined) args[key] = value;
  return args;
};

/** How each intent fills its tool's arguments (planner form), or which detail it must ask for. */
const fillers: Record<string, (s: Slots) => Filled> = {
  pnl(s) {
    const args: Record<string, unknown> = { ...s.range(true) };
    put(args, 'player', s.player());
    const fixture = s.r.fixture ?? (s.r.pronounFixture ? s.fixture({ takesPlayer: true }) : null) ?? s.fixture({ takesPlayer: true });
    if (fixture && fixture !== args.player) put(args, 'fixture', fixture);
    if (s.r.market && args.fixture) args.market = s.r.market;
    return { args };
  },
  commission(s) {
    return { args: put({ ...s.range(true) }, 'player', s.player()) };
  },
  take(s) {
    return { args: put({}, 'player', s.player()) };
  },
  credit_limit(s) {
    return { args: put({}, 'player', s.player()) };
  },
  upline() {
    return { args: {} };
  },
  exposure(s) {
    const fixture = s.fixture({ takesPlayer: false });
    const args = put({}, 'fixture', fixture);
    if (s.r.market && fixture) args.market = s.r.market;
    return { args };
  },
  bets(s) {
    const fixture = s.fixture({ takesPlayer: true });
    const player = s.player();
    const args: Record<string, unknown> = {};
    put(args, 'player', player !== fixture ? player : null);
    put(args, 'fixture', fixture);
    put(args, 'status', statusOf(s.r));
    const range = s.range(false);
    if (range) Object.assign(args, range);
    if (s.r.count) args.limit = Math.min(s.r.count, 1000);
    return { args };
  },
  settlements(s) {
    const args: Record<string, unknown> = { ...s.range(false) };
    put(args, 'player', s.player());
    if (s.r.count) args.limit = Math.min(s.r.count, 500);
    return { args };
  },
  downline() {
    return { args: {} };
  },
  top_markets(s) {
    const r = s.r;
    const metric = hasAny(r, 'volume', 'turnover', 'traded', 'stake', 'stakes', 'busiest', 'popular', 'active') ? 'volume'
      : hasAny(r, 'exposure', 'exposed', 'liability', 'risk') ? 'exposure'
        : hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'result', 'results', 'earnings') ? 'pnl' : 'volume';
    const period = r.range ? periodOf(r.range.from, r.range.to, s.today)
      : hasAny(r, 'week', 'weekly') ? 'week' : hasAny(r, 'month', 'monthly') ? 'month' : 'today';
    return { args: put({ period, metric }, 'limit', r.count ? Math.min(r.count, 50) : null) };
  },
  edit_limit(s) {
    const r = s.r;
    if (BULK.test(r.folded)) return ask('not_allowed', 'I change one player’s limit at a time, and only after you confirm it. Which player?');
    const limitType = hasAny(r, 'minstake') ? 'minStake' : hasAny(r, 'perclickwin') ? 'perClickWin' : hasAny(r, 'dailywin') ? 'aggregateDailyWin'
      : hasAny(r, 'creditlimit', 'credit') ? 'creditLimit' : null;
    if (!limitType) return ask('needs_limit_type', 'Which limit: credit limit, min stake, per-click win or aggregate daily win?');
    const player = s.player();
    if (!player) return ask('needs_player', 'Which player’s limit should I change?');
    const target = newValueOf(r);
    if ('problem' in target) return ask('needs_amount', target.problem);
    return { args: { player, limitType, newValue: target.paisa } };
  },
  settle(s) {
    const r = s.r;
    if (BULK.test(r.folded)) return ask('not_allowed', 'I settle one player at a time, and only after you confirm it. Which player?');
    const player = s.player();
    if (!player) return ask('needs_player', 'Which player should I settle with?');
    const args: Record<string, unknown> = { player, mode: 'auto' };
    if (r.amounts.length > 1) return ask('needs_amount', 'I found more than one amount. How much should be settled?');
    const amount = r.amounts[0];
    if (amount) {
      if (amount.paisa === null) return ask('needs_amount', amountProblem(amount.problem));
      args.mode = 'amount';
      args.amount = amount.paisa;
    }
    if (r.range && /\bweek\b/.test(r.range.raw)) args.periodId = isoWeekId(r.range.from);
    return { args };
  },
  hedge(s) {
    const r = s.r;
    const fixture = s.namedFixture() ?? s.fixture({ takesPlayer: false });
    if (!fixture) return ask('needs_fixture', 'Which match should the hedge be on?');
    const outcomeName = r.names.find((n) => n.before === 'on' || n.before === 'back' || n.before === 'lay')?.text
      ?? /\b(?:on|back|lay)\s+(the\s+draw|draw|over\s+[\d.]+|under\s+[\d.]+)\b/.exec(r.folded)?.[1] ?? null;
    if (!outcomeName) return ask('needs_outcome', 'Which outcome should I back or lay?');
    const stake = r.amounts[0];
    if (!stake) return ask('needs_amount', 'What stake should the hedge be?');
    if (stake.paisa === null) return ask('needs_amount', amountProblem(stake.problem));
    const side = /\blay\b/.test(r.folded) && !/\bhedge\b/.test(r.folded.replace(/\blay\b.*/, '')) ? 'lay' : 'back';
    return { args: { fixture, market: r.market ?? 'match odds', outcome: outcomeName, side, stake: stake.paisa } };
  },
  report(s) {
    const r = s.r;
    const template = hasAny(r, 'settlement', 'settlements', 'payment', 'payments', 'settle') ? 'settlement_log'
      : hasAny(r, 'bet', 'bets', 'wager', 'wagers') ? 'bets_by_match'
        : hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'result', 'results') || PLAYER_WORD.test(r.folded) ? 'per_player_pnl' : null;
    if (!template) return ask('needs_template', 'Which report: PnL per player, bets by match, or the settlement log?');
    const format = hasAny(r, 'pdf') ? 'pdf' : 'xlsx';
    const filters: Record<string, unknown> = { ...s.range(false) };
    const args: Record<string, unknown> = { template, format, filters };
    const fixture = s.namedFixture();
    if (fixture) args.fixture = fixture;
    else {
      const player = s.player();
      if (player) args.player = player;
    }
    return { args };
  },
};

function amountProblem(problem: 'fraction_of_paisa' | 'too_large' | null): string {
  return problem === 'too_large' ? 'That amount is too large. What amount did you mean?' : 'Amounts go to the paisa at most. What amount did you mean?';
}

/** The value a limit is set to: the amount after "to", or the only amount; "by" is a change, not a value. */
function newValueOf(r: Reading): { paisa: number } | { problem: string } {
  const afterTo = /\b(?:to|=|at|as)\s+(?:₹|rs\.?\s*|inr\s*)?(\d[\d,.]*\s*[a-z]*)/.exec(r.folded);
  const candidates = afterTo ? r.amounts.filter((a) => afterTo[1]!.startsWith(a.raw.toLowerCase().replace(/^(?:₹|rs\.?|inr)\s*/, '').slice(0, 1))) : r.amounts;
  if (!afterTo && /\bby\s+(?:₹\s*)?\d/.test(r.folded)) return { problem: 'What should the new limit be? I set a limit to a value, not by a change.' };
  const amount = afterTo ? (candidates.at(-1) ?? r.amounts.at(-1)) : r.amounts.length === 1 ? r.amounts[0] : undefined;
  if (!amount) return { problem: r.amounts.length > 1 ? 'I found more than one amount. What should the new limit be?' : 'What should the new limit be?' };
  if (amount.paisa === null) return { problem: amountProblem(amount.problem) };
  return { paisa: amount.paisa };
}
