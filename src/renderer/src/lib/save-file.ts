import { useCallback, useState } from 'react';
import { desk } from './desk';
import { userMessage } from './errors';

/**
 * Only a path of this app may become a link: one leading slash (not two, which would be another
 * host), no backslashes, no whitespace or control characters, and it must resolve on our origin.
 */
export function appPath(url: string): string | null {
  if (!/^\/(?!\/)[^\s\\]*$/.test(url)) return null;
  try {
    const base = 'https://app.invalid';
    const resolved = new URL(url, base);
    return resolved.origin === base ? `${resolved.pathname}${resolved.search}` : null;
  } catch {
    return null;
  }
}

/** What main answers once it has the file: written by the native dialog, the dialog closed, or a one-time address. */
export type SaveAnswer = Awaited<ReturnType<typeof desk.reports.save.mutate>>;
type Saved = Extract<SaveAnswer, { kind: 'saved' }>;

/**
 * Saving a file main makes (a report, a page's table): main hands it to its shell. Electron shows
 * the save dialog and answers where the file went (then "Show in folder" and "Open"); the browser
 * shell answers a one-time address of its own, which a link click downloads.
 */
export function useSaveFile() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Saved | null>(null);
  const save = useCallback(async (make: () => Promise<SaveAnswer>) => {
    setBusy(true);
    setError(null);
    try {
      const result = await make();
      if (result.kind === 'saved') setSaved(result);
      else if (result.kind === 'download') {
        const href = appPath(result.url);
        if (!href) throw new Error('not an address of this app');
        const a = document.createElement('a');
        a.href = href;
        a.download = result.fileName;
        a.rel = 'noopener';
        document.body.append(a);
        a.click();
        a.remove();
      }
    } catch (e) {
      setError(userMessage(e));
    } finally {
      setBusy(false);
    }
  }, []);
  const follow = useCallback(async (how: 'reveal' | 'open') => {
    if (!saved) return;
    try {
      const { ok } = await desk.reports[how].mutate({ savedId: saved.savedId });
      if (!ok) setError(how === 'open' ? 'The file could not be opened.' : 'The file could not be shown.');
    } catch (e) {
      setError(userMessage(e));
    }
  }, [saved]);
  return { save, busy, error, saved, reveal: () => void follow('reveal'), open: () => void follow('open') };
}
