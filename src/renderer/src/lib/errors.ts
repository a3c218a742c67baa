/**
 * Errors in words, in one place: every page, the chat and the cards show a failure through
 * `userMessage`, never an error's own text. A backend refusal written for people ("invalid
 * username or password") is kept; anything that reads like machinery — a validation dump, a
 * stack, SQL, transport internals — becomes a plain sentence for its kind of failure.
 */
import { TRPCClientError } from '@trpc/client';

/** What the chat and the pages say while the backend does not answer (the app keeps retrying). */
export const UNREACHABLE = 'The backend is unreachable right now — retrying; try again in a moment.';
export const SESSION_ENDED = 'Your session has ended. Sign in again.';
const GENERIC = 'Something went wrong. Try again.';

/** An error whose message was written for the user (the app's own words): shown as it is. */
export class UserFacingError extends Error {
  override readonly name = 'UserFacingError';
}

/** The desk's error code (`error.data.code`, the same on both transports), or null. */
export function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { data?: { code?: unknown } | null }).data?.code;
  return typeof code === 'string' ? code : null;
}

/**
 * The backend (or the desk itself) did not answer: main reports an unreachable backend as
 * SERVICE_UNAVAILABLE; a desk call that failed without any code never got an answer at all
 * (the shell's socket closed, say).
 */
export function isUnreachable(error: unknown): boolean {
  const code = errorCode(error);
  if (code === 'SERVICE_UNAVAILABLE' || code === 'BAD_GATEWAY' || code === 'GATEWAY_TIMEOUT') return true;
  return code === null && error instanceof TRPCClientError;
}

export function isUnauthorized(error: unknown): boolean {
  return errorCode(error) === 'UNAUTHORIZED';
}

/** The desk's code for an id that is malformed or names nothing the user may see: the same answer for both, by design. */
export function isNotFoundCode(code: string | null): boolean {
  return code === 'NOT_FOUND' || code === 'BAD_REQUEST';
}

const MACHINERY: RegExp[] = [
  /[{}[\]<>`]/, // JSON (a zod issue list), markup, code
  /\n/, // stacks and dumps span lines
  /\bat \S+ \(|\.(?:ts|js|tsx):\d+/, // stack frames
  /\b(?:select|insert into|update|delete from|violates|constraint|relation|syntax error)\b/i, // SQL
  /\b(?:TRPC|tRPC|zod|ZodError|TypeError|ReferenceError|ECONN\w*|ETIMEDOUT|EPIPE|fetch failed|WebSocket|undefined|null|NaN)\b/,
  /\b[A-Z]{2,}_[A-Z_]+\b/, // error codes (INTERNAL_SERVER_ERROR)
  /\w+\.\w+\(/, // calls
];

/** A message written for people: short, one line, nothing that reads like machinery. */
export function isPlainSentence(message: string): boolean {
  const text = message.trim();
  return text.length > 0 && text.length <= 300 && !MACHINERY.some((re) => re.test(text));
}

const BY_CODE: Record<string, string> = {
  UNAUTHORIZED: SESSION_ENDED,
  FORBIDDEN: 'You do not have access to that.',
  NOT_FOUND: 'That could not be found.',
  BAD_REQUEST: 'That request was not valid. Check what you entered and try again.',
  PARSE_ERROR: 'That request was not valid. Check what you entered and try again.',
  PAYLOAD_TOO_LARGE: 'That is too long to send.',
  TOO_MANY_REQUESTS: 'Too many attempts. Wait a moment and try again.',
  CONFLICT: 'Something changed meanwhile. Reload and try again.',
  PRECONDITION_FAILED: 'Something changed meanwhile. Reload and try again.',
  TIMEOUT: 'That took too long. Try again.',
  INTERNAL_SERVER_ERROR: 'Something went wrong on our side. Try again in a moment.',
};

/**
 * The sentence to show for `error`. `fallback` is said when nothing better is known (a bug, an
 * unknown failure); an internal error's own text is never shown.
 */
export function userMessage(error: unknown, fallback = GENERIC): string {
  if (error instanceof UserFacingError) return error.message;
  if (isUnreachable(error)) return UNREACHABLE;
  const code = errorCode(error);
  if (code === null) return fallback;
  if (code === 'INTERNAL_SERVER_ERROR') return BY_CODE.INTERNAL_SERVER_ERROR!;
  const message = error instanceof Error ? error.message : '';
  if (isPlainSentence(message)) return message.trim();
  return BY_CODE[code] ?? fallback;
}

/** A message that arrived as data (a card's, an audit entry's): kept when plain, else `fallback`. */
export function plainOr(message: string, fallback = GENERIC): string {
  return isPlainSentence(message) ? message.trim() : fallback;
}
