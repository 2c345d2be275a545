/**
 * The open project's edits: the boards answers put their hunks on, the one write queue
 * (EditApplier) and the undo journal. Keeps pending hunks anchored as files change on
 * disk. Hunks only: prompts, streams and turns belong to the conversation (src/main/ask).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { UndoResult } from '../../shared/contract';
import { parentPath } from '../../shared/paths';
import type { FileText } from '../fs/file-text';
import type { ProjectFiles } from '../fs/project-files';
import { isInsideRoot, toPosixRelative } from '../fs/root-paths';
import { ScratchArea } from '../fs/scratch-area';
import { recoverScratchFiles } from '../fs/scratch-recovery';
import { Emitter, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import { EditApplier } from './edit-applier';
import { FileVersion } from './file-version';
import type { ProjectFileNames } from './model-paths';
import { HunkBoard, type HunkBoardOptions } from './hunk-board';
import { UndoJournal, type UndoOutcome } from './undo-journal';
import { DecisionHistory, type Rejection } from './decision-history';
import type { HunkState } from '../../shared/edits/hunk-types';
import { FlintFailure } from '../../shared/result';

export interface EditServiceOptions {
  files: ProjectFiles;
  /** Folder for undo journals (one file per project). */
  journalFolder: string;
  /** Flint's scratch folder in the OS cache, for writes in projects without a git folder (fs/scratch-area.ts). */
  scratchFolder?: string;
  logger: Logger;
  /** Flint is about to write these bytes to this file (null: delete it), so its watcher echo is not taken for the user's save. */
  onWillWrite: (relativePath: string, bytes: Uint8Array | null) => void;
  /** The project's index of files, for bare file names the model writes. */
  names?: ProjectFileNames;
}

export class EditService implements Disposable {
  private readonly boards = new Set<HunkBoard>();
  /** Rejections, in order with the journal's writes: what Undo and Redo take next (see decision-history.ts). */
  private readonly history = new DecisionHistory<HunkBoard>();
  /** Redo is rejecting hunks again: not a new decision that would end the redo branch. */
  private redoing = false;
  private readonly _onDidWarn = new Emitter<string>();
  /** Something the user must hear about outside any answer (a save that raced a write). */
  readonly onDidWarn: Event<string> = this._onDidWarn.event;

  private constructor(
    private readonly files: ProjectFiles,
    private readonly applier: EditApplier,
    private readonly journal: UndoJournal,
    private readonly logger: Logger,
    private readonly names: ProjectFileNames | undefined,
    /** What recovery found at open, told once someone listens (see takeRecoveryNotices). */
    private recoveryNotices: string[],
  ) {}

  static async create(options: EditServiceOptions): Promise<EditService> {
    const { files } = options;
    const name = createHash('sha256').update(files.root).digest('hex').slice(0, 16);
    const journal = await UndoJournal.open(join(options.journalFolder, `${name}.jsonl`));
    const scratch = options.scratchFolder !== undefined ? { cacheFolder: options.scratchFolder } : {};
    const notices = await recoverInterruptedWrites(ScratchArea.for(files.root, scratch), journal);
    let service: EditService | undefined;
    const applier = new EditApplier(files, journal, options.onWillWrite, {
      ...scratch,
      onLateWriter: ({ path, keptAs }) =>
        service?._onDidWarn.fire(
          keptAs
            ? `Another program saved ${path} while Flint was writing it. Flint's change is on disk; your version is kept as ${keptAs}.`
            : `Another program saved ${path} while Flint was writing it. Your version was put back; Flint's change to it is not on disk.`,
        ),
    });
    service = new EditService(files, applier, journal, options.logger, options.names, notices);
    return service;
  }

  /** What recovering interrupted writes found when the project opened (once). */
  takeRecoveryNotices(): string[] {
    const notices = this.recoveryNotices;
    this.recoveryNotices = [];
    return notices;
  }

  /** A board for one answer's hunks; it leaves this service when disposed. */
  openBoard(report: HunkBoardOptions['report'], streaming?: HunkBoardOptions['streaming']): HunkBoard {
    const board = new HunkBoard({
      applier: this.applier,
      readText: (path) => this.files.readText(path),
      ...(this.names ? { names: this.names } : {}),
      report,
      ...(streaming ? { streaming } : {}),
      logger: this.logger,
      onDidDispose: () => this.boards.delete(board),
      onDidReject: (hunkIds) => !this.redoing && this.history.rejected(board, hunkIds, this.journal.recorded),
    });
    this.boards.add(board);
    return board;
  }

  /** Takes back the newest decision: a rejection (its hunks are undecided again) or a write. */
  async undo(): Promise<UndoResult> {
    for (;;) {
      const write = this.journal.nextUndo();
      const step = this.history.nextUndo(write === null ? null : this.journal.ordinalOf(write));
      if (step === null) return { status: 'empty', message: 'Nothing to undo.' };
      if (step === 'write') {
        const outcome = await this.applier.undo();
        await this.noteRestored(outcome, true);
        if (outcome.status === 'done') this.history.undid(step, this.journal.recorded);
        return describeUndo(outcome, 'Undid');
      }
      const restored = await retake(step, (board, hunkId) => board.restoreRejected(hunkId));
      // Its answer is gone, or its hunks were restored or decided since: the one before it is next.
      if (restored.length === 0) this.history.drop(step);
      else {
        this.history.undid(step, this.journal.recorded);
        return { status: 'done', path: restored[0]!.path, message: `Restored ${describeHunks(restored)}: undecided again.` };
      }
    }
  }

  /** Makes again what Undo took back last: a rejection, or a write. */
  async redo(): Promise<UndoResult> {
    const step = this.history.nextRedo(this.journal.recorded);
    if (step === null) return { status: 'empty', message: 'Nothing to redo.' };
    if (step === 'journal' || step === 'write') {
      const outcome = await this.applier.redo();
      await this.noteRestored(outcome, false);
      if (step === 'write' && outcome.status !== 'conflict' && outcome.status !== 'refused') this.history.redid(step, this.journal.recorded);
      return describeUndo(outcome, 'Redid');
    }
    this.redoing = true;
    const rejected = await retake(step, async (board, hunkId) => board.reject(hunkId)).finally(() => (this.redoing = false));
    this.history.redid(step, this.journal.recorded, rejected.map((hunk) => hunk.id));
    if (rejected.length === 0) return { status: 'empty', message: 'Nothing to redo: those hunks were decided since.' };
    return { status: 'done', path: rejected[0]!.path, message: `Rejected ${describeHunks(rejected)} again.` };
  }

  /**
   * The hunks whose writes an Undo or Redo restored (all of its group, or those before a
   * conflict) show it, and the other hunks of those files are planned on what they hold now.
   */
  private async noteRestored(outcome: UndoOutcome, undone: boolean): Promise<void> {
    const restored = outcome.status === 'done' ? outcome.entries : outcome.status === 'empty' ? [] : outcome.done;
    // The others first: the hunks whose writes were restored then say so, in words of their own.
    for (const path of new Set(restored.map((entry) => entry.path))) {
      const text = await this.files.readText(path).catch(() => null);
      if (text === null) continue;
      const version = FileVersion.of(text);
      for (const board of this.boards) board.noteRestored(path, version);
    }
    for (const entry of restored) for (const board of this.boards) board.noteJournalChange(entry.id, undone);
  }

  /** A file changed on disk: pending hunks on it are planned again on its new text. */
  async noteFileChanged(path: string): Promise<void> {
    // Runs on every external save: read the file only if some hunk depends on it.
    const boards = [...this.boards].filter((board) => board.caresAbout(path));
    if (boards.length === 0) return;
    let text: FileText | null;
    try {
      text = await this.files.readText(path);
    } catch {
      // Unreadable for now (half-written, not UTF-8, outside the project): not a deletion.
      return;
    }
    // One version for every board: its indexes and its diff from each base are worked out once.
    const version = text === null ? null : FileVersion.of(text);
    for (const board of boards) board.noteFileChanged(path, version);
  }

  /** Checks the files still kept aside for late writers now; await it before the project closes. */
  finishWrites(): Promise<void> {
    return this.applier.dispose();
  }

  dispose(): void {
    for (const board of [...this.boards]) board.dispose();
    this._onDidWarn.dispose();
    // Files kept aside for late writers are checked now rather than when their timers fire.
    void this.applier.dispose();
  }
}

/** Puts back files a crash left taken aside mid-write (in the folders the journal names); returns what to tell the user. */
async function recoverInterruptedWrites(area: ScratchArea, journal: UndoJournal): Promise<string[]> {
  const root = area.root;
  const paths = [...journal.touchedPaths].filter((path) => isInsideRoot(root, path));
  const folders = paths.map((path) => parentPath(toPosixRelative(root, path)));
  const images = journal.history.flatMap((entry) => [entry.before, entry.after]).filter((bytes) => bytes !== null);
  const report = await recoverScratchFiles(area, folders, (bytes) => images.some((image) => Buffer.from(image).equals(Buffer.from(bytes))));
  return [
    ...report.restored.map((path) => `Flint was interrupted while writing ${path}; the file was put back as it was.`),
    ...report.kept.map((path) => `Flint was interrupted while writing a file; a version it had set aside is kept as ${path}.`),
  ];
}

/** The hunks of `rejection` that `act` (restore, or reject again) took; those it refuses (decided since, their answer gone) are passed over. */
async function retake(rejection: Rejection<HunkBoard>, act: (board: HunkBoard, hunkId: string) => Promise<HunkState>): Promise<Array<{ id: string; number: number; path: string }>> {
  const taken: Array<{ id: string; number: number; path: string }> = [];
  for (const hunkId of rejection.hunkIds) {
    try {
      await act(rejection.target, hunkId);
      taken.push({ id: hunkId, ...rejection.target.describe(hunkId) });
    } catch (error) {
      if (!(error instanceof FlintFailure)) throw error;
    }
  }
  return taken;
}

/** "hunk 2 in src/a.ts", or "3 hunks (src/a.ts, src/b.ts)". */
function describeHunks(hunks: ReadonlyArray<{ number: number; path: string }>): string {
  if (hunks.length === 1) return `hunk ${hunks[0]!.number} in ${hunks[0]!.path}`;
  return `${hunks.length} hunks (${[...new Set(hunks.map((hunk) => hunk.path))].join(', ')})`;
}

function describeUndo(outcome: UndoOutcome, verb: string): UndoResult {
  switch (outcome.status) {
    case 'done': {
      const paths = [...new Set(outcome.entries.map((entry) => entry.path))];
      const what = paths.length === 1 ? `the change to ${paths[0]}` : `the changes to ${paths.length} files (${paths.join(', ')})`;
      return { status: 'done', path: paths[0]!, message: `${verb} ${what}.` };
    }
    case 'conflict':
    case 'refused': {
      const partly = outcome.done.length > 0 ? ` (${outcome.done.map((entry) => entry.path).join(', ')} ${verb === 'Undid' ? 'undone' : 'redone'} before it)` : '';
      return { status: outcome.status, path: outcome.entry.path, message: `${outcome.message}${partly}` };
    }
    case 'empty':
      return { status: 'empty', message: verb === 'Undid' ? 'Nothing to undo.' : 'Nothing to redo.' };
    default: {
      const exhaustive: never = outcome;
      return exhaustive;
    }
  }
}
