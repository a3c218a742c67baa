/**
 * `npm run audit:verify -- [FILE] [--backend URL --user NAME | --anchors FILE --user-id ID]`:
 * checks main's audit log. FILE defaults to the browser shell's (`audit/audit.jsonl` in its data
 * folder; the desktop app keeps its log in `<userData>/audit/audit.jsonl`).
 *
 * Alone it checks the file's own hash chain. With the backend's records of one user's changes it
 * also checks that user's executed entries against them (what the Audit page does): --backend
 * signs in as NAME (the password from AUDIT_VERIFY_PASSWORD, never the command line) and reads
 * audit.anchors; --anchors reads them from a JSON file (`{ "anchors": [...] }`, the rows
 * audit.anchors returns, of the user whose id is --user-id). Prints one line per finding, naming
 * the rows and why.
 * Exits 0 when nothing was found, 1 when something was, 2 when there is nothing to check, the
 * backend cannot be read or the command line is wrong.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { z } from 'zod';
import { type AnchorsPage, readAnchors, verifyAuditLog } from '../src/main/audit/verify.js';
import { anchoredRow, auditAnchor } from '../src/shared/contracts/agent-actions.js';
import { PAGE_SIZE_MAX } from '../src/shared/contracts/page-size.js';
import type { AppRouter } from '../src/server/trpc/router.js';
import { browserShellDataDirs } from '../src/main/data-dirs.js';

const DEFAULT_FILE = browserShellDataDirs(process.env).auditFile;

const USAGE = 'usage: npm run audit:verify -- [FILE] [--backend URL --user NAME | --anchors FILE --user-id ID]\n'
  + '       (with --backend, the password is read from AUDIT_VERIFY_PASSWORD)\n';

function fail(message: string): never {
  process.stderr.write(`audit: ${message}\n${USAGE}`);
  process.exit(2);
}

interface Args {
  file: string;
  backend?: string;
  user?: string;
  anchorsFile?: string;
  userId?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Partial<Args> = {};
  const options: Record<string, keyof Args> = { '--backend': 'backend', '--user': 'user', '--anchors': 'anchorsFile', '--user-id': 'userId' };
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const key = options[name];
    if (key) {
      const value = inline ?? argv[++i];
      if (!value) fail(`${name} wants a value`);
      args[key] = value;
    } else if (arg.startsWith('-')) {
      fail(`unknown option ${arg}`);
    } else if (file === undefined) {
      file = arg;
    } else {
      fail(`one file at a time (got ${file} and ${arg})`);
    }
  }
  if (args.backend !== undefined && args.anchorsFile !== undefined) fail('--backend or --anchors, not both');
  if (args.backend !== undefined && !args.user) fail('--backend needs --user NAME');
  if (args.anchorsFile !== undefined && !args.userId) fail('--anchors needs --user-id ID (whose records they are)');
  return { ...args, file: resolve(file ?? DEFAULT_FILE) };
}

const anchorsFileSchema = z.object({ anchors: z.array(anchoredRow).max(1_000_000), head: auditAnchor.nullable().optional() });

/** The user's id and whole backend chain, from a backend or a file; exits 2 when they cannot be had. */
async function backendRecords(args: Args): Promise<{ user: string; anchors: AnchorsPage['anchors']; head: AnchorsPage['head'] } | null> {
  if (args.anchorsFile !== undefined) {
    let parsed;
    try {
      parsed = anchorsFileSchema.safeParse(JSON.parse(await readFile(resolve(args.anchorsFile), 'utf8')));
    } catch (error) {
      fail(`cannot read ${args.anchorsFile}: ${String(error)}`);
    }
    if (!parsed.success) fail(`${args.anchorsFile} is not a list of audit.anchors rows (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    return { user: args.userId!, anchors: parsed.data.anchors, head: parsed.data.head ?? null };
  }
  if (args.backend === undefined) return null;
  const password = process.env.AUDIT_VERIFY_PASSWORD;
  if (!password) fail('--backend needs the password in AUDIT_VERIFY_PASSWORD');
  const url = `${args.backend.replace(/\/+$/, '')}/trpc`;
  try {
    const { token } = await createTRPCClient<AppRouter>({ links: [httpLink({ url })] }).auth.login.mutate({ username: args.user!, password });
    const api = createTRPCClient<AppRouter>({ links: [httpLink({ url, headers: { authorization: `Bearer ${token}` } })] });
    const me = await api.auth.me.query();
    const { anchors, head } = await readAnchors((afterSeq) => api.audit.anchors.query({ afterSeq, limit: PAGE_SIZE_MAX.auditRecords }));
    await api.auth.logout.mutate().catch(() => undefined);
    return { user: me.id, anchors, head };
  } catch (error) {
    process.stderr.write(`audit: the backend at ${args.backend} could not be read: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}

const args = parseArgs(process.argv.slice(2));
let text: string;
try {
  text = await readFile(args.file, 'utf8');
} catch (error) {
  if ((error as { code?: unknown }).code === 'ENOENT') {
    process.stderr.write(`audit: no audit log at ${args.file} (it is created by the first confirmed or cancelled action)\n`);
    process.exit(2);
  }
  throw error;
}

const records = await backendRecords(args);
const verdict = verifyAuditLog(text, records ? { user: records.user, anchors: records.anchors, backendHead: records.head } : {});
for (const f of verdict.findings) process.stdout.write(`audit: ${f.where}: ${f.reason}\n`);
const head = verdict.head ? `${verdict.head.seq} ${verdict.head.hash}` : 'none';
if (verdict.findings.length > 0) {
  process.stdout.write(`audit: ${verdict.count} lines, ${verdict.findings.length} ${verdict.findings.length === 1 ? 'finding' : 'findings'}: the log does not verify\n`);
  process.exit(1);
}
process.stdout.write(records
  ? `audit: ${verdict.count} entries, chain verified (head ${head}) and in agreement with the backend's ${records.anchors.length} records of ${records.user}\n`
  : `audit: ${verdict.count} entries, chain verified (head ${head}); not checked against the backend's records (--backend or --anchors)\n`);
process.exit(0);
