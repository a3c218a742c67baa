import { join } from 'node:path';
import type { Logger } from '../../server/log.js';
import { createToolRegistry } from '../tools/registry.js';
import { Assistant } from './assistant.js';
import { RateLimiter } from './guards/rate-limit.js';
import { FileChatHistory } from './history.js';
import { RulePlanner } from './planner/rule-planner.js';

/**
 * The assistant as the app runs it: the tool registry, the rule planner (offline, no key
 * needed), per-agent rate limit, and conversations kept in `dataDir/conversations`.
 */
export function createAssistant(options: { dataDir: string; log: Logger; turnsPerMinute?: number }): Assistant {
  return new Assistant({
    registry: createToolRegistry(),
    planners: [new RulePlanner()],
    history: new FileChatHistory(join(options.dataDir, 'conversations')),
    limiter: new RateLimiter({ limit: options.turnsPerMinute ?? 30 }),
    log: options.log.child({ component: 'assistant' }),
  });
}
