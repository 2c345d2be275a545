/**
 * One open project folder and everything that lives exactly as long as it: the watcher
 * session, the file access policy, the remembered versions, the current file, the hunk
 * state with its writes and undo journal, and the filter that tells Flint's own writes
 * from the user's saves.
 *
 * Built whole by `open` and let go whole by `close`. The one thing per project that lives
 * above it is the conversation (src/main/ask): its answers hold their project and go
 * when the workspace says it will close.
 */
import { parentPath } from '../../shared/paths';
import type { CurrentFile, FileMatches, ProjectInfo, SizeWarning, TreeChange, TreeEntry, WatchLimit } from '../../shared/project-types';
import { projectOutline } from '../context/project-outline';
import { SaveHistory } from '../context/save-history';
import { EditService } from '../edits/edit-service';
import type { ProjectFileNames } from '../edits/model-paths';
import { ProjectFiles } from '../fs/project-files';
import { DisposableStore, Emitter, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import { CurrentFileTracker } from '../project/current-file';
import { ProjectSession, type FileSave } from '../project/project-session';
import { LARGE_FOLDER_ENTRIES, SizeGuard, type SizeGuardOptions } from '../project/size-guard';
import { describeWatchLimit } from '../project/watch-limit-message';
import type { ScanFileSystem } from '../project/tree-scanner';
import { OwnWrites } from './own-writes';

export interface OpenProjectOptions {
  info: ProjectInfo;
  /** Folder for undo journals (one file per project). */
  journalFolder: string;
  /** Flint's scratch folder in the OS cache, for writes in projects without a git folder (fs/scratch-area.ts). */
  scratchFolder?: string;
  logger: Logger;
  /** Test seam for the project scan. */
  fileSystem?: ScanFileSystem;
  /** When to ask before the folder goes live (default: only past LARGE_FOLDER_ENTRIES). */
  sizeCheck?: SizeGuardOptions;
  /** What to hide besides the .gitignore files (the `exclude` setting). */
  exclude?: readonly string[];
}

export class OpenProject implements Disposable {
  private readonly store = new DisposableStore();
  private readonly _onDidLoadTree = this.store.add(new Emitter<TreeEntry[]>());
  private readonly _onDidChangeTree = this.store.add(new Emitter<TreeChange[]>());
  private readonly _onDidWarn = this.store.add(new Emitter<string>());
  private readonly _onDidChangeWatchLimit = this.store.add(new Emitter<WatchLimit | null>());
  private cachedOutline: string | null = null;
  private primed = false;
  /** Settles when the first index's recently modified files have been read (see whenPrimed). */
  private readonly priming = Promise.withResolvers<void>();

  /** The top level, read first while the rest is indexed (the UI shows it at once). */
  readonly onDidShowTopLevel: Event<TreeEntry[]>;
  /** The whole index, once it is built and again after a .gitignore change (the UI is sent its top level: `topLevel`). */
  readonly onDidLoadTree: Event<TreeEntry[]> = this._onDidLoadTree.event;
  /** Live changes made by other programs. */
  readonly onDidChangeTree: Event<TreeChange[]> = this._onDidChangeTree.event;
  /** Something the user must hear about (a save that raced a write, a recovered file). */
  readonly onDidWarn: Event<string> = this._onDidWarn.event;
  /** The OS refused to watch some folders (polled instead), or every folder is watched again (null). */
  readonly onDidChangeWatchLimit: Event<WatchLimit | null> = this._onDidChangeWatchLimit.event;
  /** Entries found so far by the first index. */
  readonly onDidIndexProgress: Event<number>;
  /** The folder was deleted or moved away: the project must close. */
  readonly onDidLoseRoot: Event<string>;
  /** The file a question is about changed (selected here, or saved elsewhere). */
  readonly onDidChangeCurrentFile: Event<CurrentFile>;
  /** The folder is too large to open without asking, or no longer (null). */
  readonly onDidChangeSizeWarning: Event<SizeWarning | null>;

  readonly history: SaveHistory;
  readonly currentFile = this.store.add(new CurrentFileTracker());
  readonly edits: EditService;

  private constructor(
    readonly info: ProjectInfo,
    /** The one path policy and reader for this folder (the edits and the history use it too). */
    readonly files: ProjectFiles,
    private readonly session: ProjectSession,
    edits: EditService,
    private readonly ownWrites: OwnWrites,
    private readonly logger: Logger,
    private readonly sizeGuard: SizeGuard,
  ) {
    this.edits = this.store.add(edits);
    this.store.add(sizeGuard);
    this.onDidChangeSizeWarning = sizeGuard.onDidChange;
    this.history = this.store.add(new SaveHistory({ files }));
    this.onDidIndexProgress = session.onDidIndexProgress;
    this.onDidShowTopLevel = session.onDidShowTopLevel;
    this.onDidLoseRoot = session.onDidLoseRoot;
    this.onDidChangeCurrentFile = this.currentFile.onDidChange;
    this.store.add(session.onDidLoadTree((entries) => this.treeLoaded(entries)));
    this.store.add(session.onDidChangeTree((changes) => this.treeChanged(changes)));
    this.store.add(session.onDidSaveFile((save) => this.fileSaved(save)));
    this.store.add(session.onDidChangeUnwatched((summary) => this._onDidChangeWatchLimit.fire(describeWatchLimit(summary))));
    // The folders the user works in are read often where the OS would not watch them.
    this.store.add(this.currentFile.onDidChange((current) => session.setFocusFolders(focusFoldersOf(current))));
    this.store.add(edits.onDidWarn((message) => this._onDidWarn.fire(message)));
  }

  /** Opens the project at `info.root` (a real path, already checked to be a readable folder). */
  static async open(options: OpenProjectOptions): Promise<OpenProject> {
    const { info, logger } = options;
    const ownWrites = new OwnWrites();
    const files = new ProjectFiles(info.root);
    const sizeGuard = new SizeGuard(options.sizeCheck ?? { reasonAtOnce: null, largeEntries: LARGE_FOLDER_ENTRIES });
    const session = new ProjectSession({ root: info.root, logger, fileSystem: options.fileSystem, sizeGuard, exclude: options.exclude });
    const edits = await EditService.create({
      files,
      journalFolder: options.journalFolder,
      ...(options.scratchFolder !== undefined ? { scratchFolder: options.scratchFolder } : {}),
      logger,
      onWillWrite: (path, bytes) => ownWrites.expect(path, bytes),
      names: { hasFile: (path) => session.hasFile(path), filesNamed: (name) => session.filesNamed(name) },
    });
    return new OpenProject(info, files, session, edits, ownWrites, logger, sizeGuard);
  }

  get root(): string {
    return this.info.root;
  }

  get name(): string {
    return this.info.name;
  }

  /** The index's file names, kept live by the watcher (a model's bare name, an editor title's). */
  get names(): ProjectFileNames {
    return { hasFile: (path) => this.session.hasFile(path), filesNamed: (name) => this.session.filesNamed(name) };
  }

  /** The size warning waiting for an answer (a home folder, `/`, a huge folder), or null. */
  get sizeWarning(): SizeWarning | null {
    return this.sizeGuard.current;
  }

  /** The folders the OS would not watch now, in words; null when every folder is watched. */
  get watchLimit(): WatchLimit | null {
    return describeWatchLimit(this.session.unwatchedFolders);
  }

  /** The `exclude` setting changed: the tree is read again with it (what it hides now is no longer watched). */
  setExclude(patterns: readonly string[]): void {
    this.session.setExclude(patterns);
  }

  /** "Open anyway": the tree shows and the watcher starts despite the size warning. */
  openAnyway(): void {
    this.sizeGuard.proceed();
  }

  /** The whole index (main's own readers), or null while the first index runs. */
  get entries(): TreeEntry[] | null {
    return this.session.entries;
  }

  /** The tree's top level, or null before the first index has read it: the UI asks for each folder as it opens. */
  get topLevel(): TreeEntry[] | null {
    return this.session.tree.topLevel;
  }

  /** How many entries the index holds, or null while the first index runs (the top level may show meanwhile). */
  get entryCount(): number | null {
    return this.session.tree.entryCount;
  }

  /** The project in a few lines for the prompt (kept until the tree changes). */
  outline(): string {
    return (this.cachedOutline ??= projectOutline(this.info.name, this.session.entries ?? []));
  }

  /** Starts indexing and watching; the tree follows as events. Call it once the project's events are listened to. */
  start(): Promise<void> {
    for (const notice of this.edits.takeRecoveryNotices()) this._onDidWarn.fire(notice);
    return this.session.start();
  }

  /** Resolves once the watcher sees every save as it happens (tests, benches). */
  whenWatching(): Promise<void> {
    return this.session.whenWatching();
  }

  /**
   * Resolves once the files modified last before the project opened have been read: a save
   * from then on is compared with them (tests, benches). Also when the project closes.
   */
  whenPrimed(): Promise<void> {
    return this.priming.promise;
  }

  listDirectory(path: string): Promise<TreeEntry[]> {
    return this.session.tree.list(path);
  }

  /** The tree's filter: files whose path contains `query`, the first `limit` in path order. */
  findFiles(query: string, showIgnored: boolean, limit: number): FileMatches {
    return this.session.tree.findFiles(query, showIgnored, limit);
  }

  /** What `@` completion offers for `query`, best first. */
  suggestFiles(query: string): string[] {
    return this.session.tree.suggestFiles(query);
  }

  /** The user picked `path` in Flint: it becomes the current file. */
  async select(path: string): Promise<CurrentFile> {
    const { relativePath } = await this.files.resolve(path, 'user');
    // The version shown now is what the next save is compared with.
    void this.history.noteShown(relativePath);
    return this.currentFile.select(relativePath);
  }

  /**
   * Lets the project go: a write in flight lands and the files kept aside for late
   * writers are checked first (a reopen, which the workspace makes wait for this, then
   * recovers nothing still in use); then everything is released and the watcher has let
   * go of every handle.
   */
  async close(): Promise<void> {
    await this.edits.finishWrites().catch((error: unknown) => this.logger.warn('could not finish checking recent writes', error));
    this.priming.resolve();
    this.store.dispose();
    // close(), not dispose(): it waits for the watcher to let go (a dispose first would drop the handle unawaited).
    await this.session.close();
  }

  dispose(): void {
    this.priming.resolve();
    this.store.dispose();
    this.session.dispose();
  }

  private treeLoaded(entries: TreeEntry[]): void {
    this.cachedOutline = null;
    this._onDidLoadTree.fire(entries);
    if (this.primed) return;
    this.primed = true;
    void this.history
      .prime(entries)
      .catch((error: unknown) => this.logger.warn('could not read recently modified files', error))
      .finally(() => this.priming.resolve());
  }

  private treeChanged(changes: TreeChange[]): void {
    this.cachedOutline = null;
    this._onDidChangeTree.fire(changes);
    for (const change of changes) {
      const path = change.type === 'modified' ? change.path : change.type === 'added' ? change.entry.path : null;
      if (path !== null) void this.fileChanged(path);
    }
  }

  /**
   * A file changed on disk: pending hunks on it are planned again — unless it is the echo
   * of Flint's own write, which its boards planned around when it landed. Taken for the
   * user's save, it made a redirect's replacement "conflict with your text".
   */
  private async fileChanged(path: string): Promise<void> {
    if (this.ownWrites.expects(path)) {
      const read = await this.files
        .resolve(path, 'user')
        .then((target) => this.files.readBytes(target))
        .catch(() => null);
      if (this.ownWrites.isOwn(path, read?.bytes ?? null)) return;
    }
    await this.edits.noteFileChanged(path);
  }

  /** A save of a file Flint did not just write is the user's at once; otherwise what the file holds tells. */
  private fileSaved(save: FileSave): void {
    const { path } = save;
    if (!this.ownWrites.expects(path)) return this.userSaved(save);
    void this.files
      .resolve(path, 'user')
      .then((target) => this.files.readBytes(target))
      .then(
        (read) => (this.ownWrites.isOwn(path, read?.bytes ?? null) ? void this.history.noteOwnWrite(path) : this.userSaved(save)),
        // Unreadable now (too large, swapped for a folder…): not Flint's bytes, so the user's.
        () => this.userSaved(save),
      );
  }

  private userSaved({ path, savedAt }: FileSave): void {
    // Before the current file changes: a bar opened on that event waits for this read.
    void this.history.noteSaved(path);
    this.currentFile.noteSaved(path, savedAt);
  }
}

/** The folders of the current file and of the other candidate. */
function focusFoldersOf(current: CurrentFile): string[] {
  return [current.path, current.other?.path].flatMap((path) => (path == null ? [] : [parentPath(path)]));
}
