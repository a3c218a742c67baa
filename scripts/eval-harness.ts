/**
 * The planner evaluation of AGENT.md: each case runs through the real runtime (planner, gate,
 * search tools) against an embedded demo book at the case's clock, and the plan is compared
 * with the expectation. Names in expectations stand for the ids of those entities.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { FixtureRef, PlayerRef } from '../src/shared/contracts/agent-api.js';
import { normalizeForSearch } from '../src/shared/text.js';
import type { BookOptions } from '../src/server/seed/generate.js';
import { openBackend } from '../src/server/backend.js';
import { silentLogger } from '../src/infra/log.js';
import { parseChatRoute } from '../src/shared/contracts/chat.js';
import { embeddedConnection } from '../src/main/backend/connection.js';
import type { ToolModule } from '../src/main/tools/define.js';
import { TOOL_MODULES } from '../src/main/tools/index.js';
import { createToolRegistry } from '../src/main/tools/registry.js';
import type { ToolContext } from '../src/main/tools/types.js';
import { Assistant, type TurnRecord } from '../src/main/assistant/assistant.js';
import { RateLimiter } from '../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../src/main/assistant/history.js';
import { AuditLog } from '../src/main/audit/audit-log.js';
import { NonceStore } from '../src/main/confirm/nonce-store.js';
import type { Planner } from '../src/main/assistant/planner/types.js';
import { type Decision, decisionSchema } from '../src/shared/contracts/assistant.js';
import { ClaudeBrain, FAST_PATH_CONFIDENCE } from '../src/main/assistant/claude/brain.js';
import { cacheReadShare } from '../src/main/assistant/claude/prices.js';
import { ENV_KEY, environmentStore } from '../src/main/secrets/secret-store.js';
import type { TurnUsage } from '../src/shared/contracts/model-settings.js';
import { formatMicroUsd } from '../src/shared/usd.js';
// Dev tools, not product code: the eval's record and replay are the fakes' own.
import { DEFAULT_FAKE_KEY, type MessagesRequestBody, type Responder, type ScriptedReply, startFakeMessagesApi, textReply } from '../tests/fakes/messages-api.js';
import { apiToolName } from '../src/main/assistant/claude/tool-catalog.js';
import { type ReplayMismatch, replayResponder, startRecordingProxy } from '../tests/fakes/transcripts.js';

const oneOrMany = z.union([z.string(), z.array(z.string()).min(1)]);

export const evalCaseSchema = z.object({
  id: z.string().min(1),
  user: z.string().min(1),
  now: z.iso.datetime({ offset: true }),
  page: z.string().default('/agent/dashboard'),
  history: z.array(z.string()).default([]),
  query: z.string().min(1),
  expect: z.object({
    action: oneOrMany,
    calls: z.array(z.object({ tool: oneOrMany, args: z.record(z.string(), z.unknown()).default({}) })).optional(),
    picker: z.array(z.string()).optional(),
    picker_includes: z.array(z.string()).optional(),
    reason: z.string().optional(),
  }),
  /** What the case exercises, for the per-category report; derived by `categoryOf` when absent. */
  category: z.string().optional(),
});
export type EvalCase = z.infer<typeof evalCaseSchema>;

export function parseCases(text: string): EvalCase[] {
  return text.split('\n').map((line, i) => [line.trim(), i + 1] as const).filter(([line]) => line !== '').map(([line, n]) => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new Error(`line ${n}: not JSON`);
    }
    const parsed = evalCaseSchema.safeParse(json);
    if (!parsed.success) throw new Error(`line ${n}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return parsed.data;
  });
}

const SEARCH_TOOLS: ReadonlySet<string> = new Set(TOOL_MODULES.filter((m) => m.resolves).map((m) => m.name));

/** A search tool's own handler, run directly: the eval checks the planner, not the registry. */
async function searchWith(kind: 'player' | 'fixture', ctx: ToolContext, name: string): Promise<unknown> {
  const tool = (TOOL_MODULES as readonly ToolModule[]).find((m) => m.resolves === kind);
  if (!tool?.invoke) throw new Error(`no ${kind} search tool`);
  return tool.invoke(tool.input.parse({ query: name, limit: 50 }), ctx);
}

/** Looks entities up as the acting user sees them, so "a player" means one of their downline. */
export class EntityLookup {
  private readonly cache = new Map<string, string>();

  /** Names are looked up with the same search tools the gate resolves them with (src/main/tools), as `ctx.user`. */
  constructor(private readonly ctx: ToolContext) {}

  async player(name: string): Promise<string> {
    return this.memo(`p:${name}`, async () => {
      const { players } = await searchWith('player', this.ctx, name) as { players: PlayerRef[] };
      const exact = players.filter((p: PlayerRef) => normalizeForSearch(p.name) === normalizeForSearch(name));
      if (exact.length !== 1) throw new Error(`expected one player “${name}” in the user's downline, found ${exact.length}`);
      return exact[0]!.id;
    });
  }

  private async fixtureRef(name: string): Promise<FixtureRef> {
    const { fixtures } = await searchWith('fixture', this.ctx, name) as { fixtures: FixtureRef[] };
    const exact = fixtures.filter((f: FixtureRef) => normalizeForSearch(f.name) === normalizeForSearch(name));
    if (exact.length !== 1) throw new Error(`expected one fixture “${name}”, found ${exact.length}`);
    return exact[0]!;
  }

  fixture(name: string): Promise<string> {
    return this.memo(`f:${name}`, async () => (await this.fixtureRef(name)).id);
  }

  market(fixture: string, market: string): Promise<string> {
    return this.memo(`m:${fixture}/${market}`, async () => {
      const ref = await this.fixtureRef(fixture);
      const found = ref.markets.find((m) => normalizeForSearch(m.name) === normalizeForSearch(market));
      if (!found) throw new Error(`no market “${market}” in ${fixture}`);
      return found.id;
    });
  }

  outcome(fixture: string, market: string, outcome: string): Promise<string> {
    return this.memo(`o:${fixture}/${market}/${outcome}`, async () => {
      const ref = await this.fixtureRef(fixture);
      const m = ref.markets.find((x) => normalizeForSearch(x.name) === normalizeForSearch(market));
      const found = m?.outcomes.find((o) => normalizeForSearch(o.name) === normalizeForSearch(outcome));
      if (!found) throw new Error(`no outcome “${outcome}” in ${fixture} / ${market}`);
      return found.id;
    });
  }

  /** `{player: NAME}` and friends become ids, anywhere in an expectation. */
  async substitute(value: unknown): Promise<unknown> {
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.substitute(v)));
    if (!value || typeof value !== 'object') return value;
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1) {
      const [key] = keys as [string];
      const v = o[key];
      if (key === 'player' && typeof v === 'string') return this.player(v);
      if (key === 'fixture' && typeof v === 'string') return this.fixture(v);
      if (key === 'market' && Array.isArray(v) && v.length === 2) return this.market(String(v[0]), String(v[1]));
      if (key === 'outcome' && Array.isArray(v) && v.length === 3) return this.outcome(String(v[0]), String(v[1]), String(v[2]));
    }
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = await this.substitute(o[k]);
    return out;
  }

  /** `/agent/players/{player:Anita Desai}` → the route with that player's id. */
  async page(page: string): Promise<string> {
    let out = page;
    for (const m of page.matchAll(/\{(player|fixture):([^}]+)\}/g)) {
      out = out.replace(m[0], m[1] === 'player' ? await this.player(m[2]!) : await this.fixture(m[2]!));
    }
    return out;
  }

  private async memo(key: string, find: () => Promise<string>): Promise<string> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const id = await find();
    this.cache.set(key, id);
    return id;
  }
}

export function actionOf(record: TurnRecord): string {
  if (record.clarify) return 'clarify';
  if (record.calls.length > 0) return 'tools';
  return record.outcome === 'direct' ? 'direct' : record.outcome;
}

/** What differed between a turn and its expectation (expected ids already substituted), or null. */
export function compare(expect: EvalCase['expect'], record: TurnRecord): string | null {
  const action = actionOf(record);
  const actions = Array.isArray(expect.action) ? expect.action : [expect.action];
  if (!actions.includes(action)) {
    const why = record.clarify ? ` (${record.clarify.reason}: ${record.clarify.question})` : '';
    return `action: expected ${actions.join('|')}, got ${action}${why}${record.calls.length ? ` ${describe(record.calls)}` : ''}`;
  }
  if (expect.reason && record.clarify?.reason !== expect.reason) return `reason: expected ${expect.reason}, got ${record.clarify?.reason ?? 'none'}`;
  const offered = (record.picker?.candidates ?? []).map((c) => c.name);
  if (expect.picker) {
    const want = [...expect.picker].sort();
    const got = [...offered].sort();
    if (JSON.stringify(want) !== JSON.stringify(got)) return `picker: expected [${want.join(', ')}], got [${got.join(', ')}]`;
  }
  if (expect.picker_includes) {
    const missing = expect.picker_includes.filter((n) => !offered.includes(n));
    if (missing.length > 0) return `picker: missing ${missing.join(', ')} from [${offered.join(', ')}]`;
  }
  if (expect.calls) {
    const planned = record.calls.filter((c) => !SEARCH_TOOLS.has(c.tool));
    if (planned.length !== expect.calls.length) return `calls: expected ${expect.calls.length}, got ${planned.length} ${describe(planned)}`;
    const free = [...planned];
    for (const want of expect.calls) {
      const tools = Array.isArray(want.tool) ? want.tool : [want.tool];
      const at = free.findIndex((c) => tools.includes(c.tool) && subset(want.args, c.args));
      if (at < 0) return `calls: no planned call matches ${tools.join('|')} ${JSON.stringify(want.args)}; planned ${describe(planned)}`;
      free.splice(at, 1);
    }
  }
  return null;
}

const describe = (calls: Array<{ tool: string; args: unknown }>) => calls.map((c) => `${c.tool} ${JSON.stringify(c.args)}`).join(', ');

/** Expected args as a subset of the planned ones; dates compare by calendar day. */
function subset(want: unknown, got: unknown): boolean {
  if (typeof want === 'string' && typeof got === 'string' && /^\d{4}-\d{2}-\d{2}/.test(want)) return want.slice(0, 10) === got.slice(0, 10);
  if (Array.isArray(want)) {
    return Array.isArray(got) && want.length === got.length && want.every((w) => got.some((g) => subset(w, g)));
  }
  if (want && typeof want === 'object') {
    if (!got || typeof got !== 'object' || Array.isArray(got)) return false;
    return Object.entries(want).every(([k, v]) => subset(v, (got as Record<string, unknown>)[k]));
  }
  return want === got;
}

/** The categories our case files use (tests/fixtures/eval/*.jsonl); `categoryOf` derives one of them too. */
export const EVAL_CATEGORIES = [
  'names', 'hinglish_slang', 'typos', 'dates', 'follow_up', 'question_not_write', 'multi_part', 'fixtures', 'ranking',
  'search', 'refusal', 'everyday_words', 'actions', 'direct',
] as const;

const WRITE_TOOLS: ReadonlySet<string> = new Set(TOOL_MODULES.filter((m) => m.isDestructive).map((m) => m.name).concat('agent.generateReport', 'agent.shareReport'));
const listOf = (v: string | string[]): string[] => (Array.isArray(v) ? v : [v]);

/**
 * A case's category: its own, else one derived from what it expects (the public golden set has
 * none), so that every report groups: history → follow_up; a direct answer → direct; a clarify
 * about names or matches → names / fixtures, any other clarify → refusal; several calls →
 * multi_part; a write or a report → actions; only name searches → search; then by the first
 * call's slots: a match → fixtures, a player → names, dates → dates, a count or a ranking →
 * ranking; the rest (book-wide reads in plain words) → everyday_words.
 */
export function categoryOf(c: Pick<EvalCase, 'category' | 'history' | 'expect'>): string {
  if (c.category) return c.category;
  const e = c.expect;
  const actions = listOf(e.action);
  if (c.history.length > 0) return 'follow_up';
  if (actions.length === 1 && actions[0] === 'direct') return 'direct';
  if (!actions.includes('tools')) {
    if (e.picker || e.picker_includes || /player/.test(e.reason ?? '')) return 'names';
    if (/fixture/.test(e.reason ?? '')) return 'fixtures';
    return 'refusal';
  }
  const calls = e.calls ?? [];
  if (calls.length > 1) return 'multi_part';
  if (e.calls && calls.length === 0) return 'search';
  const first = calls[0];
  if (!first) return 'everyday_words';
  if (listOf(first.tool).some((t) => WRITE_TOOLS.has(t))) return 'actions';
  const args = first.args;
  if ('fixtureId' in args || 'marketId' in args) return 'fixtures';
  if ('playerId' in args || 'counterpartyId' in args) return 'names';
  if ('from' in args || 'to' in args) return 'dates';
  if (listOf(first.tool).includes('agent.getTopMarkets') || 'limit' in args || 'sort' in args) return 'ranking';
  return 'everyday_words';
}

/** The expected intent of a case for the confusion table: its first expected tool (alternatives joined by `|`), `search` for name searches only, else its action(s). */
export function expectedLabel(expect: EvalCase['expect']): string {
  const first = expect.calls?.[0];
  if (first) return listOf(first.tool).join('|');
  if (expect.calls && listOf(expect.action).includes('tools')) return 'search';
  return listOf(expect.action).join('|');
}

/**
 * What the planner did, in the same terms: the first planned tool other than a name search (the
 * expected one when it was planned at all, since calls match in any order), `search` when only
 * searches ran, else the action.
 */
export function plannedLabel(record: TurnRecord, expected?: string): string {
  const tools = record.calls.filter((c) => !SEARCH_TOOLS.has(c.tool)).map((c) => c.tool);
  const wanted = expected?.split('|') ?? [];
  const first = tools.find((t) => wanted.includes(t)) ?? tools[0];
  if (first) return first;
  if (record.calls.length > 0 && !record.clarify) return 'search';
  return actionOf(record);
}

export interface CaseResult {
  id: string;
  /** null when the case passed; else what differed, or why it could not run. */
  difference: string | null;
  /** The case's category (its own or `categoryOf`'s). */
  category?: string;
  /** `expectedLabel` of the case and `plannedLabel` of its turn (`error` when the case could not run). */
  expected?: string;
  planned?: string;
  /** Every tool the case's last turn planned (name searches included), for the safety checks. */
  tools?: string[];
  /** Every turn the case ran (its history first), in order: who answered and what the model cost. */
  turns?: Array<{ planner: string; usage: TurnUsage | null }>;
  /**
   * Whether the case's last turn was planned sure enough for `ClaudeBrain.route` to keep it off the
   * model (the fast path): a wrong plan made so is one a key would not have saved.
   */
  confident?: boolean;
}

export interface EvalReport {
  passed: number;
  total: number;
  /** Per category, in EVAL_CATEGORIES order then any other by name. */
  categories: Array<{ category: string; passed: number; total: number }>;
  /** How often each expected label was planned as expected (`planned` one of the `|` alternatives, or any tool for `tools`). */
  diagonal: Array<{ expected: string; count: number; total: number }>;
  /** Expected → planned pairs that differ, most frequent first. */
  confusion: Array<{ expected: string; planned: string; count: number }>;
}

/** True when a planned label is what an expected label allows. */
export function labelMatches(expected: string, planned: string): boolean {
  return expected.split('|').some((e) => e === planned || (e === 'tools' && planned.includes('.')));
}

/** Pure aggregation of case results into accuracy per category and the intent confusion table. */
export function summarizeResults(results: readonly CaseResult[]): EvalReport {
  const order = new Map<string, number>(EVAL_CATEGORIES.map((c, i) => [c, i]));
  const cats = new Map<string, { passed: number; total: number }>();
  const diag = new Map<string, { count: number; total: number }>();
  const off = new Map<string, { expected: string; planned: string; count: number }>();
  for (const r of results) {
    const category = r.category ?? 'uncategorised';
    const cat = cats.get(category) ?? { passed: 0, total: 0 };
    cat.total++;
    if (r.difference === null) cat.passed++;
    cats.set(category, cat);
    const expected = r.expected ?? '?';
    const planned = r.planned ?? '?';
    const d = diag.get(expected) ?? { count: 0, total: 0 };
    d.total++;
    if (labelMatches(expected, planned)) d.count++;
    else {
      const key = `${expected}\u0000${planned}`;
      const o = off.get(key) ?? { expected, planned, count: 0 };
      o.count++;
      off.set(key, o);
    }
    diag.set(expected, d);
  }
  const rank = (c: string) => order.get(c) ?? EVAL_CATEGORIES.length;
  return {
    passed: results.filter((r) => r.difference === null).length,
    total: results.length,
    categories: [...cats].map(([category, v]) => ({ category, ...v }))
      .sort((a, b) => rank(a.category) - rank(b.category) || a.category.localeCompare(b.category)),
    diagonal: [...diag].map(([expected, v]) => ({ expected, ...v })).sort((a, b) => a.expected.localeCompare(b.expected)),
    confusion: [...off.values()].sort((a, b) => b.count - a.count || a.expected.localeCompare(b.expected) || a.planned.localeCompare(b.planned)),
  };
}

const pct = (n: number, d: number) => `${d === 0 ? '0.0' : ((100 * n) / d).toFixed(1)}%`;
const short = (label: string) => label.replace(/\bagent\./g, '').replace(/\bmatch\./g, '');

/** The report as text lines: accuracy per category, then the confusion table (off-diagonal pairs and the diagonal totals). */
export function formatReport(report: EvalReport): string[] {
  const lines = ['accuracy by category:'];
  const width = Math.max(8, ...report.categories.map((c) => c.category.length));
  for (const c of report.categories) lines.push(`  ${c.category.padEnd(width)}  ${`${c.passed}/${c.total}`.padStart(7)}  ${pct(c.passed, c.total).padStart(6)}`);
  lines.push(`  ${'all'.padEnd(width)}  ${`${report.passed}/${report.total}`.padStart(7)}  ${pct(report.passed, report.total).padStart(6)}`);
  const onDiagonal = report.diagonal.reduce((n, d) => n + d.count, 0);
  lines.push(`confusion (expected → planned, first tool or action), off the diagonal:`);
  if (report.confusion.length === 0) lines.push('  (none)');
  const w = Math.max(0, ...report.confusion.map((c) => short(c.expected).length));
  for (const c of report.confusion) lines.push(`  ${short(c.expected).padEnd(w)} → ${short(c.planned)}: ${c.count}`);
  lines.push(`diagonal (planned as expected): ${onDiagonal}/${report.total}`);
  for (const d of report.diagonal) lines.push(`  ${short(d.expected)}: ${d.count}/${d.total}`);
  return lines;
}

/**
 * Runs cases against an embedded demo book (PGlite in memory) per distinct clock, each case in a
 * fresh conversation with its history replayed first. Demo accounts sign in as `demo-USERNAME`.
 */
export async function runEval(cases: EvalCase[], options: {
  planners: () => Planner[]; book?: Partial<BookOptions>; onResult?: (r: CaseResult) => void;
  /**
   * A PGlite data folder with a book written in it (`snapshot()` of an open one), copied for each
   * clock instead of writing `book` afresh: seconds less a clock, what the test suite runs on.
   */
  from?: Blob;
  /** Only look up every entity a case names (its page and expectation), planning nothing: a case file's check. */
  entitiesOnly?: boolean;
  /** Claude behind the planners, as the desk has it once a key is added. */
  claude?: ClaudeEvalOptions;
  /** Every turn's record, as it ends (history turns included). */
  onTurn?: (caseId: string, record: TurnRecord) => void;
}): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  // Proposals are only shown, never confirmed, in an evaluation: the audit file stays empty.
  const scratch = await mkdtemp(join(tmpdir(), 'agent-desk-eval-'));
  const byClock = new Map<string, EvalCase[]>();
  for (const c of cases) byClock.set(c.now, [...(byClock.get(c.now) ?? []), c]);
  for (const [now, group] of byClock) {
    const clock = new Date(now);
    const backend = await openBackend({
      database: { engine: 'pglite', ...(options.from && { from: options.from }) }, seedDemoIfEmpty: true, now: () => clock, ...(options.book && { book: options.book }),
    });
    const connection = embeddedConnection(backend, silentLogger);
    const registry = createToolRegistry();
    const tokens = new Map<string, string>();
    try {
      for (const c of group) {
        let difference: string | null;
        let planned = 'error';
        let tools: string[] = [];
        let confidentLast = false;
        const turns: NonNullable<CaseResult['turns']> = [];
        try {
          let token = tokens.get(c.user);
          if (!token) {
            token = (await connection.client(null).auth.login.mutate({ username: c.user, password: `demo-${c.user}` })).token;
            tokens.set(c.user, token);
          }
          const api = connection.client(token);
          const user = await api.auth.me.query();
          const lookup = new EntityLookup({ api, user, requestId: `eval:${c.id}` });
          if (options.entitiesOnly) {
            await lookup.page(c.page);
            await lookup.substitute(c.expect);
            const result: CaseResult = { id: c.id, difference: null, category: categoryOf(c), expected: expectedLabel(c.expect), planned: 'none' };
            results.push(result);
            options.onResult?.(result);
            continue;
          }
          let last: TurnRecord | null = null;
          let decided: Decision | null = null;
          let confident = false;
          // Watched as the route sees them: after --always-model's lowering, so `confident` means the fast path was taken.
          const planners = (options.claude?.alwaysModel ? options.planners().map(belowFastPath) : options.planners())
            .map((p) => watched(p, (d) => { decided = d; }));
          // A brain (and its usage ledger) per case: the daily budget of one case never turns the next one offline.
          const claude = options.claude && new ClaudeBrain({
            secrets: { read: [environmentStore(options.claude.env)], write: null, writeNote: '' },
            dataDir: await mkdtemp(join(scratch, 'claude-')), env: options.claude.env, registry, log: silentLogger,
            ...(options.claude.idleTimeoutMs !== undefined && { idleTimeoutMs: options.claude.idleTimeoutMs }),
          });
          const assistant = new Assistant({
            registry, planners, history: new MemoryChatHistory(), log: silentLogger,
            nonces: new NonceStore(), audit: new AuditLog(join(scratch, 'audit.jsonl')),
            limiter: new RateLimiter({ limit: 1000 }), ...(claude && { claude }),
            onTurn: (record) => {
              last = record;
              // A turn that planned nothing (a picker answered in words) never reaches the route either way.
              confident = decided !== null && ClaudeBrain.confident(decided);
              decided = null;
              turns.push({ planner: record.planner, usage: record.usage });
              options.onTurn?.(c.id, record);
            },
          });
          await options.claude?.standIn?.expect(c, lookup);
          const page = parseChatRoute(await lookup.page(c.page));
          for (const text of [...c.history, c.query]) {
            for await (const _event of assistant.turn({ kind: 'message', text, page }, { user, api })) { /* drained: the record is what counts */ }
          }
          const turn = last as TurnRecord | null;
          planned = turn ? plannedLabel(turn, expectedLabel(c.expect)) : 'error';
          tools = turn?.calls.map((call) => call.tool) ?? [];
          confidentLast = confident;
          difference = compare((await lookup.substitute(c.expect)) as EvalCase['expect'], last!);
          // The stand-in asks or answers in words where the case expects a question or a direct answer: no calls is its right answer.
          if (difference !== null && options.claude?.standIn && turn?.planner === 'claude' && turn.calls.length === 0
            && listOf(c.expect.action).some((a) => a === 'clarify' || a === 'direct')) difference = null;
        } catch (error) {
          difference = error instanceof Error ? error.message : String(error);
        }
        const result: CaseResult = { id: c.id, difference, category: categoryOf(c), expected: expectedLabel(c.expect), planned, tools, turns, confident: confidentLast };
        results.push(result);
        options.onResult?.(result);
      }
    } finally {
      await connection.close();
    }
  }
  return results;
}

// ── Claude behind the planners (npm run eval -- FILE --planner claude) ──────────────────────────

export interface ClaudeEvalOptions {
  /** Where the brain reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL, as the SDK would. */
  env: NodeJS.ProcessEnv;
  /** Every turn to the model: the rule planner's confidence is held below the fast path's. */
  alwaysModel?: boolean;
  idleTimeoutMs?: number;
  /** The stand-in model behind the endpoint: told each case's expectation before the case runs. */
  standIn?: StandIn;
}

// ── The stand-in model (npm run eval -- FILE --stand-in) ────────────────────────────────────────

/**
 * A model that answers correctly: for each case's own message it calls what the case expects (its
 * first alternative of each call, names as the user would pass them), then says a few words without
 * figures; where the case expects a question or a direct answer it answers in words alone. With it
 * behind the fast path, a case that fails was planned wrong by the rules and kept from the model: the
 * fast path's confident-wrong is what a key does not save (docs/eval.md, "Confident-wrong"). Any
 * other message (a case's earlier turns) gets an error, so the offline planner answers it as it
 * would without a key.
 */
export interface StandIn {
  expect(c: EvalCase, lookup: EntityLookup): Promise<void>;
  responder: Responder;
}

type StandInCall = { name: string; input: Record<string, unknown>; afterResults: boolean };

const TOOL_BY_NAME: ReadonlyMap<string, ToolModule> = new Map((TOOL_MODULES as readonly ToolModule[]).map((m) => [m.name, m]));

export function standInModel(): StandIn {
  let current: { query: string; calls: StandInCall[] } | null = null;
  return {
    async expect(c, lookup) {
      const calls: StandInCall[] = [];
      if (listOf(c.expect.action).includes('tools')) {
        for (const want of c.expect.calls ?? []) {
          const tool = listOf(want.tool)[0]!;
          const module = TOOL_BY_NAME.get(tool);
          const input = structuredClone(want.args) as Record<string, unknown>;
          // An entity's id field is a name field in the model's tools (tool-catalog.ts): the name as the user wrote it.
          // Markets and outcomes stay ids, as the catalog offers them; a word beside an id ("self") stays where it is.
          for (const [kind, path] of Object.entries(module?.entities ?? {})) {
            if (kind !== 'player' && kind !== 'agent' && kind !== 'fixture') continue;
            const named = placeholderAt(input, path.split('.'));
            if (named !== null) input[kind] = named;
          }
          // The other placeholders (a market's or an outcome's) become ids, field by field: the names above stay names.
          for (const [k, v] of Object.entries(input)) input[k] = await lookup.substitute(v);
          calls.push({
            name: apiToolName(tool), input,
            // A share names the report made before it: its id is read from the results.
            afterResults: module?.isDestructive === true || (tool === 'agent.shareReport' && input.artifactId === undefined),
          });
        }
      }
      current = { query: c.query, calls };
    },
    responder: (body) => {
      const turn = currentTurn(body);
      if (!current || turn.text !== current.query) return { kind: 'http_error', status: 400, message: 'the stand-in answers only the message of the case' };
      // The reads together first, then each change (or a share that needs the made report) alone, then words.
      const steps: StandInCall[][] = [current.calls.filter((c) => !c.afterResults), ...current.calls.filter((c) => c.afterResults).map((c) => [c])].filter((s) => s.length > 0);
      const step = steps[turn.replies];
      if (!step) return textReply(current.calls.length > 0 ? 'Here is what you asked for.' : 'Could you tell me a little more about what you need?');
      const artifactId = newestArtifact(body);
      return {
        kind: 'message', stopReason: 'tool_use',
        content: step.map((c) => ({ type: 'tool_use' as const, name: c.name, input: c.name === apiToolName('agent.shareReport') && c.input.artifactId === undefined && artifactId ? { ...c.input, artifactId } : c.input })),
      } satisfies ScriptedReply;
    },
  };
}

/** The name of a `{player: NAME}` or `{fixture: NAME}` placeholder at a path, taken out of the arguments; null when there is none. */
function placeholderAt(o: Record<string, unknown>, path: string[]): string | null {
  const [head, ...rest] = path;
  if (head === undefined || !(head in o)) return null;
  const value = o[head];
  if (rest.length > 0) return value && typeof value === 'object' && !Array.isArray(value) ? placeholderAt(value as Record<string, unknown>, rest) : null;
  const entries = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  const [key, name] = entries.length === 1 ? entries[0]! : [];
  if ((key !== 'player' && key !== 'fixture') || typeof name !== 'string') return null;
  delete o[head];
  return name;
}

/** The user's words of this turn (its last message that is not tool results) and how many replies the model gave since. */
function currentTurn(body: MessagesRequestBody): { text: string | null; replies: number } {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const m = body.messages[i]!;
    if (m.role !== 'user') continue;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Array<{ type: string; text?: string }>);
    if (blocks.some((b) => b.type === 'tool_result')) continue;
    const text = blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('').trim();
    return { text, replies: body.messages.slice(i + 1).filter((x) => x.role === 'assistant').length };
  }
  return { text: null, replies: 0 };
}

/** The id of the newest report in the turn's tool results. */
function newestArtifact(body: MessagesRequestBody): string | null {
  const ids = [...JSON.stringify(body.messages).matchAll(/\\"artifactId\\":\\"([0-9a-f-]{36})\\"/g)].map((m) => m[1]!);
  return ids.at(-1) ?? null;
}

/** The planner as it is, telling `seen` each decision of it that the assistant would accept. */
function watched(planner: Planner, seen: (decision: Decision) => void): Planner {
  return {
    name: planner.name,
    plan: async (input) => {
      const decision = await planner.plan(input);
      const parsed = decisionSchema.safeParse(decision);
      if (parsed.success) seen(parsed.data);
      return decision;
    },
  };
}

/** The planner made unsure enough that `ClaudeBrain.route` never takes the fast path (direct and clarify need more still). */
export function belowFastPath(planner: Planner): Planner {
  return {
    name: planner.name,
    plan: async (input) => {
      const decision = await planner.plan(input);
      return { ...decision, confidence: Math.min(decision.confidence, FAST_PATH_CONFIDENCE - 0.05) };
    },
  };
}

/** A refusal to start that is the caller's to fix (no key, no transcripts): the CLI's exit 2. */
export class EvalUsageError extends Error {}

export type ClaudeEndpointMode = { kind: 'live' } | { kind: 'record'; dir: string } | { kind: 'replay'; dir: string } | { kind: 'stand-in'; standIn: StandIn };

/**
 * Where the eval's brain talks to, and with which key. Live: the key and endpoint of `env` (the
 * SDK's conventions). Record: a recording proxy in front of that endpoint, so the transcripts
 * are of the real API and a real key is needed. Replay: the fake Messages API answering from the
 * transcripts, with the fake's key: offline, and the same answers every run.
 */
export async function claudeEndpoint(mode: ClaudeEndpointMode, env: NodeJS.ProcessEnv): Promise<{
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
  /** A replay's requests that no recording matched (each answered with an error, not a stale answer). */
  drift: ReplayMismatch[];
}> {
  const key = env[ENV_KEY]?.trim() || undefined;
  const upstream = env.ANTHROPIC_BASE_URL?.trim() || undefined;
  if (mode.kind === 'stand-in') {
    const fake = await startFakeMessagesApi({ responder: mode.standIn.responder });
    return { env: { [ENV_KEY]: DEFAULT_FAKE_KEY, ANTHROPIC_BASE_URL: fake.url }, close: () => fake.close(), drift: [] };
  }
  if (mode.kind === 'live') return { env: { [ENV_KEY]: key, ANTHROPIC_BASE_URL: upstream }, close: async () => undefined, drift: [] };
  if (mode.kind === 'record') {
    if (!key) throw new EvalUsageError(`--record needs a real API key: set ${ENV_KEY} (the transcripts are the API's answers to it; the key itself is never written)`);
    const proxy = await startRecordingProxy({ upstream: upstream ?? 'https://api.anthropic.com', dir: mode.dir });
    return { env: { [ENV_KEY]: key, ANTHROPIC_BASE_URL: proxy.url }, close: () => proxy.close(), drift: [] };
  }
  if (!existsSync(mode.dir) || !readdirSync(mode.dir).some((f) => f.endsWith('.json'))) {
    throw new EvalUsageError(`--replay ${mode.dir}: no recorded exchanges there (make them with --record)`);
  }
  const drift: ReplayMismatch[] = [];
  const fake = await startFakeMessagesApi({ responder: replayResponder(mode.dir, { onMismatch: (m) => drift.push(m) }) });
  return { env: { [ENV_KEY]: DEFAULT_FAKE_KEY, ANTHROPIC_BASE_URL: fake.url }, close: () => fake.close(), drift };
}

export interface ClaudeSummary {
  turns: number;
  /** Turns that made at least one model call. */
  modelTurns: number;
  /** Every prompt token sent (uncached, written to the cache and read from it): what the model read. */
  tokensIn: number;
  tokensOut: number;
  /** Cache reads over prompt tokens from the second model turn on (the first can only write); null below two model turns. */
  cacheReadShare: number | null;
  costMicroUsd: number;
}

/** The model's share of an eval run, from the turns of its results in run order. */
export function summarizeClaude(results: readonly CaseResult[]): ClaudeSummary {
  const turns = results.flatMap((r) => r.turns ?? []);
  const model = turns.flatMap((t) => (t.usage && t.usage.calls > 0 ? [t.usage] : []));
  const sum = (usages: TurnUsage[], f: (u: TurnUsage) => number) => usages.reduce((n, u) => n + f(u), 0);
  const later = model.slice(1);
  return {
    turns: turns.length,
    modelTurns: model.length,
    tokensIn: sum(model, (u) => u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens),
    tokensOut: sum(model, (u) => u.outputTokens),
    cacheReadShare: later.length === 0 ? null : cacheReadShare({
      inputTokens: sum(later, (u) => u.inputTokens), cacheWriteTokens: sum(later, (u) => u.cacheWriteTokens), cacheReadTokens: sum(later, (u) => u.cacheReadTokens),
    }),
    costMicroUsd: sum(model, (u) => u.costMicroUsd),
  };
}

/**
 * A stand-in run in words: the cases whose last turn the model answered and how many of them
 * passed, the fast path's cases and those of them planned wrong (each named), and the rest (planned
 * unsure without reaching the model, as a turn the budget or a failure kept offline).
 */
export function formatStandIn(results: readonly CaseResult[]): string[] {
  const modelAnswered = (r: CaseResult) => (r.turns?.at(-1)?.usage?.calls ?? 0) > 0;
  const model = results.filter(modelAnswered);
  const fast = results.filter((r) => !modelAnswered(r) && r.confident);
  const wrong = fast.filter((r) => r.difference !== null);
  const lines = [
    `stand-in: the model answered ${model.length} of ${results.length} cases, ${model.filter((r) => r.difference === null).length} of them right`,
    `stand-in: the fast path kept ${fast.length} cases (${pct(fast.length, results.length)}), ${wrong.length} of them confidently wrong`,
  ];
  for (const r of wrong) lines.push(`  confident-wrong ${r.id}: ${r.difference}`);
  for (const r of model.filter((x) => x.difference !== null)) lines.push(`  model case failed ${r.id}: ${r.difference}`);
  return lines;
}

export function formatClaudeSummary(s: ClaudeSummary): string {
  const share = s.cacheReadShare === null ? 'n/a' : s.cacheReadShare.toFixed(2);
  return `claude: ${s.modelTurns} of ${s.turns} turns called the model (${pct(s.modelTurns, s.turns)}), ${s.tokensIn} tokens in / ${s.tokensOut} out, `
    + `cache-read share ${share} (from the second model turn on), cost ${formatMicroUsd(s.costMicroUsd)}`;
}
