/**
 * Pure checks on project-relative paths, shared by main (which enforces them)
 * and the renderer (which builds them).
 */

/** The folder Flint keeps its scratch files in when a project has no better place for them (main/fs/scratch-area.ts). */
export const SCRATCH_FOLDER_NAME = '.flint-scratch';

/**
 * Folder names hidden wherever they appear, whatever the .gitignore files say: git's folder,
 * installed packages, `.cache` (the XDG cache folder, and what build tools and linters name
 * theirs: only programs write there, all the time, and a write there is never the user's
 * save), and Flint's own scratch folder.
 */
export const ALWAYS_HIDDEN_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules', '.cache', SCRATCH_FOLDER_NAME]);

/**
 * Normalizes a project-relative POSIX path, or returns null if it could leave the root.
 *
 * Refused: empty paths, absolute paths (`/x`, `C:\x`, `C:x`), UNC (`\\server`),
 * NUL bytes, backslashes (ambiguous across OSes), and any `..` segment, or one of only
 * dots and spaces (`.. `, `...`: Windows strips trailing dots and spaces). `.` segments
 * and repeated slashes are dropped. The empty relative path (the root) is refused too:
 * requests name entries, not the root.
 */
export function normalizeRelativePath(input: string): string | null {
  if (input.length === 0 || input.includes('\0') || input.includes('\\')) return null;
  if (input.startsWith('/') || /^[A-Za-z]:/.test(input)) return null;
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    // Windows drops trailing dots and spaces from a name: `.. ` and `...` would climb out there.
    if (/^[. ]+$/.test(segment)) return null;
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

/**
 * Letters no file system folds into `g`, `i` or `t`, but that look like them. A path is
 * approved by eye in the live diff: `.ɡit/hooks/pre-commit` with a Latin script g, or a
 * Cyrillic і, reads as `.git`, and tools that fold confusables (or a user retyping the
 * path) would put it there. A small explicit table, not the whole Unicode confusables
 * list: only these three letters matter, and the check must stay obvious.
 */
const GIT_LOOKALIKES: Readonly<Record<string, string>> = {
  // g: Latin script g, Cyrillic komi sje, Armenian co.
  '\u0261': 'g', '\u050d': 'g', '\u0581': 'g',
  // i: Cyrillic і/І and palochka, Greek iota (plain and with tonos), Latin dotless ı and dotted İ.
  '\u0456': 'i', '\u0406': 'i', '\u04cf': 'i', '\u04c0': 'i', '\u03b9': 'i', '\u0399': 'i', '\u03af': 'i', '\u0131': 'i', '\u0130': 'i',
  // t: Cyrillic te (т/Т), Greek tau.
  '\u0442': 't', '\u0422': 't', '\u03c4': 't', '\u03a4': 't',
};
/**
 * Code points HFS+ leaves out when it compares names (zero-width joiners, direction
 * marks, BOM…): git's own list is a subset of Unicode's default-ignorables, so all of
 * those are dropped.
 */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const LOOKALIKE = new RegExp(`[${Object.keys(GIT_LOOKALIKES).join('')}]`, 'g');
const unLookalike = (text: string): string => text.replace(LOOKALIKE, (character) => GIT_LOOKALIKES[character]!);

/**
 * Whether a path segment names the `.git` folder on some file system Flint runs on.
 *
 * Linux compares bytes, but Windows and macOS do not, and a project may live on either:
 * case is folded (NTFS, APFS, HFS+); Unicode is normalised (HFS+ NFD, APFS
 * normalisation-insensitive; NFKC here, which also folds fullwidth letters); HFS+
 * ignores default-ignorable code points; Win32 strips trailing dots and spaces (`.git.`,
 * `.git `) and reads `name:stream` as a stream of `name` (`.git::$INDEX_ALLOCATION`);
 * and NTFS 8.3 short names reach `.git` as `GIT~1` (or `GIT~2`… when other `.g*` names
 * exist). Lookalike letters are folded too (see GIT_LOOKALIKES).
 */
export function namesGitFolder(segment: string): boolean {
  // Lookalikes are mapped before and after case folding: İ must not become i + a combining dot first.
  let folded = unLookalike(unLookalike(segment.replace(IGNORABLE, '').normalize('NFKC')).toLowerCase());
  const stream = folded.indexOf(':');
  if (stream !== -1) folded = folded.slice(0, stream);
  let end = folded.length;
  while (end > 0 && (folded[end - 1] === '.' || folded[end - 1] === ' ')) end -= 1;
  const name = folded.slice(0, end);
  return name === '.git' || /^git~\d+$/.test(name);
}

/** Whether any segment of a POSIX path names `.git` (see namesGitFolder). */
export function touchesGitFolder(path: string): boolean {
  return path.split('/').some(namesGitFolder);
}
