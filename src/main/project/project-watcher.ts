/**
 * Watches a project folder with chokidar and reports changes as project-relative paths.
 *
 * Hidden folders are watched as entries but not descended into, so `npm install`
 * never floods Flint with node_modules events. Symlinks are watched as themselves.
 */
import { watch, type FSWatcher } from 'chokidar';
import { isAbsolute, relative, sep } from 'node:path';
import { Emitter, type Disposable, type Event } from '../lifecycle';

/** A change as chokidar reports it, path made project-relative and POSIX. */
export interface RawChange {
  type: 'add' | 'addDir' | 'change' | 'unlink' | 'unlinkDir';
  path: string;
}

/** A folder the OS would not watch: `ENOSPC` (Linux's inotify watch limit) or `EMFILE` (open files). */
export interface RefusedWatch {
  /** Project-relative POSIX path of the folder ('' for the root). */
  folder: string;
  code: WatchLimitCode;
}

export type WatchLimitCode = 'ENOSPC' | 'EMFILE';

export interface ProjectWatcherOptions {
  /** Real path of the root. */
  root: string;
  /** Whether a project-relative path lies inside a hidden folder (not watched). */
  isInsideIgnoredDirectory: (path: string) => boolean;
}

export class ProjectWatcher implements Disposable {
  private readonly watcher: FSWatcher;
  private readonly _onDidChange = new Emitter<RawChange>();
  private readonly _onDidBecomeReady = new Emitter<void>();
  private readonly _onDidFail = new Emitter<Error>();
  private readonly _onDidRefuse = new Emitter<RefusedWatch>();

  /** A file or folder changed. */
  readonly onDidChange: Event<RawChange> = this._onDidChange.event;
  /** Every folder is watched; changes from now on are reported. */
  readonly onDidBecomeReady: Event<void> = this._onDidBecomeReady.event;
  /** The watcher hit an error other than a refused watch. */
  readonly onDidFail: Event<Error> = this._onDidFail.event;
  /** The OS refused to watch a folder (its limit on watches): nothing of it is reported until something reads it. */
  readonly onDidRefuse: Event<RefusedWatch> = this._onDidRefuse.event;

  constructor(private readonly options: ProjectWatcherOptions) {
    const { root } = options;
    this.watcher = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      ignorePermissionErrors: true,
      ignored: (path: string) => {
        const rel = this.toRelative(path);
        return rel !== null && rel !== '' && options.isInsideIgnoredDirectory(rel);
      },
    });
    for (const type of ['add', 'addDir', 'change', 'unlink', 'unlinkDir'] as const) {
      this.watcher.on(type, (path: string) => {
        const rel = this.toRelative(path);
        if (rel !== null) this._onDidChange.fire({ type, path: rel });
      });
    }
    this.watcher.on('ready', () => this._onDidBecomeReady.fire());
    this.watcher.on('error', (error: unknown) => this.failed(error instanceof Error ? error : new Error(String(error))));
  }

  /**
   * chokidar reports each folder the OS would not watch as an error of the `watch` call
   * naming it (Node's fs.watch puts the folder in `path`). The same codes from a read of a
   * folder that *is* watched are no refusal (polling it too would report its saves twice).
   */
  private failed(error: Error & { code?: unknown; path?: unknown; syscall?: unknown }): void {
    const folder = typeof error.path === 'string' ? this.toRelative(error.path) : null;
    if ((error.code === 'ENOSPC' || error.code === 'EMFILE') && error.syscall === 'watch' && folder !== null) this._onDidRefuse.fire({ folder, code: error.code });
    else this._onDidFail.fire(error);
  }

  /** Project-relative POSIX path, '' for the root, null for anything outside it. */
  private toRelative(path: string): string | null {
    const rel = relative(this.options.root, isAbsolute(path) ? path : `${this.options.root}${sep}${path}`);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
    return sep === '/' ? rel : rel.split(sep).join('/');
  }

  /** Stops watching. Chokidar's close is async; callers that must wait use `close()`. */
  dispose(): void {
    void this.close();
  }

  close(): Promise<void> {
    this._onDidChange.dispose();
    this._onDidBecomeReady.dispose();
    this._onDidFail.dispose();
    this._onDidRefuse.dispose();
    return this.watcher.close();
  }
}
