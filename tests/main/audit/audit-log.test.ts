import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, AuditLogError, type AuditFields, GENESIS_HASH, auditFileIn } from '../../../src/main/audit/audit-log.js';
import { type AuditVerdict, verifyAuditLog } from '../../../src/main/audit/verify.js';
import { canonicalJson } from '../../../src/shared/canonical-json.js';
import { auditVerify } from '../../helpers/audit-verify.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const START = Date.parse('2026-11-20T06:30:00.000Z');

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'audit-log-test-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

let files = 0;
const freshFile = () => join(dir, `case-${++files}`, 'audit', 'audit.jsonl');

const fieldsFor = (i: number): AuditFields => ({
  requestId: `req-${i}`,
  user: 'agent-priya',
  tool: i % 2 ? 'agent.setCreditLimit' : 'agent.settle',
  args: { playerId: `p-${i}`, amount: 1_000 * i, note: `change ${i}` },
  before: { limit: 500 * i },
  after: i === 3 ? { error: { code: 'CONFLICT', message: 'limit moved' } } : { limit: 1_000 * i },
  nonce: `nonce-${i}-${'x'.repeat(30)}`,
  outcome: i === 3 ? 'refused' : i === 9 ? 'cancelled' : 'executed',
});

/** A file of `count` entries written by AuditLog, its text and its head. */
async function writtenChain(count = 10) {
  const file = freshFile();
  let t = START;
  const log = new AuditLog(file, { now: () => (t += 1_000) });
  for (let i = 1; i <= count; i++) await log.append(fieldsFor(i));
  const head = await log.head();
  if (!head) throw new Error('no head after appends');
  return { file, log, head, text: await readFile(file, 'utf8') };
}

const lines = (text: string) => text.split('\n').slice(0, -1);
const joined = (ls: string[]) => ls.map((l) => `${l}\n`).join('');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The file's own chain only (no backend records here): what verification finds, in words. */
const check = (text: string, localHead?: { seq: number; hash: string } | null) => verifyAuditLog(text, { localHead: localHead ?? null });
const found = (v: AuditVerdict) => v.findings.map((f) => `${f.where}: ${f.reason}`);
/** Whether some finding names entry `seq` or line `line`. */
const names = (v: AuditVerdict, seq: number, line = seq) => v.findings.some((f) => f.entries.includes(seq) || f.lines.includes(line));

describe('audit log', () => {
  it('writes a chain that verifies: seq from 1, each prev the hash before, each hash its contents', async () => {
    const { log, head, text } = await writtenChain();
    expect(check(text)).toMatchObject({ findings: [], count: 10, head });
    expect(check(text, head)).toMatchObject({ findings: [], count: 10, head });
    const entries = await log.entries();
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    let prev = GENESIS_HASH;
    for (const [i, entry] of entries.entries()) {
      const { hash, ...rest } = entry;
      expect(entry.prev).toBe(prev);
      expect(hash).toBe(sha256(canonicalJson(rest)));
      expect(entry).toMatchObject(fieldsFor(i + 1));
      expect(entry.ts).toBe(new Date(START + (i + 1) * 1_000).toISOString());
      prev = hash;
    }
    expect(head).toEqual({ seq: 10, hash: prev });
    expect(await log.snapshot()).toEqual({ text, head });
    expect(await log.text()).toBe(text);
    expect(auditFileIn(join('some', 'userData'))).toBe(join('some', 'userData', 'audit', 'audit.jsonl'));
  });

  it('finds a one-byte edit at the entry edited, whether the JSON still parses or not', async () => {
    const { text } = await writtenChain();
    const fourth = lines(text)[3]!;
    const atValue = text.replace(fourth, fourth.replace('"p-4"', '"p-5"'));
    expect(atValue.length).toBe(text.length);
    expect(found(check(atValue))).toEqual(['entry 4 (line 4): its hash does not match its contents (edited?)']);
    const atBrace = text.replace(fourth, `[${fourth.slice(1)}`);
    expect(found(check(atBrace))).toEqual(['line 4: not JSON', 'entry 4: missing from the file (deleted)']);
  });

  it('finds any one-byte change anywhere in entry 4, newline included, at entry 4', async () => {
    const { text } = await writtenChain();
    const bytes = Buffer.from(text, 'utf8');
    const start = Buffer.byteLength(joined(lines(text).slice(0, 3)));
    const end = Buffer.byteLength(joined(lines(text).slice(0, 4))); // through entry 4's newline
    fc.assert(fc.property(fc.integer({ min: start, max: end - 1 }), fc.integer({ min: 1, max: 255 }), (at, delta) => {
      const edited = Buffer.from(bytes);
      edited[at] = (edited[at]! + delta) % 256;
      const verdict = check(edited.toString('utf8'));
      expect(verdict.findings.length).toBeGreaterThan(0);
      expect(names(verdict, 4)).toBe(true);
    }), { numRuns: 400 });
  });

  it('catches an edit that parses to the same value: the file must be canonical to the byte', async () => {
    const file = freshFile();
    const log = new AuditLog(file);
    await log.append({ ...fieldsFor(1), args: { note: 'escape \u001b' } });
    const text = await readFile(file, 'utf8');
    expect(text).toContain('\\u001b');
    const sameValue = text.replace('\\u001b', '\\u001B');
    expect(sameValue).not.toBe(text);
    expect(JSON.parse(sameValue)).toEqual(JSON.parse(text));
    expect(found(check(sameValue))).toEqual(['entry 1 (line 1): not in canonical form (edited?)']);
  });

  it('finds a deleted entry where the gap is', async () => {
    const { text } = await writtenChain();
    const ls = lines(text);
    expect(found(check(joined([...ls.slice(0, 4), ...ls.slice(5)])))).toEqual(['entry 5: missing from the file (deleted)']);
    expect(found(check(joined(ls.slice(1))))).toEqual(['entry 1: missing from the file (deleted)']);
    expect(found(check(joined([...ls.slice(0, 2), ...ls.slice(6)])))).toEqual(['entries 3–6: missing from the file (deleted)']);
  });

  it('finds a deleted entry whose followers were renumbered, at the first that does not link', async () => {
    const { text } = await writtenChain();
    const ls = lines(text);
    // Entry 6 becomes seq 5 with a fresh hash of its own, but its prev still names the old 5.
    const renumbered = ls.slice(5).map((l, i) => {
      const { hash: _hash, ...rest } = JSON.parse(l) as Record<string, unknown>;
      const moved = { ...rest, seq: 5 + i };
      return canonicalJson({ ...moved, hash: sha256(canonicalJson(moved)) });
    });
    // Each renumbered entry was re-hashed, so none of them links to the one now before it.
    expect(found(check(joined([...ls.slice(0, 4), ...renumbered])))).toEqual(
      [5, 6, 7, 8, 9].map((seq) => `entry ${seq}: does not link to entry ${seq - 1} before it (edited, replaced or re-chained)`),
    );
  });

  it('finds two swapped entries at the first out of order', async () => {
    const { text } = await writtenChain();
    const ls = lines(text);
    expect(found(check(joined([...ls.slice(0, 5), ls[6]!, ls[5]!, ...ls.slice(7)])))).toEqual(['entries 6 and 7: out of order (reordered)']);
    expect(found(check(joined([...ls.slice(0, 5), ls[5]!, ...ls.slice(5)])))).toEqual(['entry 6: appears twice (lines 6 and 7)']);
  });

  it('finds a cut-off tail only against the head this process wrote (the backend\'s records do the rest)', async () => {
    const { text, head } = await writtenChain();
    const shorter = joined(lines(text).slice(0, 7));
    expect(check(shorter)).toMatchObject({ findings: [], count: 7 });
    expect(found(check(shorter, head))).toEqual(['entries 8–10: missing from the end of the file (cut off): this app wrote them']);
    expect(found(check('', head))).toEqual(['entries 1–10: missing from the end of the file (cut off): this app wrote them']);
    expect(found(check(text, { seq: 10, hash: 'f'.repeat(64) }))).toEqual(['entry 10: is not the entry this app wrote there (replaced)']);
    // A log that went on after that head is fine, if the entry at the head is that one.
    const seven = JSON.parse(lines(text)[6]!) as { hash: string };
    expect(check(text, { seq: 7, hash: seven.hash })).toMatchObject({ findings: [], count: 10 });
  });

  it('snapshot() hands verification the file with the head this process wrote', async () => {
    const { file, log, text, head } = await writtenChain();
    await writeFile(file, joined(lines(text).slice(0, 7)));
    const snap = await log.snapshot();
    expect(snap.head).toEqual(head);
    expect(found(check(snap.text, snap.head))).toEqual(['entries 8–10: missing from the end of the file (cut off): this app wrote them']);
    // A process that has not read the file yet has no head to hold it to.
    expect(await new AuditLog(file).snapshot()).toEqual({ text: joined(lines(text).slice(0, 7)), head: null });
  });

  it('counts a malformed line as bad at the seq it should have had, a cut-off last line too', async () => {
    const { text } = await writtenChain();
    const ls = lines(text);
    expect(found(check(joined([...ls.slice(0, 3), 'not json', ...ls.slice(3)])))).toEqual(['line 4: not JSON']);
    expect(found(check(joined([...ls.slice(0, 3), '', ...ls.slice(3)])))).toEqual(['line 4: not JSON']);
    expect(found(check(joined([...ls.slice(0, 3), '{"seq":4}', ...ls.slice(3)])))).toEqual([
      expect.stringMatching(/^entry 4 \(line 4\): not an audit entry/), 'entry 4: appears twice (lines 4 and 5)',
    ]);
    expect(found(check(text.slice(0, -1)))).toEqual(['entry 10 (line 10): cut off (no newline at the end of the file)']);
    expect(found(check(text.slice(0, -20)))).toEqual(['line 10: cut off (no newline at the end of the file)']);
    const crlf = check(text.replaceAll('\n', '\r\n'));
    expect(crlf.findings).toHaveLength(10);
    expect(names(crlf, 1)).toBe(true);
  });

  it('continues seq and prev after a restart', async () => {
    const { file, head } = await writtenChain();
    const restarted = new AuditLog(file);
    expect(await restarted.head()).toEqual(head);
    const eleventh = await restarted.append(fieldsFor(11));
    expect(eleventh).toMatchObject({ seq: 11, prev: head.hash });
    expect(check(await readFile(file, 'utf8'))).toMatchObject({ findings: [], count: 11, head: { seq: 11, hash: eleventh.hash } });
  });

  it('refuses to append after a cut-off or foreign last line, and writes nothing', async () => {
    const { file, text } = await writtenChain();
    // A last entry whole but for its newline would glue the next one onto it.
    for (const [damaged, message] of [[text.slice(0, -1), /cut-off/], [text.slice(0, -30), /cut-off/], [`${text}garbage\n`, /not a valid entry/]] as const) {
      await writeFile(file, damaged);
      const append = new AuditLog(file).append(fieldsFor(11));
      await expect(append).rejects.toThrow(AuditLogError);
      await expect(append).rejects.toThrow(message);
      expect(await readFile(file, 'utf8')).toBe(damaged);
    }
  });

  it('keeps a valid chain under concurrent appends, one refused append among them', async () => {
    const file = freshFile();
    const log = new AuditLog(file);
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => log.append(
      i === 12 ? { ...fieldsFor(i), args: { amount: 10n } } : fieldsFor(i),
    )));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    const appended = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(appended.map((e) => e.seq)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(check(await readFile(file, 'utf8'), await log.head())).toMatchObject({ findings: [], count: 29 });
    expect(appended.map((e) => e.requestId)).toEqual(Array.from({ length: 30 }, (_, i) => `req-${i}`).filter((_, i) => i !== 12));
  });

  it('creates the file and its folder, owner-only, and writes an absent JSON field as null', async () => {
    const file = freshFile();
    const log = new AuditLog(file);
    expect(await log.head()).toBeNull();
    expect(await log.entries()).toEqual([]);
    const entry = await log.append({ ...fieldsFor(1), before: undefined });
    expect(entry).toMatchObject({ seq: 1, prev: GENESIS_HASH, before: null });
    // POSIX modes only; Windows reports its own.
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe(`${canonicalJson(entry)}\n`);
  });

  it('refuses fields that are not JSON or not an entry, and writes nothing', async () => {
    const file = freshFile();
    const log = new AuditLog(file);
    await expect(log.append({ ...fieldsFor(1), after: { at: () => 1 } })).rejects.toThrow(/function/);
    await expect(log.append({ ...fieldsFor(1), user: '' })).rejects.toThrow(/user/);
    await expect(log.append({ ...fieldsFor(1), nonce: '' })).rejects.toThrow(/nonce/);
    await expect(log.append({ ...fieldsFor(1), outcome: 'done' as never })).rejects.toThrow(/outcome/);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
    expect((await log.append(fieldsFor(1))).seq).toBe(1);
  });
});

describe('npm run audit:verify', () => {
  const run = (args: string[], cwd = ROOT) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    // The default file is the one under the working folder's .data: a data folder set for the whole run would move it.
    const { DESK_DATA_DIR: _dataDir, ...env } = process.env;
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/audit-verify.ts'), ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

  it('says verified and exits 0 for a good file, by default the one in .data/audit; alone it says the backend was not asked', async () => {
    const { file, head } = await writtenChain();
    const alone = `audit: 10 entries, chain verified (head 10 ${head.hash}); not checked against the backend's records (--backend or --anchors)\n`;
    expect(await run([file])).toMatchObject({ code: 0, stdout: alone });
    const shell = join(dir, 'shell');
    await mkdir(join(shell, '.data', 'audit'), { recursive: true });
    await writeFile(join(shell, '.data', 'audit', 'audit.jsonl'), await readFile(file));
    expect(await run([], shell)).toMatchObject({ code: 0, stdout: alone });
  });

  it('names every bad row and why, and exits 1', async () => {
    const { file, text } = await writtenChain();
    const ls = lines(text);
    await writeFile(file, joined([...ls.slice(0, 3), ls[3]!.replace('"p-4"', '"p-5"'), ...ls.slice(4, 6), ls[7]!, ls[6]!, ...ls.slice(8), 'not json']));
    const broken = await auditVerify([file]);
    expect(broken.code).toBe(1);
    expect(broken.stdout.split('\n')).toEqual([
      expect.stringMatching(/^audit: entry 4 \(line 4\): its hash does not match its contents/),
      'audit: line 11: not JSON',
      'audit: entries 7 and 8: out of order (reordered)',
      'audit: 11 lines, 3 findings: the log does not verify',
      '',
    ]);
  });

  it('exits 2 with a clear message for a missing file or a wrong command line', async () => {
    const missing = await auditVerify([join(dir, 'nowhere', 'audit.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no audit log at .*nowhere/);
    const { file } = await writtenChain(1);
    // The head a client once recorded is no longer a thing to check against.
    expect(await auditVerify([file, '--head', `1:${'a'.repeat(64)}`])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown option --head/) });
    expect(await auditVerify([file, '--backend', 'http://127.0.0.1:9'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--backend needs --user NAME/) });
    expect(await auditVerify([file, '--anchors', join(dir, 'nowhere.json')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--anchors needs --user-id/) });
    expect(await auditVerify([file, '--anchors', join(dir, 'nowhere.json'), '--user-id', 'u'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/cannot read .*nowhere\.json/) });
  });
});
