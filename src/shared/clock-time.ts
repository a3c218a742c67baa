/** A time of day as the desk takes it ("6:00pm", "18:00") and the instant it next comes round in a zone. */
import { addDays, localDate, startOfLocalDay } from './dates.js';
import { formatTime } from './format.js';

/** "6:00pm", "18:00", or "6:00" (said without am/pm, as in "6 baje tak"). */
export const CLOCK_TIME = /^(\d{1,2}):(\d{2})(am|pm)?$/;

/** The next time the clock in `timeZone` reads `at`: today's if still ahead, else tomorrow's. A bare hour is its next am or pm. */
export function nextClockTime(at: string, now: Date, timeZone: string): Date {
  const [, h, m, meridiem] = CLOCK_TIME.exec(at)!;
  const hour = Number(h) % 24;
  const minute = Number(m);
  const hours = meridiem === 'pm' ? (hour % 12) + 12 : meridiem === 'am' ? hour % 12 : hour;
  const candidates = [hours, ...(meridiem === undefined && hour >= 1 && hour <= 12 ? [(hours % 12) + 12, hours % 12] : [])];
  const today = localDate(now, timeZone);
  const times = [today, addDays(today, 1)].flatMap((day) => candidates.map((hh) => wallTime(day, hh, minute, timeZone)));
  return times.filter((t) => t.getTime() > now.getTime()).sort((a, b) => a.getTime() - b.getTime())[0]!;
}

/** The instant a zone's clock reads hh:mm on `day`; corrected once for a DST change earlier that day. */
function wallTime(day: string, hh: number, mm: number, timeZone: string): Date {
  const guess = new Date(startOfLocalDay(day, timeZone).getTime() + (hh * 60 + mm) * 60_000);
  const [gh, gm] = formatTime(guess.toISOString(), timeZone).split(':').map(Number) as [number, number];
  const drift = (gh * 60 + gm - (hh * 60 + mm)) * 60_000;
  return drift === 0 || Math.abs(drift) > 3 * 3_600_000 ? guess : new Date(guess.getTime() - drift);
}
