/**
 * The one way the app writes dates, times and money for people, used by the renderer and by the
 * assistant's sentences alike: days as "20 Nov 2026", instants as "20 Nov 2026, 14:05" (24-hour,
 * in the user's own timezone), money as "50,000.00" (`formatPoints`). Month names are our own, not
 * the platform's locale data, so every machine writes the same text.
 */
import { formatPoints } from './money.js';

export { formatPoints };

/** Odds, kept in hundredths (210), as the exchange writes them: "2.10". */
export function formatOdds(hundredths: number): string {
  return (hundredths / 100).toFixed(2);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "20 Nov 2026" as the number guard finds it in a sentence. */
export const FORMATTED_DAY = /\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b/;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const partsCache = new Map<string, Intl.DateTimeFormat>();
function wallClock(instant: Date, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  let f = partsCache.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    partsCache.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(instant)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour! % 24, mi: p.minute!, s: p.second! };
}

const two = (n: number) => n.toString().padStart(2, '0');
const day = (y: number, mo: number, d: number) => `${d} ${MONTHS[mo - 1]} ${y}`;

function instant(iso: string): Date | null {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A calendar day `YYYY-MM-DD` as "20 Nov 2026": the day itself, no timezone shift. Anything else is returned as it is. */
export function formatDay(isoDate: string): string {
  const m = ISO_DAY.exec(isoDate);
  if (!m) return isoDate;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 ? day(y, mo, d) : isoDate;
}

/** An inclusive range of days: "20 Nov 2026", or "1 Nov 2026 – 20 Nov 2026". */
export function formatPeriod(period: { from: string; to: string }): string {
  return period.from === period.to ? formatDay(period.from) : `${formatDay(period.from)} – ${formatDay(period.to)}`;
}

/** The day an instant falls on in the zone: "20 Nov 2026". */
export function formatDate(iso: string, timeZone: string): string {
  const d = instant(iso);
  if (!d) return iso;
  const w = wallClock(d, timeZone);
  return day(w.y, w.mo, w.d);
}

/** A time of day in the zone, 24-hour: "14:05", or "14:05:09" where the second matters. */
export function formatTime(iso: string, timeZone: string, options: { seconds?: boolean } = {}): string {
  const d = instant(iso);
  if (!d) return iso;
  const w = wallClock(d, timeZone);
  return `${two(w.h)}:${two(w.mi)}${options.seconds ? `:${two(w.s)}` : ''}`;
}

/** An instant in the zone: "20 Nov 2026, 14:05" (with `seconds`, "20 Nov 2026, 14:05:09"). */
export function formatDateTime(iso: string, timeZone: string, options: { seconds?: boolean } = {}): string {
  const d = instant(iso);
  if (!d) return iso;
  return `${formatDate(iso, timeZone)}, ${formatTime(iso, timeZone, options)}`;
}

/** How old something is, roughly: "42 s", "3 min", "2 h", "3 days". */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} days`;
}

/**
 * When something was read and how long ago, for data shown while the backend is away:
 * "12:04 (3 min ago)" in the user's zone. The renderer's "as of …" and the chat's "this is from …" say it alike.
 */
export function formatReadAt(atMs: number, nowMs: number, timeZone: string): string {
  return `${formatTime(new Date(atMs).toISOString(), timeZone)} (${formatAge(nowMs - atMs)} ago)`;
}

/** A file's size for people: "812 bytes", "18 KB", "1.4 MB" (the chat's sentence and the report card say it alike). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(Math.round((bytes * 10) / (1024 * 1024)) / 10).toFixed(1)} MB`;
}
