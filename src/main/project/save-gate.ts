/**
 * Lets a save through as the user's only when the ignore rules as they are on disk now
 * leave the file visible — not just the rules the index read last.
 *
 * The index's rules lag behind the disk: a tool that makes a cache folder writes its
 * `.gitignore` (`*`) and its files in one burst (pytest, mypy, ruff), and a `.gitignore`
 * edited to exclude a folder can be followed at once by writes there; the watcher reports
 * those files before the reload that reads the new rules (a rescan, 100 ms later). A file
 * in a hidden folder must never become the current file, so each save reads the
 * `.gitignore` of every folder above it, and `.git/info/exclude`, afresh: a few small reads,
 * mostly of files that do not exist, next to the read of the saved file that follows.
 * Nothing is cached between saves: a rule written between two saves must count for the second.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { IgnoreRules } from './ignore-rules';

export class SaveGate {
  /** Saves go through one at a time, in the order they came: the last one is the current file. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: string,
    /** A failure of `admit` (a listener's bug): reported, and the saves after it still go through. */
    private readonly onError: (error: unknown) => void,
    /** The `exclude` setting's patterns, as they are now. */
    private readonly exclude: () => readonly string[] = () => [],
  ) {}

  /**
   * Calls `admit` once `path` (a file, project-relative) is known to be visible by the rules
   * on disk, with when it was saved (its modification time, in ms; undefined if it is gone);
   * never if hidden.
   */
  pass(path: string, admit: (savedAt: number | undefined) => void): void {
    this.queue = this.queue
      .then(async () => {
        const [hidden, savedAt] = await Promise.all([this.isHidden(path), this.modifiedAt(path)]);
        if (!hidden) admit(savedAt);
      })
      .catch(this.onError);
  }

  /** Whether the rules on disk now (every .gitignore above `path`, and .git/info/exclude) hide the file `path`. */
  async isHidden(path: string): Promise<boolean> {
    const parts = path.split('/');
    // '', 'a', 'a/b' for a/b/c.ts: the folders whose .gitignore applies, outermost first.
    const folders = parts.map((_, depth) => parts.slice(0, depth).join('/'));
    const [exclude, ...texts] = await Promise.all([this.read('.git/info/exclude'), ...folders.map((folder) => this.read(folder === '' ? '.gitignore' : `${folder}/.gitignore`))]);
    const rules = new IgnoreRules();
    if (this.exclude().length > 0) rules.add('', this.exclude().join('\n'));
    if (exclude) rules.add('', exclude);
    folders.forEach((folder, index) => texts[index] && rules.add(folder, texts[index]));
    return rules.isInsideIgnoredDirectory(path) || rules.isIgnored(path, false);
  }

  private modifiedAt(path: string): Promise<number | undefined> {
    return stat(join(this.root, ...path.split('/'))).then(
      (stats) => stats.mtimeMs,
      () => undefined,
    );
  }

  /** A rules file's text; '' when there is none (or it cannot be read, as the scan treats it). */
  private read(path: string): Promise<string> {
    return readFile(join(this.root, ...path.split('/')), 'utf8').catch(() => '');
  }
}
