/**
 * The number guard (AGENT.md, Guards): every figure in an answer's text must be in a tool result
 * of the same turn, in one of the forms the app writes numbers (raw, or paisa as points with or
 * without sign). A figure that is not is withheld from the text and reported; the cards, built
 * from the results themselves, stay the authority.
 */
import { FORMATTED_DAY, formatDate, formatDay, formatPoints } from '../../../shared/format.js';

/** A written day ("20 Nov 2026") or an ISO day is one figure, checked whole, not as three numbers. */
const FIGURE = new RegExp(`${FORMATTED_DAY.source}|\\d{4}-\\d{2}-\\d{2}|-?\\d[\\d,]*(?:\\.\\d+)?`, 'g');
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
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
      if (Number.isSafeInteger(value)) allowed.add(formatPoints(value)).add(formatPoints(abs)).add(formatPoints(abs).replace(/,/g, ''));
      allowed.add(abs.toLocaleString('en-US'));
    } else if (typeof value === 'string') {
      for (const m of value.matchAll(FIGURE)) {
        allowed.add(m[0]).add(m[0].replace(/^-/, ''));
        if (ISO_DAY.test(m[0])) allowed.add(formatDay(m[0]));
      }
      if (ISO_INSTANT.test(value)) allowed.add(formatDate(value, timeZone));
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
    if (allowed.has(figure) || allowed.has(figure.replace(/^-/, ''))) return figure;
    flagged.push(figure);
    return WITHHELD;
  });
  return { text: guarded, flagged };
}
