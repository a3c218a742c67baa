import { join } from 'node:path';
import type { Logger } from '../../infra/log.js';
import { AuditLog } from '../audit/audit-log.js';
import { NonceStore } from '../confirm/nonce-store.js';
import { createToolRegistry } from '../tools/registry.js';
import { Assistant } from './assistant.js';
import { RateLimiter } from './guards/rate-limit.js';
import { FileChatHistory } from './history.js';
import { intentModel } from './planner/classifier.js';
import { RulePlanner } from './planner/rule-planner.js';

export interface AgentRuntime {
  chat: Assistant;
  audit: AuditLog;
}

/**
 * The assistant as the app runs it: the tool registry, the rule planner (offline, no key
 * needed), the per-agent rate limit, proposals in the nonce store (CONFIRM_TTL_SECONDS, 60 to
 * 300, default 300), and in the data folder the conversations and the audit chain.
 */
export function createAgentRuntime(options: { dataDir: string; log: Logger; turnsPerMinute?: number; confirmTtlSeconds?: number | undefined }): AgentRuntime {
  const audit = new AuditLog(join(options.dataDir, 'audit', 'audit.jsonl'));
  // The intent classifier trains here, at start-up (about 200 ms, bench/planner.ts), not on the first message.
  const started = performance.now();
  intentModel();
  options.log.info('intent model trained', { ms: Math.round(performance.now() - started) });
  const chat = new Assistant({
    registry: createToolRegistry({ log: options.log.child({ component: 'tools' }) }),
    planners: [new RulePlanner()],
    history: new FileChatHistory(join(options.dataDir, 'conversations')),
    limiter: new RateLimiter({ limit: options.turnsPerMinute ?? 30 }),
    nonces: new NonceStore({ ttlMs: (options.confirmTtlSeconds ?? 300) * 1000 }),
    audit,
    log: options.log.child({ component: 'assistant' }),
  });
  return { chat, audit };
}

/** CONFIRM_TTL_SECONDS from the environment, checked: a proposal lives one to five minutes. */
export function confirmTtlFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.CONFIRM_TTL_SECONDS?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 60 || seconds > 300) throw new Error(`CONFIRM_TTL_SECONDS must be a whole number from 60 to 300, got "${raw}"`);
  return seconds;
}
