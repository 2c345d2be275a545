/**
 * A logger that hides the API key in every line, for code that logs what a provider sent.
 */
import { format } from 'node:util';
import type { Logger } from '../logger';
import { redactKey } from './key-redactor';

/**
 * Wraps `logger` so that messages and errors (message and stack) have the key hidden.
 *
 * Providers log event types, close reasons and library errors, any of which an echoing
 * server can fill with the key; wrapping the logger once covers every line, including
 * ones added later. Errors are passed on as their redacted text (stack, else message),
 * which `Logger` prints the same way it prints an Error.
 */
export function redactingLogger(logger: Logger, apiKey: string | null): Logger {
  const redact = (text: string): string => redactKey(text, apiKey);
  const redactError = (error: unknown): unknown =>
    error === undefined ? undefined : redact(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return {
    info: (message) => logger.info(redact(message)),
    warn: (message, error) => logger.warn(redact(message), redactError(error)),
    error: (message, error) => logger.error(redact(message), redactError(error)),
  };
}

/** The logger shape libraries such as the `openai` SDK accept: console-like, four levels. */
export interface LibraryLogger {
  error(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
}

/**
 * Routes a library's console-style logging into `logger` (pass a redacting one).
 *
 * Left alone, the SDK writes to `console` (info and debug on stdout, which the serve
 * shell reserves) and, at OPENAI_LOG=debug, prints response bodies that can echo the key. Debug goes out at
 * info level: `Logger` has no debug, and the SDK logs at debug only when asked to.
 */
export function libraryLogger(logger: Logger, name: string): LibraryLogger {
  const line = (message: string, rest: unknown[]): string => `${name}: ${format(message, ...rest)}`;
  return {
    error: (message, ...rest) => logger.error(line(message, rest)),
    warn: (message, ...rest) => logger.warn(line(message, rest)),
    info: (message, ...rest) => logger.info(line(message, rest)),
    debug: (message, ...rest) => logger.info(line(message, rest)),
  };
}
