/**
 * The number guard (AGENT.md, Guards): every figure in an answer's text must be in a tool result
 * of the same turn, in one of the forms the app writes numbers (raw, or paisa as points with or
 * without sign). A figure that is not is withheld from the text and reported; the cards, built
 * from the results themselves, stay the authority.
 */
import { isIsoDate } from '../../../shared/dates.js';
import { FORMATTED_DAY, formatDate, formatDay, formatPoints } from '../../../shared/format.js';

/** A written day ("20 Nov 2026") or an ISO day is one figure, checked whole, not as three numbers. */
const FIGURE = new RegExp(`${FORMATTED_DAY.source}|\\d{4}-\\d{2}-\\d{2}|-?\\d[\\d,]*(?:\\.\\d+)?`, 'g');
/** A figure without its minus sign: a balance of -500 may be written 500 ("owes you 500"). */
const unsigned = (figure: string): string => (figure.startsWith('-') ? figure.slice(1) : figure);
/** An instant as the API writes one ("2026-11-20T18:30:00Z"), whose day the user reads in their own time zone. */
const isInstant = (value: string): boolean => value[10] === 'T' && isIsoDate(value.slice(0, 10));
export const WITHHELD = '[figure withheld]';

export interface GuardResult {
  text: string;
  flagged: string[];
}

/**
 * The figures a turn's results allow, in every written form; days as the app writes them too,
 * an instant as its day in `timeZone` (the user's).
 */
export function allowedFigures(results: unknown[], extra: string[] = [], timeZone = 'UTC'): Set<string> {
  const allowed = new Set<string>(extra);
  const visit = (value: unknown): void => {
    if (typeof value === 'number' && Number.isFinite(value)) {
      const abs = Math.abs(value);
      allowed.add(String(value)).add(String(abs));
      if (Number.isSafeInteger(value)) allowed.add(formatPoints(value)).add(formatPoints(abs)).add(formatPoints(abs).replaceAll(',', ''));
      allowed.add(abs.toLocaleString('en-US'));
    } else if (typeof value === 'string') {
      for (const m of value.matchAll(FIGURE)) {
        // An ISO day is allowed as the app writes it too; formatDay leaves any other figure as it is.
        allowed.add(m[0]).add(unsigned(m[0])).add(formatDay(m[0]));
      }
      if (isInstant(value)) allowed.add(formatDate(value, timeZone));
    } else if (Array.isArray(value)) {
      // How many rows came back is a fact of the result too ("12 players").
      allowed.add(String(value.length));
      value.forEach(visit);
    }
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  results.forEach(visit);
  return allowed;
}

export function guardNumbers(text: string, allowed: Set<string>): GuardResult {
  const flagged: string[] = [];
  const guarded = text.replace(FIGURE, (figure) => {
    if (allowed.has(figure) || allowed.has(unsigned(figure))) return figure;
    flagged.push(figure);
    return WITHHELD;
  });
  return { text: guarded, flagged };
}
