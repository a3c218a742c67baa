/**
 * The bearer token of the MCP server over HTTP: `MCP_HTTP_TOKEN`, else the one kept in
 * `<DESK_DATA_DIR>/mcp/http-token`. Whoever can read that file can act as the desk user through
 * any MCP client, and whoever could write it before the server started could have chosen the
 * token, so the file is trusted only when it is a regular file of this user's that no one else
 * can read; anything else is replaced by a new token, never used.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivately } from '../../infra/private-file.js';

export interface HttpToken {
  token: string;
  /** Where it is kept; null when it came from MCP_HTTP_TOKEN. */
  file: string | null;
  /** Why a token file that was there was not used (its token now authenticates nothing); null when none was replaced. */
  replaced: string | null;
}

export function httpTokenFile(dataDir: string): string {
  return join(dataDir, 'mcp', 'http-token');
}

/** Modes mean nothing on Windows (a file reads as 0o666 there): the checks below are for POSIX. */
const POSIX = process.platform !== 'win32';

/**
 * The token the server requires: MCP_HTTP_TOKEN, else the kept one, else a new one written with
 * mode 0600 in a folder of mode 0700 (through a temporary file and a rename, so no reader ever
 * sees a half-written or wider file).
 */
export async function httpTokenFor(env: NodeJS.ProcessEnv, dataDir: string): Promise<HttpToken> {
  const given = env.MCP_HTTP_TOKEN?.trim();
  if (given) return { token: given, file: null, replaced: null };
  const file = httpTokenFile(dataDir);
  const folder = join(dataDir, 'mcp');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // The folder may predate this rule (or the MCP audit log made it first): others may not list or replace what is in it.
  if (POSIX) await chmod(folder, 0o700);
  const kept = await readKept(file);
  if (kept.token) return { token: kept.token, file, replaced: null };
  const token = randomBytes(32).toString('base64url');
  await writePrivately(file, `${token}\n`);
  return { token, file, replaced: kept.refusal && `${file} ${kept.refusal}, so its token was not used: a new one was written, readable only by you; give it to your MCP clients` };
}

/** The token in `file` if it may be used; else why not (null when there was no usable file at all). */
async function readKept(file: string): Promise<{ token: string | null; refusal: string | null }> {
  let handle;
  try {
    // Not through a symbolic link: the link could point anywhere, and its target's mode says nothing of the link.
    handle = await open(file, constants.O_RDONLY | (POSIX ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { token: null, refusal: null };
    if (code === 'ELOOP') return { token: null, refusal: 'was a symbolic link' };
    throw error;
  }
  try {
    // The file as opened, not as found by name a moment earlier.
    const stat = await handle.stat();
    if (!stat.isFile()) return { token: null, refusal: 'was not a regular file' };
    if (POSIX) {
      if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return { token: null, refusal: `belonged to another user (uid ${stat.uid})` };
      if ((stat.mode & 0o077) !== 0) return { token: null, refusal: `could be read or written by group or other users (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})` };
    }
    const token = (await handle.readFile('utf8')).trim();
    return { token: token || null, refusal: null };
  } finally {
    await handle.close();
  }
}

