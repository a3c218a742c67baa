import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/**
 * Writes a file only its owner can read (0600), in one step over whatever had the name — a
 * planted file or a link is replaced, never written through — so a reader finds the old entry or
 * this one, never a mix. The folder's own mode is the caller's to set.
 */
export async function writePrivately(file: string, data: string | Uint8Array): Promise<void> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
