/**
 * The hunks of one answer, from the parser's file and hunk events to the user's
 * decisions: which file each belongs to, where it anchors, and what state it is in.
 *
 * Every state change goes through `nextHunkState` (src/shared/edits/hunk-state.ts), the one
 * table of what may follow what; where hunks anchor is HunkPlanner's. Knows nothing of
 * prompts or streams: the conversation (src/main/ask) hands it events.
 */
import type { EditEvent, EditFormat, HunkLine } from '../../shared/edits/edit-types';
import { isUndecided, nextHunkState, type HunkEvent } from '../../shared/edits/hunk-state';
import type { HunkState, HunkUpdate } from '../../shared/edits/hunk-types';
import { FlintFailure } from '../../shared/result';
import type { FileText } from '../fs/file-text';
import { lexicalRefusal, shownPath } from '../fs/project-files';
import type { Disposable } from '../lifecycle';
import type { Logger } from '../logger';
import { acceptAll } from './accept-all';
import { restoredRecords, snapshotOf, type BoardSnapshot } from './board-snapshot';
import { DecisionLog } from './decision-log';
import type { ApplyResult, EditApplier } from './edit-applier';
import { hunkUpdateOf, type FileRecord, type HunkRecord } from './edit-records';
import type { FileVersion } from './file-version';
import { appendedNote, applyInput, applyRecord, contentRefusal, declineWords } from './hunk-kinds';
import { HunkPlanner, type ReplanReason } from './hunk-planner';
import { namesProjectFile, resolveModelPath, type ProjectFileNames } from './model-paths';
import { countHunks, newerOverlap, supersede } from './superseded-hunks';

/** The parser's events a board takes: everything but the prose around the edits. */
export type HunkEventOfStream = Exclude<EditEvent, { type: 'prose' | 'problem' }>;

export interface HunkBoardOptions {
  applier: EditApplier;
  /** A project file's current text (null if it does not exist). */
  readText: (path: string) => Promise<FileText | null>;
  /** The project's index of files, for bare file names the model writes. */
  names?: ProjectFileNames;
  /** A hunk changed; `urgent` for its first line (see UpdateBatcher). */
  report: (update: HunkUpdate, urgent: boolean) => void;
  logger: Logger;
  /** The board is let go (its answer is over). */
  onDidDispose?: () => void;
}

type Change = { message?: string; anchorLine?: number | null };

export class HunkBoard implements Disposable {
  private readonly files: FileRecord[] = [];
  private readonly hunks = new Map<string, HunkRecord>();
  /** Hunk order in the UI. */
  private readonly order: HunkRecord[] = [];
  private readonly planner: HunkPlanner;
  /** What the user decided since the model last heard: the note for its next turn (see decision-log.ts). */
  readonly decisions = new DecisionLog();
  /** The next hunk's number in the answer ("hunk 2"), across turns. */
  private nextNumber = 1;
  /** Some hunk was superseded: newer hunks' changes may move its warning (see report). */
  private hasSuperseded = false;
  private disposed = false;

  constructor(private readonly options: HunkBoardOptions) {
    this.planner = new HunkPlanner(options.readText);
  }

  /** The texts the model is shown in a turn: its hunks for those files anchor against them. */
  noteShown(shown: ReadonlyMap<string, FileText>): void {
    this.planner.noteShown(shown);
  }

  /** Whether a line of the answer names a project file (the parser's question about search/replace path lines). */
  namesProjectFile(candidate: string): boolean {
    return namesProjectFile(candidate, this.options.names);
  }

  /**
   * The sink for one turn's parser. Each turn carries its own turn number and file
   * offset: a superseded turn's late events can never land in the new turn's hunks.
   */
  beginTurn(turn: number): (event: HunkEventOfStream) => void {
    const fileOffset = this.files.length;
    return (event) => this.take(event, turn, fileOffset);
  }

  async accept(hunkId: string, group?: string): Promise<HunkState> {
    const hunk = this.require(hunkId);
    this.decide(hunk, { type: 'accept' });
    const file = this.files[hunk.fileIndex]!;
    let result: ApplyResult & { written?: FileVersion };
    try {
      result = await applyRecord(this.options.applier, hunk, file, group);
    } catch (error) {
      this.writeFailed([hunk], file, error);
      return hunk.state;
    }
    this.written(hunk, file, result);
    if (hunk.kind === 'move' && result.status === 'refused') this.refuseSection(hunk.fileIndex, result.message);
    // The section's other cards show the file where it is now.
    if (hunk.kind === 'move' && result.status === 'applied') this.followMove(file, false);
    // The file's other hunks stand on what was written where they anchor there: no false 3-way conflicts between neighbours.
    if (result.status === 'applied' && result.written) this.replanAll(file.path, result.written, 'written', new Set([hunk]));
    return hunk.state;
  }

  reject(hunkId: string): HunkState {
    const hunk = this.require(hunkId);
    this.decide(hunk, { type: 'reject' });
    return hunk.state;
  }

  /** A redirect or a retry replaced `turns` (see superseded-hunks.ts); returns how many hunks it superseded. */
  supersede(turns: ReadonlySet<number>): number {
    const superseded = supersede(this.order, turns);
    this.hasSuperseded ||= superseded.length > 0;
    for (const hunk of superseded) this.report(hunk);
    return superseded.length;
  }

  /** How many hunks Accept all would take, and how many a redirect superseded (undecided). */
  counts(): { pending: number; superseded: number } {
    return countHunks(this.order);
  }

  /** The board as plain data, to keep between runs (see board-snapshot.ts). */
  snapshot(): BoardSnapshot {
    return snapshotOf(this.files, this.order);
  }

  /** Takes back a board kept from an earlier run (into a new, empty one); its undecided hunks are planned again on today's files. */
  restore(snapshot: BoardSnapshot): void {
    if (this.order.length > 0 || this.files.length > 0) throw new Error('restore() is for an empty board');
    const { files, hunks, toSettle } = restoredRecords(snapshot);
    this.files.push(...files);
    this.order.push(...hunks);
    for (const hunk of hunks) this.hunks.set(hunk.id, hunk);
    this.nextNumber = Math.max(1, ...hunks.map((hunk) => hunk.number + 1));
    this.hasSuperseded = hunks.some((hunk) => hunk.superseded);
    for (const hunk of toSettle) void this.settle(hunk);
  }

  /**
   * Accepts every pending hunk, in order, as one step for Undo; returns how many were
   * written (see accept-all.ts).
   */
  acceptAll(): Promise<number> {
    return acceptAll({
      // A superseded hunk is only ever accepted on its own.
      pending: () => this.order.filter((hunk) => hunk.state === 'pending' && !hunk.superseded),
      fileOf: (hunk) => this.files[hunk.fileIndex]!,
      acceptOne: async (hunk, group) => (await this.accept(hunk.id, group)) === 'accepted',
      acceptTogether: (file, hunks, group) => this.acceptTogether(file, hunks, group),
    });
  }

  /** Accepts line hunks of one file in one write; returns how many landed. */
  private async acceptTogether(file: FileRecord, hunks: HunkRecord[], group: string): Promise<number> {
    for (const hunk of hunks) this.decide(hunk, { type: 'accept' });
    const writable: HunkRecord[] = [];
    for (const hunk of hunks) {
      const refusal = contentRefusal(hunk);
      if (refusal === null) writable.push(hunk);
      else this.transition(hunk, { type: 'write-declined', outcome: 'refused' }, { message: refusal });
    }
    if (writable.length === 0) return 0;
    let outcome: Awaited<ReturnType<EditApplier['applyHunks']>>;
    try {
      outcome = await this.options.applier.applyHunks(writable.map((hunk) => applyInput(hunk, file)), group);
    } catch (error) {
      this.writeFailed(writable, file, error);
      return 0;
    }
    writable.forEach((hunk, index) => this.written(hunk, file, outcome.results[index]!));
    if (outcome.written) this.replanAll(file.path, outcome.written, 'written', new Set(writable));
    return writable.filter((hunk) => hunk.state === 'accepted').length;
  }

  /** The applier answered for `hunk`: written, or declined with its reason. */
  private written(hunk: HunkRecord, file: FileRecord, result: ApplyResult): void {
    const savedByUser = this.files.some((other) => other.path === file.path && other.savedByUser);
    if (result.status !== 'applied') return this.transition(hunk, { type: 'write-declined', outcome: result.status }, { message: declineWords(result, file, savedByUser) });
    if (result.entry) hunk.journalEntryId = result.entry.id;
    // Carried past Flint's own writes only, it was not merged around anything of the user's.
    const merged = result.merged && savedByUser;
    this.decisions.accepted(hunk.number, file.path);
    const message = result.created ? `Created ${file.path}.` : result.appended ? appendedNote(hunk, file) : merged ? 'Merged around your edits.' : file.pathNote;
    this.transition(hunk, { type: 'written' }, { message });
  }

  private writeFailed(hunks: readonly HunkRecord[], file: FileRecord, error: unknown): void {
    this.options.logger.error('applying a hunk failed', error);
    const message = `Could not write ${file.path}: ${error instanceof Error ? error.message : String(error)}`;
    for (const hunk of hunks) this.transition(hunk, { type: 'write-failed' }, { message });
  }

  /** Rejects every undecided hunk; returns how many. */
  rejectAll(): number {
    const undecided = this.order.filter((hunk) => isUndecided(hunk.state));
    for (const hunk of undecided) this.decide(hunk, { type: 'reject' });
    return undecided.length;
  }

  /** Whether a save of `path` could change any hunk here (so the file is worth reading). */
  caresAbout(path: string): boolean {
    return this.order.some((hunk) => this.replannable(hunk) && this.files[hunk.fileIndex]!.path === path);
  }

  /** The user (or another program) saved `path`: its pending hunks are planned again on the new text. */
  noteFileChanged(path: string, current: FileVersion | null): void {
    for (const file of this.files) if (file.path === path) file.savedByUser = true;
    if (current !== null) {
      for (const hunk of this.order) {
        if (this.replannable(hunk) && hunk.base && hunk.baseRange && this.files[hunk.fileIndex]!.path === path) this.decisions.userChanged(hunk.number, path, hunk.base, current, hunk.baseRange);
      }
      return this.replanAll(path, current, 'saved');
    }
    for (const hunk of this.order) {
      const file = this.files[hunk.fileIndex]!;
      // A block that creates its file when there is none is not hurt by its deletion.
      if (this.replannable(hunk) && file.path === path && !applyInput(hunk, file).createIfMissing) this.transition(hunk, { type: 'file-deleted' }, { message: `${path} was deleted.` });
    }
  }

  /** Undo or redo touched a journal entry: the hunks that wrote it show what is on disk again. */
  noteJournalChange(entryId: string, undone: boolean): void {
    for (const hunk of this.order) {
      if (hunk.journalEntryId !== entryId) continue;
      if (undone) this.decisions.undone(hunk.number, this.files[hunk.fileIndex]!.path);
      else this.decisions.accepted(hunk.number, this.files[hunk.fileIndex]!.path);
      if (undone) this.transition(hunk, { type: 'undone' }, { message: 'Undone; you can accept it again.' });
      else this.transition(hunk, { type: 'redone' }, { message: 'Redone.' });
      if (hunk.kind === 'move') this.followMove(this.files[hunk.fileIndex]!, undone);
    }
  }

  /** Undo or redo put `path` back as it was: its hunks are planned again on what it holds now. */
  noteRestored(path: string, current: FileVersion): void {
    this.replanAll(path, current, 'restored');
  }

  /** A move was undone (its section is back at its old path) or redone; every card of the section says where. */
  private followMove(file: FileRecord, undone: boolean): void {
    if (file.movedFrom === undefined) return;
    file.path = undone ? file.movedFrom : file.moveTo!;
    for (const hunk of this.order) if (this.files[hunk.fileIndex] === file) this.report(hunk);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.options.onDidDispose?.();
  }

  private take(event: HunkEventOfStream, turn: number, fileOffset: number): void {
    switch (event.type) {
      case 'file':
        return this.fileNamed(fileOffset + event.fileIndex, event.operation, event.format, event.path, turn);
      case 'move':
        return this.moveNamed(fileOffset + event.fileIndex, event.to, turn);
      case 'hunk-open':
        return void this.createHunk(`${turn}.${event.hunkIndex}`, turn, this.files[fileOffset + event.fileIndex]!.operation, fileOffset + event.fileIndex, event.contextHints);
      case 'hunk-line': {
        const hunk = this.hunks.get(`${turn}.${event.hunkIndex}`)!;
        hunk.firstLineAtEpochMs ??= performance.timeOrigin + performance.now();
        hunk.lines.push(event.line);
        return this.report(hunk, [event.line]);
      }
      case 'hunk-at-end':
        this.hunks.get(`${turn}.${event.hunkIndex}`)!.atEndOfFile = true;
        return;
      case 'hunk-complete': {
        const hunk = this.hunks.get(`${turn}.${event.hunkIndex}`)!;
        // Marked now, though settling is async: 'done' may arrive before it finishes.
        hunk.complete = true;
        void this.settle(hunk);
        return;
      }
      case 'done':
        for (const hunk of this.order) {
          if (hunk.turn !== turn || hunk.state !== 'streaming' || hunk.complete) continue;
          this.transition(hunk, { type: 'cut-off' }, { message: 'Cut off before it was complete; it can only be discarded.' });
        }
        return;
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  }

  private fileNamed(fileIndex: number, operation: FileRecord['operation'], format: EditFormat, named: string, turn: number): void {
    // A refused path is only ever shown: shortened, a huge one cannot ride along with every update.
    const lexical = lexicalRefusal(named, 'model');
    const resolved = lexical === null ? resolveModelPath(named, operation, this.options.names) : { refusal: lexical };
    if ('refusal' in resolved) this.files[fileIndex] = { operation, format, path: shownPath(named), refusal: resolved.refusal };
    else this.files[fileIndex] = { operation, format, path: resolved.path, ...(resolved.note !== undefined ? { pathNote: resolved.note, writtenAs: resolved.writtenAs } : {}) };
    if (operation === 'delete') void this.settle(this.createHunk(`${turn}.delete.${fileIndex}`, turn, 'delete', fileIndex, []));
  }

  private moveNamed(fileIndex: number, to: string, turn: number): void {
    const refusal = lexicalRefusal(to, 'model');
    this.files[fileIndex]!.moveTo = refusal === null ? to : shownPath(to);
    if (refusal !== null) this.refuseSection(fileIndex, refusal);
    void this.settle(this.createHunk(`${turn}.move.${fileIndex}`, turn, 'move', fileIndex, []));
  }

  private createHunk(id: string, turn: number, kind: HunkRecord['kind'], fileIndex: number, contextHints: string[]): HunkRecord {
    const hunk: HunkRecord = { id, turn, number: this.nextNumber++, kind, fileIndex, complete: kind === 'delete' || kind === 'move', state: 'streaming', lines: [], contextHints, atEndOfFile: false, anchorLine: null, base: null };
    this.hunks.set(id, hunk);
    this.order.push(hunk);
    this.report(hunk);
    return hunk;
  }

  /** A hunk completed: check its path and text, then plan it against its file. */
  private async settle(hunk: HunkRecord): Promise<void> {
    const outcome = await this.planner.settle(hunk, this.files[hunk.fileIndex]!, () => this.disposed);
    if (outcome === null) return;
    this.transition(hunk, outcome.event, outcome.change);
    if (outcome.refuseSection !== undefined) this.refuseSection(hunk.fileIndex, outcome.refuseSection);
  }

  /**
   * A refused move refuses its whole file section: the section's hunks were written for
   * the moved file, and applying them at the old path is not what the model proposed.
   * Hunks still streaming are refused when they settle; written ones stay written.
   */
  private refuseSection(fileIndex: number, reason: string): void {
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
  private replanAll(path: string, current: FileVersion, after: ReplanReason, except?: ReadonlySet<HunkRecord>): void {
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
  private replannable(hunk: HunkRecord): boolean {
    return hunk.kind === 'update' && (hunk.state === 'pending' || hunk.state === 'conflict');
  }

  private require(hunkId: string): HunkRecord {
    if (this.disposed) throw new FlintFailure('not-found', 'That answer is over (the project was closed or reopened).');
    const hunk = this.hunks.get(hunkId);
    if (!hunk) throw new FlintFailure('not-found', 'That hunk is not part of this answer.');
    return hunk;
  }

  /** A user's decision: one the hunk's state does not allow is refused in words; a rejection is told to the model. */
  private decide(hunk: HunkRecord, event: HunkEvent): void {
    const next = nextHunkState(hunk.state, event);
    if (!next.ok) throw new FlintFailure('invalid-state', next.message);
    this.transition(hunk, event);
    if (event.type === 'reject') this.decisions.rejected(hunk.number, this.files[hunk.fileIndex]!.path);
  }

  /**
   * The one place a hunk's state changes. An event the table does not allow in the
   * hunk's state (a late settle of a hunk refused meanwhile) changes nothing; one that
   * reports a write must always apply, so losing one is logged (the card would lie).
   */
  private transition(hunk: HunkRecord, event: HunkEvent, change: Change = {}): void {
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

  private report(hunk: HunkRecord, appendLines: HunkLine[] = []): void {
    const file = this.files[hunk.fileIndex]!;
    const overlap = hunk.superseded && isUndecided(hunk.state) ? newerOverlap(hunk, this.order, (other) => this.files[other.fileIndex]!.path) : undefined;
    // A hunk's first line is urgent: see UpdateBatcher.
    this.options.report(hunkUpdateOf(hunk, file, appendLines, overlap), appendLines.length > 0 && hunk.lines.length === appendLines.length);
    // A newer hunk that moved on may now touch (or no longer touch) a superseded one's lines: its warning follows.
    if (this.hasSuperseded && !hunk.superseded && appendLines.length === 0) {
      for (const other of this.order) if (other.superseded && isUndecided(other.state) && this.files[other.fileIndex]!.path === file.path) this.report(other);
    }
  }
}

