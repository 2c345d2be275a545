/**
 * An answer's files and hunks, and the one place a hunk's state changes and is reported.
 * HunkBoard (hunk-board.ts) builds the answer's operations on it: taking the parser's
 * events, accepting, rejecting, reverting, following the files on disk.
 *
 * Every state change goes through `nextHunkState` (src/shared/edits/hunk-state.ts), the one
 * table of what may follow what; where hunks anchor is HunkPlanner's.
 */
import type { HunkLine } from '../../shared/edits/edit-types';
import { isUndecided, nextHunkState, type HunkEvent, type RestorableState } from '../../shared/edits/hunk-state';
import type { HunkState, HunkUpdate } from '../../shared/edits/hunk-types';
import { FlintFailure } from '../../shared/result';
import type { FileText } from '../fs/file-text';
import type { Logger } from '../logger';
import type { EditApplier } from './edit-applier';
import { DecisionLog } from './decision-log';
import { hunkUpdateOf, type FileRecord, type HunkRecord, type HunkWrite } from './edit-records';
import { FileVersion } from './file-version';
import { applyInput } from './hunk-kinds';
import { HunkPlanner, type ReplanReason } from './hunk-planner';
import { bringBack } from './hunk-revert';
import { restRetiredWords } from './hunk-rest';
import type { ProjectFileNames } from './model-paths';
import { StreamedUpdates, type StreamingSink } from './streamed-updates';
import { newerOverlap } from './superseded-hunks';

export interface HunkBoardOptions {
  applier: EditApplier;
  /** A project file's current text (null if it does not exist). */
  readText: (path: string) => Promise<FileText | null>;
  /** The project's index of files, for bare file names the model writes. */
  names?: ProjectFileNames;
  /** A hunk changed; `urgent` for its first line (see UpdateBatcher). */
  report: (update: HunkUpdate, urgent: boolean) => void;
  /**
   * A streaming hunk grew (a line arrived, its line in progress changed): its update is built
   * as its batch goes out (see streamed-updates.ts). Without it, each is reported at once.
   */
  streaming?: StreamingSink;
  logger: Logger;
  /** The board is let go (its answer is over). */
  onDidDispose?: () => void;
  /** The user rejected these hunks, in one step (Reject, Reject all): Undo can take the step back. */
  onDidReject?: (hunkIds: readonly string[]) => void;
}

type Change = { message?: string; anchorLine?: number | null };

/** An answer's files and hunks, with the one place a hunk's state changes; HunkBoard adds the operations. */
export abstract class BoardState {
  protected readonly files: FileRecord[] = [];
  protected readonly hunks = new Map<string, HunkRecord>();
  /** Hunk order in the UI. */
  protected readonly order: HunkRecord[] = [];
  protected readonly planner: HunkPlanner;
  /** What the user decided since the model last heard: the note for its next turn (see decision-log.ts). */
  readonly decisions = new DecisionLog();
  /** Some hunk was superseded: newer hunks' changes may move its warning (see report). */
  protected hasSuperseded = false;
  /** Streaming hunks' lines and previews, sent with their batches (null: reported as they come). */
  private readonly streamed: StreamedUpdates | null;
  protected disposed = false;

  constructor(protected readonly options: HunkBoardOptions) {
    this.planner = new HunkPlanner(options.readText);
    this.streamed = options.streaming ? new StreamedUpdates(options.streaming, (hunk, lines) => hunkUpdateOf(hunk, this.files[hunk.fileIndex]!, lines, this.overlapOf(hunk))) : null;
  }

  /**
   * The hunk's write is off disk (`off`: undone or reverted), or back on it: its card and
   * the model hear so. `write`: the write an Undo or Redo brought back or took off, which
   * the hunk becomes again (its lines, revision, landing) before anyone hears of it; off
   * disk, it shows the model's lines again, unrevised (see bringBack).
   */
  protected wentBack(hunk: HunkRecord, off: boolean, message: string, write?: HunkWrite): void {
    if (bringBack(hunk, write, off)) this.report(hunk, [], true);
    const file = this.files[hunk.fileIndex]!;
    if (off) this.decisions.undone(hunk.number, file.path);
    else this.decisions.accepted(hunk.number, file.path, hunk.revised);
    this.transition(hunk, { type: off ? 'undone' : 'redone' }, { message });
    if (hunk.kind === 'move') this.followMove(file, off);
    const rest = off && hunk.restId !== undefined ? this.hunks.get(hunk.restId) : undefined;
    if (rest && isUndecided(rest.state)) this.transition(rest, { type: 'section-refused' }, { message: restRetiredWords(hunk) });
  }

  /** A move was undone (its section is back at its old path) or redone; every card of the section says where. */
  protected followMove(file: FileRecord, undone: boolean): void {
    if (file.movedFrom === undefined) return;
    file.path = undone ? file.movedFrom : file.moveTo!;
    for (const hunk of this.order) if (this.files[hunk.fileIndex] === file) this.report(hunk);
  }

  /**
   * A refused move refuses its whole file section: the section's hunks were written for
   * the moved file, and applying them at the old path is not what the model proposed.
   * Hunks still streaming are refused when they settle; written ones stay written.
   */
  protected refuseSection(fileIndex: number, reason: string): void {
    const file = this.files[fileIndex]!;
    file.refusal ??= `${reason} The file's whole section is refused with its move.`;
    for (const hunk of this.order) {
      if (hunk.fileIndex === fileIndex && isUndecided(hunk.state)) this.transition(hunk, { type: 'section-refused' }, { message: file.refusal });
    }
  }

  /**
   * Plans the undecided line hunks of `path` (by path: another turn's section for the
   * same file is the same file) again on what it holds now (see HunkPlanner.replan).
   */
  protected replanAll(path: string, current: FileVersion, after: ReplanReason, except?: ReadonlySet<HunkRecord>): void {
    for (const hunk of this.order) {
      const file = this.files[hunk.fileIndex]!;
      const queued = after !== 'saved' && hunk.kind === 'update' && hunk.state === 'applying';
      // Conflicts are planned again too: the user may have put the lines back.
      if (except?.has(hunk) || (!this.replannable(hunk) && !queued) || file.path !== path) continue;
      const outcome = this.planner.replan(hunk, file, current, after, queued);
      if (outcome !== null) this.transition(hunk, outcome.event, outcome.change);
    }
  }

  /** An update hunk waiting on its file's text: a change to the file can move or break it. */
  protected replannable(hunk: HunkRecord): boolean {
    return hunk.kind === 'update' && (hunk.state === 'pending' || hunk.state === 'conflict');
  }

  /** The hunk of this answer named `hunkId`; 'not-found' when there is none, or the answer is over. */
  protected require(hunkId: string): HunkRecord {
    if (this.disposed) throw new FlintFailure('not-found', 'That answer is over (the project was closed or reopened).');
    const hunk = this.hunks.get(hunkId);
    if (!hunk) throw new FlintFailure('not-found', 'That hunk is not part of this answer.');
    return hunk;
  }

  /** A user's decision: one the hunk's state does not allow is refused in words; a rejection is told to the model. */
  protected decide(hunk: HunkRecord, event: HunkEvent): void {
    const next = nextHunkState(hunk.state, event);
    if (!next.ok) throw new FlintFailure('invalid-state', next.message);
    const from = hunk.state;
    this.transition(hunk, event);
    const path = this.files[hunk.fileIndex]!.path;
    if (event.type === 'reject' && from !== 'rejected') {
      // What a Restore takes it back to (a cut-off hunk stays one that can only be discarded). The
      // table lets only these states be rejected: pending, conflict, unmatched, partial, refused.
      hunk.rejectedFrom = from as RestorableState;
      this.decisions.rejected(hunk.number, path);
    } else if (event.type === 'restored') {
      delete hunk.rejectedFrom;
      this.decisions.restored(hunk.number, path);
    }
  }

  /**
   * Takes a rejection back (the card's Restore, or Undo): the hunk is undecided again as it
   * was, planned on what its file holds now, and the model hears of it.
   */
  async restoreRejected(hunkId: string): Promise<HunkState> {
    const hunk = this.require(hunkId);
    this.decide(hunk, { type: 'restored', to: hunk.rejectedFrom ?? (hunk.complete ? 'pending' : 'partial') });
    if (!this.replannable(hunk)) return hunk.state;
    const file = this.files[hunk.fileIndex]!;
    const text = await this.options.readText(file.path).catch(() => undefined);
    // Unreadable now (half-written…): planned at the next save, as any pending hunk.
    if (text === undefined || this.disposed || !this.replannable(hunk)) return hunk.state;
    if (text === null) {
      if (!applyInput(hunk, file).createIfMissing) this.transition(hunk, { type: 'file-deleted' }, { message: `${file.path} was deleted.` });
    } else {
      const outcome = this.planner.replan(hunk, file, FileVersion.of(text), 'restored', false);
      if (outcome !== null) this.transition(hunk, outcome.event, outcome.change);
    }
    return hunk.state;
  }

  /**
   * The one place a hunk's state changes. An event the table does not allow in the
   * hunk's state (a late settle of a hunk refused meanwhile) changes nothing; one that
   * reports a write must always apply, so losing one is logged (the card would lie).
   */
  protected transition(hunk: HunkRecord, event: HunkEvent, change: Change = {}): void {
    const next = nextHunkState(hunk.state, event);
    if (!next.ok) {
      if (event.type === 'written' || event.type === 'write-declined' || event.type === 'write-failed') {
        this.options.logger.warn(`hunk ${hunk.id}: ${event.type} arrived in state ${hunk.state}; the card may not show what is on disk`);
      }
      return;
    }
    hunk.state = next.state;
    // A new state brings its own message, or none: never the previous state's.
    hunk.message = change.message;
    if (change.anchorLine !== undefined) hunk.anchorLine = change.anchorLine;
    this.report(hunk);
  }

  /**
   * Shows `hunk` with `shown` lines and revision (a revision applied, or taken back when
   * nothing was written), telling the renderer all its lines once. The model's lines are
   * kept the first time they are revised.
   */
  protected showLines(hunk: HunkRecord, shown: Pick<HunkRecord, 'lines' | 'revised'>): void {
    if (shown.revised !== undefined) hunk.modelLines ??= hunk.lines;
    hunk.lines = shown.lines;
    if (shown.revised === undefined) delete hunk.revised;
    else hunk.revised = shown.revised;
    this.report(hunk, [], true);
  }

  /**
   * A streaming hunk grew: `line` arrived (already on its lines), or its line in progress
   * changed. Until its first line is whole the preview is what the user waits for, then that
   * line: both go out at once (urgent).
   */
  protected grew(hunk: HunkRecord, line?: HunkLine): void {
    const urgent = hunk.lines.length === (line ? 1 : 0);
    if (this.streamed) return this.streamed.grew(hunk, urgent);
    this.report(hunk, line ? [line] : [], false, urgent);
  }

  /** A hunk grows no more (its last line came, or it was cut off). */
  protected stoppedGrowing(hunk: HunkRecord): void {
    this.streamed?.forget(hunk);
  }

  /** A superseded undecided hunk's warning: which newer hunk touches its lines (see newerOverlap). */
  private overlapOf(hunk: HunkRecord): string | undefined {
    return hunk.superseded && isUndecided(hunk.state) ? newerOverlap(hunk, this.order, (other) => this.files[other.fileIndex]!.path) : undefined;
  }

  /**
   * Tells the renderer about `hunk`: its state, lines that arrived (`appendLines`), or all
   * its lines once revised (`replaceLines`); `urgent` (by default: the hunk's first lines)
   * goes out at once (see UpdateBatcher).
   */
  protected report(hunk: HunkRecord, appendLines: HunkLine[] = [], replaceLines = false, urgent = appendLines.length > 0 && hunk.lines.length === appendLines.length): void {
    const file = this.files[hunk.fileIndex]!;
    this.options.report(hunkUpdateOf(hunk, file, appendLines, this.overlapOf(hunk), replaceLines), urgent);
    // A newer hunk that moved on may now touch (or no longer touch) a superseded one's lines: its warning follows.
    if (this.hasSuperseded && !hunk.superseded && appendLines.length === 0) {
      for (const other of this.order) if (other.superseded && isUndecided(other.state) && this.files[other.fileIndex]!.path === file.path) this.report(other);
    }
  }
}
