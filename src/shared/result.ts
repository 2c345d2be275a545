/**
 * Typed results that cross the process boundary.
 *
 * Handlers in main throw `FlintFailure`; the contract host turns it into a
 * `Result` so the renderer never has to parse error strings.
 */

/** Why a request failed. Each code maps to a message the UI can show as is. */
export type FlintErrorCode =
  /** The input did not match the contract's schema (or a value in it makes no sense). */
  | 'invalid-input'
  /** The request did not come from Flint's own window. */
  | 'untrusted-sender'
  /** An answer is still streaming: stop or redirect it before asking again. */
  | 'already-streaming'
  /** A hunk cannot take that decision in its state (it is streaming, written, or decided). */
  | 'invalid-state'
  /** No such provider, or one its settings cannot run. */
  | 'invalid-provider'
  /** The active provider has no API key (keychain or environment). */
  | 'no-key'
  /** The deep model was asked for (Alt+Enter) and the provider has none: nothing was sent. */
  | 'no-deep-model'
  /** The OS keychain cannot be reached (locked, missing, or no secret service). */
  | 'keychain-unavailable'
  /** There is no current file to ask about. */
  | 'no-file'
  /** No request is registered under that channel. */
  | 'unknown-channel'
  /** The path does not exist. */
  | 'not-found'
  /** A folder was expected and something else was given. */
  | 'not-a-directory'
  /** A file was expected and something else was given. */
  | 'not-a-file'
  /** The OS refused access. */
  | 'permission-denied'
  /** The path leaves the project root (or names one that was never opened). */
  | 'outside-project'
  /** The request needs an open project and none is open. */
  | 'no-project'
  /** This shell cannot do that (e.g. a native dialog in the serve shell). */
  | 'unsupported'
  /** Too large to read or to send; the message gives the limit. */
  | 'too-large'
  /** Any other I/O failure; the message carries the OS's words. */
  | 'io-error'
  /** A bug in Flint; the message is generic and the details are logged in main. */
  | 'internal';

export interface FlintError {
  code: FlintErrorCode;
  /** A sentence for the user: what happened and, where possible, what to do. */
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: FlintError };

/** An expected failure, thrown in main and delivered as `{ ok: false }`. */
export class FlintFailure extends Error {
  constructor(
    readonly code: FlintErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FlintFailure';
  }
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail(code: FlintErrorCode, message: string): Result<never> {
  return { ok: false, error: { code, message } };
}
