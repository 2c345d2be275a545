/**
 * Pure checks on project-relative paths, shared by main (which enforces them)
 * and the renderer (which builds them).
 */

/**
 * Normalizes a project-relative POSIX path, or returns null if it could leave the root.
 *
 * Refused: empty paths, absolute paths (`/x`, `C:\x`, `C:x`), UNC (`\\server`),
 * NUL bytes, backslashes (ambiguous across OSes), and any `..` segment. `.` segments
 * and repeated slashes are dropped. The empty relative path (the root) is refused too:
 * requests name entries, not the root.
 */
export function normalizeRelativePath(input: string): string | null {
  if (input.length === 0 || input.includes('\0') || input.includes('\\')) return null;
  if (input.startsWith('/') || /^[A-Za-z]:/.test(input)) return null;
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return null;
    segments.push(segment);
  }
  return segments.length === 0 ? null : segments.join('/');
}

/** The last segment of a POSIX path. */
export function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/** The parent of a POSIX path; '' for a top-level entry. */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** True if `path` is `ancestor` or lies below it ('' is the root, above everything). */
export function isSameOrBelow(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(ancestor + '/');
}
