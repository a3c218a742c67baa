/**
 * The offline planner's decisions over every request in the eval cases, recorded and compared:
 * a change to how the planner reads text (moving words into data, replacing a pattern) is checked
 * against the decisions it gave before, in seconds rather than the ratchet's minutes.
 *
 *   npx tsx scripts/plan-diff.ts record <baseline.json>
 *   npx tsx scripts/plan-diff.ts compare <baseline.json> [--show N]
 *
 * Each text is planned in a few conversations (none, after a read of one player, after a change,
 * after a report) at one fixed day, straight through the rule planner: no backend, no gate. The
 * ratchet stays the judge of what is right; this only says what moved. Each decision is taken with
 * the question frame's operators laid on it, as the assistant lays them.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseChatRoute } from '../src/shared/contracts/chat.js';
import type { IsoDate } from '../src/shared/dates.js';
import { RulePlanner } from '../src/main/assistant/planner/rule-planner.js';
import { rowAskOf, withRowAsk } from '../src/main/assistant/frame/plan.js';
import { type ConversationContext, EMPTY_CONTEXT } from '../src/main/assistant/planner/types.js';
import { parseCases } from './eval-harness.js';

const EVAL_DIR = join(import.meta.dirname, '..', 'tests', 'fixtures', 'eval');
const TODAY = '2026-11-20' as IsoDate;

const CONTEXTS: Readonly<Record<string, ConversationContext>> = {
  none: EMPTY_CONTEXT,
  afterRead: {
    lastCalls: [{ tool: 'agent.getCreditLimit', args: { player: 'p-rahul' } }], lastIntent: 'credit_limit',
    lastPlayer: { id: 'p-rahul', name: 'Rahul Sharma' }, lastFixture: null, lastArtifact: null, lastText: 'what is rahul ka CL',
  },
  afterChange: {
    lastCalls: [{ tool: 'agent.editLimit', args: { player: 'p-sneha', limitType: 'creditLimit', newValue: 5_000_000 } }], lastIntent: 'edit_limit',
    lastPlayer: { id: 'p-sneha', name: 'Sneha Iyer' }, lastFixture: null, lastArtifact: null, lastText: 'set sneha CL to 50k',
  },
  afterReport: {
    lastCalls: [{ tool: 'agent.generateReport', args: { template: 'per_player_pnl', format: 'xlsx', filters: {} } }], lastIntent: 'report',
    lastPlayer: null, lastFixture: { id: 'f-indaus', name: 'India v Australia' }, lastArtifact: { id: 'a-1', name: 'PnL report' }, lastText: 'excel of pnl',
  },
};

function texts(): string[] {
  const all = new Set<string>();
  for (const file of readdirSync(EVAL_DIR).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const c of parseCases(readFileSync(join(EVAL_DIR, file), 'utf8'))) {
      all.add(c.query);
      for (const h of c.history) all.add(h);
    }
  }
  return [...all].sort();
}

function decisions(): Record<string, string> {
  const planner = new RulePlanner();
  const page = parseChatRoute('/agent/dashboard');
  const out: Record<string, string> = {};
  for (const text of texts()) {
    for (const [name, context] of Object.entries(CONTEXTS)) {
      const input = { requestId: 'r', text, page, today: TODAY, role: 'agent' as const, context };
      // The frame's operators are part of the plan: what a question asks of the rows moves with it.
      const framed = withRowAsk(planner.plan(input), rowAskOf(input), input);
      out[`${name}\t${text}`] = JSON.stringify({ decision: framed.decision, asks: framed.asks });
    }
  }
  return out;
}

const [mode, file, ...rest] = process.argv.slice(2);
if ((mode !== 'record' && mode !== 'compare') || !file) {
  console.error('usage: plan-diff.ts record|compare <baseline.json> [--show N]');
  process.exit(2);
}
const now = decisions();
if (mode === 'record') {
  writeFileSync(file, JSON.stringify(now));
  console.log(`recorded ${Object.keys(now).length} decisions to ${file}`);
} else {
  const before = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const show = Number(rest[rest.indexOf('--show') + 1] ?? 20) || 20;
  const moved = Object.keys(now).filter((k) => before[k] !== undefined && before[k] !== now[k]);
  const fresh = Object.keys(now).filter((k) => before[k] === undefined).length;
  for (const k of moved.slice(0, show)) console.log(`\n${k}\n  before ${before[k]}\n  after  ${now[k]}`);
  console.log(`\n${moved.length} of ${Object.keys(now).length} decisions moved${fresh ? ` (${fresh} not in the baseline)` : ''}`);
  process.exit(moved.length > 0 ? 1 : 0);
}
