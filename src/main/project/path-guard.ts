/**
 * Resolves project-relative paths from requests, refusing anything outside the root.
 *
 * Every path that arrives from the renderer (or, later, from a model) passes here
 * before it touches the disk. Two layers: a lexical check (no `..`, absolute, UNC,
 * drive letters, NUL) and a real-path check (no symlink on the way leads out).
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { normalizeRelativePath } from '../../shared/paths';
import { FlintFailure } from '../../shared/result';
import { toFlintFailure } from '../fs/fs-errors';
import { isInsideRoot } from '../fs/root-paths';

export interface ResolvedPath {
  /** Normalized project-relative POSIX path. */
  relativePath: string;
  /** Absolute path, symlinks resolved, guaranteed inside the root. */
  realPath: string;
}

/** Lexically checks a relative path; throws `outside-project` if it could leave the root. */
export function checkRelativePath(input: string): string {
  const normalized = normalizeRelativePath(input);
  if (normalized === null) {
    throw new FlintFailure('outside-project', `Refused a path outside the project: ${JSON.stringify(input)}.`);
  }
  return normalized;
}

/**
 * Resolves an existing entry inside the project whose root real path is `root`.
 *
 * Symlinks inside the project are followed only when their target is inside too.
 */
export async function resolveExistingInProject(root: string, input: string): Promise<ResolvedPath> {
  const relativePath = checkRelativePath(input);
  const lexical = join(root, ...relativePath.split('/'));
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    throw toFlintFailure(error, relativePath);
  }
  if (!isInsideRoot(root, real)) {
    throw new FlintFailure('outside-project', `${relativePath} points outside the project; Flint does not follow it.`);
  }
  return { relativePath, realPath: real };
}
