/**
 * Several changes in one message, end to end on a real backend: each is a proposal of its own,
 * confirmed on its own; more than MAX_CHANGES_PER_TURN is a batch, none of it proposed.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Assistant } from '../../src/main/assistant/assistant.js';
import { RateLimiter } from '../../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../../src/main/assistant/history.js';
import { RulePlanner } from '../../src/main/assistant/planner/rule-planner.js';
import { AuditLog } from '../../src/main/audit/audit-log.js';
import type { BackendClient } from '../../src/main/backend/connection.js';
import { NonceStore } from '../../src/main/confirm/nonce-store.js';
import { createToolRegistry } from '../../src/main/tools/registry.js';
import { silentLogger } from '../../src/infra/log.js';
import type { User } from '../../src/shared/contracts/agent-api.js';
import type { Card } from '../../src/shared/contracts/assistant.js';
import type { ChatMessage } from '../../src/shared/contracts/chat.js';
import { type TestBackend, startTestBackend } from '../helpers/backend.js';

let backend: TestBackend;
let api: BackendClient;
let user: User;
let dir: string;

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  api = backend.client(await backend.login('priya'));
  user = await api.auth.me.query();
  dir = await mkdtemp(join(tmpdir(), 'multi-change-'));
});
afterAll(() => backend.close());

type Diff = Extract<Card, { type: 'diff_card' }>;
const diffsOf = (m: ChatMessage) => m.cards.filter((c): c is Diff => c.type === 'diff_card');
const answerOf = (d: Diff) => ({ nonce: d.actions![0]!.nonce!, payloadHash: d.actions![0]!.payloadHash! });

describe('several changes in one message', () => {
  it('two limits of one player are two proposals, each confirmed on its own; four changes at once are none', async () => {
    const a = new Assistant({
      registry: createToolRegistry({ backoffMs: 0 }), planners: [new RulePlanner()], history: new MemoryChatHistory(),
      limiter: new RateLimiter({ limit: 1000 }), log: silentLogger, nonces: new NonceStore({ ttlMs: 60_000 }), audit: new AuditLog(join(dir, 'audit.jsonl')),
    });
    const caller = { user, api };
    const ask = async (text: string) => {
      let done: ChatMessage | null = null;
      for await (const e of a.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } }, caller)) if (e.type === 'done') done = e.message;
      return done!;
    };
    const message = await ask("set Neha's CL to 50k and her per click win to 10k");
    const [cl, pcw] = diffsOf(message);
    expect([cl, pcw].map((d) => [d?.data.field, d?.data.after])).toEqual([['creditLimit', 5_000_000], ['perClickWin', 1_000_000]]);
    // Nothing changed until each is confirmed; each confirms alone.
    const playerId = cl!.data.playerId;
    expect((await api.agent.getCreditLimit.query({ playerId })).rows[0]?.creditLimit).toBe(cl!.data.before);
    expect((await a.confirm(answerOf(pcw!), caller)).resolves?.state).toBe('confirmed');
    expect((await api.agent.getCreditLimit.query({ playerId })).rows[0]?.creditLimit).toBe(cl!.data.before);
    expect((await a.confirm(answerOf(cl!), caller)).resolves?.state).toBe('confirmed');
    expect((await api.agent.getCreditLimit.query({ playerId })).rows[0]?.creditLimit).toBe(5_000_000);
    // A batch is the shape of "settle everyone": no proposal at all.
    const batch = await ask('settle Deepak, Suresh, Anita and Sneha');
    expect(batch.cards.filter((c) => c.type === 'settlement_summary')).toEqual([]);
    expect(batch.text).toMatch(/at most three in one message/);
  });
});
