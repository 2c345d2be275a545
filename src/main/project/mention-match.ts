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
import { naturalCompare } from './file-filter';

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

/** The best `limit` of `paths` for `query`, best first (a few paths; the index keeps a MentionIndex). */
export function rankPaths(paths: readonly string[], query: string, limit = MAX_SUGGESTIONS): string[] {
  return new MentionIndex(paths).rank(query, limit);
}

/**
 * The mentionable paths as `@` searches them, a million per keystroke: each lower-cased
 * once, with a mask of the characters it holds, so a path lacking one of the query's
 * characters (most paths, for most queries) is passed over without being read.
 */
export class MentionIndex {
  private readonly lower: string[];
  private readonly masks: Uint32Array;

  constructor(private readonly paths: readonly string[]) {
    this.lower = paths.map((path) => path.toLowerCase());
    this.masks = new Uint32Array(paths.length);
    for (let index = 0; index < paths.length; index += 1) this.masks[index] = maskOf(this.lower[index]!);
  }

  rank(query: string, limit = MAX_SUGGESTIONS): string[] {
    const needle = query.toLowerCase();
    const needed = maskOf(needle);
    // Ties: shorter first, then the tree's own order (natural, case ignored).
    const best = new BestOf<{ path: string; score: number }>(limit, (a, b) => b.score - a.score || a.path.length - b.path.length || naturalCompare(a.path, b.path));
    const { paths, lower, masks } = this;
    for (let index = 0; index < paths.length; index += 1) {
      if ((masks[index]! & needed) !== needed) continue;
      // Once the list is full, a path must beat the worst kept: longer than it, it needs a better score.
      const worst = best.worst;
      const atLeast = worst === null ? 1 : paths[index]!.length > worst.path.length ? worst.score + 1 : worst.score;
      const score = atLeast > 5 ? 0 : scoreOf(lower[index]!, needle, atLeast);
      if (score === 0) continue;
      best.add({ path: paths[index]!, score });
    }
    return best.take().map((entry) => entry.path);
  }
}

/** One bit per ASCII letter, one for any digit, one each for `/ . - _`, one for anything else. */
function maskOf(text: string): number {
  let mask = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 97 && code <= 122) mask |= 1 << (code - 97);
    else if (code >= 48 && code <= 57) mask |= 1 << 26;
    else if (code === 47) mask |= 1 << 27;
    else if (code === 46) mask |= 1 << 28;
    else if (code === 45 || code === 95) mask |= 1 << 29;
    else mask |= 1 << 30;
  }
  return mask >>> 0;
}

/** Characters after which a word of a path starts: `/ . _ -` and whitespace. */
const WORD_START = new Set([...'/._- \t\n\r\f\v'].map((character) => character.charCodeAt(0)));

/** 0: no match, or none as good as `atLeast`; higher is better. The costly tests are made only when their score could count. */
function scoreOf(path: string, needle: string, atLeast = 1): number {
  if (needle === '') return 1;
  if (path.startsWith(needle)) return 5;
  // The file name starts with it (no slice: this runs over a million paths per keystroke).
  if (path.startsWith(needle, path.lastIndexOf('/') + 1)) return 4;
  if (atLeast > 3) return 0;
  const at = path.indexOf(needle);
  if (at > 0 && WORD_START.has(path.charCodeAt(at - 1))) return 3;
  if (at !== -1) return atLeast > 2 ? 0 : 2;
  return atLeast === 1 && isSubsequence(needle, path) ? 1 : 0;
}

/** Whether the characters of `needle` appear in `path` in order (one pass, no calls: a million paths per keystroke). */
function isSubsequence(needle: string, path: string): boolean {
  let at = 0;
  for (let index = 0; index < path.length && at < needle.length; index += 1) if (path.charCodeAt(index) === needle.charCodeAt(at)) at += 1;
  return at === needle.length;
}
