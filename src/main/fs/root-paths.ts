/**
 * Path arithmetic against a project's real root: whether a path is inside it, and its
 * project-relative POSIX form. Pure (no file system), so every layer can use it.
 */
import { isAbsolute, relative, sep } from 'node:path';

/** True if `candidate` (absolute, real) is `root` or inside it. */
export function isInsideRoot(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  // `..notes` is a fine name inside the root; only a whole `..` segment leaves it.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Converts an OS path relative to the root into the contract's POSIX form. */
export function toPosixRelative(root: string, absolutePath: string): string {
  const rel = relative(root, absolutePath);
  return sep === '/' ? rel : rel.split(sep).join('/');
}
