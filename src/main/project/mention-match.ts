/**
 * Which project files the `@` completion offers for what was typed after it, ranked in main
 * over the whole index (the renderer holds only the folders on screen). Pure, so
 * the order is tested without a browser. Only a suggestion: main checks whatever is sent.
 *
 * Best first: the path starts with the query; then the file name does; then a folder or
 * word inside the path does (`a.ts` for `src/a.ts`, `util` for `lib/str-util.ts`); then
 * it contains it; then its letters appear in order (`sat` for `src/a.ts`). Case is
 * ignored. Ties go to the shorter path (closer to the root), then alphabetical order.
 */
import type { TreeEntry } from '../../shared/project-types';
import { BestOf } from './best-of';

/** How many suggestions the list shows. */
export const MAX_SUGGESTIONS = 8;

/** The files a mention can name: files and links to files inside the project, not hidden ones. */
export function mentionableFiles(entries: Iterable<TreeEntry>): string[] {
  const paths: string[] = [];
  for (const entry of entries) {
    if (entry.ignored) continue;
    if (entry.kind === 'file' || (entry.kind === 'symlink' && entry.symlink?.targetKind === 'file' && !entry.symlink.escapes)) paths.push(entry.path);
  }
  return paths;
}

/** The best `limit` of `paths` for `query`, best first. `lower[i]`, if given, is `paths[i]` lower-cased (a million paths are not lower-cased per keystroke). */
export function rankPaths(paths: readonly string[], query: string, limit = MAX_SUGGESTIONS, lower?: readonly string[]): string[] {
  const needle = query.toLowerCase();
  const best = new BestOf<{ path: string; score: number }>(limit, (a, b) => b.score - a.score || a.path.length - b.path.length || a.path.localeCompare(b.path));
  for (let index = 0; index < paths.length; index += 1) {
    const path = paths[index]!;
    const score = scoreOf(lower?.[index] ?? path.toLowerCase(), needle);
    if (score > 0) best.add({ path, score });
  }
  return best.take().map((entry) => entry.path);
}

/** Characters after which a word of a path starts: `/ . _ -` and whitespace. */
const WORD_START = new Set([...'/._- \t\n\r\f\v'].map((character) => character.charCodeAt(0)));

/** 0: no match; higher is better. */
function scoreOf(path: string, needle: string): number {
  if (needle === '') return 1;
  if (path.startsWith(needle)) return 5;
  // The file name starts with it (no slice: this runs over a million paths per keystroke).
  if (path.startsWith(needle, path.lastIndexOf('/') + 1)) return 4;
  const at = path.indexOf(needle);
  if (at > 0 && WORD_START.has(path.charCodeAt(at - 1))) return 3;
  if (at !== -1) return 2;
  return isSubsequence(needle, path) ? 1 : 0;
}

function isSubsequence(needle: string, path: string): boolean {
  let from = 0;
  for (const character of needle) {
    const found = path.indexOf(character, from);
    if (found === -1) return false;
    from = found + character.length;
  }
  return true;
}
