/**
 * Structured logs for every Node process of the desk (the backend, main, the browser shell, the
 * scripts): pino, one JSON object a line on stdout, so any collector can read them. Each line has
 * `ts` (ISO time), `level` (its name: debug, info, warn, error) and `msg`, then the fields. An error
 * goes in the `err` field as the object itself (`log.error('…', { err: error })`): pino's serializer
 * keeps its type, message and stack, where `String(error)` kept only the first line.
 *
 * Shared infrastructure, not part of any one layer: src/server and src/main import it, the renderer
 * and the preload do not (no Node there), and src/shared stays free of it.
 */
import { type DestinationStream, type Logger as PinoLogger, pino, stdSerializers } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

/** The message first, the fields second: `log.info('turn', { requestId })`. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where each line goes, without its newline (tests collect them); stdout by default. */
  write?: (line: string) => void;
  /** Fields on every line. */
  base?: LogFields;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write;
  const destination: DestinationStream | undefined = write && { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) };
  const logger = pino({
    level: options.level ?? 'info',
    base: options.base ?? null,
    timestamp: () => `,"ts":"${new Date().toISOString()}"`,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: stdSerializers.err },
  }, destination ?? pino.destination({ dest: 1, sync: true }));
  return wrap(logger);
}

function wrap(logger: PinoLogger): Logger {
  return {
    debug: (msg, fields) => (fields ? logger.debug(fields, msg) : logger.debug(msg)),
    info: (msg, fields) => (fields ? logger.info(fields, msg) : logger.info(msg)),
    warn: (msg, fields) => (fields ? logger.warn(fields, msg) : logger.warn(msg)),
    error: (msg, fields) => (fields ? logger.error(fields, msg) : logger.error(msg)),
    child: (fields) => wrap(logger.child(fields)),
  };
}

/** Writes nothing: for tests and tools that do not want the noise. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
