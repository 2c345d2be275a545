/**
 * Remembers the version of each file Flint last saw, so that when the user saves in
 * their editor Flint knows which lines they just changed.
 *
 * A version is remembered when Flint shows or selects a file, when Flint writes one,
 * after each save, and, at project open, for the files modified most recently (the
 * ones a user is likely to save next). Memory is bounded: least recently used
 * versions go first.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TreeEntry } from '../../shared/project-types';
import type { Disposable } from '../lifecycle';
import { languageOf } from './languages';
import { readProjectText } from './read-project-text';
import { describeChange, type RecentChange } from './recent-change';

export interface SaveHistoryOptions {
  root: string;
  /** Total characters kept across all remembered versions. */
  maxChars?: number;
  /** Files larger than this are not remembered (their saves have no "recent change"). */
  maxFileBytes?: number;
  /** How long a save must be quiet before it is read (an editor writing in place sends several events). */
  settleMs?: number;
}

interface Saved {
  change: RecentChange;
  after: readonly string[];
}

/** How many recently modified files are read at project open, and up to what size. */
const PRIMED_FILES = 24;
const PRIMED_FILE_BYTES = 1024 * 1024;
const DEFAULT_MAX_FILE_BYTES = 12 * 1024 * 1024;
const DEFAULT_MAX_CHARS = 48 * 1024 * 1024;
/** Reads at once: a checkout that touches 2,000 files must not open 2,000 at a time. */
const READ_CONCURRENCY = 2;
/** How many files are looked at (stat) to find them. */
const PRIME_STAT_LIMIT = 10_000;

export class SaveHistory implements Disposable {
  /** Insertion order is recency: re-set on use. */
  private readonly versions = new Map<string, { lines: readonly string[]; chars: number }>();
  private chars = 0;
  private readonly saves = new Map<string, Saved>();
  private readonly reading = new Map<string, Promise<void>>();
  /** Saves waiting to settle, by path. */
  private readonly settling = new Map<string, { timer: NodeJS.Timeout; done: Promise<void>; fire: () => void }>();
  /** The path saved last: read even without an earlier version (it is the current file). */
  private lastSaved: string | null = null;
  private activeReads = 0;
  private readonly readQueue: Array<() => void> = [];
  private disposed = false;

  constructor(private readonly options: SaveHistoryOptions) {}

  /** The file was shown or selected in Flint: the version on disk is what the next save is compared with. */
  noteShown(path: string): Promise<void> {
    return this.read(path, (lines) => this.remember(path, lines));
  }

  /**
   * The user saved `path` in another program: once the file is quiet, read it and
   * record what changed. (Reading at the first event could catch an editor's write
   * half done, and make the whole file look changed.)
   */
  noteSaved(path: string): Promise<void> {
    this.lastSaved = path;
    const pending = this.settling.get(path);
    if (pending) {
      pending.timer.refresh();
      return pending.done;
    }
    let fire!: () => void;
    const done = new Promise<void>((resolve) => {
      fire = () => {
        this.settling.delete(path);
        // A burst of saves (a checkout, a formatter) reads only files with an earlier
        // version to compare with, and the one saved last.
        resolve(this.versions.has(path) || path === this.lastSaved ? this.readSaved(path) : undefined);
      };
    });
    this.settling.set(path, { timer: setTimeout(() => fire(), this.options.settleMs ?? 40), done, fire });
    return done;
  }

  /** Flint wrote `path`: the new text is the baseline, and the change was not the user's. */
  noteOwnWrite(path: string): Promise<void> {
    return this.read(path, (lines) => {
      this.saves.delete(path);
      this.remember(path, lines);
    });
  }

  /**
   * What the user's last save of `path` changed, if `lines` (the file now) is still
   * what that save wrote. Waits for that save to settle and be read.
   */
  async recentChange(path: string, lines: readonly string[]): Promise<RecentChange | null> {
    await this.settling.get(path)?.done;
    await this.reading.get(path);
    const saved = this.saves.get(path);
    if (!saved || saved.after.length !== lines.length) return null;
    for (let index = 0; index < lines.length; index += 1) if (saved.after[index] !== lines[index]) return null;
    return saved.change;
  }

  /** Reads the most recently modified files of a freshly indexed project, in the background. */
  async prime(entries: readonly TreeEntry[]): Promise<void> {
    const candidates = entries.filter((entry) => entry.kind === 'file' && !entry.ignored && languageOf(entry.path) !== null).slice(0, PRIME_STAT_LIMIT);
    const dated: Array<{ path: string; mtime: number }> = [];
    for (let index = 0; index < candidates.length && !this.disposed; index += 32) {
      const batch = candidates.slice(index, index + 32);
      const stats = await Promise.all(batch.map((entry) => stat(join(this.options.root, entry.path)).catch(() => null)));
      stats.forEach((stats, offset) => {
        if (stats && stats.size <= PRIMED_FILE_BYTES) dated.push({ path: batch[offset]!.path, mtime: stats.mtimeMs });
      });
    }
    dated.sort((a, b) => b.mtime - a.mtime);
    for (const { path } of dated.slice(0, PRIMED_FILES)) {
      if (this.disposed) return;
      // A save may have landed meanwhile; its version is newer than ours.
      if (!this.versions.has(path)) await this.read(path, (lines) => !this.versions.has(path) && this.remember(path, lines));
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const { timer, fire } of this.settling.values()) {
      clearTimeout(timer);
      fire();
    }
    this.versions.clear();
    this.saves.clear();
    for (const start of this.readQueue.splice(0)) start();
  }

  private readSaved(path: string): Promise<void> {
    return this.read(path, (lines) => {
      const before = this.versions.get(path)?.lines;
      const change = before ? describeChange(before, lines) : null;
      this.remember(path, lines);
      if (change) this.saves.set(path, { change: detached(change), after: lines });
      // A save that changed nothing (touch, format-on-save no-op) keeps the last change.
      else if (before === undefined) this.saves.delete(path);
    });
  }

  /** Makes `lines` the version of `path`, evicting the least recently used beyond the limit. */
  private remember(path: string, lines: readonly string[]): void {
    if (this.disposed) return;
    const chars = lines.reduce((sum, line) => sum + line.length + 1, 0);
    const previous = this.versions.get(path);
    if (previous) {
      this.versions.delete(path);
      this.chars -= previous.chars;
    }
    if (chars > this.maxFileBytes) {
      this.saves.delete(path);
      return;
    }
    this.versions.set(path, { lines, chars });
    this.chars += chars;
    const max = this.options.maxChars ?? DEFAULT_MAX_CHARS;
    for (const [oldest, version] of this.versions) {
      if (this.chars <= max || oldest === path) break;
      this.versions.delete(oldest);
      this.saves.delete(oldest);
      this.chars -= version.chars;
    }
  }

  private get maxFileBytes(): number {
    return this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  /** Reads `path` after any read of it in flight (versions are recorded in save order), a few files at a time. */
  private read(path: string, use: (lines: readonly string[]) => void): Promise<void> {
    const previous = this.reading.get(path) ?? Promise.resolve();
    const next = previous.then(() => this.withReadSlot(() => this.readStable(path, use)));
    this.reading.set(path, next);
    void next.finally(() => this.reading.get(path) === next && this.reading.delete(path));
    return next;
  }

  private async readStable(path: string, use: (lines: readonly string[]) => void): Promise<void> {
    try {
      // An editor may still be writing (large files take a while): read until the file holds still.
      for (let attempt = 0; attempt < 5 && !this.disposed; attempt += 1) {
        const before = await stat(join(this.options.root, path)).catch(() => null);
        const text = await readProjectText(this.options.root, path, this.maxFileBytes);
        const after = await stat(join(this.options.root, path)).catch(() => null);
        if (before && after && (before.size !== after.size || before.mtimeMs !== after.mtimeMs)) {
          await new Promise((resolve) => setTimeout(resolve, this.options.settleMs ?? 40));
          continue;
        }
        if (text && !this.disposed) use(text.lines);
        return;
      }
    } catch {
      // Binary, too large, outside the project, gone: no version to remember.
    }
  }

  private async withReadSlot(task: () => Promise<void>): Promise<void> {
    if (this.disposed) return;
    if (this.activeReads >= READ_CONCURRENCY) await new Promise<void>((resolve) => this.readQueue.push(resolve));
    this.activeReads += 1;
    try {
      await task();
    } finally {
      this.activeReads -= 1;
      this.readQueue.shift()?.();
    }
  }
}

/**
 * The change with its removed lines copied: a line cut from the old text keeps all of
 * that text alive in V8, and the old version is otherwise free to go.
 */
function detached(change: RecentChange): RecentChange {
  return {
    ...change,
    places: change.places.map((place) => ({ ...place, removed: JSON.parse(JSON.stringify(place.removed)) as string[] })),
  };
}
