/**
 * The hunks of one answer, from the parser's file and hunk events to the user's
 * decisions: which file each belongs to, where it anchors, and what state it is in.
 *
 * Every state change goes through BoardState.transition (board-state.ts), and so through
 * `nextHunkState`, the one table of what may follow what; where hunks anchor is
 * HunkPlanner's. Knows nothing of prompts or streams: the conversation (src/main/ask)
 * hands it events.
 */
import type { EditFormat, HunkLine, HunkStreamEvent } from '../../shared/edits/edit-types';
import { isUndecided, nextHunkState } from '../../shared/edits/hunk-state';
import type { HunkRevision, HunkState } from '../../shared/edits/hunk-types';
import { FlintFailure } from '../../shared/result';
import type { FileText } from '../fs/file-text';
import { lexicalRefusal, shownPath } from '../fs/project-files';
import type { Disposable } from '../lifecycle';
import { acceptAll } from './accept-all';
import { restoredRecords, snapshotOf, type BoardSnapshot } from './board-snapshot';
import { BoardState } from './board-state';
import type { ApplyResult, EditApplier } from './edit-applier';
import type { FileRecord, HunkRecord } from './edit-records';
import type { FileVersion } from './file-version';
import { appendedNote, applyInput, applyRecord, contentRefusal, declineWords, revisedLines } from './hunk-kinds';
import { REVERT_UNDONE, REVERTED, revertHunk, noteWrite, type RevertHost } from './hunk-revert';
import { namesProjectFile, resolveModelPath } from './model-paths';
import { countHunks, supersede } from './superseded-hunks';
import { planRest } from './hunk-rest';
import { restOfChosen } from '../../shared/edits/hunk-revision';

/** The parser's events a board takes: everything but the prose around the edits. */
export type HunkEventOfStream = HunkStreamEvent;

export type { HunkBoardOptions } from './board-state';

export class HunkBoard extends BoardState implements Disposable {
  /** The next hunk's number in the answer ("hunk 2"), across turns. */
  private nextNumber = 1;
  /** The hunk the stream's last event was about, and its turn and index: events come hunk by hunk, several per delta. */
  private lastStreamed: { turn: number; hunkIndex: number; hunk: HunkRecord } | null = null;

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

  /**
   * Writes a hunk; with a `revision`, as the user revised it (its lines are replaced first,
   * and the renderer told; back to what they were if nothing is written).
   */
  async accept(hunkId: string, group?: string, revision?: HunkRevision): Promise<HunkState> {
    const hunk = this.require(hunkId);
    const unrevised = { lines: hunk.lines, revised: hunk.revised };
    if (revision !== undefined) this.revise(hunk, revision);
    this.decide(hunk, { type: 'accept' });
    const file = this.files[hunk.fileIndex]!;
    let result: ApplyResult & { written?: FileVersion };
    try {
      result = await applyRecord(this.options.applier, hunk, file, group);
    } catch (error) {
      if (revision !== undefined) this.showLines(hunk, unrevised);
      this.writeFailed([hunk], file, error);
      return hunk.state;
    }
    if (revision !== undefined && result.status !== 'applied') this.showLines(hunk, unrevised);
    this.written(hunk, file, result, result.written);
    if (hunk.kind === 'move' && result.status === 'refused') this.refuseSection(hunk.fileIndex, result.message);
    // The section's other cards show the file where it is now.
    if (hunk.kind === 'move' && result.status === 'applied') this.followMove(file, false);
    // The file's other hunks stand on what was written where they anchor there: no false 3-way conflicts between neighbours.
    if (result.status === 'applied' && result.written) this.replanAll(file.path, result.written, 'written', new Set([hunk]));
    if (revision?.kind === 'lines' && result.status === 'applied' && result.written) this.offerRest(hunk, unrevised.lines, revision.indices, result.written);
    return hunk.state;
  }

  /** `hunk` was written in part (`indices` of `lines`): the lines left are offered as a hunk of their own (see hunk-rest.ts). */
  private offerRest(hunk: HunkRecord, lines: HunkLine[], indices: readonly number[], written: FileVersion): void {
    const restLines = restOfChosen(lines, indices);
    if (restLines === null) return;
    const rest = this.createHunk(`${hunk.id}.rest${hunk.number}.${this.nextNumber}`, hunk.turn, 'update', hunk.fileIndex, hunk.contextHints);
    Object.assign(rest, { lines: restLines, complete: true, restOf: hunk.id });
    hunk.restId = rest.id;
    this.decisions.nameRest(rest.number, hunk.number);
    this.report(rest, [], true);
    const outcome = planRest(rest, hunk, this.files[hunk.fileIndex]!, written);
    this.transition(rest, outcome.event, outcome.change);
  }

  /** Takes an accepted hunk's write back off disk, as a new change (see hunk-revert.ts). */
  revert(hunkId: string): Promise<HunkState> {
    return revertHunk(this.revertHost, this.require(hunkId));
  }

  reject(hunkId: string): HunkState {
    const hunk = this.require(hunkId);
    const wasRejected = hunk.state === 'rejected';
    this.decide(hunk, { type: 'reject' });
    if (!wasRejected) this.options.onDidReject?.([hunk.id]);
    return hunk.state;
  }

  /** A hunk's number in the answer and its file, for words about it ("hunk 2 in src/a.ts"). */
  describe(hunkId: string): { number: number; path: string } {
    const hunk = this.require(hunkId);
    return { number: hunk.number, path: this.files[hunk.fileIndex]!.path };
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
    for (const hunk of hunks) if (hunk.restOf !== undefined && this.hunks.has(hunk.restOf)) this.decisions.nameRest(hunk.number, this.hunks.get(hunk.restOf)!.number);
    this.hasSuperseded = hunks.some((hunk) => hunk.superseded);
    for (const hunk of toSettle) void this.settle(hunk);
  }

  /**
   * Accepts every pending hunk, in order, as one step for Undo; those in `revisions` (by
   * hunk id) as the user revised them, all checked before anything is written. Returns how
   * many were written (see accept-all.ts).
   */
  acceptAll(revisions?: Readonly<Record<string, HunkRevision>>): Promise<number> {
    return acceptAll(
      {
        // A superseded hunk is only ever accepted on its own.
        pending: () => this.order.filter((hunk) => hunk.state === 'pending' && !hunk.superseded),
        hunk: (hunkId) => (this.disposed ? undefined : this.hunks.get(hunkId)),
        fileOf: (hunk) => this.files[hunk.fileIndex]!,
        acceptOne: async (hunk, group) => (await this.accept(hunk.id, group)) === 'accepted',
        acceptTogether: (file, hunks, group) => this.acceptTogether(file, hunks, group),
        showLines: (hunk, shown) => this.showLines(hunk, shown),
      },
      revisions,
    );
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
    // One entry for them all: a hunk's entry alone cannot take back its lines where a neighbour's overlapped them (see hunk-revert.ts).
    const shared = outcome.results.filter((result) => result.status === 'applied').length > 1;
    writable.forEach((hunk, index) => this.written(hunk, file, outcome.results[index]!, outcome.written, shared));
    if (outcome.written) this.replanAll(file.path, outcome.written, 'written', new Set(writable));
    return writable.filter((hunk) => hunk.state === 'accepted').length;
  }

  /** The applier answered for `hunk`: written (`version`: what its file holds now; `shared`: in one entry with others), or declined with its reason. */
  private written(hunk: HunkRecord, file: FileRecord, result: ApplyResult, version?: FileVersion, shared = false): void {
    const savedByUser = this.files.some((other) => other.path === file.path && other.savedByUser);
    if (result.status !== 'applied') return this.transition(hunk, { type: 'write-declined', outcome: result.status }, { message: declineWords(result, file, savedByUser) });
    noteWrite(hunk, result, version, shared);
    // Carried past Flint's own writes only, it was not merged around anything of the user's.
    const merged = result.merged && savedByUser;
    this.decisions.accepted(hunk.number, file.path, hunk.revised);
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
    if (undecided.length > 0) this.options.onDidReject?.(undecided.map((hunk) => hunk.id));
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

  /**
   * Undo or redo touched a journal entry: the hunks that wrote it show what is on disk
   * again; so do those whose revert wrote it (undoing a revert puts the hunk back).
   */
  noteJournalChange(entryId: string, undone: boolean): void {
    for (const hunk of this.order) {
      // The write the entry brings back or takes off (a revert's: the write it reverted) is what the card and the model hear about.
      const write = hunk.writes?.get(entryId);
      if (hunk.revertEntryIds?.includes(entryId)) this.wentBack(hunk, !undone, undone ? REVERT_UNDONE : REVERTED, write);
      else if (hunk.journalEntryId === entryId || hunk.earlierEntryIds?.includes(entryId)) this.wentBack(hunk, undone, undone ? 'Undone; you can accept it again.' : 'Redone.', write);
    }
  }

  /** What reverting needs of the board (see hunk-revert.ts). */
  private get revertHost(): RevertHost {
    return {
      applier: this.options.applier,
      readText: this.options.readText,
      fileOf: (hunk) => this.files[hunk.fileIndex]!,
      wentBack: (hunk, off) => this.wentBack(hunk, off, off ? REVERTED : REVERT_UNDONE),
      replanAll: (path, current, after, except) => this.replanAll(path, current, after, except),
      replanReverted: (hunk, current) => {
        const outcome = this.planner.replan(hunk, this.files[hunk.fileIndex]!, current, 'written', false);
        if (outcome?.event.type === 'replanned' && outcome.event.outcome !== 'pending') return this.transition(hunk, outcome.event, outcome.change);
        if (outcome?.change.anchorLine != null) hunk.anchorLine = outcome.change.anchorLine;
        this.report(hunk);
      },
    };
  }

  /** Undo or redo put `path` back as it was: its hunks are planned again on what it holds now. */
  noteRestored(path: string, current: FileVersion): void {
    this.replanAll(path, current, 'restored');
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
        this.lastStreamed = null;
        return void this.createHunk(`${turn}.${event.hunkIndex}`, turn, this.files[fileOffset + event.fileIndex]!.operation, fileOffset + event.fileIndex, event.contextHints, event.startedAt ?? performance.timeOrigin + performance.now());
      case 'hunk-hints':
        this.streamingHunkOf(turn, event.hunkIndex).contextHints = event.contextHints;
        return;
      case 'hunk-partial': {
        const hunk = this.streamingHunkOf(turn, event.hunkIndex);
        hunk.partial = event.line;
        return this.grew(hunk);
      }
      case 'hunk-line': {
        const hunk = this.streamingHunkOf(turn, event.hunkIndex);
        hunk.partial = undefined;
        hunk.lines.push(event.line);
        return this.grew(hunk, event.line);
      }
      case 'hunk-at-end':
        this.streamingHunkOf(turn, event.hunkIndex).atEndOfFile = true;
        return;
      case 'hunk-complete': {
        const hunk = this.streamingHunkOf(turn, event.hunkIndex);
        // Marked now, though settling is async: 'done' may arrive before it finishes.
        hunk.complete = true;
        this.stoppedGrowing(hunk);
        void this.settle(hunk);
        return;
      }
      case 'done':
        for (const hunk of this.order) {
          if (hunk.turn !== turn || hunk.state !== 'streaming' || hunk.complete) continue;
          this.stoppedGrowing(hunk);
          this.transition(hunk, { type: 'cut-off' }, { message: 'Cut off before it was complete; it can only be discarded.' });
        }
        return;
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  }

  /** The hunk of `turn` numbered `hunkIndex` in its answer (looked up by id only when it is another than the last). */
  private streamingHunkOf(turn: number, hunkIndex: number): HunkRecord {
    const last = this.lastStreamed;
    if (last !== null && last.turn === turn && last.hunkIndex === hunkIndex) return last.hunk;
    const hunk = this.hunks.get(`${turn}.${hunkIndex}`)!;
    this.lastStreamed = { turn, hunkIndex, hunk };
    return hunk;
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

  /** A new hunk: on screen at once (urgent), timed from its first byte when it streams. */
  private createHunk(id: string, turn: number, kind: HunkRecord['kind'], fileIndex: number, contextHints: string[], firstByteAtEpochMs?: number): HunkRecord {
    const hunk: HunkRecord = { id, turn, number: this.nextNumber++, kind, fileIndex, complete: kind === 'delete' || kind === 'move', state: 'streaming', lines: [], contextHints, atEndOfFile: false, anchorLine: null, base: null };
    if (firstByteAtEpochMs !== undefined) hunk.firstByteAtEpochMs = firstByteAtEpochMs;
    this.hunks.set(id, hunk);
    this.order.push(hunk);
    this.report(hunk, [], false, true);
    return hunk;
  }

  /** A hunk completed: check its path and text, then plan it against its file. */
  private async settle(hunk: HunkRecord): Promise<void> {
    const outcome = await this.planner.settle(hunk, this.files[hunk.fileIndex]!, () => this.disposed);
    if (outcome === null) return;
    this.transition(hunk, outcome.event, outcome.change);
    if (outcome.refuseSection !== undefined) this.refuseSection(hunk.fileIndex, outcome.refuseSection);
  }

  /** The user revised a hunk before accepting it: checked (a hunk that cannot be accepted is refused first), then shown so. */
  private revise(hunk: HunkRecord, revision: HunkRevision): void {
    const next = nextHunkState(hunk.state, { type: 'accept' });
    if (!next.ok) throw new FlintFailure('invalid-state', next.message);
    this.showLines(hunk, revisedLines(hunk, revision));
  }
}
