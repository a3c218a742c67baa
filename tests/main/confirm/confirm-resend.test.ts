import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TRPCLink, createTRPCClient, httpLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/infra/log.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { readAnchors, verifyAuditLog } from '../../../src/main/audit/verify.js';
import { NonceStore } from '../../../src/main/confirm/nonce-store.js';
import { Proposals, executeConfirmed } from '../../../src/main/confirm/proposals.js';
import type { ToolPreview } from '../../../src/main/tools/types.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import type { AppRouter } from '../../../src/server/trpc/router.js';
import type { User } from '../../../src/shared/contracts/agent-api.js';
import { type TestBackend, accountId, startTestBackend } from '../../helpers/backend.js';

/**
 * A confirmed write whose reply is lost to a backend that then stays down a while (the
 * backend-kill fault run, here in small): the desk sends it again under its one key until the
 * backend answers, through an open breaker, and the backend's replay says it was made once;
 * and two confirmations in flight are written in turn, so main's audit log keeps the backend's order.
 */
let backend: TestBackend;
let token: string;
let user: User;

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  token = await backend.login('priya');
  user = await backend.client(token).auth.me.query();
});
afterAll(() => backend.close());

/** The first settle reaches the backend and commits, its reply is lost; the next `downFor` calls find nobody. */
function crashingTransport(downFor: number) {
  const seen = { settles: 0 };
  const link: TRPCLink<AppRouter> = (runtime) => {
    const live = httpLink<AppRouter>({ url: `${backend.server.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })(runtime);
    return ({ op, next }) => observable((observer) => {
      if (op.path === 'settlements.settle' && seen.settles++ > 0 && seen.settles <= downFor + 1) {
        observer.error(new TypeError('fetch failed') as never);
        return () => {};
      }
      const sub = live({ op, next }).subscribe({
        next(value) {
          if (op.path === 'settlements.settle' && seen.settles === 1) observer.error(new TypeError('fetch failed') as never);
          else observer.next(value);
        },
        error: (e) => observer.error(e),
        complete: () => observer.complete(),
      });
      return () => sub.unsubscribe();
    });
  };
  return { api: createTRPCClient<AppRouter>({ links: [link] }), seen };
}

describe('a confirmed write across a crash', () => {
  it('is sent again under its key until the backend answers, past an open breaker, and moves money once', async () => {
    const { api, seen } = crashingTransport(4);
    // A breaker that opens on the first failure: the resends must not be stopped by it.
    const registry = createToolRegistry({ backoffMs: 0, breaker: { minCalls: 1, failureRatio: 0.1, coolDownMs: 60_000 } });
    const karan = await accountId(backend, 'karan');
    const takeBefore = (await backend.client(token).agent.getTake.query({ playerId: karan })).rows[0]!.take;
    const settled = () => backend.client(token).agent.getSettlementHistory.query({ counterpartyId: karan, limit: 50 }).then((r) => r.rows.length);
    const before = await settled();
    const nonce = randomBytes(24).toString('base64url');
    const envelope = await executeConfirmed(registry, {
      tool: 'agent.settlePlayer', args: { playerId: karan, mode: 'amount', amount: 10_000 }, snapshot: { takeBefore, playerName: 'Karan Malhotra' },
    }, { user, api }, 'req-resend', nonce);
    expect(envelope.ok).toBe(true);
    // Sent six times: the one that committed, four that found nobody, the one answered as a replay.
    expect(seen.settles).toBe(6);
    expect((envelope as { data: { replayed?: boolean } }).data.replayed).toBe(true);
    expect(await settled()).toBe(before + 1);
    expect(Math.abs((await backend.client(token).agent.getTake.query({ playerId: karan })).rows[0]!.take - takeBefore)).toBe(10_000);
  });

  it('gives up when the window passes with the backend still away, and says it could not be reached', async () => {
    const { api, seen } = crashingTransport(1_000);
    const registry = createToolRegistry({ backoffMs: 0 });
    const anita = await accountId(backend, 'anita');
    const takeBefore = (await backend.client(token).agent.getTake.query({ playerId: anita })).rows[0]!.take;
    const envelope = await executeConfirmed(registry, {
      tool: 'agent.settlePlayer', args: { playerId: anita, mode: 'amount', amount: 100 }, snapshot: { takeBefore, playerName: 'Anita Desai' },
    }, { user, api }, 'req-resend-2', randomBytes(24).toString('base64url'), 1_000);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE', message: 'the backend could not be reached' } });
    // Resent within the window (100, 200, 400 ms…), not once and not for ever.
    expect(seen.settles).toBeGreaterThan(2);
    expect(seen.settles).toBeLessThan(10);
  });
});

describe('two confirmations of one user in flight', () => {
  it('are written one after the other, so the audit log lists them in the backend\'s order', async () => {
    // The first settle's answer is held back a while; without the queue the second would overtake it.
    let held = 0;
    const slowFirst: TRPCLink<AppRouter> = (runtime) => {
      const live = httpLink<AppRouter>({ url: `${backend.server.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })(runtime);
      return ({ op, next }) => observable((observer) => {
        // Committed at once, answered late: the backend records it first, the desk hears it last.
        const delay = op.path === 'settlements.settle' && held++ === 0 ? 300 : 0;
        const later = (f: () => void) => (delay > 0 ? setTimeout(f, delay) : f());
        const sub = live({ op, next }).subscribe({
          next: (v) => later(() => observer.next(v)), error: (e) => later(() => observer.error(e)), complete: () => later(() => observer.complete()),
        });
        return () => sub.unsubscribe();
      });
    };
    const api = createTRPCClient<AppRouter>({ links: [slowFirst] });
    const dir = await mkdtemp(join(tmpdir(), 'confirm-order-'));
    const audit = new AuditLog(join(dir, 'audit.jsonl'));
    const registry = createToolRegistry({ backoffMs: 0 });
    const proposals = new Proposals({ registry, nonces: new NonceStore(), audit, log: silentLogger });
    const caller = { user, api };
    const { head } = await readAnchors((afterSeq) => backend.client(token).audit.anchors.query({ afterSeq }));
    const confirmations = [];
    for (const username of ['suresh', 'lakshmi']) {
      const args = { playerId: await accountId(backend, username), mode: 'amount', amount: 100 };
      const preview = await registry.prepare('agent.settlePlayer', args, { api, user, requestId: `p-${username}` });
      if (!preview.ok) throw new Error(preview.error.message);
      const card = proposals.propose('agent.settlePlayer', args, preview.data as ToolPreview, user) as { actions: Array<{ nonce: string; payloadHash: string }> };
      confirmations.push(proposals.answer({ nonce: card.actions[0]!.nonce, payloadHash: card.actions[0]!.payloadHash }, caller, 'confirm', `c-${username}`));
    }
    expect((await Promise.all(confirmations)).map((a) => a.audit)).toEqual(['executed', 'executed']);
    const { anchors } = await readAnchors((afterSeq) => backend.client(token).audit.anchors.query({ afterSeq }));
    const ours = anchors.filter((a) => a.seq > (head?.seq ?? 0));
    const verdict = verifyAuditLog(await readFile(audit.file, 'utf8'), { user: user.id, anchors: ours });
    expect(verdict.findings.filter((f) => f.entries.length > 0)).toEqual([]);
    expect((await audit.entries()).map((e) => (e.after as { anchor: { seq: number } }).anchor.seq)).toEqual(ours.map((a) => a.seq));
  });
});
