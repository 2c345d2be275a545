/**
 * Paths named by model output: untrusted. Refused unless they stay inside the project,
 * outside `.git`, and no symlink on the way leads out.
 */
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { normalizeRelativePath, touchesGitFolder } from '../../shared/paths';
import { FlintFailure } from '../../shared/result';
import { errorCode } from '../fs/fs-errors';
import { isInsideRoot, toPosixRelative } from '../fs/root-paths';

export interface ModelPath {
  relativePath: string;
  /** Where to read and write: symlinks inside the project resolved, so a link is never replaced by a file. */
  absolutePath: string;
  exists: boolean;
}

/**
 * Longer paths are refused outright: no file system takes one (Linux's PATH_MAX is 4,096
 * bytes), and a huge path would ride along with every update of its hunks.
 */
export const MAX_MODEL_PATH_LENGTH = 4096;

/** A model-named path as shown beside a refusal: never more than 200 characters. */
export function shownPath(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 200)}…`;
}

/**
 * The lexical part of the check, known as soon as the model names a path: the refusal
 * in words, or null. (Symlinks are checked when the path is used.)
 *
 * `.git` is recognised however Windows or macOS would spell it (`.GIT`, `.git.`,
 * `GIT~1`, `.git::$INDEX_ALLOCATION`, with zero-width characters or lookalike letters):
 * see namesGitFolder.
 */
export function lexicalRefusal(path: string): string | null {
  if (path.length > MAX_MODEL_PATH_LENGTH) return `Refused: ${shownPath(path)} is ${path.length} characters long; no file system takes such a path.`;
  const relativePath = normalizeRelativePath(path.trim());
  if (relativePath === null) return `Refused: ${JSON.stringify(shownPath(path))} is not a path inside the project.`;
  if (touchesGitFolder(relativePath)) {
    const spelledPlainly = relativePath.split('/').some((segment) => segment.toLowerCase() === '.git');
    const how = spelledPlainly ? '' : ' (Windows or macOS read that name as .git)';
    return `Refused: ${shownPath(relativePath)} is inside .git${how}; Flint never edits repository internals.`;
  }
  return null;
}

/** Resolves a model-named path inside the project whose real root is `root`. */
export async function resolveModelPath(root: string, path: string): Promise<ModelPath> {
  const refusal = lexicalRefusal(path);
  if (refusal !== null) throw new FlintFailure('outside-project', refusal);
  const relativePath = normalizeRelativePath(path.trim())!;
  const lexical = join(root, ...relativePath.split('/'));
  // The deepest existing ancestor decides where the path really goes.
  let existing = lexical;
  let missingTail: string[] = [];
  for (;;) {
    try {
      await lstat(existing);
      break;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw new FlintFailure('io-error', `Cannot check ${relativePath}: ${String(error)}`);
      missingTail = [basename(existing), ...missingTail];
      existing = dirname(existing);
    }
  }
  let real: string;
  try {
    real = await realpath(existing);
  } catch {
    throw new FlintFailure('outside-project', `Refused: ${relativePath} goes through a broken or looping symlink.`);
  }
  const absolutePath = join(real, ...missingTail);
  if (!isInsideRoot(root, absolutePath)) {
    throw new FlintFailure('outside-project', `Refused: ${relativePath} leads outside the project through a symlink.`);
  }
  if (touchesGitFolder(toPosixRelative(root, absolutePath))) {
    throw new FlintFailure('outside-project', `Refused: ${relativePath} leads into .git through a symlink.`);
  }
  return { relativePath, absolutePath, exists: missingTail.length === 0 };
}
