/**
 * The one slot the open project lives in: opening a folder closes the project before it
 * (and waits until it is gone), closing lets the whole OpenProject go. Opens and closes
 * take turns, so there is never a second project, nor one half closed while the next
 * opens. Everything else asks this slot for "the open project, if any".
 */
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import type { CloseReason, ProjectInfo } from '../../shared/project-types';
import { FlintFailure } from '../../shared/result';
import { toFlintFailure } from '../fs/fs-errors';
import { Emitter, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import { LARGE_FOLDER_ENTRIES, reasonAtOnceFor, type SizeGuardOptions } from '../project/size-guard';
import type { ScanFileSystem } from '../project/tree-scanner';
import { OpenProject } from './open-project';

export interface WorkspaceOptions {
  /** Folder for undo journals (one file per project). */
  journalFolder: string;
  /** Flint's scratch folder in the OS cache, for writes in projects without a git folder (fs/scratch-area.ts). */
  scratchFolder?: string;
  logger: Logger;
  /** Test seam for the project scan. */
  fileSystem?: ScanFileSystem;
  /** The user's home folder, which is opened only after a warning (default: the OS's; tests give a fake one). */
  home?: string;
  /** Entries past which any folder is opened only after a warning (default LARGE_FOLDER_ENTRIES). */
  largeFolderEntries?: number;
  /** What every project hides besides its .gitignore files (the `exclude` setting), as it is now. */
  exclude?: () => readonly string[];
}

export interface ClosedProject {
  projectId: number;
  reason: CloseReason;
  message: string;
}

export class Workspace implements Disposable {
  private current: OpenProject | null = null;
  private nextProjectId = 1;
  /** The open or close under way; the next waits for it. */
  private turns: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private readonly _onDidOpen = new Emitter<OpenProject>();
  private readonly _onWillClose = new Emitter<OpenProject>();
  private readonly _onDidClose = new Emitter<ClosedProject>();

  /** A project opened; its tree follows as its own events (subscribe to them here). */
  readonly onDidOpen: Event<OpenProject> = this._onDidOpen.event;
  /** The project is about to close: what lives on its parts (answers on its edits) goes first. */
  readonly onWillClose: Event<OpenProject> = this._onWillClose.event;
  /** The project closed (after everything it held was released). */
  readonly onDidClose: Event<ClosedProject> = this._onDidClose.event;

  constructor(private readonly options: WorkspaceOptions) {}

  /** The open project, if any. */
  get project(): OpenProject | null {
    return this.current;
  }

  /** The open project, or a failure the UI can show as is. */
  requireProject(): OpenProject {
    if (!this.current) throw new FlintFailure('no-project', 'No project is open. Open a folder first.');
    return this.current;
  }

  /**
   * Opens `path` (absolute, or starting with `~`), replacing the open project.
   * Resolves once the folder is known to be readable; indexing goes on in the background.
   *
   * Opens and closes take turns: an open waits for the close before it (its writes
   * finished, its watcher gone) before the next project recovers or journals anything,
   * and a Close clicked while a folder opens closes that folder once it is open.
   */
  async open(path: string): Promise<OpenProject> {
    return this.inTurn(async () => {
      const root = await checkFolder(expandHome(path.trim()));
      await this.closeNow('closed', 'Another project was opened.');
      const info: ProjectInfo = { id: this.nextProjectId++, root, name: basename(root) || root };
      const { journalFolder, scratchFolder, logger, fileSystem } = this.options;
      const sizeCheck = await this.sizeCheckFor(root);
      const exclude = this.options.exclude?.() ?? [];
      const project = await OpenProject.open({ info, journalFolder, scratchFolder, logger, fileSystem, sizeCheck, exclude });
      if (this.disposed) {
        project.dispose();
        throw new FlintFailure('no-project', 'Flint is quitting; the folder was not opened.');
      }
      this.current = project;
      project.onDidLoseRoot((message) => void this.close('lost', message, info.id));
      this._onDidOpen.fire(project);
      project.start().catch((error: unknown) => {
        const failure = toFlintFailure(error, root);
        void this.close('lost', `Could not index ${root}: ${failure.message}`, info.id);
      });
      return project;
    });
  }

  /** Closes the open project (only if it is still `projectId`, when given). */
  close(reason: CloseReason, message: string, projectId?: number): Promise<void> {
    return this.inTurn(() => this.closeNow(reason, message, projectId));
  }

  dispose(): void {
    this.disposed = true;
    if (this.current) this._onWillClose.fire(this.current);
    this.current?.dispose();
    this.current = null;
    this._onDidOpen.dispose();
    this._onWillClose.dispose();
    this._onDidClose.dispose();
  }

  private async closeNow(reason: CloseReason, message: string, projectId?: number): Promise<void> {
    const project = this.current;
    if (!project || (projectId !== undefined && project.info.id !== projectId)) return;
    this.current = null;
    this._onWillClose.fire(project);
    try {
      await project.close();
    } finally {
      // Closed either way (a watcher that would not let go is gone with it): what waits for the close goes on.
      this._onDidClose.fire({ projectId: project.info.id, reason, message });
    }
  }

  /**
   * A home folder and `/` are warned about before they are indexed; any other folder once its
   * scan finds too much — unless it is a repository: a monorepo of a million files is what
   * its user meant to open, and it opens at once.
   */
  private async sizeCheckFor(root: string): Promise<SizeGuardOptions> {
    const home = this.options.home ?? homedir();
    const realHome = await realpath(home).catch(() => home);
    const reasonAtOnce = reasonAtOnceFor(root, realHome);
    const isRepository = await lstat(join(root, '.git')).then(() => true, () => false);
    return { reasonAtOnce, largeEntries: isRepository && reasonAtOnce === null ? Infinity : (this.options.largeFolderEntries ?? LARGE_FOLDER_ENTRIES) };
  }

  /** Runs `task` after every open and close before it has finished (failed ones too). */
  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    const run = this.turns.then(task);
    this.turns = run.catch(() => undefined);
    return run;
  }
}

function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return path;
}

/** Checks that `path` is a readable folder and returns its real path. */
async function checkFolder(path: string): Promise<string> {
  if (path.includes('\0')) throw new FlintFailure('invalid-input', 'That path contains a NUL byte.');
  if (!isAbsolute(path)) {
    throw new FlintFailure('invalid-input', `Type a full path (like /home/you/project), not ${JSON.stringify(path)}.`);
  }
  try {
    const stats = await stat(path);
    if (!stats.isDirectory()) throw new FlintFailure('not-a-directory', `${path} is a file, not a folder.`);
    const root = await realpath(path);
    await (await opendir(root)).close();
    return root;
  } catch (error) {
    const failure = toFlintFailure(error, path);
    if (failure.code === 'not-found') throw new FlintFailure('not-found', `There is no folder at ${path}.`);
    throw failure;
  }
}
