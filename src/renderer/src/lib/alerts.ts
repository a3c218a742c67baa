/**
 * The bell's store: what main's alert feed said, as the header shows it. Main writes
 * the words and where each alert leads; this keeps the newest 100, the unread count and the
 * toasts, and says what to do with each message (show it, open a page). It touches neither the
 * desk nor the DOM, so its rules are tested as they are.
 */
import { create } from 'zustand';
// Relative imports end in .js, and straight from the shared formatter lib/format.ts re-exports:
// the node-side typecheck reads this module too (its unit test).
import type { AlertFeedItem, AlertOpen, AlertView } from '../../../main/desk/alerts.js';
import type { AlertSettings, EventKind } from '../../../shared/contracts/events.js';
import { formatDate, formatDateTime, formatPoints, formatTime } from '../../../shared/format.js';

export type { AlertFeedItem, AlertOpen, AlertView };

export const BELL_SIZE = 100;
/** Toasts on screen at once; an older one makes room. */
export const MAX_TOASTS = 3;

export interface AlertsState {
  /** Newest first. */
  alerts: AlertView[];
  unread: number;
  toasts: AlertView[];
  /** What the page must do about the message besides showing the bell: tell the user, or open a page. */
  apply(item: AlertFeedItem): { tell?: AlertView; open?: AlertOpen };
  toast(alert: AlertView): void;
  dismiss(id: string): void;
  reset(): void;
}

const newerFirst = (a: AlertView, b: AlertView) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0);

export function createAlertsStore() {
  return create<AlertsState>((set, get) => ({
    alerts: [],
    unread: 0,
    toasts: [],
    apply(item) {
      switch (item.type) {
        case 'backlog':
          set({ alerts: [...item.alerts].sort(newerFirst).slice(0, BELL_SIZE), unread: item.unread });
          return {};
        case 'event': {
          // A feed restarted under the page may send again what the backlog already held.
          if (get().alerts.some((a) => a.id === item.alert.id)) return {};
          set((s) => ({ alerts: [item.alert, ...s.alerts].sort(newerFirst).slice(0, BELL_SIZE), unread: item.unread }));
          return item.notify && !item.muted ? { tell: item.alert } : {};
        }
        case 'read':
          set((s) => ({
            alerts: s.alerts.map((a) => (a.read || BigInt(a.id) > BigInt(item.upTo) ? a : { ...a, read: true })),
            unread: item.unread,
          }));
          return {};
        case 'open':
          return { open: item.open };
      }
    },
    toast(alert) {
      set((s) => ({ toasts: [...s.toasts.filter((t) => t.id !== alert.id), alert].slice(-MAX_TOASTS) }));
    },
    dismiss(id) {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
    reset() {
      set({ alerts: [], unread: 0, toasts: [] });
    },
  }));
}

/** The bell's label, count and all, for people and screen readers alike. */
export function bellLabel(unread: number): string {
  if (unread === 0) return 'Alerts, none unread';
  return `Alerts, ${unread > 99 ? '99+' : unread} unread`;
}

export function badgeText(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}

/** When an alert happened: the time for today's, the date and time for older ones (in the user's zone). */
export function alertTime(at: string, now: Date, timeZone: string): string {
  // Both are instants as data here, compared by the day they fall on.
  const sameDay = formatDate(at, timeZone) === formatDate(now.toJSON(), timeZone);
  return sameDay ? formatTime(at, timeZone) : formatDateTime(at, timeZone);
}

export const KIND_LABELS: Record<EventKind, string> = {
  large_bet: 'Large bets',
  player_login: 'Player sign-ins',
  market_settled: 'Settled markets',
  approval_pending: 'Changes waiting for you',
};

/** A kind's mute in words: "Muted until 18:00", "Muted", or "On". */
export function muteInWords(settings: AlertSettings, kind: EventKind, timeZone: string): string {
  const mute = settings.muted[kind];
  if (!mute) return 'On';
  return mute.until === null ? 'Muted' : `Muted until ${formatTime(mute.until, timeZone)}`;
}

export type Parsed = { ok: true; value: number } | { ok: false; reason: string };

/** The most the backend takes as a threshold, in paisa (alertsUpdateInput). */
export const MAX_THRESHOLD_PAISA = 100_000_000_000;

/**
 * A threshold typed in points ("10,000", "2500.50") to exact paisa. The digits are read as text
 * and joined with BigInt, so nothing passes through a float.
 */
export function parseThresholdPoints(text: string): Parsed {
  const t = text.trim().replace(/\s+/g, '');
  if (t === '') return { ok: false, reason: 'Enter a stake in points.' };
  // Grouped as written in the trade (1,00,000) or in thousands (100,000), or not at all.
  const m = /^(\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3}|\d+)(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) {
    if (/^-/.test(t)) return { ok: false, reason: 'The threshold cannot be negative.' };
    if (/\.\d{3,}$/.test(t)) return { ok: false, reason: 'Points have at most two decimals (paisa).' };
    return { ok: false, reason: 'Enter a number of points, like 10,000 or 2500.50.' };
  }
  const whole = BigInt(m[1]!.replace(/,/g, ''));
  const fraction = BigInt((m[2] ?? '').padEnd(2, '0'));
  const paisa = whole * 100n + fraction;
  if (paisa > BigInt(MAX_THRESHOLD_PAISA)) return { ok: false, reason: `At most ${formatPoints(MAX_THRESHOLD_PAISA)} points.` };
  return { ok: true, value: Number(paisa) };
}

/** Paisa as the threshold field shows it: "10,000.00". */
export function thresholdText(paisa: number): string {
  return formatPoints(paisa);
}
