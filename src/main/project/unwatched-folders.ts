/**
 * The folders the OS would not watch, read by polling instead.
 *
 * Past the system's limit on watches (Linux's `fs.inotify.max_user_watches`, ENOSPC; the
 * open-file limit, EMFILE) a folder sends no events. Rather than fall silent there, Flint
 * keeps the refused folders here and reads them again and again: the folders the user works
 * in (the current file's) every `fastIntervalMs`, so a save there shows as if watched, and the
 * rest round-robin at a slow rate whose work per tick is bounded (`statBudget` entries), so a
 * huge project costs main a steady trickle and never a freeze. What a read finds differs from
 * the last read is reported as the watcher would report it (`RawChange`).
 *
 * A folder the OS refused starts from a first read that reports nothing: what it held was
 * found by the scan that reads it right after (what changes meanwhile shows at the next read) or by the session's
 * own listing of a new folder. A folder found inside a polled one is polled too, from
 * nothing: all it holds is new to the index. A folder that is gone is dropped with
 * everything below it; one that cannot be read now (EACCES, EMFILE) is kept and read again.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isSameOrBelow, parentPath } from '../../shared/paths';
import { Emitter, type Disposable, type Event } from '../lifecycle';
import type { RawChange, WatchLimitCode } from './folder-watches';

export interface UnwatchedFoldersOptions {
  /** Real path of the project root. */
  root: string;
  /** Whether a project-relative folder is hidden (not indexed, so not polled either). */
  isIgnoredDirectory: (folder: string) => boolean;
  /** How often the user's folders are read (default 100 ms: a save shows within the tree's 200 ms). */
  fastIntervalMs?: number;
  /** How often the slow round takes its next few folders (default 250 ms). */
  slowTickMs?: number;
  /** Entries read per slow tick at most (default 1,000: a few ms of main's time). */
  statBudget?: number;
  /** No folder is read by the slow round more often than this (default 2 s). */
  slowRoundMinMs?: number;
}

/** What the OS refused, for the user: how many folders, a few of them, and how often they are read. */
export interface UnwatchedSummary {
  count: number;
  /** Up to three, shallowest first. */
  examples: string[];
  /** Why: the watch limit or the open-file limit. */
  code: WatchLimitCode;
  /** About how long a change in a folder that is not the user's takes to show. */
  roundMs: number;
  fastIntervalMs: number;
}

/** A folder's last read: child name → what tells a change (kind, and a file's size, time and inode). */
type Snapshot = Map<string, string>;

interface Polled {
  /** Null until the baseline read has been made. */
  snapshot: Snapshot | null;
  reading: boolean;
}

export class UnwatchedFolders implements Disposable {
  private readonly folders = new Map<string, Polled>();
  /** Every ancestor of a polled folder, with how many polled folders it has below it: a removal that touches none costs nothing. */
  private readonly above = new Map<string, number>();
  /** The slow round's order, each folder once (a dropped one is skipped, then compacted away); `cursor` is where the next tick starts. */
  private order: string[] = [];
  private readonly inOrder = new Set<string>();
  /** The first round waits `slowRoundMinMs` like any other: a refused folder's first read is made when it is refused. */
  private cursor = Number.POSITIVE_INFINITY;
  private focus: string[] = [];
  private code: WatchLimitCode = 'ENOSPC';
  private slowTimer: NodeJS.Timeout | null = null;
  private fastTimer: NodeJS.Timeout | null = null;
  private roundStartedAt = Date.now();
  private disposed = false;
  private summaryDirty = false;
  private readonly _onDidChange = new Emitter<RawChange>();
  private readonly _onDidChangeSummary = new Emitter<UnwatchedSummary | null>();

  /** A change a read found. */
  readonly onDidChange: Event<RawChange> = this._onDidChange.event;
  /** The set of unwatched folders grew or shrank (at most once per slow tick); null: every folder is watched again. */
  readonly onDidChangeSummary: Event<UnwatchedSummary | null> = this._onDidChangeSummary.event;

  constructor(private readonly options: UnwatchedFoldersOptions) {}

  private get fastIntervalMs(): number {
    return this.options.fastIntervalMs ?? 100;
  }

  private get slowTickMs(): number {
    return this.options.slowTickMs ?? 250;
  }

  get size(): number {
    return this.folders.size;
  }

  /** Whether `folder` is read by polling. */
  has(folder: string): boolean {
    return this.folders.has(folder);
  }

  /** The OS refused to watch `folder`: it is read from now on. Resolves once its first read (the baseline) is made. */
  refuse(folder: string, code: WatchLimitCode): Promise<void> {
    this.code = code;
    return this.adopt(folder, 'as-it-is');
  }

  /** The folders the user works in (the current file's): read every `fastIntervalMs` while unwatched. */
  setFocus(folders: string[]): void {
    this.focus = [...new Set(folders)];
    this.scheduleFast();
  }

  /** `path` was removed: it and every folder below it are no longer read. */
  forget(path: string): void {
    if (this.folders.has(path)) this.drop(path);
    if (!this.above.has(path)) return;
    for (const folder of [...this.folders.keys()]) if (isSameOrBelow(folder, path)) this.drop(folder);
  }

  /** Stops reading every folder `keep` says no to (after a reload, the folders hidden now). */
  retain(keep: (folder: string) => boolean): void {
    for (const folder of [...this.folders.keys()]) if (!keep(folder)) this.drop(folder);
  }

  /** What is unwatched now, or null when nothing is. */
  summary(): UnwatchedSummary | null {
    if (this.folders.size === 0) return null;
    const examples = [...this.folders.keys()].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b)).slice(0, 3);
    return { count: this.folders.size, examples, code: this.code, roundMs: this.roundMs(), fastIntervalMs: this.fastIntervalMs };
  }

  dispose(): void {
    this.disposed = true;
    if (this.slowTimer) clearTimeout(this.slowTimer);
    if (this.fastTimer) clearTimeout(this.fastTimer);
    this.folders.clear();
    this._onDidChange.dispose();
    this._onDidChangeSummary.dispose();
  }

  /** Starts reading `folder`: from what it holds now (`as-it-is`, nothing reported) or from nothing (`empty`: all it holds is reported as new). */
  private adopt(folder: string, start: 'as-it-is' | 'empty'): Promise<void> {
    if (this.disposed || this.folders.has(folder) || this.options.isIgnoredDirectory(folder)) return Promise.resolve();
    const polled: Polled = { snapshot: start === 'empty' ? new Map() : null, reading: false };
    this.folders.set(folder, polled);
    for (let ancestor = folder; ancestor !== ''; ) {
      ancestor = parentPath(ancestor);
      this.above.set(ancestor, (this.above.get(ancestor) ?? 0) + 1);
    }
    if (!this.inOrder.has(folder)) {
      this.order.push(folder);
      this.inOrder.add(folder);
    }
    this.summaryDirty = true;
    this.scheduleSlow();
    this.scheduleFast();
    return this.read(folder, polled);
  }

  private drop(folder: string): void {
    this.folders.delete(folder);
    for (let ancestor = folder; ancestor !== ''; ) {
      ancestor = parentPath(ancestor);
      const count = (this.above.get(ancestor) ?? 1) - 1;
      if (count > 0) this.above.set(ancestor, count);
      else this.above.delete(ancestor);
    }
    this.summaryDirty = true;
    // Dropped folders are skipped by the round; once they are most of it, they go.
    if (this.order.length > 64 && this.order.length > 2 * this.folders.size) {
      const before = this.order.slice(0, this.cursor).filter((path) => this.folders.has(path)).length;
      this.order = this.order.filter((path) => this.folders.has(path));
      this.inOrder.clear();
      for (const path of this.order) this.inOrder.add(path);
      this.cursor = before;
    }
  }

  /** A full slow round: every folder once, at `statBudget` entries per tick, never faster than `slowRoundMinMs`. */
  private roundMs(): number {
    let entries = 0;
    for (const polled of this.folders.values()) entries += Math.max(1, polled.snapshot?.size ?? 1);
    const ticks = Math.ceil(entries / (this.options.statBudget ?? 1000));
    return Math.max(this.options.slowRoundMinMs ?? 2000, ticks * this.slowTickMs);
  }

  private scheduleSlow(): void {
    if (this.slowTimer || this.disposed) return;
    this.slowTimer = setTimeout(() => void this.slowTick(), this.slowTickMs);
    this.slowTimer.unref();
  }

  private scheduleFast(): void {
    if (this.fastTimer || this.disposed || !this.focus.some((folder) => this.folders.has(folder))) return;
    this.fastTimer = setTimeout(() => {
      this.fastTimer = null;
      for (const folder of this.focus) {
        const polled = this.folders.get(folder);
        if (polled) void this.read(folder, polled);
      }
      this.scheduleFast();
    }, this.fastIntervalMs);
    this.fastTimer.unref();
  }

  private async slowTick(): Promise<void> {
    this.slowTimer = null;
    if (this.disposed) return;
    this.reportSummary();
    // A round over, the next starts once the last began `slowRoundMinMs` ago.
    if (this.cursor >= this.order.length && Date.now() - this.roundStartedAt >= (this.options.slowRoundMinMs ?? 2000)) this.cursor = 0;
    let budget = this.options.statBudget ?? 1000;
    const reads: Promise<void>[] = [];
    while (budget > 0 && this.cursor < this.order.length) {
      if (this.cursor === 0) this.roundStartedAt = Date.now();
      const folder = this.order[this.cursor++]!;
      const polled = this.folders.get(folder);
      if (!polled) continue;
      budget -= Math.max(1, polled.snapshot?.size ?? 1);
      reads.push(this.read(folder, polled));
    }
    await Promise.all(reads);
    if (this.folders.size > 0 || this.summaryDirty) this.scheduleSlow();
  }

  private reportSummary(): void {
    if (!this.summaryDirty) return;
    this.summaryDirty = false;
    this._onDidChangeSummary.fire(this.summary());
  }

  /** Reads one folder and reports what differs from its last read. */
  private async read(folder: string, polled: Polled): Promise<void> {
    if (polled.reading) return;
    polled.reading = true;
    try {
      const next = await readSnapshot(join(this.options.root, ...(folder === '' ? [] : folder.split('/'))));
      if (this.disposed || this.folders.get(folder) !== polled || next === 'unreadable') return;
      if (next === 'gone') return this.forget(folder);
      const previous = polled.snapshot;
      polled.snapshot = next;
      if (previous === null) return;
      this.compare(folder, previous, next);
    } finally {
      polled.reading = false;
    }
  }

  private compare(folder: string, previous: Snapshot, next: Snapshot): void {
    const pathOf = (name: string): string => (folder === '' ? name : `${folder}/${name}`);
    for (const [name, was] of previous) {
      if (next.has(name)) continue;
      this.forget(pathOf(name));
      this._onDidChange.fire({ type: was === 'd' ? 'unlinkDir' : 'unlink', path: pathOf(name) });
    }
    for (const [name, now] of next) {
      const was = previous.get(name);
      if (was === now) continue;
      const path = pathOf(name);
      if (was !== undefined && (was === 'd') !== (now === 'd')) this._onDidChange.fire({ type: was === 'd' ? 'unlinkDir' : 'unlink', path });
      if (now === 'd') {
        this._onDidChange.fire({ type: 'addDir', path });
        // The watcher never heard of it: it is read from now on too, and what it holds is new.
        void this.adopt(path, 'empty');
      } else {
        this._onDidChange.fire({ type: was === undefined || was === 'd' ? 'add' : 'change', path });
      }
    }
  }
}

/** A folder's children with what tells a change; `gone` if it is (or is no longer a folder), `unreadable` if it cannot be read now. */
async function readSnapshot(absolute: string): Promise<Snapshot | 'gone' | 'unreadable'> {
  let dirents: Dirent[];
  try {
    dirents = await readdir(absolute, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'unreadable';
  }
  const snapshot: Snapshot = new Map();
  await Promise.all(
    dirents.map(async (dirent) => {
      if (dirent.isDirectory()) return void snapshot.set(dirent.name, 'd');
      // Files and links: a save changes the size or the time; a replace (editors' atomic save) the inode.
      const stats = await lstat(join(absolute, dirent.name)).catch(() => null);
      if (stats) snapshot.set(dirent.name, `${dirent.isSymbolicLink() ? 'l' : 'f'}:${stats.mtimeMs}:${stats.size}:${stats.ino}`);
    }),
  );
  return snapshot;
}

function depth(path: string): number {
  return path === '' ? 0 : path.split('/').length;
}
