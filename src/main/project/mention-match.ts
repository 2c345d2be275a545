/**
 * Which project files the `@` completion offers for what was typed after it, ranked in main
 * over the whole index (the renderer holds only the folders on screen). Pure, so
 * the order is tested without a browser. Only a suggestion: main checks whatever is sent.
 *
 * Best first: the path starts with the query; then the file name does; then a folder or
 * word inside the path does (`a.ts` for `src/a.ts`, `util` for `lib/str-util.ts`); then
 * it contains it; then its letters appear in order (`sat` for `src/a.ts`). Case is
 * ignored. Ties go to the shorter path (closer to the root), then the tree's natural order.
 */
import { BestOf } from './best-of';
import { naturalCompare } from './file-filter';
import { SearchablePaths, maskOf } from './searchable-paths';

/** How many suggestions the list shows. */
export const MAX_SUGGESTIONS = 8;

/** The best `limit` of `paths` (files) for `query`, best first. */
export function rankPaths(paths: readonly string[], query: string, limit = MAX_SUGGESTIONS): string[] {
  return rankMentions(new SearchablePaths(paths.map((path) => ({ path, kind: 'file' }))), query, limit);
}

/** The best `limit` of the mentionable paths of `searchable` for `query`, best first. */
export function rankMentions(searchable: SearchablePaths, query: string, limit = MAX_SUGGESTIONS): string[] {
  const needle = query.toLowerCase();
  const needed = maskOf(needle);
  // Ties: shorter first, then the tree's own order (natural, case ignored).
  const best = new BestOf<{ path: string; score: number }>(limit, (a, b) => b.score - a.score || a.path.length - b.path.length || naturalCompare(a.path, b.path));
  const { entries, lower, masks, mentionable } = searchable;
  for (let index = 0; index < entries.length; index += 1) {
    if (mentionable[index] === 0 || (masks[index]! & needed) !== needed) continue;
    const path = entries[index]!.path;
    // Once the list is full, a path must beat the worst kept: longer than it, it needs a better score.
    const worst = best.worst;
    const atLeast = worst === null ? 1 : path.length > worst.path.length ? worst.score + 1 : worst.score;
    const score = atLeast > 5 ? 0 : scoreOf(lower[index]!, needle, atLeast);
    if (score > 0) best.add({ path, score });
  }
  return best.take().map((entry) => entry.path);
}

/** Characters after which a word of a path starts: `/ . _ -` and whitespace. */
const WORD_START = new Set([...'/._- \t\n\r\f\v'].map((character) => character.charCodeAt(0)));

/**
 * 0: no match (or only a subsequence, when `atLeast` asks for more); higher is better. Every
 * score above 1 means the path contains the query, so one `indexOf` sorts out most paths.
 */
function scoreOf(path: string, needle: string, atLeast: number): number {
  if (needle === '') return 1;
  const at = path.indexOf(needle);
  if (at === -1) return atLeast === 1 && isSubsequence(needle, path) ? 1 : 0;
  if (at === 0) return 5;
  // The file name starts with it (no slice: this runs over a million paths per keystroke).
  if (path.startsWith(needle, path.lastIndexOf('/') + 1)) return 4;
  return WORD_START.has(path.charCodeAt(at - 1)) ? 3 : 2;
}

/** Whether the characters of `needle` appear in `path` in order (one pass, no calls: a million paths per keystroke). */
function isSubsequence(needle: string, path: string): boolean {
  let at = 0;
  for (let index = 0; index < path.length && at < needle.length; index += 1) if (path.charCodeAt(index) === needle.charCodeAt(at)) at += 1;
  return at === needle.length;
}
