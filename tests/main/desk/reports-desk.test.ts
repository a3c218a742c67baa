import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/infra/log.js';
import { Assistant } from '../../../src/main/assistant/assistant.js';
import { RateLimiter } from '../../../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../../../src/main/assistant/history.js';
import { RulePlanner } from '../../../src/main/assistant/planner/rule-planner.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type BackendConnection, embeddedConnection } from '../../../src/main/backend/connection.js';
import { NonceStore } from '../../../src/main/confirm/nonce-store.js';
import { safeFileName } from '../../../src/main/desk/file-saver.js';
import { deskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import { type BrowserShell, startBrowserShell } from '../../../src/main/web/server.js';
import type { Card } from '../../../src/shared/contracts/assistant.js';
import type { ChatMessage } from '../../../src/shared/contracts/chat.js';
import { openTestBookBackend } from '../../helpers/backend.js';
import { keylessModels } from '../../helpers/model-settings.js';

/**
 * Reports through the real desk router, on the embedded test backend, with the real assistant and
 * a real browser shell: made from the chat, listed, saved through the shell's one-time download
 * address, and shared only through a confirmed proposal.
 */
describe('reports through the desk', () => {
  let backend: BackendConnection;
  let shell: BrowserShell;
  let audit: AuditLog;
  const sessions = new DeskSessions();
  let chat: Assistant;

  beforeAll(async () => {
    backend = embeddedConnection(await openTestBookBackend(), silentLogger);
    audit = new AuditLog(join(mkdtempSync(join(tmpdir(), 'reports-desk-')), 'audit.jsonl'));
    chat = new Assistant({
      registry: createToolRegistry({ backoffMs: 0 }), planners: [new RulePlanner()], history: new MemoryChatHistory(),
      limiter: new RateLimiter({ limit: 1000 }), log: silentLogger, nonces: new NonceStore({ ttlMs: 60_000 }), audit,
    });
    shell = await startBrowserShell({ backend, sessions, log: silentLogger, chat, audit, models: keylessModels(), rendererDir: '/nonexistent-renderer' });
  });
  afterAll(async () => {
    await shell?.close();
    await backend?.close();
  });

  /** A browser of the shell: its slot cookie, and the desk as that slot, signed in as `username`. */
  async function browser(username: string) {
    const res = await fetch(shell.url);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const slot = cookie.split('=')[1]!;
    const desk = deskRouter.createCaller({ sessions, backend, log: silentLogger, chat, audit, models: keylessModels(), files: shell.downloads, slot });
    await desk.session.login({ username, password: `demo-${username}` });
    return { desk, cookie, slot };
  }

  async function say(desk: Awaited<ReturnType<typeof browser>>['desk'], text: string): Promise<ChatMessage> {
    let done: ChatMessage | null = null;
    for await (const e of await desk.chat.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } })) if (e.type === 'done') done = e.message;
    return done!;
  }

  const cardOf = <T extends Card['type']>(m: ChatMessage, type: T) => m.cards.find((c): c is Extract<Card, { type: T }> => c.type === type);

  async function ready(desk: Awaited<ReturnType<typeof browser>>['desk'], artifactId: string) {
    for (let i = 0; i < 100; i++) {
      const r = await desk.reports.get({ artifactId });
      if (r.status !== 'running') return r;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the report never finished');
  }

  /** What the backend stored, read straight from it through a fresh link. */
  async function stored(slot: string, artifactId: string): Promise<Buffer> {
    const api = backend.client(sessions.get(slot)!.token);
    const { link } = await api.reports.get.query({ artifactId });
    const parts: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const chunk = await api.reports.read.query({ link: link!.parts, offset });
      const data = Buffer.from(chunk.data, 'base64');
      parts.push(data);
      offset += data.byteLength;
      if (offset >= chunk.totalBytes || data.byteLength === 0) break;
    }
    return Buffer.concat(parts);
  }

  it('makes a report from the chat, lists it, and saves it once, to the browser that asked', async () => {
    const priya = await browser('priya');
    const answer = await say(priya.desk, "excel of last month's PnL per player");
    const card = cardOf(answer, 'report_artifact');
    expect(card, answer.text).toBeDefined();
    expect(card!.data).toMatchObject({ template: 'per_player_pnl', format: 'xlsx', filters: { from: '2026-10-01', to: '2026-10-31' } });
    expect(card!.data).not.toHaveProperty('link');
    expect(answer.text).toMatch(/PnL per player report \(Excel\) for 1 Oct 2026 – 31 Oct 2026 (is ready: [\d,]+ rows?, [\d.]+ (?:bytes|KB|MB)|is being made)/);
    const done = await ready(priya.desk, card!.data.artifactId);
    expect(done).toMatchObject({ status: 'ready', owner: { name: 'Priya Nair' }, sharedBy: null });
    expect(done).not.toHaveProperty('link');

    const listed = await priya.desk.reports.list({ limit: 50 });
    expect(listed.reports.map((r) => r.artifactId)).toContain(done.artifactId);

    const saved = await priya.desk.reports.save({ artifactId: done.artifactId });
    expect(saved).toMatchObject({ kind: 'download', url: expect.stringMatching(/^\/downloads\/[\w-]{43}$/), fileName: safeFileName(done.fileName, 'xlsx') });
    if (saved.kind !== 'download') throw new Error('not a download');
    // Another browser of the shell (its own slot) is refused, and that leaves the file for its owner.
    const other = await fetch(shell.url);
    const otherCookie = other.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${shell.url}${saved.url}`, { headers: { cookie: otherCookie } })).status).toBe(404);
    expect((await fetch(`${shell.url}${saved.url}`)).status).toBe(404);

    const res = await fetch(`${shell.url}${saved.url}`, { headers: { cookie: priya.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+\.xlsx"/);
    expect(res.headers.get('content-type')).toMatch(/spreadsheetml/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.byteLength).toBe(done.sizeBytes);
    expect(bytes.equals(await stored(priya.slot, done.artifactId))).toBe(true);
    expect(bytes.subarray(0, 2).toString()).toBe('PK'); // an xlsx is a zip
    // Once only.
    expect((await fetch(`${shell.url}${saved.url}`, { headers: { cookie: priya.cookie } })).status).toBe(404);
    expect((await fetch(`${shell.url}/downloads/${'x'.repeat(43)}`, { headers: { cookie: priya.cookie } })).status).toBe(404);

    // Regenerate: the same template, format and filters, as a new report.
    const again = await priya.desk.reports.regenerate({ artifactId: done.artifactId });
    expect(again.artifactId).not.toBe(done.artifactId);
    expect(again).toMatchObject({ template: done.template, format: done.format, filters: done.filters });
    await ready(priya.desk, again.artifactId);
    await priya.desk.reports.delete({ artifactId: again.artifactId });
    expect((await priya.desk.reports.list({ limit: 50 })).reports.map((r) => r.artifactId)).not.toContain(again.artifactId);
  });

  it('"as pdf instead" makes the same report as a pdf; "send it to Arjun" is a proposal, and only its confirmation shares', async () => {
    const priya = await browser('priya');
    const arjun = await browser('arjun');
    const first = cardOf(await say(priya.desk, "excel of last month's PnL per player"), 'report_artifact')!;
    const pdfAnswer = await say(priya.desk, 'as pdf instead');
    const pdf = cardOf(pdfAnswer, 'report_artifact');
    expect(pdf, pdfAnswer.text).toBeDefined();
    expect(pdf!.data).toMatchObject({ template: first.data.template, format: 'pdf', filters: first.data.filters });
    expect(pdf!.data.artifactId).not.toBe(first.data.artifactId);
    await ready(priya.desk, pdf!.data.artifactId);

    const proposed = await say(priya.desk, 'send it to Arjun');
    const share = cardOf(proposed, 'report_share');
    expect(share, proposed.text).toBeDefined();
    expect(share!.data).toMatchObject({ artifactId: pdf!.data.artifactId, recipientName: 'Arjun Mehta', state: 'pending' });
    expect(proposed.text).toMatch(/Confirm to send .* to Arjun Mehta\. .*Nothing is sent until you do\./);
    // Nothing is shared before the confirmation.
    expect((await arjun.desk.reports.list({ limit: 50 })).reports.map((r) => r.artifactId)).not.toContain(pdf!.data.artifactId);

    const confirm = share!.actions!.find((a) => a.id === 'confirm')!;
    const confirmed = await priya.desk.chat.confirm({ nonce: confirm.nonce!, payloadHash: confirm.payloadHash! });
    expect(confirmed.resolves?.state).toBe('confirmed');
    expect(confirmed.text).toMatch(/^Sent: Arjun Mehta can now download/);
    const theirs = (await arjun.desk.reports.list({ limit: 50 })).reports.find((r) => r.artifactId === pdf!.data.artifactId);
    expect(theirs).toMatchObject({ sharedBy: { name: 'Priya Nair' }, status: 'ready' });
    // Arjun may save it too, and only Priya may delete it.
    expect(await arjun.desk.reports.save({ artifactId: pdf!.data.artifactId })).toMatchObject({ kind: 'download', fileName: expect.stringMatching(/\.pdf$/) });
    await expect(arjun.desk.reports.delete({ artifactId: pdf!.data.artifactId })).rejects.toThrow();

    const entries = (await audit.entries()).filter((e) => e.tool === 'agent.shareReport' && (e.args as { artifactId?: unknown }).artifactId === pdf!.data.artifactId);
    expect(entries.map((e) => e.outcome)).toEqual(['executed']);
    expect(entries[0]!.before).toMatchObject({ recipientName: 'Arjun Mehta' });
    // The share's entry names the backend's record of it, and the Audit page's verification holds it to that record.
    expect((entries[0]!.after as { anchor?: unknown }).anchor).toMatchObject({ seq: expect.any(Number) });
    const verified = await priya.desk.audit.list();
    expect(verified.verification.findings.filter((f) => f.entries.includes(entries[0]!.seq)).map((f) => f.reason)).toEqual([]);
    expect(verified.toolLabels['agent.shareReport']).toBe('report sharing');
  });

  it('a share with no report yet is a question; a cancelled proposal shares nothing', async () => {
    const p = await browser('priya');
    // A fresh conversation: no report made in it yet.
    await p.desk.chat.clear();
    expect((await say(p.desk, 'send the report to Arjun')).text).toMatch(/Which report should I send/);
    const card = cardOf(await say(p.desk, 'settlement log report last week'), 'report_artifact')!;
    await ready(p.desk, card.data.artifactId);
    const proposal = cardOf(await say(p.desk, 'share it with Arjun'), 'report_share')!;
    const cancel = proposal.actions!.find((a) => a.id === 'cancel')!;
    expect((await p.desk.chat.cancel({ nonce: cancel.nonce!, payloadHash: cancel.payloadHash! })).resolves?.state).toBe('cancelled');
    const arjun = await browser('arjun');
    expect((await arjun.desk.reports.list({ limit: 50 })).reports.map((r) => r.artifactId)).not.toContain(card.data.artifactId);
  });

  it('sanitises the file name it saves under', () => {
    expect(safeFileName('../../etc/passwd', 'pdf')).toBe('etc passwd.pdf');
    expect(safeFileName('report.exe', 'pdf')).toBe('report.pdf');
    expect(safeFileName('PnL per player, 1 Oct 2026 – 31 Oct 2026.xlsx', 'xlsx')).toBe('PnL per player, 1 Oct 2026 – 31 Oct 2026.xlsx');
    expect(safeFileName('con', 'pdf')).toBe('report-con.pdf');
    expect(safeFileName('a\u0000b\u202ecd"<>|', 'xlsx')).toBe('a b cd.xlsx');
    expect(safeFileName('', 'xlsx')).toBe('report.xlsx');
  });
});
