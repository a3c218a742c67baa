/**
 * `npm run audit:verify -- [FILE] [--head SEQ:HASH]`: checks an audit log's hash chain.
 * FILE defaults to the browser shell's `.data/audit/audit.jsonl` (the desktop app keeps its log
 * in `<userData>/audit/audit.jsonl`). --head is the seq and hash recorded elsewhere (the
 * backend's audit.head); without it a cut-off tail cannot be told from a short log.
 * Exits 0 when the chain holds, 1 when it is broken, 2 when there is nothing to check or the
 * command line is wrong.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type AuditHead, auditFileIn, verifyChain } from '../src/main/audit/audit-log.js';

const USAGE = 'usage: npm run audit:verify -- [FILE] [--head SEQ:HASH]\n';

function fail(message: string): never {
  process.stderr.write(`audit: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv: string[]): { file: string; head: AuditHead | undefined } {
  let file: string | undefined;
  let head: AuditHead | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--head' || arg.startsWith('--head=')) {
      const value = arg === '--head' ? argv[++i] : arg.slice('--head='.length);
      const match = /^(\d+):([0-9a-f]{64})$/.exec(value ?? '');
      if (!match) fail(`--head wants SEQ:HASH (a whole number and a 64-digit lowercase hex SHA-256), got ${value ?? 'nothing'}`);
      head = { seq: Number(match[1]), hash: match[2]! };
    } else if (arg.startsWith('-')) {
      fail(`unknown option ${arg}`);
    } else if (file === undefined) {
      file = arg;
    } else {
      fail(`one file at a time (got ${file} and ${arg})`);
    }
  }
  return { file: resolve(file ?? auditFileIn('.data')), head };
}

const { file, head } = parseArgs(process.argv.slice(2));
let text: string;
try {
  text = await readFile(file, 'utf8');
} catch (error) {
  if ((error as { code?: unknown }).code === 'ENOENT') {
    process.stderr.write(`audit: no audit log at ${file} (it is created by the first confirmed or cancelled action)\n`);
    process.exit(2);
  }
  throw error;
}

const result = verifyChain(text, head);
if (result.ok) {
  const at = result.head ? `${result.head.seq} ${result.head.hash}` : 'none';
  process.stdout.write(`audit: ${result.count} entries, chain verified (head ${at})\n`);
  process.exit(0);
}
process.stdout.write(`audit: chain broken at seq ${result.firstBadSeq}: ${result.reason}\n`);
process.exit(1);
