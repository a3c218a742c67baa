import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { BrowserWindow, app, dialog, shell, webContents } from 'electron';
import type { FileSaver, SaveResult, SavedFile } from '../desk/file-saver.js';

/** Files a window saved are remembered for its "Show in folder" and "Open", at most this many. */
const MAX_REMEMBERED = 50;

/**
 * The desktop app's FileSaver: the native save dialog (modal to the window that asked), the file
 * written where the user chose, and afterwards "Show in folder" and "Open" for exactly that file.
 * The page only ever holds an id for it: a path from the page is never opened.
 */
export class ElectronFileSaver implements FileSaver {
  readonly kind = 'native' as const;
  readonly #saved = new Map<string, { slot: string; path: string }>();

  async save(file: SavedFile): Promise<SaveResult> {
    const window = windowOf(file.slot);
    const options = { title: 'Save file', defaultPath: join(app.getPath('downloads'), file.fileName), filters: filtersFor(file.fileName) };
    const chosen = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
    if (chosen.canceled || !chosen.filePath) return { kind: 'cancelled' };
    await writeFile(chosen.filePath, file.bytes);
    const savedId = randomBytes(18).toString('base64url');
    this.#saved.set(savedId, { slot: file.slot, path: chosen.filePath });
    while (this.#saved.size > MAX_REMEMBERED) this.#saved.delete(this.#saved.keys().next().value!);
    return { kind: 'saved', savedId, fileName: basename(chosen.filePath), where: chosen.filePath };
  }

  async reveal(slot: string, savedId: string): Promise<boolean> {
    const saved = this.#saved.get(savedId);
    if (!saved || saved.slot !== slot) return false;
    shell.showItemInFolder(saved.path);
    return true;
  }

  async open(slot: string, savedId: string): Promise<boolean> {
    const saved = this.#saved.get(savedId);
    if (!saved || saved.slot !== slot) return false;
    // openPath answers with an error message, or '' when the file opened.
    return (await shell.openPath(saved.path)) === '';
  }
}

/** The window a desk slot (`window-<webContents id>`) belongs to, for a dialog modal to it. */
function windowOf(slot: string): BrowserWindow | null {
  const id = /^window-(\d+)$/.exec(slot)?.[1];
  const contents = id ? webContents.fromId(Number(id)) : undefined;
  return contents ? BrowserWindow.fromWebContents(contents) : null;
}

function filtersFor(fileName: string): Electron.FileFilter[] {
  if (fileName.endsWith('.pdf')) return [{ name: 'PDF', extensions: ['pdf'] }];
  if (fileName.endsWith('.xlsx')) return [{ name: 'Excel workbook', extensions: ['xlsx'] }];
  if (fileName.endsWith('.csv')) return [{ name: 'CSV (comma-separated values)', extensions: ['csv'] }];
  return [];
}
