/**
 * Watches a project one folder at a time: one `fs.watch` (an inotify watch on Linux) per
 * folder, made by the scan just before it reads the folder, so whatever changes after the
 * read is reported, and a folder is watched from the moment its entries are known, while
 * the rest of the index is still being built.
 *
 * Why not chokidar (6.0), measured on this project's 2-core machines: to cover a generated
 * tree of 100,000 files in 1,100 folders it took 2.5–3.5 s and 380–500 MB of RSS (an
 * `lstat` and a record for every file), where these watches, made by a walk that reads
 * each folder once, took 0.14 s and 82 MB; at a million files chokidar took 99 s before
 * it reported a change anywhere, and its walk is a second one, after the scan's. Here the
 * scan's walk is the watcher's, and nothing is kept per file: an event names a path, and
 * the session looks at the disk (`lstat`) to learn what happened to it.
 *
 * Hidden folders are never watched (the scan does not go into them). Links are watched as
 * the entries they are, in their folder, never followed.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { isSameOrBelow } from '../../shared/paths';
import { Emitter, type Disposable, type Event } from '../lifecycle';
import { errorCode } from '../fs/fs-errors';

/**
 * A change to a path, project-relative and POSIX. `touch`: something happened to it (made,
 * removed, renamed, replaced); what, the disk says. The others are what a poller's reads
 * tell apart (unwatched-folders.ts), and `change` is also the watcher's word for a file
 * whose contents changed in place.
 */
export interface RawChange {
  type: 'touch' | 'add' | 'addDir' | 'change' | 'unlink' | 'unlinkDir';
  path: string;
}

/** A folder the OS would not watch: `ENOSPC` (Linux's inotify watch limit) or `EMFILE` (open files). */
export interface RefusedWatch {
  /** Project-relative POSIX path of the folder ('' for the root). */
  folder: string;
  code: WatchLimitCode;
}

export type WatchLimitCode = 'ENOSPC' | 'EMFILE';

/** Makes one folder's watch (tests replace it; `fs.watch` otherwise). */
export type WatchFolder = (absolutePath: string, listener: (event: string, name: string | null) => void) => FSWatcher;

const watchFolder: WatchFolder = (absolutePath, listener) => watch(absolutePath, { persistent: true, encoding: 'utf8' }, listener);

export class FolderWatches implements Disposable {
  private readonly watches = new Map<string, FSWatcher>();
  private closed = false;
  private readonly _onDidChange = new Emitter<RawChange>();
  private readonly _onDidRefuse = new Emitter<RefusedWatch>();

  /** Something happened to a path in a watched folder. */
  readonly onDidChange: Event<RawChange> = this._onDidChange.event;
  /** The OS refused to watch a folder (its limit on watches): nothing of it is reported until something reads it. */
  readonly onDidRefuse: Event<RefusedWatch> = this._onDidRefuse.event;

  constructor(
    private readonly root: string,
    private readonly watchOne: WatchFolder = watchFolder,
  ) {}

  /** How many folders are watched. */
  get size(): number {
    return this.watches.size;
  }

  has(folder: string): boolean {
    return this.watches.has(folder);
  }

  /**
   * Watches `folder` ('' for the root) unless it is already. A refusal for the OS's limit is
   * reported; any other failure (the folder went, or cannot be read) is left to the scan,
   * which reads it next and says so.
   */
  watch(folder: string): void {
    if (this.closed || this.watches.has(folder)) return;
    const prefix = folder === '' ? '' : `${folder}/`;
    try {
      const watcher = this.watchOne(folder === '' ? this.root : join(this.root, ...folder.split('/')), (event, name) => {
        // No name (some platforms, rarely): the folder itself is what to look at.
        if (!this.closed) this._onDidChange.fire({ type: event === 'change' && name ? 'change' : 'touch', path: name ? prefix + name.replaceAll('\\', '/') : folder });
      });
      // A watch fails when its folder goes (the folder's parent reports that): it is simply let go.
      watcher.on('error', () => this.release(folder, watcher));
      this.watches.set(folder, watcher);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOSPC' || code === 'EMFILE') this._onDidRefuse.fire({ folder, code });
    }
  }

  /** Stops watching `folder` and every folder below it (it was removed, or is hidden now). */
  unwatch(folder: string): void {
    for (const [watched, watcher] of this.watches) if (isSameOrBelow(watched, folder)) this.release(watched, watcher);
  }

  /** Stops watching every folder `keep` says no to (after a reload, the folders hidden now). */
  retain(keep: (folder: string) => boolean): void {
    for (const [watched, watcher] of this.watches) if (!keep(watched)) this.release(watched, watcher);
  }

  /** Stops every watch; nothing is reported after. */
  dispose(): void {
    this.closed = true;
    for (const [folder, watcher] of this.watches) this.release(folder, watcher);
    this._onDidChange.dispose();
    this._onDidRefuse.dispose();
  }

  private release(folder: string, watcher: FSWatcher): void {
    if (this.watches.get(folder) === watcher) this.watches.delete(folder);
    watcher.close();
  }
}
