import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/infra/log.js';
import { Assistant } from '../../../src/main/assistant/assistant.js';
import { RateLimiter } from '../../../src/main/assistant/guards/rate-limit.js';
import { FileChatHistory } from '../../../src/main/assistant/history.js';
import { RulePlanner } from '../../../src/main/assistant/planner/rule-planner.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type BackendConnection, embeddedConnection } from '../../../src/main/backend/connection.js';
import { NonceStore } from '../../../src/main/confirm/nonce-store.js';
import { deskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import { openTestBookBackend } from '../../helpers/backend.js';
import { keylessModels } from '../../helpers/model-settings.js';

/**
 * The conversations through the real desk router (zod inputs and outputs), the real assistant and
 * its conversation files, on the embedded test backend: two agents, each reaching only their own.
 */
describe('conversations through the desk', () => {
  let backend: BackendConnection;
  let chat: Assistant;
  const sessions = new DeskSessions();
  const dir = mkdtempSync(join(tmpdir(), 'conversations-desk-'));

  beforeAll(async () => {
    backend = embeddedConnection(await openTestBookBackend(), silentLogger);
    chat = new Assistant({
      registry: createToolRegistry({ backoffMs: 0 }), planners: [new RulePlanner()], history: new FileChatHistory(join(dir, 'conversations')),
      limiter: new RateLimiter({ limit: 1000 }), log: silentLogger, nonces: new NonceStore(), audit: new AuditLog(join(dir, 'audit.jsonl')),
    });
  });
  afterAll(async () => {
    await backend?.close();
  });

  async function signedIn(username: string) {
    const desk = deskRouter.createCaller({ sessions, backend, log: silentLogger, chat, audit: new AuditLog(join(dir, 'audit.jsonl')), models: keylessModels(), slot: username });
    await desk.session.login({ username, password: `demo-${username}` });
    return desk;
  }
  type Desk = Awaited<ReturnType<typeof signedIn>>;

  async function say(desk: Desk, text: string): Promise<void> {
    for await (const e of await desk.chat.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } })) if (e.type === 'done') return;
  }

  it('starts, lists, searches, switches and deletes conversations; another agent reaches none of them', async () => {
    const priya = await signedIn('priya');
    const arjun = await signedIn('arjun');
    await say(priya, 'who owes me money');
    await priya.chat.start();
    expect((await priya.chat.history({})).messages).toEqual([]);
    await say(priya, 'show my downline');

    const list = await priya.chat.conversations({});
    expect(list.map((c) => [c.title, c.current, c.messages])).toEqual([['show my downline', true, 2], ['who owes me money', false, 2]]);
    const [downline, owed] = list;

    const found = await priya.chat.conversations({ query: 'owes' });
    expect(found.map((c) => c.id)).toContain(owed!.id);
    expect(await priya.chat.conversations({ query: 'no message says this' })).toEqual([]);

    await priya.chat.open({ id: owed!.id });
    expect((await priya.chat.history({})).messages.map((m) => m.text)[0]).toBe('who owes me money');

    // Another agent: an empty list, and priya's ids name nothing for them.
    expect(await arjun.chat.conversations({})).toEqual([]);
    expect(await arjun.chat.conversations({ query: 'owes' })).toEqual([]);
    await expect(arjun.chat.open({ id: owed!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(arjun.chat.remove({ id: downline!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await arjun.chat.clear();
    expect((await priya.chat.conversations({})).map((c) => c.id)).toEqual([downline!.id, owed!.id]);

    // Inputs the contract refuses never reach the store.
    await expect(priya.chat.open({ id: '../arjun' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(priya.chat.remove({ id: owed!.id, extra: 1 } as never)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(priya.chat.conversations({ query: 'x'.repeat(101) })).rejects.toMatchObject({ code: 'BAD_REQUEST' });

    await priya.chat.remove({ id: owed!.id });
    expect((await priya.chat.history({})).messages).toEqual([]);
    expect((await priya.chat.conversations({})).map((c) => c.id)).toEqual([downline!.id]);
    await expect(priya.chat.open({ id: owed!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
