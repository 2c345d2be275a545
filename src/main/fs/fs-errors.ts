/** Turns Node's file-system errors into failures the user can read. */
import { FlintFailure } from '../../shared/result';

/** The errno code of a Node fs error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** Maps an fs error about `what` (a user-facing path) to a `FlintFailure`. */
export function toFlintFailure(error: unknown, what: string): FlintFailure {
  if (error instanceof FlintFailure) return error;
  switch (errorCode(error)) {
    case 'ENOENT':
      return new FlintFailure('not-found', `${what} does not exist.`);
    case 'ENOTDIR':
      return new FlintFailure('not-a-directory', `${what} is not a folder.`);
    case 'EISDIR':
      return new FlintFailure('not-a-file', `${what} is a folder, not a file.`);
    case 'EACCES':
    case 'EPERM':
      return new FlintFailure('permission-denied', `Permission denied: ${what}.`);
    case 'ELOOP':
      return new FlintFailure('io-error', `${what} is a symlink loop.`);
    default: {
      const reason = error instanceof Error ? error.message : String(error);
      return new FlintFailure('io-error', `Could not read ${what}: ${reason}`);
    }
  }
}
