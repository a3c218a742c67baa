/**
 * Main's audit log: one JSON line per answered proposal, each line hashing the one before it.
 * `verifyAuditLog` (verify.ts) checks it: the file's own chain shows an edited, deleted or
 * reordered entry; the backend's records of the user's changes, which each executed entry names,
 * show what a chain rewritten with fresh hashes, cut short or extended would hide.
 *
 * Every line is written in canonical JSON and the verifier insists on it, so even an edit that
 * parses to the same value (a hex digit's case in a \u escape, say) is caught: the file is
 * tamper-evident to the byte, not only to the value.
 *
 * One AuditLog per file per process: appends are serialized in memory, not by a file lock.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { canonicalJson } from '../../shared/canonical-json.js';

export const GENESIS_HASH = '0'.repeat(64);

// The entry's shape is the Audit page's contract too: one schema, in src/shared.
export { type AuditEntry, type AuditOutcome, auditEntrySchema } from '../../shared/contracts/audit.js';
import { type AuditEntry, type AuditOutcome, auditEntrySchema } from '../../shared/contracts/audit.js';

/** What a caller supplies; the log adds seq, ts, prev and hash. An undefined JSON field is written as null. */
export interface AuditFields {
  requestId: string;
  user: string;
  tool: string;
  args: unknown;
  before: unknown;
  after: unknown;
  nonce: string;
  outcome: AuditOutcome;
  /** Written only for a change asked for outside the desk, so older lines keep their exact form. */
  channel?: 'mcp';
  /** Why the user declined (cancelled entries), when they said; written only when given, as above. */
  reason?: string | undefined;
  /** The confirmation was made with the user's password again (a large change); written only then. */
  stepUp?: boolean | undefined;
}

export interface AuditHead {
  seq: number;
  hash: string;
}

/** Where a data folder keeps its audit log: `.data` for the browser shell, `<userData>` for the desktop app. */
export function auditFileIn(dataDir: string): string {
  return join(dataDir, 'audit', 'audit.jsonl');
}

/** Where the MCP server (`npm run mcp`) sharing a data folder keeps its own chain: `<dataDir>/mcp/audit/audit.jsonl`. */
export function mcpAuditFileIn(dataDir: string): string {
  return auditFileIn(join(dataDir, 'mcp'));
}

export class AuditLogError extends Error {
  override readonly name = 'AuditLogError';
}

export class AuditLog {
  readonly file: string;
  readonly #now: () => number;
  /** The last entry written; undefined until read from the file (and again after a failed write). */
  #head: AuditHead | null | undefined = undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string, options: { now?: () => number } = {}) {
    this.file = file;
    this.#now = options.now ?? Date.now;
  }

  /** Appends one entry after every append before it, and returns it as written. */
  append(fields: AuditFields): Promise<AuditEntry> {
    return this.#serial(async () => {
      const head = await this.#loadHead();
      const unhashed = {
        seq: (head?.seq ?? 0) + 1,
        ts: new Date(this.#now()).toISOString(),
        requestId: fields.requestId,
        user: fields.user,
        tool: fields.tool,
        args: fields.args ?? null,
        before: fields.before ?? null,
        after: fields.after ?? null,
        nonce: fields.nonce,
        outcome: fields.outcome,
        ...(fields.channel && { channel: fields.channel }),
        ...(fields.reason && { reason: fields.reason }),
        ...(fields.stepUp && { stepUp: true as const }),
        prev: head?.hash ?? GENESIS_HASH,
      };
      const line = canonicalJson({ ...unhashed, hash: sha256(canonicalJson(unhashed)) });
      // The writer holds itself to the reader's rules: a line the verifier would refuse is never written.
      const checked = checkLine(line);
      if (!checked.ok) throw new TypeError(`audit entry refused: ${checked.reason}`);
      await mkdir(dirname(this.file), { recursive: true });
      try {
        // One call per line, so a line is never interleaved with another write of ours.
        await appendFile(this.file, `${line}\n`, { encoding: 'utf8', mode: 0o600 });
      } catch (error) {
        // Part of the line may be on disk: read the tail again before the next append.
        this.#head = undefined;
        throw error;
      }
      this.#head = { seq: checked.entry.seq, hash: checked.entry.hash };
      return checked.entry;
    });
  }

  /** Every entry, oldest first (for the Audit page). Throws on a line that is not an entry. */
  entries(): Promise<AuditEntry[]> {
    return this.#serial(async () => {
      const { lines, terminated } = splitLines(await readText(this.file));
      if (!terminated) throw new AuditLogError(`${this.file} ends in a cut-off line`);
      const entries: AuditEntry[] = [];
      for (const [i, line] of lines.entries()) {
        const checked = checkLine(line);
        if (!checked.ok) throw new AuditLogError(`${this.file} line ${i + 1}: ${checked.reason}`);
        entries.push(checked.entry);
      }
      return entries;
    });
  }

  /** The last entry's seq and hash, or null while the log is empty. */
  head(): Promise<AuditHead | null> {
    return this.#serial(() => this.#loadHead());
  }

  /**
   * The file's text and the last entry this process wrote or read, taken together after every
   * append queued so far: what verification needs to see a tail cut off while the app ran.
   */
  snapshot(): Promise<{ text: string; head: AuditHead | null }> {
    return this.#serial(async () => ({ text: await readText(this.file), head: this.#head ?? null }));
  }

  /** The file as it stands after every append queued so far ('' before the first). */
  text(): Promise<string> {
    return this.#serial(() => readText(this.file));
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    // A failed task must not stop the ones queued after it.
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #loadHead(): Promise<AuditHead | null> {
    if (this.#head !== undefined) return this.#head;
    const last = await readLastLine(this.file);
    if (last === null) return (this.#head = null);
    // Appending after a cut-off or foreign last line would bury it mid-file and leave no head to
    // chain from; the log stops until someone looks.
    if (!last.endsWith('\n')) {
      throw new AuditLogError(`${this.file} ends in a cut-off line; check it with npm run audit:verify and move it aside before more entries are written`);
    }
    const checked = checkLine(last.slice(0, -1));
    if (!checked.ok) throw new AuditLogError(`${this.file}: the last line is not a valid entry (${checked.reason}); check it with npm run audit:verify`);
    return (this.#head = { seq: checked.entry.seq, hash: checked.entry.hash });
  }
}

export type CheckedLine = { ok: true; entry: AuditEntry } | { ok: false; reason: string };

/** One line on its own: an entry, in canonical form, whose hash is the hash of the rest of it. */
export function checkLine(line: string): CheckedLine {
  try {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return { ok: false, reason: 'not JSON' };
    }
    const parsed = auditEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, reason: `not an audit entry (${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'invalid'})` };
    }
    if (canonicalJson(raw) !== line) return { ok: false, reason: 'not in canonical form (edited?)' };
    const { hash, ...rest } = raw as Record<string, unknown>;
    if (sha256(canonicalJson(rest)) !== hash) return { ok: false, reason: 'its hash does not match its contents (edited?)' };
    // The raw parse, not zod's copy: it is the exact value that was hashed.
    return { ok: true, entry: raw as AuditEntry };
  } catch (error) {
    // Nesting deep enough to exhaust the stack, for one.
    return { ok: false, reason: `unreadable (${String(error)})` };
  }
}

export function splitLines(text: string): { lines: string[]; terminated: boolean } {
  if (text === '') return { lines: [], terminated: true };
  const lines = text.split('\n');
  const terminated = lines[lines.length - 1] === '';
  if (terminated) lines.pop();
  return { lines, terminated };
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return '';
    throw error;
  }
}

const TAIL_CHUNK = 64 * 1024;

/** The file's last line with its newline, if it has one, read from the end; null for no file or an empty one. */
async function readLastLine(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return null;
    let tail = Buffer.alloc(0);
    let position = size;
    for (;;) {
      const length = Math.min(TAIL_CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(chunk, read, length - read, position + read);
        if (bytesRead === 0) throw new AuditLogError(`${file} shrank while its last line was read`);
        read += bytesRead;
      }
      tail = Buffer.concat([chunk, tail]);
      // The newline that ends the last line is not the one that starts it; 0x0a never occurs
      // inside a UTF-8 sequence, so splitting bytes here is safe.
      const start = tail.length >= 2 ? tail.lastIndexOf(0x0a, tail.length - 2) : -1;
      if (start >= 0) return tail.subarray(start + 1).toString('utf8');
      if (position === 0) return tail.toString('utf8');
    }
  } finally {
    await handle.close();
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}
