import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Assistant } from '../../../src/main/assistant/assistant.js';
import { RateLimiter } from '../../../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../../../src/main/assistant/history.js';
import { RulePlanner } from '../../../src/main/assistant/planner/rule-planner.js';
import { AuditLog, GENESIS_HASH } from '../../../src/main/audit/audit-log.js';
import { readAnchors, verifyAuditLog } from '../../../src/main/audit/verify.js';
import type { BackendClient, BackendConnection } from '../../../src/main/backend/connection.js';
import { NonceStore } from '../../../src/main/confirm/nonce-store.js';
import { deskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import { silentLogger } from '../../../src/infra/log.js';
import type { AnchoredRowOutput } from '../../../src/shared/contracts/agent-actions.js';
import type { User } from '../../../src/shared/contracts/agent-api.js';
import type { Card } from '../../../src/shared/contracts/assistant.js';
import { auditListOutput } from '../../../src/shared/contracts/audit.js';
import type { ChatMessage } from '../../../src/shared/contracts/chat.js';
import { canonicalJson } from '../../../src/shared/canonical-json.js';
import { auditVerify } from '../../helpers/audit-verify.js';
import { ENGINES, type TestBackend, startTestBackend } from '../../helpers/backend.js';

/** These fakes answer through `client` only. */
const noLink = (): never => { throw new Error('not used'); };
import { keylessModels } from '../../helpers/model-settings.js';
import { BusinessClock } from '../../../src/shared/business-clock.js';

/**
 * Main's audit log checked against the backend's audit chain. A genuine log is written once per
 * engine through the real confirm flow; each tamper case works on its own copy of that text, the
 * way someone who can write the file would: editing, deleting, truncating, reordering or adding
 * lines, and re-chaining the file with fresh hashes so that its own chain holds.
 */
type Entry = Record<string, unknown> & { seq: number; hash: string; prev: string };
type Proposal = Extract<Card, { type: 'diff_card' | 'settlement_summary' }>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const parse = (text: string): Entry[] => text.split('\n').slice(0, -1).map((l) => JSON.parse(l) as Entry);
const write = (entries: readonly object[]) => entries.map((e) => `${canonicalJson(e)}\n`).join('');
/** What a forger does after an edit: number the entries 1..n again and re-hash the chain, so the file alone verifies. */
function rechain(entries: readonly Entry[]): string {
  let prev = GENESIS_HASH;
  return write(entries.map((e, i) => {
    const { hash: _hash, ...rest } = e;
    const body = { ...rest, seq: i + 1, prev };
    prev = sha256(canonicalJson(body));
    return { ...body, hash: prev };
  }));
}
const after = (e: Entry) => e.after as Record<string, unknown>;

function assistant(audit: AuditLog) {
  return new Assistant({
    registry: createToolRegistry({ backoffMs: 0 }), planners: [new RulePlanner()], history: new MemoryChatHistory(),
    limiter: new RateLimiter({ limit: 1000 }), log: silentLogger, nonces: new NonceStore({ ttlMs: 60_000 }), audit,
  });
}

async function ask(a: Assistant, caller: { user: User; api: BackendClient }, text: string): Promise<ChatMessage> {
  let done: ChatMessage | null = null;
  for await (const e of a.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } }, caller)) if (e.type === 'done') done = e.message;
  return done!;
}
const proposalOf = (m: ChatMessage) => m.cards.find((c): c is Proposal => c.type === 'diff_card' || c.type === 'settlement_summary')!;
const answerOf = (p: Proposal) => ({ nonce: p.actions![0]!.nonce!, payloadHash: p.actions![0]!.payloadHash! });

describe.each(ENGINES)('audit log against the backend\'s records on %s', (engine) => {
  let b: TestBackend;
  let dir: string;
  let token: string;
  let user: User;
  let api: BackendClient;
  /** The genuine log: 1 Karan CL (record 1), 2 Sneha cancelled, 3 Suresh min stake (2), 4 Suresh settled (3), 5 Lakshmi CL (4), 6 Karan CL (5). */
  let text: string;
  let anchors: AnchoredRowOutput[];

  const verify = (t: string) => verifyAuditLog(t, { user: user.id, anchors });

  beforeAll(async () => {
    b = await startTestBackend(engine);
    dir = await mkdtemp(join(tmpdir(), 'audit-verify-'));
    token = await b.login('priya');
    api = b.client(token);
    user = await api.auth.me.query();
    const log = new AuditLog(join(dir, 'genuine', 'audit.jsonl'));
    const a = assistant(log);
    const caller = { user, api };
    const confirm = async (message: string) => {
      const m = await a.confirm(answerOf(proposalOf(await ask(a, caller, message))), caller);
      expect(m.resolves?.state).toBe('confirmed');
    };
    await confirm('set CL for Karan Malhotra to 55,000');
    expect((await a.cancel(answerOf(proposalOf(await ask(a, caller, 'set CL for Sneha Iyer to 31,000'))), caller)).resolves?.state).toBe('cancelled');
    await confirm('set min stake for Suresh Pillai to 200');
    await confirm('settle 100 with Suresh Pillai');
    await confirm('set CL for Lakshmi Menon to 16,000');
    await confirm('set CL for Karan Malhotra to 56,000');
    text = await log.text();
    ({ anchors } = await readAnchors((afterSeq) => api.audit.anchors.query({ afterSeq })));
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('verifies the genuine log: every executed entry names the record the backend wrote with the change', () => {
    const entries = parse(text);
    expect(entries.map((e) => e.outcome)).toEqual(['executed', 'cancelled', 'executed', 'executed', 'executed', 'executed']);
    expect(entries.filter((e) => e.outcome === 'executed').map((e) => (after(e).anchor as { seq: number }).seq)).toEqual([1, 2, 3, 4, 5]);
    expect(anchors.map((r) => r.action)).toEqual(['limits.edit', 'limits.edit', 'settlements.settle', 'limits.edit', 'limits.edit']);
    expect(verify(text)).toMatchObject({ ok: true, backendChecked: true, count: 6, findings: [], backend: { records: 5 } });
    // The file alone (no backend records) holds too, but is not called verified.
    expect(verifyAuditLog(text)).toMatchObject({ ok: false, backendChecked: false, findings: [] });
  });

  it('edit a row: found in place, and found against the backend when the file is re-chained around the edit', () => {
    const entries = parse(text);
    const third = entries[2]!;
    const edited = { ...third, args: { ...(third.args as object), newValue: 25_000 }, after: { ...after(third), after: 25_000 } };
    const inPlace = write(entries.map((e, i) => (i === 2 ? edited : e)));
    expect(verify(inPlace).findings).toEqual([
      expect.objectContaining({ where: 'entry 3 (line 3)', reason: expect.stringMatching(/hash does not match its contents \(edited\?\)/), entries: [3], lines: [3] }),
    ]);
    const rechained = rechain(entries.map((e, i) => (i === 2 ? edited : e)));
    expect(verifyAuditLog(rechained)).toMatchObject({ findings: [] });
    expect(verify(rechained)).toMatchObject({
      ok: false,
      findings: [{ where: 'entry 3', reason: 'does not say what backend record 2 says (after differs): edited', entries: [3], anchors: [2], lines: [] }],
    });
    // A settlement's amount, or the proposal an entry claims to answer, edited the same way.
    const settled = entries[3]!;
    const halved = rechain(entries.map((e, i) => (i === 3 ? { ...e, after: { ...after(settled), amount: 5_000 } } : e)));
    expect(verify(halved).findings).toEqual([expect.objectContaining({ where: 'entry 4', reason: 'does not say what backend record 3 says (amount differs): edited' })]);
    const renonced = rechain(entries.map((e, i) => (i === 3 ? { ...e, nonce: 'another-proposal' } : e)));
    expect(verify(renonced).findings).toEqual([expect.objectContaining({ where: 'entry 4', reason: 'does not say what backend record 3 says (proposal differs): edited' })]);
  });

  it('delete a row: the gap in place, and the backend\'s record no entry names when re-chained', () => {
    const entries = parse(text);
    const inPlace = write(entries.filter((_, i) => i !== 2));
    expect(verify(inPlace).findings).toEqual([
      expect.objectContaining({ where: 'entry 3', reason: 'missing from the file (deleted)', entries: [3] }),
      expect.objectContaining({ where: 'between entries 1 and 4', reason: 'the backend recorded a limit change (its record 2) that this log does not have: deleted, or made outside this desk', anchors: [2] }),
    ]);
    const rechained = rechain(entries.filter((_, i) => i !== 2));
    expect(verify(rechained).findings).toEqual([
      { where: 'between entries 1 and 3', reason: 'the backend recorded a limit change (its record 2) that this log does not have: deleted, or made outside this desk', entries: [], lines: [], anchors: [2] },
    ]);
  });

  it('truncate the tail: the backend\'s last records are named, after the last entry left', () => {
    const truncated = write(parse(text).slice(0, 4));
    expect(verifyAuditLog(truncated)).toMatchObject({ findings: [] });
    expect(verify(truncated)).toMatchObject({
      ok: false,
      findings: [{ where: 'after entry 4, at the end of the log', reason: 'the backend recorded 2 limit changes (records 4 and 5) that this log does not have: truncated or deleted, or made outside this desk', anchors: [4, 5] }],
    });
    // Everything cut: every record is missing.
    expect(verify('').findings).toEqual([expect.objectContaining({ where: 'the whole log', anchors: [1, 2, 3, 4, 5] })]);
  });

  it('reorder: out of order in place, and against the backend\'s order when re-chained', () => {
    const entries = parse(text);
    const swapped = [entries[0]!, entries[1]!, entries[3]!, entries[2]!, entries[4]!, entries[5]!];
    expect(verify(write(swapped)).findings).toEqual([
      expect.objectContaining({ where: 'entries 3 and 4', reason: 'out of order (reordered)', entries: [4, 3], lines: [3, 4] }),
      expect.objectContaining({ where: 'entries 4 and 3', reason: 'in another order than the backend recorded them (records 3 and 2): reordered' }),
    ]);
    expect(verify(rechain(swapped)).findings).toEqual([
      { where: 'entries 3 and 4', reason: 'in another order than the backend recorded them (records 3 and 2): reordered', entries: [3, 4], anchors: [3, 2], lines: [] },
    ]);
  });

  it('append a forged row: an entry the backend has no record of, a copy of a real record, or none at all', () => {
    const entries = parse(text);
    const last = entries[5]!;
    const forge = (anchor: unknown) => ({ ...last, nonce: `forged-${randomUUID()}`, after: { ...after(last), anchor } });
    const unknown = rechain([...entries, forge({ seq: 6, hash: 'a'.repeat(64) })]);
    expect(verifyAuditLog(unknown)).toMatchObject({ findings: [] });
    expect(verify(unknown).findings).toEqual([
      { where: 'entry 7', reason: 'names backend record 6, which the backend does not have: not recorded by the backend (forged)', entries: [7], anchors: [6], lines: [] },
    ]);
    expect(verify(rechain([...entries, forge(after(last).anchor)])).findings).toEqual([
      expect.objectContaining({ where: 'entries 6 and 7', reason: 'both name backend record 5: one of them is a copy (forged)', entries: [6, 7] }),
    ]);
    expect(verify(rechain([...entries, forge(undefined)])).findings).toEqual([
      expect.objectContaining({ where: 'entry 7', reason: expect.stringMatching(/names no backend record/), entries: [7] }),
    ]);
  });

  it('a re-anchor attempt has no effect: the procedures are gone, and the backend\'s records still name the rewrite', async () => {
    const rewritten = rechain(parse(text).slice(0, 3));
    const hash = parse(rewritten).at(-1)!.hash;
    const authorization = `Bearer ${token}`;
    for (const path of ['audit.recordHead', 'audit.head']) {
      const response = await fetch(`${b.server.url}/trpc/${path}`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify({ seq: 3, hash }),
      });
      expect(response.status).toBe(404);
    }
    const again = await readAnchors((afterSeq) => api.audit.anchors.query({ afterSeq }));
    expect(again.anchors).toEqual(anchors);
    expect(verify(rewritten)).toMatchObject({ ok: false, findings: [expect.objectContaining({ where: 'after entry 3, at the end of the log', anchors: [3, 4, 5] })] });
  });

  it('out-of-range and malformed input: each line a finding, never a throw', () => {
    const entries = parse(text);
    const hugeSeq = { ...entries[0]!, seq: 2_147_483_648 };
    const anchorOut = rechain([...entries, { ...entries[5]!, nonce: 'n-out-of-range', after: { ...after(entries[5]!), anchor: { seq: 2_147_483_647, hash: 'b'.repeat(64) } } }]);
    const anchorHuge = rechain([...entries, { ...entries[5]!, nonce: 'n-huge', after: { ...after(entries[5]!), anchor: { seq: 1e308, hash: 'b'.repeat(64) } } }]);
    const garbage = [
      `${text}${canonicalJson(hugeSeq)}\n`,
      `${text}not json\n`,
      `${text}null\n[]\n{}\n"seq"\n`,
      `${text}${'['.repeat(200_000)}\n`,
      `${text}{"seq":1e400}\n`,
      `${text}{"seq":-5,"hash":"${'c'.repeat(64)}"}\n`,
      text.slice(0, -1),
      '\n\n\n',
    ];
    for (const t of garbage) {
      const verdict = verify(t);
      expect(verdict.ok).toBe(false);
      expect(verdict.findings.length).toBeGreaterThan(0);
      expect(() => auditListOutput.parse({ entries: verdict.entries, toolLabels: {}, verification: { ...verdict, entries: undefined } })).not.toThrow();
    }
    expect(verify(`${text}not json\n`).findings).toEqual([expect.objectContaining({ where: 'line 7', reason: 'not JSON', lines: [7] })]);
    expect(verify(`${text}${canonicalJson(hugeSeq)}\n`).findings[0]).toMatchObject({ where: 'line 7', reason: expect.stringMatching(/seq/) });
    expect(verify(anchorOut).findings).toEqual([expect.objectContaining({ where: 'entry 7', reason: expect.stringMatching(/names backend record 2147483647, which the backend does not have/) })]);
    expect(verify(anchorHuge).findings).toEqual([expect.objectContaining({ where: 'entry 7', reason: expect.stringMatching(/names no backend record/) })]);
    // A file of nothing but garbage is listed up to a bound, the rest counted.
    const flood = verify('x\n'.repeat(5_000));
    expect(flood.findings).toHaveLength(101);
    // 5,000 bad lines and the backend's 5 records no entry names: 5,001 findings.
    expect(flood.findings.at(-1)).toMatchObject({ reason: '4901 more findings not listed' });
  });

  describe('the Audit page\'s read (desk audit.list)', () => {
    async function page(fileText: string, connection?: BackendConnection) {
      const file = join(dir, randomUUID(), 'audit.jsonl');
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, fileText);
      const log = new AuditLog(file);
      const sessions = new DeskSessions();
      sessions.set('window-1', { token, user, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      const backend = connection ?? { mode: 'remote' as const, clock: new BusinessClock(), link: noLink, client: (t: string | null) => b.client(t ?? undefined), close: async () => {} };
      const desk = deskRouter.createCaller({ sessions, backend, log: silentLogger, chat: assistant(log), audit: log, models: keylessModels(), slot: 'window-1' });
      return desk.audit.list();
    }

    it('names the rows and the reasons, lists what it can read, and marks nothing on a genuine log', async () => {
      const good = await page(text);
      expect(good.verification).toMatchObject({ ok: true, backendChecked: true, findings: [], backend: { records: 5, head: { seq: 5 } } });
      expect(good.entries.map((e) => e.seq)).toEqual([6, 5, 4, 3, 2, 1]);
      // Each tool in words, from its own module, for every tool the entries name.
      expect(Object.keys(good.toolLabels).sort()).toEqual([...new Set(good.entries.map((e) => e.tool))].sort());
      expect(Object.values(good.toolLabels)).not.toContain('');
      expect(good.toolLabels).toMatchObject({ 'agent.editLimit': 'limit change' });
      const entries = parse(text);
      const edited = await page(rechain(entries.map((e, i) => (i === 4 ? { ...e, after: { ...after(e), before: 1 } } : e))));
      expect(edited.verification).toMatchObject({ ok: false, findings: [{ where: 'entry 5', entries: [5], reason: expect.stringMatching(/backend record 4.*before differ/) }] });
      expect(edited.entries).toHaveLength(6);
      const damaged = await page(`${text}garbage\n${'['.repeat(100_000)}\n`);
      expect(damaged.verification.findings.map((f) => f.where)).toEqual(['line 7', 'line 8']);
      expect(damaged.entries).toHaveLength(6);
    });

    it('reads the records again when an entry names one committed while they were read', async () => {
      const real = b.client(token);
      let reads = 0;
      // The first read misses the last record, as one taken just before that change committed would.
      const racing: BackendConnection = {
        mode: 'remote', clock: new BusinessClock(),
        link: noLink,
        client: () => new Proxy(real, {
          get: (target, key) => (key !== 'audit' ? Reflect.get(target, key) : {
            anchors: {
              query: async (input: { afterSeq?: number }) => {
                const page = await real.audit.anchors.query(input);
                const before = page.anchors.at(-2);
                return reads++ === 0 ? { anchors: page.anchors.slice(0, -1), next: null, head: before ? { seq: before.seq, hash: before.hash } : null } : page;
              },
            },
          }),
        }) as BackendClient,
        close: async () => {},
      };
      const result = await page(text, racing);
      expect(result.verification).toMatchObject({ ok: true, findings: [], backend: { records: 5 } });
      expect(reads).toBe(2);
    });

    it('stays readable when the backend does not answer: the file is checked alone, and says so', async () => {
      const down: BackendConnection = {
        mode: 'remote', clock: new BusinessClock(),
        link: noLink,
        // Every call fails as fetch does with no server there.
        client: () => new Proxy({}, { get: () => new Proxy({}, { get: () => ({ query: () => Promise.reject(new TypeError('fetch failed')) }) }) }) as BackendClient,
        close: async () => {},
      };
      const result = await page(text, down);
      expect(result.verification).toMatchObject({ ok: false, backendChecked: false, backend: null, findings: [] });
      expect(result.entries).toHaveLength(6);
      // A backend whose answer is not a page of records (out-of-range numbers, wrong shapes) is not believed.
      for (const answer of [{ anchors: [{ ...anchors[0], seq: 2_147_483_648 }], next: null, head: null }, { anchors: null }, 'garbage', { anchors: [], next: 0, head: null }]) {
        const lying: BackendConnection = {
          mode: 'remote', clock: new BusinessClock(),
          link: noLink,
          client: () => new Proxy({}, { get: () => ({ anchors: { query: async () => answer } }) }) as BackendClient,
          close: async () => {},
        };
        const got = await page(text, lying);
        expect(got.verification).toMatchObject({ ok: false, backendChecked: false, backend: null });
        expect(got.entries).toHaveLength(6);
      }
    });
  });

  describe('npm run audit:verify against the backend\'s records', () => {
    const run = auditVerify;
    async function files(logText: string) {
      const at = join(dir, randomUUID());
      await mkdir(at, { recursive: true });
      await writeFile(join(at, 'audit.jsonl'), logText);
      await writeFile(join(at, 'anchors.json'), JSON.stringify({ anchors }));
      return { log: join(at, 'audit.jsonl'), anchorsFile: join(at, 'anchors.json') };
    }

    it('verifies the genuine log from an anchors file, and names what a truncated one lacks', async () => {
      const good = await files(text);
      const ok = await run([good.log, '--anchors', good.anchorsFile, '--user-id', user.id]);
      expect(ok).toMatchObject({ code: 0, stdout: expect.stringMatching(/^audit: 6 entries, chain verified \(head 6 [0-9a-f]{64}\) and in agreement with the backend's 5 records of /) });
      const cut = await files(write(parse(text).slice(0, 4)));
      const broken = await run([cut.log, '--anchors', cut.anchorsFile, '--user-id', user.id]);
      expect(broken).toMatchObject({
        code: 1,
        stdout: 'audit: after entry 4, at the end of the log: the backend recorded 2 limit changes (records 4 and 5) that this log does not have: truncated or deleted, or made outside this desk\n'
          + 'audit: 4 lines, 1 finding: the log does not verify\n',
      });
    });

    it('signs in to a backend with the password from the environment, and exits 2 when it cannot', async () => {
      const rewritten = await files(rechain(parse(text).filter((_, i) => i !== 4)));
      const found = await run([rewritten.log, '--backend', b.server.url, '--user', 'priya'], { AUDIT_VERIFY_PASSWORD: 'demo-priya' });
      expect(found.code).toBe(1);
      expect(found.stdout).toMatch(/^audit: between entries 4 and 5: the backend recorded a limit change \(its record 4\) that this log does not have: deleted/);
      expect(await run([rewritten.log, '--backend', b.server.url, '--user', 'priya'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/AUDIT_VERIFY_PASSWORD/) });
      expect(await run([rewritten.log, '--backend', b.server.url, '--user', 'priya'], { AUDIT_VERIFY_PASSWORD: 'wrong' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/could not be read/) });
    });
  });

  describe('a no-op limit change', () => {
    it('a preview to the value already set offers nothing to confirm; a confirm the backend finds a no-op is logged as no_op', async () => {
      const arjunToken = await b.login('arjun');
      const arjunApi = b.client(arjunToken);
      const caller = { user: await arjunApi.auth.me.query(), api: arjunApi };
      const log = new AuditLog(join(dir, randomUUID(), 'audit.jsonl'));
      const a = assistant(log);
      const current = (await arjunApi.agent.getCreditLimit.query({})).rows.find((r) => r.name === 'Imran Qureshi')!.creditLimit;
      const points = (current / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });

      const same = await ask(a, caller, `set CL for Imran Qureshi to ${points}`);
      const card = proposalOf(same);
      expect(card).toMatchObject({ type: 'diff_card', data: { before: current, after: current, state: 'unchanged', note: `the credit limit is already ${points}: nothing to change` } });
      expect(card.actions).toBeUndefined();
      expect(same.text).toMatch(/No change: Imran Qureshi's credit limit is already/);

      // Two proposals of one new value: the first changes it, the second finds nothing left to change.
      const first = proposalOf(await ask(a, caller, 'set CL for Imran Qureshi to 33,000'));
      const second = proposalOf(await ask(a, caller, 'set CL for Imran Qureshi to 33,000'));
      expect((await a.confirm(answerOf(first), caller)).resolves?.state).toBe('confirmed');
      const headBefore = (await arjunApi.audit.anchors.query({})).head;
      const noOp = await a.confirm(answerOf(second), caller);
      expect(noOp.resolves?.state).toBe('unchanged');
      expect(noOp.text).toBe('No change: Imran Qureshi\'s credit limit is already 33,000.00. Nothing was written.');
      expect(noOp.cards[0]).toMatchObject({ type: 'diff_card', data: { state: 'unchanged', before: 3_300_000, after: 3_300_000 } });
      expect((await arjunApi.audit.anchors.query({})).head).toEqual(headBefore);
      const entries = await log.entries();
      expect(entries.map((e) => e.outcome)).toEqual(['executed', 'no_op']);
      expect(entries[1]!.after).toMatchObject({ noOp: true, anchor: null });
      // The no-op names no backend record and needs none: the log verifies.
      const { anchors: arjunAnchors } = await readAnchors((afterSeq) => arjunApi.audit.anchors.query({ afterSeq }));
      expect(verifyAuditLog(await readFile(log.file, 'utf8'), { user: caller.user.id, anchors: arjunAnchors })).toMatchObject({ ok: true, findings: [] });
    });
  });
});
