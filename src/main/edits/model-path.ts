/**
 * Paths named by model output: untrusted. Refused unless they stay inside the project,
 * outside `.git`, and no symlink on the way leads out.
 */
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { normalizeRelativePath } from '../../shared/paths';
import { FlintFailure } from '../../shared/result';
import { errorCode } from '../project/fs-errors';
import { isInsideRoot, toPosixRelative } from '../project/path-guard';

export interface ModelPath {
  relativePath: string;
  /** Where to read and write: symlinks inside the project resolved, so a link is never replaced by a file. */
  absolutePath: string;
  exists: boolean;
}

/**
 * The lexical part of the check, known as soon as the model names a path: the refusal
 * in words, or null. (Symlinks are checked when the path is used.)
 */
export function lexicalRefusal(path: string): string | null {
  const relativePath = normalizeRelativePath(path.trim());
  if (relativePath === null) return `Refused: ${JSON.stringify(path.slice(0, 200))} is not a path inside the project.`;
  if (relativePath.split('/').some((segment) => segment.toLowerCase() === '.git')) {
    return `Refused: ${relativePath} is inside .git; Flint never edits repository internals.`;
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
  if (toPosixRelative(root, absolutePath).split('/').some((segment) => segment.toLowerCase() === '.git')) {
    throw new FlintFailure('outside-project', `Refused: ${relativePath} leads into .git through a symlink.`);
  }
  return { relativePath, absolutePath, exists: missingTail.length === 0 };
}
