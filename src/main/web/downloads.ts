import { randomBytes } from 'node:crypto';
import type { FileSaver, SaveResult, SavedFile } from '../desk/file-saver.js';

/** How long a download address stays good: the page follows it at once. */
export const DOWNLOAD_TTL_MS = 60_000;
/** What the shell holds at most, so asking for downloads and never fetching them cannot fill memory. */
const MAX_PENDING = 16;
const MAX_PENDING_BYTES = 256 * 1024 * 1024;

interface Pending extends SavedFile {
  expiresAt: number;
}

export const DOWNLOAD_PATH = /^\/downloads\/([A-Za-z0-9_-]{43})$/;

/**
 * The browser shell's FileSaver: a report's bytes wait here under a random token, and
 * `/downloads/<token>` on the shell's own server gives them once, within a minute, to the slot
 * that asked (its cookie), as an attachment. Anyone else, a second fetch, or a late one gets 404.
 */
export class DownloadSaver implements FileSaver {
  readonly kind = 'download' as const;
  readonly #pending = new Map<string, Pending>();

  constructor(private readonly now: () => number = Date.now) {}

  async save(file: SavedFile): Promise<SaveResult> {
    this.#prune();
    while (this.#pending.size >= MAX_PENDING || this.#bytes() + file.bytes.byteLength > MAX_PENDING_BYTES) {
      const oldest = this.#pending.keys().next();
      if (oldest.done) break;
      this.#pending.delete(oldest.value);
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + DOWNLOAD_TTL_MS;
    this.#pending.set(token, { ...file, expiresAt });
    return { kind: 'download', url: `/downloads/${token}`, fileName: file.fileName, expiresAt: new Date(expiresAt).toISOString() };
  }

  /**
   * The file for this token if this slot asked for it and it is still good; used up by the
   * taking. Another slot's attempt leaves it for its owner.
   */
  take(token: string, slot: string | null): SavedFile | null {
    this.#prune();
    const entry = this.#pending.get(token);
    if (!entry || slot === null || entry.slot !== slot) return null;
    this.#pending.delete(token);
    return entry;
  }

  get size(): number {
    return this.#pending.size;
  }

  #bytes(): number {
    let total = 0;
    for (const p of this.#pending.values()) total += p.bytes.byteLength;
    return total;
  }

  #prune(): void {
    const now = this.now();
    for (const [token, p] of this.#pending) if (p.expiresAt <= now) this.#pending.delete(token);
  }
}
