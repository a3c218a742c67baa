/**
 * The desk as the chat tests drive it: a real backend (PGlite, the test book) with one agent signed
 * in, and an assistant assembled as the app assembles it, with test-sized parts (a history in
 * memory, an audit file of its own) that a test may replace.
 */
import { mkdtemp } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Assistant, type AssistantOptions, type TurnRecord } from '../../src/main/assistant/assistant.js';
import { RateLimiter } from '../../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../../src/main/assistant/history.js';
import { RulePlanner } from '../../src/main/assistant/planner/rule-planner.js';
import { AuditLog } from '../../src/main/audit/audit-log.js';
import type { BackendClient } from '../../src/main/backend/connection.js';
import { NonceStore } from '../../src/main/confirm/nonce-store.js';
import { createToolRegistry } from '../../src/main/tools/registry.js';
import { silentLogger } from '../../src/infra/log.js';
import type { User } from '../../src/shared/contracts/agent-api.js';
import { type TestBackend, startTestBackend } from './backend.js';

export interface Desk {
  backend: TestBackend;
  api: BackendClient;
  user: User;
  /** A scratch directory of the suite's own, for audit and history files. */
  dir: string;
}

/** A PGlite backend on the test book with `username` signed in, and a scratch directory named for the suite. */
export async function openDesk(name: string, username = 'priya'): Promise<Desk> {
  const backend = await startTestBackend('pglite');
  const api = backend.client(await backend.login(username));
  return { backend, api, user: await api.auth.me.query(), dir: await mkdtemp(join(tmpdir(), `${name}-`)) };
}

/** An assistant with the rule planner and the real registry; `over` replaces any part. Every turn's record lands in `records`. */
export function deskAssistant(dir: string, over: Partial<AssistantOptions> = {}): { a: Assistant; records: TurnRecord[] } {
  const records: TurnRecord[] = [];
  const a = new Assistant({
    registry: createToolRegistry(), planners: [new RulePlanner()], history: new MemoryChatHistory(), nonces: new NonceStore(),
    audit: new AuditLog(join(dir, `audit-${randomUUID()}.jsonl`)), limiter: new RateLimiter(), log: silentLogger,
    onTurn: (r) => records.push(r), ...over,
  });
  return { a, records };
}
