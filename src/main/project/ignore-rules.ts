/**
 * Which entries are hidden by default: .git, node_modules, .cache, and what .gitignore excludes.
 *
 * Follows git's precedence: rules in a deeper .gitignore override shallower ones,
 * the root .gitignore overrides .git/info/exclude, a later line overrides an earlier
 * one, and nothing inside an excluded folder can be re-included.
 */
import ignore, { type Ignore } from 'ignore';
import { ALWAYS_HIDDEN_NAMES, baseName, parentPath } from '../../shared/paths';
import { isScratchName } from '../fs/captured-file';

export class IgnoreRules {
  /** Folder ('' for the root) → its matchers, lowest precedence first. */
  private readonly matchers = new Map<string, Ignore[]>();
  /** Folder → the pattern texts added for it. */
  private readonly texts = new Map<string, Set<string>>();
  /** Memo of `isIgnoredDirectory`, cleared whenever rules are added. */
  private readonly directoryMemo = new Map<string, boolean>();

  /** Adds the patterns of a .gitignore (or info/exclude) that lives in `directory` (the same text twice counts once: a folder can be read again). */
  add(directory: string, patterns: string): void {
    const texts = this.texts.get(directory) ?? new Set<string>();
    if (texts.has(patterns)) return;
    this.texts.set(directory, texts.add(patterns));
    const list = this.matchers.get(directory) ?? [];
    list.push(ignore({ allowRelativePaths: false }).add(patterns));
    this.matchers.set(directory, list);
    this.directoryMemo.clear();
  }

  /**
   * Whether the entry itself is excluded, assuming its parent folder is not.
   *
   * `isDirectory` matters: `build/` matches folders only.
   */
  isIgnored(path: string, isDirectory: boolean): boolean {
    if (ALWAYS_HIDDEN_NAMES.has(baseName(path)) || isScratchName(baseName(path))) return true;
    let ignored = false;
    let directory = '';
    let rest = path;
    for (;;) {
      for (const matcher of this.matchers.get(directory) ?? []) {
        const verdict = matcher.test(isDirectory ? `${rest}/` : rest);
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      const slash = rest.indexOf('/');
      if (slash === -1) return ignored;
      directory = directory === '' ? rest.slice(0, slash) : `${directory}/${rest.slice(0, slash)}`;
      rest = rest.slice(slash + 1);
    }
  }

  /** Whether a folder is hidden, by itself or because an ancestor is. */
  isIgnoredDirectory(path: string): boolean {
    if (path === '') return false;
    const memo = this.directoryMemo.get(path);
    if (memo !== undefined) return memo;
    const result = this.isIgnoredDirectory(parentPath(path)) || this.isIgnored(path, true);
    this.directoryMemo.set(path, result);
    return result;
  }

  /** Whether `path` lies inside a hidden folder (so it is neither indexed nor watched). */
  isInsideIgnoredDirectory(path: string): boolean {
    return this.isIgnoredDirectory(parentPath(path));
  }
}
