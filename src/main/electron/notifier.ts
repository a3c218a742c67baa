import { type BrowserWindow, Notification } from 'electron';
import type { AlertNotice, AlertOpen, Notifier } from '../desk/alerts.js';

/**
 * Desktop alerts as the system's own notifications, shown by main (Notification here needs no
 * permission, and the renderer's requests are all denied). A click brings the window forward and
 * tells the user's pages, through their alert feed, where to go.
 */
export class ElectronNotifier implements Notifier {
  readonly shows = 'native' as const;
  /**
   * Shown notifications are kept until closed or clicked: one that is collected loses its click
   * handler while it is still on screen. Bounded, so a burst cannot grow it without end.
   */
  private readonly shown = new Set<Notification>();

  constructor(
    private readonly window: () => BrowserWindow | null,
    private readonly onOpen: (userId: string, open: AlertOpen) => void,
  ) {}

  notify(notice: AlertNotice): void {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title: notice.title, body: bodyText(notice.body), silent: false });
    const forget = () => this.shown.delete(notification);
    notification.on('click', () => {
      forget();
      const window = this.window();
      if (window && !window.isDestroyed()) {
        if (window.isMinimized()) window.restore();
        window.show();
        window.focus();
      }
      this.onOpen(notice.userId, notice.open);
    });
    notification.on('close', forget);
    this.shown.add(notification);
    if (this.shown.size > 50) {
      const oldest = this.shown.values().next().value;
      if (oldest) this.shown.delete(oldest);
    }
    notification.show();
  }
}

/**
 * Linux notification servers read a body (not a title) as markup (`<b>`, `<a href>`, entities):
 * names from the backend are escaped there so they show as typed. Elsewhere text is shown as it is.
 */
function bodyText(text: string): string {
  if (process.platform !== 'linux') return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
