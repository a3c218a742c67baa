import { join } from 'node:path';
import type { Logger } from '../../infra/log.js';
import { AuditLog } from '../audit/audit-log.js';
import { NonceStore } from '../confirm/nonce-store.js';
import { DEFAULT_STEP_UP_RULE, type StepUpRule } from '../confirm/step-up.js';
import { type SecretStores, environmentStore } from '../secrets/secret-store.js';
import { createToolRegistry } from '../tools/registry.js';
import { Assistant } from './assistant.js';
import { ClaudeBrain } from './claude/brain.js';
import { RateLimiter } from './guards/rate-limit.js';
import { Approvals } from '../confirm/approvals.js';
import { mcpAuditFileIn } from '../audit/audit-log.js';
import { FileChatHistory } from './history.js';
import { intentModel } from './planner/classifier.js';
import { RulePlanner } from './planner/rule-planner.js';
import { ReadCache } from './read-cache.js';

export interface AgentRuntime {
  chat: Assistant;
  audit: AuditLog;
  /** The Claude planner's settings, key and usage (the Settings page). */
  models: ClaudeBrain;
  /** Changes asked for over MCP, answered in the desk's Approvals page. */
  approvals: Approvals;
  /** The MCP server's audit log in the same data folder (changes an older MCP server confirmed in a client's form): read by the Audit page, never written here. */
  mcpAudit: AuditLog;
}

export interface AgentRuntimeOptions {
  dataDir: string;
  log: Logger;
  turnsPerMinute?: number;
  confirmTtlSeconds?: number | undefined;
  /** Which changes are confirmed only with the user's password again (STEP_UP_*_POINTS); default 100,000 points for a limit, 50,000 for money. */
  stepUp?: StepUpRule | undefined;
  /** Where the API key is kept, as the shell chose (keychain, safeStorage, session); default: ANTHROPIC_API_KEY only. */
  secrets?: SecretStores;
  /** ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL are read here, as the SDK reads them; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** How long a model call may go without a streamed event before it counts as timed out. */
  modelIdleTimeoutMs?: number;
  /** The backend's business clock (BackendConnection.clock): audit entries, proposals and messages are stamped by it; default the wall clock. */
  clock?: { now(): Date; nowMs(): number };
  /** When the intent classifier trains: it calls `train` then; default just after start-up (setImmediate). */
  trainIntentModel?: (train: () => void) => void;
}

/**
 * The assistant as the app runs it: the tool registry, the rule planner (offline, no key
 * needed) with Claude behind it once a key is added, the per-agent rate limit, proposals in the
 * nonce store (CONFIRM_TTL_SECONDS, 60 to 300, default 300; a large change's a minute, confirmed
 * with the user's password again: step-up.ts), and in the data folder the
 * conversations, the audit chain and the model settings and usage (`claude/`).
 */
export function createAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const now = options.clock ? () => options.clock!.nowMs() : Date.now;
  const audit = new AuditLog(join(options.dataDir, 'audit', 'audit.jsonl'), { now });
  // The intent classifier trains at start-up (about 200 ms, bench/planner.ts), not on the first
  // message — but after the shell is up, so the login page does not wait for it (the browser
  // shell waits until the book is open and nobody is waiting on it). A message that came sooner
  // would train it on the spot (intentModel() is built once, on first use).
  (options.trainIntentModel ?? setImmediate)(() => {
    const started = performance.now();
    intentModel();
    options.log.info('intent model trained', { ms: Math.round(performance.now() - started) });
  });
  const env = options.env ?? process.env;
  const registry = createToolRegistry({ log: options.log.child({ component: 'tools' }) });
  const models = new ClaudeBrain({
    secrets: options.secrets ?? { read: [environmentStore(env)], write: null, writeNote: 'This app keeps no keys: set ANTHROPIC_API_KEY in its environment.' },
    dataDir: options.dataDir, env, registry, log: options.log.child({ component: 'claude' }),
    ...(options.modelIdleTimeoutMs !== undefined && { idleTimeoutMs: options.modelIdleTimeoutMs }),
  });
  const chat = new Assistant({
    registry,
    planners: [new RulePlanner()],
    claude: models,
    history: new FileChatHistory(join(options.dataDir, 'conversations')),
    limiter: new RateLimiter({ limit: options.turnsPerMinute ?? 30 }),
    nonces: new NonceStore({ ttlMs: (options.confirmTtlSeconds ?? 300) * 1000, now }),
    audit,
    log: options.log.child({ component: 'assistant' }),
    readCache: new ReadCache(),
    ...(options.clock && { businessClock: options.clock }),
    stepUp: options.stepUp ?? DEFAULT_STEP_UP_RULE,
  });
  return {
    chat, audit, models,
    approvals: new Approvals({ registry, audit, log: options.log.child({ component: 'approvals' }), stepUp: options.stepUp ?? DEFAULT_STEP_UP_RULE }),
    mcpAudit: new AuditLog(mcpAuditFileIn(options.dataDir)),
  };
}

/** CONFIRM_TTL_SECONDS from the environment, checked: a proposal lives one to five minutes. */
export function confirmTtlFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.CONFIRM_TTL_SECONDS?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 60 || seconds > 300) throw new Error(`CONFIRM_TTL_SECONDS must be a whole number from 60 to 300, got "${raw}"`);
  return seconds;
}
