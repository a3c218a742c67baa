/**
 * The audit:verify command (scripts/audit-verify.ts runs it), callable in-process so that its
 * tests need not start a process per case. It writes through `io` and returns the exit code:
 * 0 when nothing was found, 1 when something was, 2 when there is nothing to check, the backend
 * cannot be read or the command line is wrong.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { z } from 'zod';
import { anchoredRow, auditAnchor } from '../../shared/contracts/agent-actions.js';
import { PAGE_SIZE_MAX } from '../../shared/contracts/page-size.js';
import type { AppRouter } from '../../server/trpc/router.js';
import { browserShellDataDirs } from '../data-dirs.js';
import { type AnchorsPage, readAnchors, verifyAuditLog } from './verify.js';

export const AUDIT_VERIFY_USAGE = 'usage: npm run audit:verify -- [FILE] [--backend URL --user NAME | --anchors FILE --user-id ID]\n'
  + '       (with --backend, the password is read from AUDIT_VERIFY_PASSWORD)\n';

export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** Ends the command with exit code 2 and a message (a usage line too when `usage`). */
class CommandStop extends Error {
  constructor(message: string, readonly usage: boolean) {
    super(message);
  }
}

function fail(message: string): never {
  throw new CommandStop(message, true);
}

interface Args {
  file: string;
  backend?: string;
  user?: string;
  anchorsFile?: string;
  userId?: string;
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Args {
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
  return { ...args, file: resolve(file ?? browserShellDataDirs(env).auditFile) };
}

const anchorsFileSchema = z.object({ anchors: z.array(anchoredRow).max(1_000_000), head: auditAnchor.nullable().optional() });

/** The user's id and whole backend chain, from a backend or a file; null when neither was named. */
async function backendRecords(args: Args, env: NodeJS.ProcessEnv): Promise<{ user: string; anchors: AnchorsPage['anchors']; head: AnchorsPage['head'] } | null> {
  if (args.anchorsFile !== undefined) {
    let parsed;
    try {
      parsed = anchorsFileSchema.safeParse(JSON.parse(await readFile(resolve(args.anchorsFile), 'utf8')));
    } catch (error) {
      return fail(`cannot read ${args.anchorsFile}: ${String(error)}`);
    }
    if (!parsed.success) fail(`${args.anchorsFile} is not a list of audit.anchors rows (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    return { user: args.userId!, anchors: parsed.data.anchors, head: parsed.data.head ?? null };
  }
  if (args.backend === undefined) return null;
  const password = env.AUDIT_VERIFY_PASSWORD;
  if (!password) fail('--backend needs the password in AUDIT_VERIFY_PASSWORD');
  const url = `${args.backend.replace(/\/+$/, '')}/trpc`;
  try {
    const { token } = await createTRPCClient<AppRouter>({ links: [httpLink({ url })] }).auth.login.mutate({ username: args.user!, password: password! });
    const api = createTRPCClient<AppRouter>({ links: [httpLink({ url, headers: { authorization: `Bearer ${token}` } })] });
    const me = await api.auth.me.query();
    const { anchors, head } = await readAnchors((afterSeq) => api.audit.anchors.query({ afterSeq, limit: PAGE_SIZE_MAX.auditRecords }));
    await api.auth.logout.mutate().catch(() => undefined);
    return { user: me.id, anchors, head };
  } catch (error) {
    throw new CommandStop(`the backend at ${args.backend} could not be read: ${error instanceof Error ? error.message : String(error)}`, false);
  }
}

/** Runs `npm run audit:verify -- ARGV` with the environment `env`; resolves to the exit code. */
export async function auditVerifyCommand(argv: string[], env: NodeJS.ProcessEnv, io: CommandIo): Promise<number> {
  try {
    const args = parseArgs(argv, env);
    let text: string;
    try {
      text = await readFile(args.file, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') {
        throw new CommandStop(`no audit log at ${args.file} (it is created by the first confirmed or cancelled action)`, false);
      }
      throw error;
    }
    const records = await backendRecords(args, env);
    const verdict = verifyAuditLog(text, records ? { user: records.user, anchors: records.anchors, backendHead: records.head } : {});
    for (const f of verdict.findings) io.out(`audit: ${f.where}: ${f.reason}\n`);
    const head = verdict.head ? `${verdict.head.seq} ${verdict.head.hash}` : 'none';
    if (verdict.findings.length > 0) {
      io.out(`audit: ${verdict.count} lines, ${verdict.findings.length} ${verdict.findings.length === 1 ? 'finding' : 'findings'}: the log does not verify\n`);
      return 1;
    }
    io.out(records
      ? `audit: ${verdict.count} entries, chain verified (head ${head}) and in agreement with the backend's ${records.anchors.length} records of ${records.user}\n`
      : `audit: ${verdict.count} entries, chain verified (head ${head}); not checked against the backend's records (--backend or --anchors)\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof CommandStop)) throw error;
    io.err(`audit: ${error.message}\n${error.usage ? AUDIT_VERIFY_USAGE : ''}`);
    return 2;
  }
}
