import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TRPCLink, createTRPCClient, httpLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Assistant } from '../../../src/main/assistant/assistant.js';
import { RateLimiter } from '../../../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../../../src/main/assistant/history.js';
import { RulePlanner } from '../../../src/main/assistant/planner/rule-planner.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { idempotencyKeyFor, readAnchors, verifyAuditLog } from '../../../src/main/audit/verify.js';
import type { BackendClient } from '../../../src/main/backend/connection.js';
import { NonceStore } from '../../../src/main/confirm/nonce-store.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import { queryRows } from '../../../src/server/db/client.js';
import { silentLogger } from '../../../src/infra/log.js';
import type { AppRouter } from '../../../src/server/trpc/router.js';
import type { User } from '../../../src/shared/contracts/agent-api.js';
import type { Card } from '../../../src/shared/contracts/assistant.js';
import type { ChatMessage } from '../../../src/shared/contracts/chat.js';
import { type TestBackend, accountId, databaseFingerprint, startTestBackend } from '../../helpers/backend.js';

/**
 * Money-moving round trips through the real chat turn: message → proposal card → confirm (or
 * cancel) → the backend's write and audit row, and main's audit chain, against a real backend.
 */
let backend: TestBackend;
let token: string;
let api: BackendClient;
let user: User;
let dir: string;

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  token = await backend.login('priya');
  api = backend.client(token);
  user = await api.auth.me.query();
  dir = await mkdtemp(join(tmpdir(), 'confirm-'));
});
afterAll(() => backend.close());

function desk(options: { now?: () => number; client?: BackendClient } = {}) {
  const audit = new AuditLog(join(dir, `audit-${Math.random()}.jsonl`));
  const nonces = new NonceStore({ ttlMs: 60_000, ...(options.now && { now: options.now }) });
  const a = new Assistant({
    registry: createToolRegistry({ backoffMs: 0 }), planners: [new RulePlanner()], history: new MemoryChatHistory(),
    limiter: new RateLimiter({ limit: 1000 }), log: silentLogger, nonces, audit,
  });
  const caller = { user, api: options.client ?? api };
  return {
    a, audit, caller,
    async ask(text: string): Promise<ChatMessage> {
      let done: ChatMessage | null = null;
      for await (const e of a.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } }, caller)) if (e.type === 'done') done = e.message;
      return done!;
    },
  };
}

type Proposal = Extract<Card, { type: 'diff_card' | 'settlement_summary' }>;
const proposalOf = (m: ChatMessage) => m.cards.find((c): c is Proposal => c.type === 'diff_card' || c.type === 'settlement_summary')!;
const answerOf = (p: Proposal) => ({ nonce: p.actions![0]!.nonce!, payloadHash: p.actions![0]!.payloadHash! });

async function creditLimit(username: string): Promise<number> {
  return (await api.agent.getCreditLimit.query({ playerId: await accountId(backend, username) })).rows[0]!.creditLimit;
}
async function backendAuditRows(action: string): Promise<number> {
  const [row] = await queryRows<{ n: string | number }>(backend.deps.db, sql`select count(*) as n from audit_log where action = ${action}`);
  return Number(row!.n);
}

describe('editLimit round trip', () => {
  it('message → diff card → confirm: the limit changes once, with a backend audit row and a verified main chain', async () => {
    const d = desk();
    const before = await creditLimit('karan');
    const fingerprint = await databaseFingerprint(backend);
    const proposal = proposalOf(await d.ask('set CL for Karan Malhotra to 55,000'));
    expect(proposal).toMatchObject({ type: 'diff_card', data: { playerName: 'Karan Malhotra', field: 'creditLimit', before, after: 5_500_000, state: 'pending' } });
    expect(proposal.data.expiresAt).toBeDefined();
    expect(await databaseFingerprint(backend)).toBe(fingerprint);

    const rowsBefore = await backendAuditRows('limits.edit');
    const done = await d.a.confirm(answerOf(proposal), d.caller);
    expect(done.resolves).toEqual({ nonce: answerOf(proposal).nonce, state: 'confirmed' });
    expect(done.text).toBe(`Done: Karan Malhotra's credit limit is now 55,000.00 (was ${(before / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}).`);
    expect(await creditLimit('karan')).toBe(5_500_000);
    expect(await backendAuditRows('limits.edit')).toBe(rowsBefore + 1);

    const [entry] = await d.audit.entries();
    expect(entry).toMatchObject({ seq: 1, user: user.id, tool: 'agent.editLimit', outcome: 'executed', before: { before }, args: { limitType: 'creditLimit', newValue: 5_500_000 } });
    // The entry keeps the anchor the backend wrote with the change, and verifies against it.
    const { anchors, head } = await readAnchors((afterSeq) => api.audit.anchors.query({ afterSeq }));
    expect((entry!.after as { anchor: unknown }).anchor).toEqual(head);
    expect(anchors.at(-1)).toMatchObject({ ...head, action: 'limits.edit', idempotencyKey: idempotencyKeyFor(answerOf(proposal).nonce) });
    // Other tests of this file act as priya too: only this desk's record is held against its file.
    const verdict = verifyAuditLog(await readFile(d.audit.file, 'utf8'), { user: user.id, anchors: anchors.filter((a) => a.seq === head!.seq) });
    expect(verdict.findings.filter((f) => f.entries.length > 0)).toEqual([]);

    // The same proposal cannot be confirmed twice: nothing more moves.
    const again = await d.a.confirm(answerOf(proposal), d.caller);
    expect(again.resolves?.state).toBe('refused');
    expect(await backendAuditRows('limits.edit')).toBe(rowsBefore + 1);
  });

  it('cancel uses the proposal up and changes nothing', async () => {
    const d = desk();
    const proposal = proposalOf(await d.ask('set CL for Sneha Iyer to 31,000'));
    const fingerprint = await databaseFingerprint(backend);
    const cancelled = await d.a.cancel(answerOf(proposal), d.caller);
    expect(cancelled).toMatchObject({ text: 'Cancelled. Nothing was changed.', resolves: { state: 'cancelled' } });
    expect((await d.a.confirm(answerOf(proposal), d.caller)).resolves?.state).toBe('refused');
    // Nothing on the backend moved: a cancel has no backend record (only main's chain covers it).
    expect(await databaseFingerprint(backend)).toBe(fingerprint);
    expect((await d.audit.entries()).map((e) => e.outcome)).toEqual(['cancelled']);
  });

  it('called off in words ("rehne do"), the open preview can no longer be confirmed and nothing changes', async () => {
    const d = desk();
    const proposal = proposalOf(await d.ask('set CL for Sneha Iyer to 32,000'));
    const fingerprint = await databaseFingerprint(backend);
    const declined = await d.ask('rehne do, abhi nahi');
    expect(declined.cards).toEqual([]);
    expect(declined.text).toMatch(/nothing was changed/);
    expect((await d.a.confirm(answerOf(proposal), d.caller)).resolves?.state).toBe('refused');
    expect(await databaseFingerprint(backend)).toBe(fingerprint);
    expect((await d.audit.entries()).map((e) => e.outcome)).toEqual(['cancelled']);
  });

  it('a wrong name corrected after a preview calls that preview off and proposes the change for the one meant', async () => {
    const d = desk();
    const wrong = proposalOf(await d.ask('Sneha Iyer ka CL 33,000 kar do'));
    const right = proposalOf(await d.ask('sorry galat naam, Neha Gupta ka karna tha'));
    expect(right).toMatchObject({ type: 'diff_card', data: { playerName: 'Neha Gupta', field: 'creditLimit', after: 3_300_000, state: 'pending' } });
    expect((await d.a.confirm(answerOf(wrong), d.caller)).resolves?.state).toBe('refused');
    expect(await d.a.cancel(answerOf(right), d.caller)).toMatchObject({ resolves: { state: 'cancelled' } });
  });

  it('a preview the guardrails refuse carries the reason and no buttons', async () => {
    const d = desk();
    // Under the platform maximum (the planner refuses past it before any preview), over priya's own CL.
    const proposal = proposalOf(await d.ask('set CL for Karan Malhotra to 50 lakh'));
    expect(proposal.data.refusal).toMatch(/above your own credit limit of 2,000,000\.00/);
    expect(proposal.data.state).toBe('refused');
    expect(proposal.actions).toBeUndefined();
  });

  it('refuses when the limit changed since the preview, and asks for a fresh one', async () => {
    const d = desk();
    const stale = proposalOf(await d.ask('set CL for Lakshmi Menon to 16,000'));
    const other = proposalOf(await d.ask('set CL for Lakshmi Menon to 17,000'));
    await d.a.confirm(answerOf(other), d.caller);
    const refused = await d.a.confirm(answerOf(stale), d.caller);
    expect(refused.resolves?.state).toBe('refused');
    expect(refused.text).toMatch(/changed since the preview.*Ask again for a fresh preview/);
    expect(await creditLimit('lakshmi')).toBe(1_700_000);
    expect((await d.audit.entries()).map((e) => e.outcome)).toEqual(['executed', 'refused']);
  });

  it("another user, a wrong payload hash or an expired proposal cannot confirm; the owner still can until it expires", async () => {
    let now = Date.now();
    const d = desk({ now: () => now });
    const proposal = proposalOf(await d.ask('set min stake for Suresh Pillai to 200'));
    const arjunApi = backend.client(await backend.login('arjun'));
    const arjun = { user: await arjunApi.auth.me.query(), api: arjunApi };
    expect((await d.a.confirm(answerOf(proposal), arjun)).text).toMatch(/belongs to someone else/);
    expect((await d.a.confirm({ ...answerOf(proposal), payloadHash: 'f'.repeat(64) }, d.caller)).text).toMatch(/does not match what was shown/);
    // The tampered attempt used the proposal up: nothing moved, and it is gone.
    expect((await d.a.confirm(answerOf(proposal), d.caller)).resolves?.state).toBe('refused');

    const later = proposalOf(await d.ask('set min stake for Suresh Pillai to 300'));
    now += 61_000;
    const expired = await d.a.confirm(answerOf(later), d.caller);
    expect(expired.resolves?.state).toBe('expired');
    // The owner's two proposals ended refused (the other hash) and expired; the other user's try left no trace.
    expect((await d.audit.entries()).map((e) => e.outcome)).toEqual(['refused', 'expired']);
    const [limits] = (await api.agent.getCreditLimit.query({ playerId: await accountId(backend, 'suresh') })).rows;
    expect(limits!.minStake).not.toBe(30_000);
  });
});

describe('settlePlayer round trip', () => {
  it("settles Deepak's whole take: the take after equals the preview's, one settlement row", async () => {
    const d = desk();
    const deepak = await accountId(backend, 'deepak');
    const takeBefore = (await api.agent.getTake.query({ playerId: deepak })).rows[0]!.take;
    const proposal = proposalOf(await d.ask('settle Deepak'));
    expect(proposal).toMatchObject({ type: 'settlement_summary', data: { playerName: 'Deepak Kulkarni', takeBefore, takeAfter: 0, amount: Math.abs(takeBefore) } });
    const done = await d.a.confirm(answerOf(proposal), d.caller);
    expect(done.resolves?.state).toBe('confirmed');
    expect((await api.agent.getTake.query({ playerId: deepak })).rows[0]!.take).toBe((proposal.data as { takeAfter: number }).takeAfter);
    const history = await api.agent.getSettlementHistory.query({ counterpartyId: deepak, limit: 5 });
    expect(history.rows[0]).toMatchObject({ takeBefore, takeAfter: 0, mode: 'auto' });
  });

  it('a reply lost after the commit: the retry under the same key replays the answer, and money moves once', async () => {
    // A transport that lets the first settle reach the backend (it commits) and then loses the reply.
    let lost = 0;
    const losing: TRPCLink<AppRouter> = (runtime) => {
      const live = httpLink<AppRouter>({ url: `${backend.server.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })(runtime);
      return ({ op, next }) => observable((observer) => {
        const sub = live({ op, next }).subscribe({
          next(value) {
            if (op.path === 'settlements.settle' && lost === 0) {
              lost++;
              observer.error(new TypeError('fetch failed') as never);
            } else observer.next(value);
          },
          error: (e) => observer.error(e),
          complete: () => observer.complete(),
        });
        return () => sub.unsubscribe();
      });
    };
    const client = createTRPCClient<AppRouter>({ links: [losing] });
    const d = desk({ client });
    const suresh = await accountId(backend, 'suresh');
    const takeBefore = (await api.agent.getTake.query({ playerId: suresh })).rows[0]!.take;
    const settlementsBefore = (await api.agent.getSettlementHistory.query({ counterpartyId: suresh, limit: 50 })).rows.length;
    const proposal = proposalOf(await d.ask('settle 100 with Suresh Pillai'));
    const done = await d.a.confirm(answerOf(proposal), d.caller);
    expect(lost).toBe(1);
    expect(done.resolves?.state).toBe('confirmed');
    const after = (await api.agent.getTake.query({ playerId: suresh })).rows[0]!.take;
    expect(Math.abs(after - takeBefore)).toBe(10_000);
    expect((await api.agent.getSettlementHistory.query({ counterpartyId: suresh, limit: 50 })).rows.length).toBe(settlementsBefore + 1);
    expect((await d.audit.entries()).map((e) => [e.outcome, (e.after as { replayed?: boolean }).replayed])).toEqual([['executed', true]]);
  });
});
