/**
 * One open project: its index of entries, kept live by the watcher.
 *
 * The first scan watches each folder just before it reads it (folder-watches.ts), so the
 * project is watched while it is indexed: a change reported meanwhile applies at once, and
 * the scan leaves alone what the watcher reported (it is newer than the scan's read). The
 * watcher's events are applied one at a time, in order, each by looking at the disk, and
 * pushed out batched per frame. Folders the OS refuses to watch (its limit on watches) are
 * read by polling instead (unwatched-folders.ts), and their changes go the same way.
 */
import { baseName } from '../../shared/paths';
import type { TreeChange, TreeEntry } from '../../shared/project-types';
import { DisposableStore, Emitter, toDisposable, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import { rootIdentityOf, rootLoss, type RootIdentity } from './root-identity';
import { IgnoreRules } from './ignore-rules';
import { ProjectIndex, sameEntry } from './project-index';
import type { RawChange } from './folder-watches';
import { ProjectWatching, type PollingOptions } from './project-watching';
import type { UnwatchedSummary } from './unwatched-folders';
import { describeEntry, loadRootRules, scanProject, type ScanFileSystem, type ScanOptions } from './tree-scanner';
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
  unwatchedPolling?: PollingOptions;
  /** Asks before a home folder, `/` or a huge folder goes live: the first tree and the watcher wait for its answer. */
  sizeGuard?: SizeGuard;
  /** What to hide besides the .gitignore files (the `exclude` setting): .gitignore lines, at the root. */
  exclude?: readonly string[];
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
  private exclude: readonly string[];
  private readonly index = new ProjectIndex();
  /** The watches, and the poller for the folders the OS would not watch. */
  private readonly watching: ProjectWatching;
  /** Settles once every folder is watched (or polled) and the first index is whole (see whenWatching). */
  private readonly watched = Promise.withResolvers<void>();
  /** Paths the watcher reported while a scan outside the queue ran (null when none runs). */
  private touchedDuringScan: Set<string> | null = null;
  /** A .gitignore changed while the first index ran: the rules are read again after it. */
  private reloadAfterIndex = false;
  /** Serializes the watcher's events, reloads and the end of the first index (the first scan itself runs beside them). */
  private queue: Promise<void> = Promise.resolve();
  private pendingChanges: TreeChange[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private reloadTimer: NodeJS.Timeout | null = null;
  private rootIdentity: RootIdentity | null = null;
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
  readonly onDidChangeUnwatched: Event<UnwatchedSummary | null>;

  constructor(private readonly options: ProjectSessionOptions) {
    this.tree = new TreeReader(options.root, this.index, () => this.rules);
    this.watching = this.store.add(new ProjectWatching(options.root, () => this.rules, options.unwatchedPolling));
    this.onDidChangeUnwatched = this.watching.onDidChangeUnwatched;
    this.store.add(this.watching.onDidHear((batch) => this.heard(batch)));
    this.exclude = options.exclude ?? [];
    this.saves = new SaveGate(options.root, (error) => options.logger.error('a save could not be reported', error), () => this.exclude);
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
    this.rootIdentity = await rootIdentityOf(this.root);
    const interval = setInterval(() => void this.checkRoot(), this.options.livenessIntervalMs ?? 1000);
    interval.unref();
    this.store.add(toDisposable(() => clearInterval(interval)));
    this.store.add(toDisposable(() => [this.flushTimer, this.reloadTimer].forEach((timer) => timer && clearTimeout(timer))));
    this.options.sizeGuard?.begin();
    await this.firstIndex();
  }

  /**
   * Resolves once the watcher covers every folder and what changed while it started has been
   * reported: from then on a save is seen as it happens (tests, benches). Also on close.
   */
  whenWatching(): Promise<void> {
    return this.watched.promise;
  }

  /** What the OS refused to watch now (polled instead), or null. */
  get unwatchedFolders(): UnwatchedSummary | null {
    return this.watching.unwatchedFolders;
  }

  /** The folders the user works in (the current file's): read often while the OS will not watch them. */
  setFocusFolders(folders: string[]): void {
    this.watching.setFocus(folders);
  }

  /** The `exclude` setting changed: everything is read again with it. */
  setExclude(patterns: readonly string[]): void {
    if (patterns.join('\n') === this.exclude.join('\n')) return;
    this.exclude = [...patterns];
    this.scheduleReload();
  }

  /** Closes the project: every watch and poll stops. */
  async close(): Promise<void> {
    this.dispose();
  }

  dispose(): void {
    if (this.state === 'disposed') return;
    this.state = 'disposed';
    this.tree.close();
    this.watched.resolve();
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

  /**
   * The first index, watched throughout: each folder is watched just before it is read, and
   * what the watcher reports meanwhile applies at once (a million files take seconds to
   * read). The index fills as folders are read; it counts as whole once the scan is done and
   * what the watcher reported has been applied.
   */
  private async firstIndex(): Promise<void> {
    const { sizeGuard } = this.options;
    const rules = await loadRootRules(this.root, this.exclude);
    this.rules = rules;
    const touched = new Set<string>();
    // Folders read while a size warning waits are not watched yet: "Open anyway" watches them (catchUp).
    let readUnwatched = false;
    const { entries } = await this.scan(touched, {
      rules,
      onProgress: (count) => {
        sizeGuard?.observe(count);
        this._onDidIndexProgress.fire(count);
      },
      onTopLevel: (topLevel) => this.showTopLevel(topLevel, rules),
      beforeRead: (folder) => (sizeGuard?.current ? (readUnwatched = true) : this.watching.watch(folder)),
      onFound: (folder, found) => this.foundWhileIndexing(folder, found, touched),
    });
    // A folder too large to open without asking waits for "Open anyway" (at once otherwise).
    await sizeGuard?.scanned(entries.length);
    if (this.isClosed) return;
    await this.enqueue(async () => {
      this.state = 'live';
      this.tree.indexed();
      this._onDidLoadTree.fire(this.index.values());
    });
    if (readUnwatched) await this.catchUp();
    this.watched.resolve();
    if (this.reloadAfterIndex) this.scheduleReload();
  }

  /** A scan outside the queue: what the watcher reports while it runs is noted in `touched` (newer than the scan). */
  private scan(touched: Set<string>, options: Omit<ScanOptions, 'root'>): ReturnType<typeof scanProject> {
    this.touchedDuringScan = touched;
    return scanProject({ root: this.root, fileSystem: this.options.fileSystem, isCancelled: () => this.isClosed, ...options }).finally(() => {
      if (this.touchedDuringScan === touched) this.touchedDuringScan = null;
    });
  }

  /** A folder the first scan read joins the index, but for the paths the watcher reported since, and not at all if it was removed meanwhile. */
  private foundWhileIndexing(folder: string, found: TreeEntry[], touched: ReadonlySet<string>): void {
    if (this.isClosed || (folder !== '' && this.index.get(folder)?.kind !== 'directory')) return;
    for (const entry of found) if (!touched.has(entry.path)) this.index.set(entry);
  }

  /**
   * After "Open anyway": the folders read while the warning waited are watched now, read
   * again, and what changed since the first read is reported (what the watcher reported
   * meanwhile is newer than this scan, so the difference leaves it alone).
   */
  private async catchUp(): Promise<void> {
    const touched = new Set<string>();
    const scanned = await this.scan(touched, { rules: this.rules, beforeRead: (folder) => this.watching.watch(folder) });
    await this.enqueue(async () => {
      const { removed, changed } = this.index.differencesFrom(scanned.entries, touched);
      for (const path of removed) if (this.index.has(path)) this.remove(path);
      for (const entry of changed) this.add(entry);
    });
  }

  /** A .gitignore changed: everything is read again with the new rules; what they hide now is no longer watched, what shows now is. */
  private async reload(): Promise<void> {
    const rules = await loadRootRules(this.root, this.exclude);
    const { entries } = await scanProject({ root: this.root, rules, fileSystem: this.options.fileSystem, isCancelled: () => this.isClosed, beforeRead: (folder) => this.watching.watch(folder) });
    if (this.isClosed) return;
    this.rules = rules;
    this.index.reset(entries);
    this.pendingChanges = [];
    // What the new rules hide is neither watched nor polled any more.
    this.watching.retain((folder) => folder === '' || this.index.isListedFolder(folder));
    this._onDidLoadTree.fire(entries);
  }

  /** The first scan read the root: its top level shows now, unless a size warning holds the tree back. */
  private showTopLevel(topLevel: TreeEntry[], rules: IgnoreRules): void {
    if (this.state !== 'indexing' || this.options.sizeGuard?.current) return;
    this.tree.showEarly(topLevel, rules);
    this._onDidShowTopLevel.fire(topLevel);
  }

  /** A settled batch of what the watcher and the poller heard: applied in order, after what is already queued. */
  private heard(batch: RawChange[]): void {
    for (const { path } of batch) this.touchedDuringScan?.add(path);
    void this.enqueue(async () => {
      for (const change of batch) if (!this.isClosed) await this.apply(change);
    });
  }

  /** Applies one change: the poller's removals as said, anything else by looking at the disk. */
  private async apply(change: RawChange): Promise<void> {
    const { type, path } = change;
    if (path === '') {
      if (type === 'unlinkDir' || type === 'touch') await this.checkRoot();
      return;
    }
    if (this.rules.isInsideIgnoredDirectory(path)) return;
    if (type === 'unlink' || type === 'unlinkDir') return this.removed(path);
    // A file written in place: nothing to look at.
    if (type === 'change' && this.index.get(path)?.kind === 'file') {
      this.queueChange({ type: 'modified', path });
      return this.noteWrite(path);
    }
    const entry = await describeEntry(this.root, path, this.rules);
    if (this.isClosed) return;
    if (!entry) {
      // The root's own removal reaches its watch as a change to a child named like it.
      if (!path.includes('/')) await this.checkRoot();
      return this.removed(path);
    }
    const known = this.index.get(path);
    if (entry.kind === 'directory') {
      if (!known || !sameEntry(known, entry)) this.add(entry);
      // A folder's name moves in its parent only when it is made, removed or moved: whatever is there is new.
      if (type === 'touch' && entry.unlisted === undefined) await this.readNewFolder(path);
      return;
    }
    if (!known || !sameEntry(known, entry)) this.add(entry);
    else this.queueChange({ type: 'modified', path });
    this.noteWrite(path);
  }

  /** A path is gone: it leaves the index with everything below it, and stops being watched and polled. */
  private removed(path: string): void {
    if (this.index.has(path)) this.remove(path);
    this.watching.forget(path);
    if (baseName(path) === '.gitignore') this.scheduleReload();
  }

  /**
   * A folder appeared (made, moved in, or put in place of another): it is watched and read
   * with everything below it, and the index below it made to match. Its files are not
   * "saved": a checkout or a move brings them, not an editor.
   */
  private async readNewFolder(folder: string): Promise<void> {
    // A folder put in place of another: the old one's watches watch what is gone.
    this.watching.forget(folder);
    const { entries } = await scanProject({ root: this.root, folder, rules: this.rules, fileSystem: this.options.fileSystem, isCancelled: () => this.isClosed, beforeRead: (path) => this.watching.watch(path) }).catch(() => ({ entries: null }));
    // Gone again before it could be read: its parent's watch reports that.
    if (entries === null || this.isClosed) return;
    const fresh = new Set(entries.map((entry) => entry.path));
    for (const path of this.index.pathsBelow(folder)) if (!fresh.has(path) && this.index.has(path)) this.remove(path);
    for (const entry of entries) {
      const known = this.index.get(entry.path);
      if (!known || !sameEntry(known, entry)) this.add(entry);
    }
  }

  /** A file was written by another program: a .gitignore reloads rules, a source file is "saved". */
  private noteWrite(path: string): void {
    if (baseName(path) === '.gitignore') this.scheduleReload();
    const entry = this.index.get(path);
    // The index's rules may be older than the disk's (a cache folder's own .gitignore): the gate reads them afresh.
    if (entry?.kind === 'file' && !entry.ignored && !isEditorTemporaryFile(path)) this.saves.pass(path, (savedAt) => !this.isClosed && this._onDidSaveFile.fire({ path, savedAt }));
  }

  /** Coalesces bursts (a checkout touching many .gitignore files) into one reload; one during the first index waits for its end. */
  private scheduleReload(): void {
    if (this.state === 'indexing') {
      this.reloadAfterIndex = true;
      return;
    }
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

  /** A moved or deleted root sends no reliable event, so its identity is checked. */
  private async checkRoot(): Promise<void> {
    const reason = this.isClosed || !this.rootIdentity ? null : await rootLoss(this.root, this.rootIdentity);
    if (reason === null || this.isClosed) return;
    this.state = 'lost';
    this._onDidLoseRoot.fire(`The project folder ${this.root} ${reason} while it was open.`);
  }
}
