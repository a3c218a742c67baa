/**
 * Where a report the user saves ends up: the desk services get one FileSaver from their shell.
 * Electron's (src/main/electron/file-saver.ts) asks with the native save dialog and writes the
 * file; the browser shell's (src/main/web/downloads.ts) hands out a one-time download address on
 * its own server. Either way the bytes come from main, which alone holds the backend session.
 */
import { z } from 'zod';

export interface SavedFile {
  /** Who asked: the desk slot (a window, or a browser's cookie); only it may fetch or open the result. */
  slot: string;
  /** Already sanitised (safeFileName). */
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export const saveResult = z.discriminatedUnion('kind', [
  /** Written where the user chose; `savedId` names it for "Show in folder" and "Open", never a path from the page. */
  z.object({ kind: z.literal('saved'), savedId: z.string(), fileName: z.string(), where: z.string() }),
  /** The user closed the dialog: nothing was written. */
  z.object({ kind: z.literal('cancelled') }),
  /** A one-time address on the shell's own server, for this slot only, good until `expiresAt`. */
  z.object({ kind: z.literal('download'), url: z.string(), fileName: z.string(), expiresAt: z.iso.datetime() }),
]);
export type SaveResult = z.infer<typeof saveResult>;

export interface FileSaver {
  readonly kind: 'native' | 'download';
  save(file: SavedFile): Promise<SaveResult>;
  /** Native only: the file's folder, with the file selected. False when the id is not one this slot saved. */
  reveal?(slot: string, savedId: string): Promise<boolean>;
  /** Native only: the file in its own app. */
  open?(slot: string, savedId: string): Promise<boolean>;
}

const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com\d|lpt\d)(?:\..*)?$/i;

/**
 * A file name the backend suggested, made safe for any file system and for a header: no folders,
 * no control or reserved characters, no leading dots, at most 120 characters, with its extension.
 */
export function safeFileName(name: string, extension: string): string {
  const ext = extension.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 8);
  let base = name.normalize('NFC')
    .replace(/\.[A-Za-z0-9]{1,8}$/, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 120)
    .trim();
  if (!base || WINDOWS_RESERVED.test(base)) base = `report${base ? `-${base}` : ''}`;
  return ext ? `${base}.${ext}` : base;
}

/** The filename of a content-disposition header: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
