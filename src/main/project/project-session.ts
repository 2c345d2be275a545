/**
 * One open project: its index of entries, kept live by the watcher.
 *
 * Opening scans first (so the tree shows as soon as possible), then starts the
 * watcher, then reconciles once the watcher is ready, which catches anything that
 * changed between the scan reading a folder and the watcher covering it. Watcher
 * events are applied one at a time, in order, and pushed out batched per frame. Folders
 * the OS refuses to watch (its limit on watches) are read by polling instead
 * (unwatched-folders.ts), and their changes go the same way.
 */
import { stat } from 'node:fs/promises';
import { baseName } from '../../shared/paths';
import type { TreeChange, TreeEntry } from '../../shared/project-types';
import { DisposableStore, Emitter, toDisposable, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import { errorCode } from '../fs/fs-errors';
import { IgnoreRules } from './ignore-rules';
import { ProjectIndex, sameEntry } from './project-index';
import { ProjectWatcher, type RawChange } from './project-watcher';
import { UnwatchedFolders, type UnwatchedFoldersOptions, type UnwatchedSummary } from './unwatched-folders';
import { describeEntry, scanProject, type ScanFileSystem } from './tree-scanner';
import { TreeReader } from './tree-reader';
import { isEditorTemporaryFile } from './editor-temporary-files';
import { SaveGate } from './save-gate';
import type { SizeGuard } from './size-guard';

export interface ProjectSessionOptions {
  /** Real path of the root (already checked to be a readable folder). */
  root: string;
  logger: Logger;
  fileSystem?: ScanFileSystem;
  /** How often the root's existence is checked (a moved root sends no event). */
  livenessIntervalMs?: number;
  /** Changes are held this long and sent together: one UI update per frame. */
  batchIntervalMs?: number;
  /** How folders the OS would not watch are polled (tests make it faster). */
  unwatchedPolling?: Pick<UnwatchedFoldersOptions, 'fastIntervalMs' | 'slowTickMs' | 'slowRoundMinMs' | 'statBudget'>;
  /** Asks before a home folder, `/` or a huge folder goes live: the first tree and the watcher wait for its answer. */
  sizeGuard?: SizeGuard;
}

/** A file another program wrote, and when (its modification time in ms; undefined if it was gone by then). */
export interface FileSave {
  path: string;
  savedAt: number | undefined;
}

/** Where a session is in its life. */
type SessionState =
  /** The first scan is running. */
  | 'indexing'
  /** The index is complete and kept live. */
  | 'live'
  /** The root folder vanished; the session only waits to be disposed. */
  | 'lost'
  /** Closed; nothing runs. */
  | 'disposed';

export class ProjectSession implements Disposable {
  private state: SessionState = 'indexing';
  private rules = new IgnoreRules();
  private readonly index = new ProjectIndex();
  private watcher: ProjectWatcher | null = null;
  /** The folders the current watcher could not watch, polled instead. */
  private unwatched: UnwatchedFolders | null = null;
  /** The folders the user works in: polled often when the OS would not watch them. */
  private focusFolders: string[] = [];
  /** What was last said of unwatched folders (null: nothing, or that every folder is watched). */
  private lastUnwatched: UnwatchedSummary | null = null;
  /** Settles once the current watcher covers every folder and its reconcile has run (see whenWatching). */
  private watching = Promise.withResolvers<void>();
  /** Paths the watcher reported while a reconcile's scan ran (null when none runs). */
  private touchedDuringRescan: Set<string> | null = null;
  /** Serializes every index mutation: scans, watcher events, reconciles. */
  private queue: Promise<void> = Promise.resolve();
  private pendingChanges: TreeChange[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private reloadTimer: NodeJS.Timeout | null = null;
  private rootIdentity: { dev: number; ino: number } | null = null;
  private readonly store = new DisposableStore();
  private readonly saves: SaveGate;
  /** What the UI reads of the tree, a piece at a time: the top level, a folder as it opens, the filter, `@`. */
  readonly tree: TreeReader;

  private readonly _onDidIndexProgress = this.store.add(new Emitter<number>());
  private readonly _onDidShowTopLevel = this.store.add(new Emitter<TreeEntry[]>());
  private readonly _onDidLoadTree = this.store.add(new Emitter<TreeEntry[]>());
  private readonly _onDidChangeTree = this.store.add(new Emitter<TreeChange[]>());
  private readonly _onDidSaveFile = this.store.add(new Emitter<FileSave>());
  private readonly _onDidLoseRoot = this.store.add(new Emitter<string>());
  private readonly _onDidChangeUnwatched = this.store.add(new Emitter<UnwatchedSummary | null>());

  /** Entries found so far during a scan. */
  readonly onDidIndexProgress: Event<number> = this._onDidIndexProgress.event;
  /** The top level, read first by the first scan: shown while the rest is indexed (not while a size warning waits). */
  readonly onDidShowTopLevel: Event<TreeEntry[]> = this._onDidShowTopLevel.event;
  /** The whole tree: after the first scan, and again when a .gitignore changes. */
  readonly onDidLoadTree: Event<TreeEntry[]> = this._onDidLoadTree.event;
  /** A batch of live changes. */
  readonly onDidChangeTree: Event<TreeChange[]> = this._onDidChangeTree.event;
  /** Another program wrote a (visible, non-temporary) file. */
  readonly onDidSaveFile: Event<FileSave> = this._onDidSaveFile.event;
  /** The root folder was deleted or moved; the message says so for the user. */
  readonly onDidLoseRoot: Event<string> = this._onDidLoseRoot.event;
  /** The OS refused to watch some folders (they are polled), or every folder is watched again (null). */
  readonly onDidChangeUnwatched: Event<UnwatchedSummary | null> = this._onDidChangeUnwatched.event;

  constructor(private readonly options: ProjectSessionOptions) {
    this.tree = new TreeReader(options.root, this.index, () => this.rules);
    this.saves = new SaveGate(options.root, (error) => options.logger.error('a save could not be reported', error));
  }

  get root(): string {
    return this.options.root;
  }

  /** The full tree, or null while the first scan runs. */
  get entries(): TreeEntry[] | null {
    return this.state === 'indexing' ? null : this.index.values();
  }

  /** Whether `path` (relative to the root) is a file of the index, or a link (which may lead to one). */
  hasFile(path: string): boolean {
    const kind = this.index.get(path)?.kind;
    return kind === 'file' || kind === 'symlink';
  }

  /** The indexed files called `name` (a name, no folder), wherever they are. */
  filesNamed(name: string): readonly string[] {
    return this.index.filesNamed(name);
  }

  /** Scans the project and starts watching. Resolves when the first tree is loaded. */
  async start(): Promise<void> {
    const rootStats = await stat(this.root);
    this.rootIdentity = { dev: rootStats.dev, ino: rootStats.ino };
    const interval = setInterval(() => void this.checkRoot(), this.options.livenessIntervalMs ?? 1000);
    interval.unref();
    this.store.add(toDisposable(() => clearInterval(interval)));
    this.store.add(
      toDisposable(() => {
        if (this.flushTimer) clearTimeout(this.flushTimer);
        if (this.reloadTimer) clearTimeout(this.reloadTimer);
      }),
    );
    this.options.sizeGuard?.begin();
    await this.enqueue(() => this.reload());
  }

  /**
   * Resolves once the watcher covers every folder and what changed while it started has been
   * reported: from then on a save is seen as it happens (tests, benches). Also on close.
   */
  whenWatching(): Promise<void> {
    return this.watching.promise;
  }

  /** What the OS refused to watch now (polled instead), or null. */
  get unwatchedFolders(): UnwatchedSummary | null {
    return this.unwatched?.summary() ?? null;
  }

  /** The folders the user works in (the current file's): read often while the OS will not watch them. */
  setFocusFolders(folders: string[]): void {
    this.focusFolders = folders;
    this.unwatched?.setFocus(folders);
  }

  /** Disposes and waits for the watcher to release its handles. */
  async close(): Promise<void> {
    const watcher = this.watcher;
    this.dispose();
    await watcher?.close();
  }

  dispose(): void {
    if (this.state === 'disposed') return;
    this.state = 'disposed';
    this.watching.resolve();
    this.watcher?.dispose();
    this.watcher = null;
    this.unwatched?.dispose();
    this.unwatched = null;
    this.store.dispose();
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(() => (this.isClosed ? undefined : task()));
    this.queue = run.catch((error: unknown) => this.options.logger.error('project update failed', error));
    return run;
  }

  private get isClosed(): boolean {
    return this.state === 'disposed' || this.state === 'lost';
  }

  /** Full scan, replacing the index and restarting the watcher (its ignore rules may differ). */
  private async reload(): Promise<void> {
    const { sizeGuard } = this.options;
    const { entries, rules } = await scanProject({
      root: this.root,
      fileSystem: this.options.fileSystem,
      onProgress: (count) => {
        sizeGuard?.observe(count);
        this._onDidIndexProgress.fire(count);
      },
      isCancelled: () => this.isClosed,
      onTopLevel: (topLevel, rules) => this.showTopLevel(topLevel, rules),
    });
    // A folder too large to open without asking waits for "Open anyway" (at once otherwise, and on later reloads).
    await sizeGuard?.scanned(entries.length);
    if (this.isClosed) return;
    this.rules = rules;
    this.index.reset(entries);
    this.state = 'live';
    this.tree.indexed();
    this.pendingChanges = [];
    this._onDidLoadTree.fire(entries);
    this.restartWatcher();
  }

  /** The first scan read the root: its top level shows now, unless a size warning holds the tree back. */
  private showTopLevel(topLevel: TreeEntry[], rules: IgnoreRules): void {
    if (this.state !== 'indexing' || this.options.sizeGuard?.current) return;
    this.tree.showEarly(topLevel, rules);
    this._onDidShowTopLevel.fire(topLevel);
  }

  private restartWatcher(): void {
    void this.watcher?.close();
    const watcher = new ProjectWatcher({
      root: this.root,
      isInsideIgnoredDirectory: (path) => this.rules.isInsideIgnoredDirectory(path),
    });
    this.watcher = watcher;
    this.pollRefusedFolders(watcher);
    // A reload restarts the watcher: whoever asked before waits for this one too.
    const previous = this.watching;
    const watching = Promise.withResolvers<void>();
    this.watching = watching;
    void watching.promise.then(() => previous.resolve());
    watcher.onDidChange((change) => this.changed(change));
    const settle = () => watching.resolve();
    watcher.onDidBecomeReady(() => void this.reconcile(watcher).then(settle, settle));
    watcher.onDidFail((error) => this.handleWatcherError(error));
  }

  /** Folders the OS refuses to this watcher are polled; a new watcher starts with none (the old one's watches are freed as it closes). */
  private pollRefusedFolders(watcher: ProjectWatcher): void {
    this.unwatched?.dispose();
    const unwatched = new UnwatchedFolders({ ...this.options.unwatchedPolling, root: this.root, isIgnoredDirectory: (folder) => this.rules.isIgnoredDirectory(folder) });
    this.unwatched = unwatched;
    unwatched.setFocus(this.focusFolders);
    watcher.onDidRefuse(({ folder, code }) => unwatched.refuse(folder, code));
    unwatched.onDidChange((change) => this.changed(change));
    unwatched.onDidChangeSummary((summary) => this.reportUnwatched(summary));
    // The last watcher's state stands until this one knows better (a reload does not flash the limit off and on).
    watcher.onDidBecomeReady(() => unwatched.size === 0 && this.unwatched === unwatched && this.reportUnwatched(null));
  }

  /** Says what is unwatched when it differs from what was said last. */
  private reportUnwatched(summary: UnwatchedSummary | null): void {
    if (summary === null && this.lastUnwatched === null) return;
    this.lastUnwatched = summary;
    this._onDidChangeUnwatched.fire(summary);
  }

  /**
   * A change from the watcher or the poller: a removed folder stops being polled at once,
   * before the change waits its turn, so a folder removed and refused again (re-adopted
   * meanwhile) is not dropped late; then it is applied in order.
   */
  private changed(change: RawChange): void {
    this.touchedDuringRescan?.add(change.path);
    if (change.type === 'unlink' || change.type === 'unlinkDir') this.unwatched?.forget(change.path);
    void this.enqueue(() => this.apply(change));
  }

  /**
   * Rescans and reports the difference as changes (once the watcher is ready). The scan runs
   * beside the watcher's changes, not ahead of them (a million files take seconds): what the
   * watcher reported meanwhile is newer than the scan, so the difference leaves it alone.
   */
  private async reconcile(watcher: ProjectWatcher): Promise<void> {
    const touched = new Set<string>();
    this.touchedDuringRescan = touched;
    const scanned = await scanProject({ root: this.root, fileSystem: this.options.fileSystem }).finally(() => {
      if (this.touchedDuringRescan === touched) this.touchedDuringRescan = null;
    });
    await this.enqueue(async () => {
      // A newer watcher (a reload) reconciles for itself.
      if (this.isClosed || this.watcher !== watcher) return;
      this.rules = scanned.rules;
      const { removed, changed } = this.index.differencesFrom(scanned.entries, touched);
      for (const path of removed) if (this.index.has(path)) this.remove(path);
      for (const entry of changed) this.add(entry);
    });
  }

  private async apply(change: RawChange): Promise<void> {
    const { type, path } = change;
    if (path === '') {
      if (type === 'unlinkDir') await this.checkRoot();
      return;
    }
    if (this.rules.isInsideIgnoredDirectory(path)) return;
    switch (type) {
      case 'add':
      case 'addDir':
      case 'change': {
        const known = this.index.get(path);
        if (type === 'change' && known?.kind === 'file') {
          this.queueChange({ type: 'modified', path });
        } else {
          const entry = await describeEntry(this.root, path, this.rules);
          if (!entry || this.isClosed) return;
          if (!known || !sameEntry(known, entry)) this.add(entry);
          else if (type !== 'addDir') this.queueChange({ type: 'modified', path });
        }
        if (type !== 'addDir') this.noteWrite(path);
        return;
      }
      case 'unlink':
      case 'unlinkDir':
        if (this.index.has(path)) this.remove(path);
        if (baseName(path) === '.gitignore') this.scheduleReload();
        return;
      default: {
        const exhaustive: never = type;
        throw new Error(`unknown change ${String(exhaustive)}`);
      }
    }
  }

  /** A file was written by another program: a .gitignore reloads rules, a source file is "saved". */
  private noteWrite(path: string): void {
    if (baseName(path) === '.gitignore') this.scheduleReload();
    const entry = this.index.get(path);
    // The index's rules may be older than the disk's (a cache folder's own .gitignore): the gate reads them afresh.
    if (entry?.kind === 'file' && !entry.ignored && !isEditorTemporaryFile(path)) this.saves.pass(path, (savedAt) => !this.isClosed && this._onDidSaveFile.fire({ path, savedAt }));
  }

  /** Coalesces bursts (a checkout touching many .gitignore files) into one reload. */
  private scheduleReload(): void {
    if (this.reloadTimer) return;
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      void this.enqueue(() => this.reload());
    }, 100);
  }

  private add(entry: TreeEntry): void {
    this.index.set(entry);
    this.queueChange({ type: 'added', entry });
  }

  /** Removes an entry and everything below it; reports the top one only. */
  private remove(path: string): void {
    this.index.delete(path);
    this.queueChange({ type: 'removed', path });
  }

  private queueChange(change: TreeChange): void {
    this.pendingChanges.push(change);
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      const changes = this.pendingChanges;
      this.pendingChanges = [];
      if (changes.length > 0 && !this.isClosed) this._onDidChangeTree.fire(changes);
    }, this.options.batchIntervalMs ?? 16);
  }

  private handleWatcherError(error: Error): void {
    if (this.isClosed) return;
    // A refused watch is not an error here: the folder is polled (pollRefusedFolders).
    this.options.logger.warn('watcher error', error);
    void this.checkRoot();
  }

  /** A moved or deleted root sends no reliable event, so its identity is checked. */
  private async checkRoot(): Promise<void> {
    if (this.isClosed || !this.rootIdentity) return;
    let reason: string | null = null;
    try {
      const stats = await stat(this.root);
      if (!stats.isDirectory() || stats.ino !== this.rootIdentity.ino || stats.dev !== this.rootIdentity.dev) {
        reason = 'was replaced';
      }
    } catch (error) {
      reason = errorCode(error) === 'ENOENT' ? 'was deleted or moved' : 'can no longer be read';
    }
    if (reason === null || this.isClosed) return;
    this.state = 'lost';
    this._onDidLoseRoot.fire(`The project folder ${this.root} ${reason} while it was open.`);
  }
}
